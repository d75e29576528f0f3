"""benchmarks/error_rates.py: the error rate's interval, the luck's, the CSV, the parts of a
seat's expected result, and a stopped run going on where it stopped."""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any

import pytest

from solstis_tui.ai import arena
from solstis_tui.ai.registry import make_bot
from solstis_tui.coach import analysis
from solstis_tui.core import Game, Options

# benchmarks/ is a folder of scripts, not a package: its scripts import one another so.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import error_rates


def test_error_rate_pools_decisions_so_a_long_game_weighs_more_than_a_short_one() -> None:
    # 10 stars lost over 10 decisions, none over 30: 0.25 a decision, not the games' 0.5.
    games = [(10.0, 10), (0.0, 30)] * 5
    rate, low, high = error_rates.bootstrap_interval(games, resamples=500, seed=3)
    assert rate == pytest.approx(0.25)
    assert low < 0.25 < high
    assert error_rates.bootstrap_interval(games, resamples=500, seed=3) == (rate, low, high)


def test_luck_interval_is_students_t_not_the_normal_one() -> None:
    mean, low, high = error_rates.t_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    # sd 1.2910, t(3) = 3.182: half-width 2.054 (the normal 1.96 would give 1.265)
    assert (low, high) == pytest.approx((2.5 - 2.054, 2.5 + 2.054), abs=1e-3)
    assert error_rates.t_quantile(39) == pytest.approx(2.0227, abs=1e-3)
    assert error_rates.t_quantile(119) == pytest.approx(1.9801, abs=1e-3)


def test_csv_has_a_header_and_a_row_a_tier_with_figures_rounded() -> None:
    row: dict[str, object] = dict.fromkeys(error_rates.COLUMNS, 0.123456)
    row |= {"tier": "mcts", "opponent": "greedy@3", "games": 40, "decisions": 812}
    rows = list(csv.DictReader(error_rates.csv_text([row, {**row, "tier": "expert"}])
                               .splitlines()))
    assert [r["tier"] for r in rows] == ["mcts", "expert"]
    assert rows[0]["decisions"] == "812" and rows[0]["error_rate"] == "0.123"


def finished_game(seed: int) -> Game:
    game = Game.new(seed=seed, options=Options.for_variant("base"))
    bots = [make_bot("greedy", seed), make_bot("random", seed)]
    while not game.is_over:
        game.play(bots[game.to_play].choose(game.observation(game.to_play)))
    return game


def test_each_seats_parts_add_up_to_its_final_margin_and_its_luck_is_the_analysis_luck() -> None:
    game = finished_game(11)
    with error_rates.capturing() as seen:
        found = analysis.analyse(game, ("greedy", "random"), 0, analysis.TINY)
    for seat in (0, 1):
        parts = error_rates.parts_of(game, seen["points"], seen["verdicts"], seat)
        assert parts["final"] == game.score(seat).total - game.score(1 - seat).total
        assert abs(error_rates.residual(parts)) < 1e-9
        assert parts["luck"] == pytest.approx(found.seats[seat].luck, abs=0.01)
        assert parts["quiet"] != 0.0  # decisions in a row, without a draw between them


def test_a_stopped_run_plays_and_analyses_only_the_games_not_yet_kept_and_lists_them_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flags = ["--tiers", "random", "--games", "4", "--tiny", "--records", str(tmp_path),
             "--jobs", "1", "--workers", "1", "--csv", str(tmp_path / "rates.csv"),
             "--games-csv", str(tmp_path / "games.csv")]
    assert error_rates.main(flags) == 0
    records = sorted(tmp_path.glob("*.solstis"))
    assert len(records) == 4
    records[0].unlink()
    played: list[int] = []
    analysed: list[int] = []
    run, analyse = arena.run, analysis.analyse

    def counted_run(todo: list[arena.Task], *args: Any) -> Any:
        played.append(len(todo))
        return run(todo, *args)

    def counted_analyse(*args: Any, **kwargs: Any) -> analysis.Analysis:
        analysed.append(1)
        return analyse(*args, **kwargs)

    monkeypatch.setattr(error_rates, "run", counted_run)
    monkeypatch.setattr(analysis, "analyse", counted_analyse)
    assert error_rates.main(flags) == 0
    assert played == [1] and analysed == [1]
    [row] = csv.DictReader((tmp_path / "rates.csv").read_text().splitlines())
    assert row["games"] == "4" and row["tier"] == "random"
    games = list(csv.DictReader((tmp_path / "games.csv").read_text().splitlines()))
    assert sorted(g["record"] for g in games) == [r.name for r in records]
    assert sum(int(g["tier_decisions"]) for g in games) == int(row["decisions"])


def test_luck_splits_into_the_stretches_after_own_moves_and_after_the_other_seats() -> None:
    data = {"decisions": [
        {"turn": 1, "seat": 0, "played": "a", "loss_stars": 0.0, "label": None},
        {"turn": 1, "event": "Ann drew 3-4", "luck": [1.0, -0.5]},
        {"turn": 1, "seat": 1, "played": "b", "loss_stars": 0.0, "label": None},
        {"turn": 1, "seat": 0, "played": "c", "loss_stars": 0.0, "label": None},
        {"turn": 2, "event": "Ann drew 5-5", "luck": [2.0, 0.25]},
        {"turn": 2, "seat": 1, "played": "d", "loss_stars": 0.0, "label": None},
        {"turn": 2, "event": "Bob drew 1-1", "luck": [-4.0, 3.0]},
    ]}
    game = error_rates.Judged(0, data, ({}, {}), 1.0)
    assert error_rates.luck_split(game, 0) == (3.0, -4.0)
    assert error_rates.luck_split(game, 1) == (3.0, -0.25)
