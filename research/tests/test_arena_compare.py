"""Comparing two arena runs game by game (research/arena_compare.py), and the run records
kept in research/runs/."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from solstis_tui.ai import arena_record
from solstis_tui.ai.arena import deal_seed
from solstis_tui.ai.arena_stats import GameRecord, pair_results

import arena_compare

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "research" / "runs"


def game(bots: list[str], seed: int, scores: list[int]) -> GameRecord:
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    return {"pair": 0, "deal": seed, "bots": bots, "game_seed": seed, "winner": winner,
            "scores": scores, "end": "normal", "times": [[], []]}


def write_run(path: Path, bots: list[str], games: list[GameRecord],
              **settings: object) -> str:
    data = {"settings": {"bots": bots, "seed": 5, "variant": "base", **settings},
            "games": games}
    path.write_text(json.dumps(data))
    return str(path)


def write_record(path: Path, bots: list[str], games: list[GameRecord],
                 **settings: object) -> str:
    """The same run as ``write_run`` writes, as an arena ``--record`` (CSV); its games'
    deal seeds are the arena's for their deals."""
    settings = {"bots": bots, "seed": 5, "variant": "base", **settings}
    dealt: list[GameRecord] = [{**g, "game_seed": deal_seed(settings, g["deal"])} for g in games]
    path.write_text(arena_record.dumps(settings, dealt))
    return str(path)


def test_the_kept_runs_give_the_paired_figure_the_docs_quote(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert arena_compare.main([str(RUNS / "winonly-plain-1s-seed8081.csv"),
                               str(RUNS / "mcts-plain-1s-seed8081.csv")]) == 0
    out = capsys.readouterr().out
    assert "200 games, 101-8-91, 52.5% (45.6-59.3%), margin +1.61 (+0.17, +3.06)" in out
    assert "close games (≤ 3 stars) 47% of 47; seat 1 65.5%, seat 2 39.5%" in out
    assert "200 games, 95-5-100, 48.8% (41.9-55.6%), margin +1.58 (+0.03, +3.13)" in out
    assert "close games (≤ 3 stars) 39% of 47; seat 1 59.0%, seat 2 38.5%" in out
    assert "A - B: +3.8 ± 8.4 points in 100 games" in out
    docs = (ROOT / "research" / "EXPERIMENTS.md").read_text()
    assert ("| 200 | 101-8-91 | 52.5% | 45.6–59.3% | +1.61 (+0.17, +3.06) | 47% of 47 "
            "| 65.5% / 39.5% |") in docs
    assert ("| 200 | 95-5-100 | 48.8% | 41.9–55.6% | +1.58 (+0.03, +3.13) | 39% of 47 "
            "| 59.0% / 38.5% |") in docs
    assert "+3.8 ± 8.4 points" in docs


def test_games_are_paired_by_deal_and_seat_not_by_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    x, y, o = "x@1s", "y@1s", "plain-ismcts@1s"
    a = write_run(tmp_path / "a.json", [x, o], [
        game([o, x], 1, [10, 12]),   # deal 1, x second: x wins
        game([x, o], 1, [9, 9]),     # deal 1, x first: draw
        game([x, o], 2, [20, 10]),   # deal 2, x first: wins by 10 (B never played it)
    ])
    b = write_run(tmp_path / "b.json", [y, o], [
        game([y, o], 1, [8, 11]),    # deal 1, y first: loses by 3
        game([o, y], 1, [15, 12]),   # deal 1, y second: loses by 3
    ])
    comparison = arena_compare.compare(arena_compare.read_run(a), arena_compare.read_run(b))
    assert comparison.games == 2
    assert comparison.a_score == 0.75 and comparison.b_score == 0.0
    assert comparison.points_diff[0] == 0.75
    assert comparison.margin_diff[0] == 4.0   # (2 + 3 and 0 + 3) / 2
    assert arena_compare.main([a, b]) == 0
    out = capsys.readouterr().out
    assert "A: x@1s vs plain-ismcts@1s" in out and "3 games, 2-1-0" in out
    assert "close games (≤ 3 stars) 75% of 2; seat 1 75.0%, seat 2 100.0%" in out
    assert "On the 2 games both played" in out


@pytest.mark.parametrize(("b_bots", "b_settings", "b_seeds", "words"), [
    (["y", "minimax"], {}, [1], "different opponents"),
    (["y", "plain"], {"seed": 6}, [1], "seed 5"),
    (["y", "plain"], {"variant": "firefly"}, [1], "variant base"),
    (["y", "plain"], {}, [2], "no game of"),
    (["y", "plain", "random"], {}, [1], "exactly two bots"),
])
def test_runs_that_cannot_be_paired_are_refused_with_the_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], b_bots: list[str],
        b_settings: dict[str, object], b_seeds: list[int], words: str) -> None:
    a = write_run(tmp_path / "a.json", ["x", "plain"], [game(["x", "plain"], 1, [3, 4])])
    b = write_run(tmp_path / "b.json", b_bots,
                  [game(b_bots[:2], s, [3, 4]) for s in b_seeds], **b_settings)
    with pytest.raises(SystemExit) as exit_:
        arena_compare.main([a, b])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_record_and_a_json_file_pair_alike(tmp_path: Path) -> None:
    """An arena ``--record`` (CSV) is read as its ``--json`` is: the same run in either
    form gives the same comparison, and a record pairs with a JSON file."""
    x, o = "x@1s", "plain-ismcts@1s"
    games = [game([o, x], 1, [10, 12]), game([x, o], 1, [9, 9]), game([x, o], 2, [20, 10])]
    for g in games:
        g["game_seed"] = deal_seed({"seed": 5, "variant": "base"}, g["deal"])
    a_json = write_run(tmp_path / "a.json", [x, o], games)
    a_csv = write_record(tmp_path / "a.csv", [x, o], games)
    assert arena_compare.read_run(a_csv).games == arena_compare.read_run(a_json).games
    b = write_record(tmp_path / "b.csv", ["y", o], [game(["y", o], 1, [8, 11])])
    by_json = arena_compare.compare(arena_compare.read_run(a_json), arena_compare.read_run(b))
    by_csv = arena_compare.compare(arena_compare.read_run(a_csv), arena_compare.read_run(b))
    assert by_json == by_csv and by_csv.games == 1 and by_csv.points_diff[0] == 0.5


