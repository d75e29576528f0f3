"""``solstis analyze``: bad moves are labelled, the JSON keeps its keys, luck adds up,
the result is cached beside the record, and a bad record is refused."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from solstis_tui import analyze_command
from solstis_tui.ai.registry import make_bot
from solstis_tui.coach import analysis, store
from solstis_tui.coach.analysis import TINY, ChanceNote, DecisionNote, Effort
from solstis_tui.core import Game, Move, Options

BAD_AT = 48
"""In the greedy game below, history entry 48 chooses among spirits: taking the bee
instead of the squirrel gives up about ten stars."""


def greedy_game(until: int, seed: int = 11) -> Game:
    g = Game.new(seed=seed, options=Options())
    bot = make_bot("greedy", 1)
    while not g.is_over and len(g.history) < until:
        g.play(bot.choose(g.observation(g.to_play)))
    return g


def test_an_obviously_bad_move_is_labelled() -> None:
    g = greedy_game(BAD_AT)
    assert Move.parse("take bee") in g.legal and Move.parse("take squirrel") in g.legal
    g.play(Move.parse("take bee"))
    found = analysis.analyse(g, ("Ann", "Bob"), seed=3, effort=Effort(300, 20, 120),
                             since=BAD_AT)
    note = found.decisions()[0]
    assert str(note.played) == "take bee"
    assert str(note.best) == "take squirrel"
    assert note.label in ("mistake", "blunder")
    assert found.seats[note.seat].labels[note.label] == 1


def test_the_json_has_exactly_the_documented_keys() -> None:
    g = greedy_game(30)
    data = analysis.to_json(analysis.analyse(g, ("Ann", "Bob"), effort=TINY))
    assert set(data) == {"version", "seats", "decisions"}
    for seat in data["seats"]:
        assert set(seat) == {"name", "error_rate", "luck", "labels"}
        assert set(seat["labels"]) == {"inaccuracy", "mistake", "blunder"}
    kinds = set()
    for entry in data["decisions"]:
        if "event" in entry:
            assert set(entry) == {"turn", "event", "luck"}
            assert len(entry["luck"]) == 2
            kinds.add("chance")
        else:
            assert set(entry) == {"turn", "seat", "played", "best", "loss_stars", "loss_win",
                                  "label", "reason", "top", "expected"}
            assert entry["label"] in (None, "inaccuracy", "mistake", "blunder")
            assert 1 <= len(entry["top"]) <= 3 and entry["top"][0]["move"] == entry["best"]
            assert all(set(t) == {"move", "margin", "win"} for t in entry["top"])
            assert len(entry["expected"]) == 2
            Move.parse(entry["played"]), Move.parse(entry["best"])
            kinds.add("decision")
    assert kinds == {"chance", "decision"}
    json.dumps(data)


def test_an_analysis_read_back_from_its_json_is_the_same_analysis() -> None:
    """The analysis board reopens a kept analysis from its JSON: nothing is lost."""
    found = analysis.analyse(greedy_game(30), ("Ann", "Bob"), effort=TINY)
    again = analysis.from_json(json.loads(analysis.dumps(found)))
    assert again == found


def test_each_decision_is_handed_over_as_soon_as_it_is_judged() -> None:
    """The analysis board shows each decision as it is judged: the same note as at the end."""
    seen: list[tuple[int, analysis.DecisionNote]] = []
    done: list[int] = []
    found = analysis.analyse(greedy_game(30), ("Ann", "Bob"), effort=TINY,
                             judged=lambda k, note: seen.append((k, note)),
                             progress=lambda d, t: done.append(d))
    assert seen == list(enumerate(found.decisions()))
    assert done == list(range(len(seen) + 1))


def test_luck_is_given_where_the_draw_decided_and_adds_up_per_seat() -> None:
    g = greedy_game(400)
    assert g.is_over
    found = analysis.analyse(g, ("Ann", "Bob"), effort=TINY)
    chances = found.chances()
    assert chances
    for note in chances:
        assert note.event  # says what was drawn
        assert all(math.isfinite(v) and abs(v) < 60 for v in note.luck)
    for seat in (0, 1):
        total = sum(n.luck[seat] for n in chances)
        assert found.seats[seat].luck == pytest.approx(total, abs=0.05)
    # Every stretch between two decisions (or after the last) where the draw acted, and
    # only those, has its luck.
    stretches = 0
    log = g.log
    starts = [i for i, n in enumerate(found.notes) if isinstance(n, DecisionNote)]
    assert len(starts) == len(found.decisions())
    for note_i, note in enumerate(found.notes):
        if isinstance(note, ChanceNote):
            assert isinstance(found.notes[note_i - 1], DecisionNote)
            stretches += 1
    assert stretches == len(chances)
    assert any(isinstance(ev, analysis.CHANCE) for ev in log)


def test_the_error_rate_is_the_mean_loss_and_the_summary_names_both_seats() -> None:
    found = analysis.analyse(greedy_game(40), ("Ann", "Bob"), effort=TINY)
    for seat in (0, 1):
        losses = [n.loss_stars for n in found.decisions() if n.seat == seat]
        assert found.seats[seat].error_rate == pytest.approx(sum(losses) / len(losses),
                                                             abs=0.01)
    line = analysis.summary(found)
    assert line.startswith("Ann played") and "lost a decision" in line and "luck" in line


def test_progress_counts_every_decision_judged() -> None:
    seen: list[tuple[int, int]] = []
    found = analysis.analyse(greedy_game(25), effort=TINY,
                             progress=lambda done, total: seen.append((done, total)))
    total = len(found.decisions())
    assert seen == [(done, total) for done in range(total + 1)]


def test_a_game_dealt_the_old_way_is_analysed_from_its_own_deal() -> None:
    g = Game.new(seed=5, options=Options(), legacy=True)
    bot = make_bot("greedy", 2)
    while len(g.history) < 20:
        g.play(bot.choose(g.observation(g.to_play)))
    found = analysis.analyse(g, effort=TINY)
    assert [n.played for n in found.decisions()] == \
        [mv for _, mv, auto in g.history if not auto][:len(found.decisions())]
    assert found.decisions()


def record_file(tmp_path: Path, g: Game) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"variant": "base", "seed": g.seed, "seats": ["Ann", "Bob"],
                                "moves": [str(m) for _, m, auto in g.history if not auto]}))
    return path


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A greedy game's record, which ``solstis analyze`` judges at the tiny effort."""
    monkeypatch.setattr(store, "EFFORT", TINY)
    return record_file(tmp_path, greedy_game(20))


