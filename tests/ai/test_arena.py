"""The arena: a tiny seeded round-robin, its JSON, its errors and its statistics."""

from __future__ import annotations

import json

import pytest

from solstis_tui.ai import arena
from solstis_tui.ai.arena_stats import elo_ratings, mean_ci, percentile
from solstis_tui.core import Game, Options


def run_json(tmp_path, *flags: str) -> dict:
    out = tmp_path / "arena.json"
    assert arena.main([*flags, "--json", str(out)]) == 0
    return json.loads(out.read_text())


def test_round_robin_plays_each_deal_from_both_seats(tmp_path) -> None:
    data = run_json(tmp_path, "--bots", "random,greedy,mcts@10", "--games", "2",
                    "--seed", "4", "--variant", "beginner")
    assert set(data) >= {"settings", "pairs", "elo", "latency", "games", "completed"}
    assert data["completed"] == data["planned"] == 6
    assert not data["interrupted"]
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [
        ("random", "greedy"), ("random", "mcts@10"), ("greedy", "mcts@10")]
    for pair in data["pairs"]:
        assert pair["games"] == pair["a_wins"] + pair["draws"] + pair["b_wins"] == 2
        lo, hi = pair["margin_ci95"]
        assert lo <= pair["margin_mean"] <= hi
    seats = {(g["deal"], tuple(g["bots"])) for g in data["games"] if g["pair"] == 0}
    assert seats == {(0, ("random", "greedy")), (0, ("greedy", "random"))}
    for bot in ("random", "greedy", "mcts@10"):
        rating = data["elo"][bot]
        assert rating["ci95"][0] <= rating["elo"] <= rating["ci95"][1]
        lat = data["latency"][bot]
        assert lat["decisions"] > 0 and lat["p50_ms"] <= lat["p95_ms"] <= lat["max_ms"]


def test_same_seed_same_results(tmp_path) -> None:
    flags = ("--bots", "random,greedy", "--games", "2", "--seed", "9", "--variant", "firefly")
    first = run_json(tmp_path, *flags)["games"]
    second = run_json(tmp_path, *flags)["games"]
    strip = [{k: v for k, v in g.items() if k != "times"} for g in first]
    assert strip == [{k: v for k, v in g.items() if k != "times"} for g in second]