def test_a_file_that_is_not_an_arena_run_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text("[1, 2]")
    with pytest.raises(SystemExit):
        arena_compare.main([str(bad), str(bad)])
    err = capsys.readouterr().err
    assert "is not an arena --json file" in err and "nor is it an arena --record" in err
    bad.write_text(arena_record.MAGIC + "\n# {}\npair\n")
    with pytest.raises(SystemExit):
        arena_compare.main([str(bad), str(bad)])
    assert "settings line is malformed" in capsys.readouterr().err


#: Each kept record's figures as its arena --json file gave them before it was converted
#: (the JSON files are in the repository's history: benchmarks/runs/, until 2026-12-03).
KEPT = {
    "winonly-plain-1s-seed8081": ("variants:WinOnly@1s", 200, 101, 8, 91, 1.615),
    "mcts-plain-1s-seed8081": ("mcts@1s", 200, 95, 5, 100, 1.58),
    "exploreless-plain-1s-seed8081": ("variants:ExploreLess@1s", 200, 97, 8, 95, 2.315),
    "exploremore-plain-1s-seed8081": ("variants:ExploreMore@1s", 200, 84, 7, 109, 0.085),
    "unguidedwinonly-plain-1s-seed8082": ("variants:UnguidedWinOnly@1s", 200, 94, 5, 101,
                                          -0.135),
    "expert-plain-1s-seed3031-games196-400": ("expert@1s", 205, 96, 8, 101,
                                              1.4585365853658536),
}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_every_kept_record_gives_its_published_figures(name: str) -> None:
    """Each record in research/runs/ recomputes to the W-D-L, score and margin its run
    published, and research/runs/README.md says how it was played."""
    bot, games, wins, draws, losses, margin = KEPT[name]
    settings, records = arena_record.loads((RUNS / f"{name}.csv").read_text(), deal_seed)
    [result] = pair_results(records, list(itertools.combinations(settings["bots"], 2)))
    assert (result.a, result.b) == (bot, "plain-ismcts@1s")
    assert (result.games, result.a_wins, result.draws, result.b_wins) == (
        games, wins, draws, losses)
    assert result.a_score == pytest.approx((wins + draws / 2) / games)
    assert result.margin_mean == pytest.approx(margin)
    assert f"`{name}.csv`" in (RUNS / "README.md").read_text()