def test_analyze_prints_the_json_and_keeps_it_beside_the_record(
        path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert analyze_command.main([str(path), "--json", "--workers", "1"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert set(first) == {"version", "seats", "decisions"}
    assert (tmp_path / "game.json.analysis.json").exists()

    def no_judging(*args: object, **kwargs: object) -> None:
        raise AssertionError("the cached result should be used")

    monkeypatch.setattr(analysis, "analyse", no_judging)
    assert analyze_command.main([str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert analyze_command.main([str(path)]) == 0
    assert "Ann played" in capsys.readouterr().out


def test_a_damaged_cache_is_analysed_afresh(
        path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert analyze_command.main([str(path), "--json", "--workers", "1"]) == 0
    first = capsys.readouterr().out
    cache = tmp_path / "game.json.analysis.json"
    kept = json.loads(cache.read_text())
    kept["analysis"]["seats"] = [{"name": "Ann"}]  # same key, damaged body
    cache.write_text(json.dumps(kept))
    assert analyze_command.main([str(path), "--workers", "1"]) == 0
    assert "Ann played" in capsys.readouterr().out
    assert analyze_command.main([str(path), "--json", "--workers", "1"]) == 0
    assert capsys.readouterr().out == first


def seats_with(error_rates: tuple[float, float], lucks: tuple[float, float]
               ) -> analysis.Analysis:
    labels = {name: 0 for name in analysis.LABEL_NAMES}
    return analysis.Analysis(tuple(  # type: ignore[arg-type]
        analysis.SeatNote(name, rate, luck, labels, 10)
        for name, rate, luck in zip(("Ann", "Bob"), error_rates, lucks, strict=True)), ())


@pytest.mark.parametrize(("lucks", "says"), [
    ((0.2, 1.6), "but drew less well (luck +0.2★ against +1.6★)"),
    ((-3.8, -5.0), "and drew less badly (luck −3.8★ against −5.0★)"),
    ((-5.0, -3.8), "but drew worse (luck −5.0★ against −3.8★)"),
    ((1.6, -0.2), "and drew better (luck +1.6★ against −0.2★)"),
    ((1.0, 1.0), "and drew as well (luck +1.0★ against +1.0★)"),
])
def test_the_summary_says_who_drew_better_against_the_other_seats_luck(
        lucks: tuple[float, float], says: str) -> None:
    """Drawing "better" is against the other seat, in words that fit both seats' luck:
    −3.8★ beside −5.0★ drew less badly, not "better"; +0.2★ beside +1.6★ less well."""
    line = analysis.summary(seats_with((0.6, 1.4), lucks))
    assert line == f"Ann played better (0.6★ lost a decision against 1.4★) {says}"


def test_the_printed_analysis_counts_in_plurals_and_signs_nothing_that_rounds_to_zero(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = analysis.to_json(seats_with((0.6, 1.4), (-0.04, 2.0)))
    data["seats"][1]["labels"]["mistake"] = 1
    data["decisions"] = [{"turn": 3, "seat": 1, "played": "take bee", "best": "take fly",
                          "loss_stars": 9.6, "loss_win": 0.001, "label": "blunder",
                          "reason": ""}]
    analysis.print_text(data, "")
    out = capsys.readouterr().out
    assert "take fly: −9.6★, 0% win  [blunder]" in out
    assert "Ann: 0.60★ lost a decision; 0 inaccuracies, 0 mistakes, 0 blunders; luck 0.0★" \
        in out
    assert "Bob: 1.40★ lost a decision; 0 inaccuracies, 1 mistake, 0 blunders; luck +2.0★" \
        in out


def test_a_kept_analysis_is_summed_up_in_the_current_words(
        path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert analyze_command.main([str(path), "--workers", "1"]) == 0
    fresh = capsys.readouterr().out.splitlines()[-1]
    cache = tmp_path / "game.json.analysis.json"
    kept = json.loads(cache.read_text())
    kept["summary"] = "Ann drew better (luck +9.9★)"  # an older program's words
    cache.write_text(json.dumps(kept))
    assert analyze_command.main([str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == fresh


@pytest.mark.parametrize("text", ["", "\x00\x01binary", '{"seed": 1, "moves": ["fly away"]}',
                                  '{"seed": 1, "moves": ["play 1-1"], "seats": ["A", "B"]}'])
def test_a_bad_record_is_refused_with_a_message(
        tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert analyze_command.main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("solstis analyze:") and "Traceback" not in err
    assert not (tmp_path / "bad.json.analysis.json").exists()


def test_a_chance_event_reads_in_the_narrators_words_with_the_tile_named() -> None:
    from solstis_tui.core.events import Flipped, SecondChance

    said = analysis.describe([SecondChance(0, 5)], ("You", "Greedy bot"))
    assert said == "Second chance: You drew 1-6" and "You's" not in said
    assert analysis.describe([SecondChance(1, 5)], ("You", "Ann")) == "Second chance: Ann drew 1-6"
    # the game is over: a tile turned up in the display is named, as in the game's log
    flipped = analysis.describe([Flipped(5)], ("You", "Ann"))
    assert flipped == "1-6 was turned face up in the display"


def test_where_the_best_was_played_the_reason_says_what_it_does_that_the_next_best_does_not(
) -> None:
    from solstis_tui.words.moves import describe_move

    found = analysis.analyse(greedy_game(30), ("Ann", "Bob"), seed=3, effort=TINY)
    agreed = [n for n in found.decisions() if n.played == n.best and len(n.top) > 1]
    assert agreed
    for note in agreed:
        assert describe_move(note.top[1].move).lower() in note.reason.lower(), note.reason


def test_a_binary_record_is_refused_naming_the_line_of_its_first_bad_byte(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "photo.solstis"
    path.write_bytes(b"# solstis record 1\nvariant base\n\xff\xd8\xff\xe0 JFIF\n")
    assert analyze_command.main([str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 3" in err and "0xff is not text" in err, err


def test_the_summary_line_takes_the_persons_side_whichever_seat_they_sat_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from solstis_tui.records import dumps

    from .review_game import finished_record

    monkeypatch.setattr(store, "EFFORT", TINY)
    path = tmp_path / "game.solstis"
    path.write_text(dumps(finished_record(5, "base", ("random", "human"))))
    assert analyze_command.main([str(path), "--workers", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("Ann ")
    assert analyze_command.main([str(path)]) == 0  # and from the kept analysis
    assert capsys.readouterr().out.splitlines()[-1].startswith("Ann ")


@pytest.mark.parametrize("variant", ["base", "firefly"])
def test_each_seats_account_closes_on_its_final_margin(variant: str) -> None:
    """For each seat of finished games: its expected result at the start, plus what its own
    and the other seat's decisions changed, plus its luck, plus the judge's drift, is its
    final star margin; and the JSON keeps the account whole."""
    for seed in (3, 8):
        g = Game.new(seed=seed, options=Options.for_variant(variant))
        rand = random.Random(seed)
        while not g.is_over:
            g.play(rand.choice(g.legal_moves()))
        found = analysis.analyse(g, ("Ann", "Bob"), effort=TINY)
        for seat, note in enumerate(found.seats):
            account = note.account
            assert account is not None
            assert account.final == g.score(seat).total - g.score(1 - seat).total
            assert account.closes(), account
            assert account.luck == note.luck
        again = analysis.from_json(analysis.to_json(found))
        assert [s.account for s in again.seats] == [s.account for s in found.seats]


def test_a_draws_luck_runs_between_two_ends_the_judge_values_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A stretch's luck is its end's value once the draw fell less its start's, both
    valued the same way (``Verdict.luck_end`` and ``luck_start``); what the next decision's
    own judgement adds goes to the judge's drift, so a fresh search's better choice is not
    counted as luck."""
    verdicts: list[analysis.Verdict] = []
    run = analysis._run

    def kept(*args: object, **kwargs: object) -> list[analysis.Verdict]:
        verdicts[:] = run(*args, **kwargs)  # type: ignore[arg-type]
        return verdicts

    monkeypatch.setattr(analysis, "_run", kept)
    found = analysis.analyse(greedy_game(400), ("Ann", "Bob"), effort=TINY)
    k, checked = -1, 0
    for note in found.notes:
        if isinstance(note, DecisionNote):
            k, played = k + 1, note.played
            continue
        for seat in (0, 1):
            verdict = verdicts[2 * k + seat]
            if verdict.luck_end is None:
                continue
            start = analysis.stretch_start(verdict, played).margin
            assert note.luck[seat] == round(verdict.luck_end.margin - start, 2)
            checked += 1
    assert checked > 10