def test_parallel_jobs_give_the_same_games(tmp_path) -> None:
    flags = ("--bots", "random,greedy", "--games", "2", "--seed", "2")
    one = run_json(tmp_path, *flags)["games"]
    two = run_json(tmp_path, *flags, "--jobs", "2")["games"]
    assert [g["scores"] for g in one] == [g["scores"] for g in two]


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--games", "0"], "at least 1"),
        (["--bots", "random"], "at least two"),
        (["--bots", "random,random"], "twice"),
        (["--bots", "random,wizard"], "unknown bot"),
        (["--variant", "chess"], "invalid choice"),
        (["--time", "-1"], "more than 0"),
        (["--jobs", "two"], "whole number"),
    ],
)
def test_bad_flags_give_a_clear_error(flags, words, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        arena.main(flags)
    assert exit_info.value.code == 2
    assert words in capsys.readouterr().err


def test_elo_orders_a_clear_winner_first() -> None:
    games = [{"bots": ["a", "b"], "winner": 0} for _ in range(8)]
    games += [{"bots": ["b", "a"], "winner": 1} for _ in range(8)]
    games += [{"bots": ["b", "c"], "winner": None} for _ in range(4)]
    ratings = elo_ratings(["a", "b", "c"], games, resamples=50)
    assert ratings["a"].elo > ratings["b"].elo
    assert abs(ratings["b"].elo - ratings["c"].elo) < 60
    assert ratings["a"].games == 16


def test_small_statistics() -> None:
    assert mean_ci([1.0, 3.0])[0] == 2.0
    assert percentile([1, 2, 3, 4], 50) == 2
    assert percentile([1, 2, 3, 4], 95) == 4
    assert percentile([], 95) == 0.0


def interrupt_at_game(monkeypatch, n: int) -> None:
    """Ctrl-C arrives when the arena starts its ``n``-th game."""
    real = arena.play_game
    calls = []

    def flaky(task):
        calls.append(task)
        if len(calls) == n:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(arena, "play_game", flaky)


def test_interrupt_reports_what_finished(tmp_path, monkeypatch) -> None:
    interrupt_at_game(monkeypatch, 3)
    out = tmp_path / "partial.json"
    code = arena.main(["--bots", "random,greedy", "--games", "4", "--json", str(out)])
    data = json.loads(out.read_text())
    assert code == 130
    assert data["interrupted"] and data["completed"] == 2 and data["planned"] == 4
    assert data["pairs"][0]["games"] == 2


def test_an_interrupt_leaves_out_pairs_that_never_played(tmp_path, monkeypatch, capsys) -> None:
    """Three bots, interrupted during the first pair: the table has that pair only, not
    'random vs mcts 0-0-0 0.0%'; bots with no finished game have no Elo row."""
    interrupt_at_game(monkeypatch, 3)
    out = tmp_path / "partial.json"
    code = arena.main(["--bots", "random,greedy,mcts@5", "--games", "4", "--json", str(out)])
    data = json.loads(out.read_text())
    assert code == 130
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [("random", "greedy")]
    assert set(data["elo"]) == {"random", "greedy"}
    printed = capsys.readouterr().out
    assert "0-0-0" not in printed and "mcts@5" not in printed.split("Interrupted")[1]


def test_piped_output_is_plain_progress_lines(tmp_path, capsys) -> None:
    """Not a terminal: 'N/M games' lines and the tables, no progress bar drawn."""
    code = arena.main(["--bots", "random,greedy", "--games", "20"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "20/20 games" in printed
    assert not any(line.startswith("arena") for line in printed.splitlines())
    assert "ETA" not in printed


def test_the_progress_bar_in_a_terminal_shows_the_time_left() -> None:
    import io

    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    tasks = list(arena.tasks_for(["random", "greedy"], 4, 1, "base", None))
    done, interrupted = arena.run(tasks, 1, console)
    assert len(done) == 4 and not interrupted
    assert "ETA" in out.getvalue() and "4/4" in out.getvalue()


def test_a_long_run_is_handed_each_game_as_it_finishes() -> None:
    """What lets a benchmark keep its games as it goes: the hook sees 1, 2, 3... games."""
    from rich.console import Console

    tasks = list(arena.tasks_for(["random", "greedy"], 4, 1, "base", None))
    seen: list[int] = []
    done, _ = arena.run(tasks, 1, Console(quiet=True), on_game=lambda games: seen.append(
        len(games)))
    assert seen == [1, 2, 3, 4] and len(done) == 4


def test_a_peek_sees_the_real_game_at_every_decision_of_a_bot() -> None:
    """The hook research/hand_oracle.py tells its bot the opponent's hand with: called with the bot
    and the real game (hidden hands included) just before each decision with a choice."""
    task = next(arena.tasks_for(["random", "greedy"], 2, 5, "base", None))
    peeks: list[bool] = []

    def peek(bot, game) -> None:
        # The same deal replayed move by move: the peeked hands must be the real ones.
        real = Game.new(seed=task["game_seed"], options=Options.for_variant("base"))
        for _, move, automatic in game.history:
            if not automatic:
                real.play(move)
        hidden = set(game.hands[1 - game.to_play]) - set(
            game.observation(game.to_play).opponent_known)
        assert game.hands == real.hands and len(game.legal_moves()) > 1
        peeks.append(bool(hidden))

    record = arena.play_game(task, peek=peek)
    assert len(peeks) == len(record["times"][0]) + len(record["times"][1]) > 20
    assert any(peeks)  # hand tiles the deciding bot's observation does not show


def count_games(monkeypatch) -> list[str]:
    """The arena's games as they start (their first seat's bot), played as usual."""
    real = arena.play_game
    started: list[str] = []

    def counted(task):
        started.append(task["bots"][0])
        return real(task)

    monkeypatch.setattr(arena, "play_game", counted)
    return started


def test_resume_keeps_the_finished_games_and_plays_only_the_rest(tmp_path, monkeypatch) -> None:
    """Ctrl-C after three of four games (the second deal from one seat only), then
    --resume: the three are kept as they were (their move times too), only the other seat
    of the second deal is played, and the figures are an uninterrupted run's."""
    flags = ["--bots", "random,greedy", "--games", "4", "--seed", "5"]
    interrupt_at_game(monkeypatch, 4)
    part = tmp_path / "part.json"
    assert arena.main([*flags, "--json", str(part)]) == 130
    finished = json.loads(part.read_text())["games"]
    assert len(finished) == 3
    monkeypatch.undo()
    started = count_games(monkeypatch)
    data = run_json(tmp_path, *flags, "--resume", str(part))
    assert started == ["greedy"]
    assert data["completed"] == data["planned"] == 4 and not data["interrupted"]
    assert all(game in data["games"] for game in finished)
    monkeypatch.undo()
    whole = run_json(tmp_path, *flags)
    assert [g["scores"] for g in data["games"]] == [g["scores"] for g in whole["games"]]
    assert data["pairs"][0]["a_score"] == whole["pairs"][0]["a_score"]


def test_resume_adds_games_to_a_finished_run(tmp_path, monkeypatch) -> None:
    """A 2-game run resumed with --games 6 plays the 4 games of the two new deals."""
    first = tmp_path / "first.json"
    assert arena.main(["--bots", "random,greedy", "--games", "2", "--json", str(first)]) == 0
    started = count_games(monkeypatch)
    data = run_json(tmp_path, "--bots", "random,greedy", "--games", "6", "--resume", str(first))
    assert len(started) == 4 and data["completed"] == 6
    assert sorted({g["deal"] for g in data["games"]}) == [0, 1, 2]


def test_resume_counts_the_games_of_the_same_bots_listed_the_other_way_round(
        tmp_path, monkeypatch) -> None:
    earlier = tmp_path / "earlier.json"
    assert arena.main(["--bots", "greedy,random", "--games", "2", "--json", str(earlier)]) == 0
    started = count_games(monkeypatch)
    data = run_json(tmp_path, "--bots", "random,greedy", "--games", "2", "--resume", str(earlier))
    assert started == [] and data["completed"] == 2
    assert [(p["a"], p["b"], p["games"]) for p in data["pairs"]] == [("random", "greedy", 2)]


GAME = ('{"pair": 0, "deal": 0, "bots": ["random", "greedy"], "game_seed": 1, "winner": 0, '
        '"scores": [3, 2], "end": "normal"%s}')


@pytest.mark.parametrize(
    ("content", "flags", "words"),
    [
        ("not json", [], "is not JSON"),
        ('{"pairs": []}', [], "not an arena --json file (it has no settings)"),
        ('{"settings": {"seed": 5}, "games": {}}', [], "it has no list of games"),
        ('{"settings": {"seed": 5}, "games": [%s]}' % (GAME % ""), [],
         "game 1 of its list has no times"),
        ('{"settings": {"seed": 5}, "games": [%s]}' % (GAME % ', "times": [[0.1], "x"]'), [],
         "game 1 of its list has a malformed times"),
        (None, ["--seed", "6"], "played with seed 5; this run has seed 6"),
        (None, ["--time", "0.1"], "played with time none; this run has time 0.1"),
    ],
)
def test_resume_refuses_a_file_of_other_games(tmp_path, monkeypatch, capsys, content, flags,
                                              words) -> None:
    """A file that is not an arena's, or one played with another seed or budget, is
    refused with the reason, and nothing is played."""
    earlier = tmp_path / "earlier.json"
    if content is None:
        assert arena.main(["--bots", "random,greedy", "--games", "2", "--seed", "5",
                           "--json", str(earlier)]) == 0
    else:
        earlier.write_text(content)
    capsys.readouterr()
    started = count_games(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        arena.main(["--bots", "random,greedy", "--games", "4", "--seed", "5", *flags,
                    "--resume", str(earlier)])
    assert exit_info.value.code == 2
    assert words in capsys.readouterr().err
    assert started == []


def test_resume_will_not_write_over_games_it_leaves_out(tmp_path, monkeypatch, capsys) -> None:
    """A 4-game file resumed with --games 2: writing the figures over it would lose the
    two games of the second deal, so that is refused and the file stays as it was; written
    elsewhere, the run says it left them out."""
    figures = tmp_path / "figures.json"
    assert arena.main(["--bots", "random,greedy", "--games", "4", "--json", str(figures)]) == 0
    before = figures.read_text()
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        arena.main(["--bots", "random,greedy", "--games", "2", "--resume", str(figures),
                    "--json", str(figures)])
    assert exit_info.value.code == 2
    assert "2 of its games are not part of this run" in capsys.readouterr().err
    assert figures.read_text() == before
    started = count_games(monkeypatch)
    data = run_json(tmp_path, "--bots", "random,greedy", "--games", "2", "--resume", str(figures))
    assert started == [] and data["completed"] == 2
    assert "2 of its games are not part of this run and are left out" in capsys.readouterr().out
