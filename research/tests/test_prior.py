"""The learned move prior: its weights file must match the move inputs, the search follows
it where asked, and the tool that fits it learns which moves a search favours."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from solstis_tui.ai.base import Budget, Stopwatch
from solstis_tui.ai.policy import move_value
from solstis_tui.ai.search import HeuristicCutoff, Search
from solstis_tui.core import Decision, Game, Move

import fit_prior
import prior
from lab_positions import positions
from strategies import PUCT, ResearchUCB, searched


def use_weights(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, data: dict[str, Any]) -> None:
    path = tmp_path / "prior_weights.json"
    path.write_text(json.dumps(data))
    monkeypatch.setattr(prior, "PRIOR_FILE", path)
    prior.weights.cache_clear()


@pytest.fixture(autouse=True)
def fresh_weights() -> Iterator[None]:
    prior.weights.cache_clear()
    yield
    prior.weights.cache_clear()


def test_the_shipped_weights_load_and_score_every_move() -> None:
    g = next(g for g in positions("base", 6, seed=31) if g.decision is Decision.PLAY)
    scores = prior.logits(g, g.legal)
    assert len(scores) == len(g.legal) and len(set(scores)) > 1
    assert Decision.PLAY in prior.weights()


def test_weights_fitted_to_other_inputs_are_refused(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    inputs = list(prior.MOVE_INPUTS)
    inputs[1] = "mover_old_feature"
    use_weights(monkeypatch, tmp_path, {"inputs": inputs, "decisions": {}})
    with pytest.raises(ValueError, match=r"fit it again with research/fit_prior\.py"):
        prior.weights()


@pytest.mark.parametrize(("decisions", "reason"), [
    ({"PLAY": [0.0, 1.0]}, "PLAY has 2 weights"),
    ({"SHOUT": [0.0] * len(prior.MOVE_INPUTS)}, "no decision is called 'SHOUT'"),
])
def test_weights_for_a_decision_that_do_not_fit_are_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, decisions: dict[str, list[float]],
        reason: str) -> None:
    use_weights(monkeypatch, tmp_path, {"inputs": list(prior.MOVE_INPUTS),
                                        "decisions": decisions})
    with pytest.raises(ValueError, match=reason):
        prior.weights()


def expansion_order(g: Game, iterations: int, learned_prior: int = 0) -> list[Move]:
    """The root's moves in the order the search first tried them."""
    search = Search(g.observation(g.to_play), random.Random(1),
                    ResearchUCB(learned_prior=learned_prior), HeuristicCutoff())
    order: list[Move] = []
    for _ in range(iterations):
        search.run(Stopwatch(Budget(iterations=1), Budget(iterations=1), None))
        for child in search.root.children.values():
            if child.move is not None and child.move not in order:
                order.append(child.move)
    return order


def backwards_prior(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Game, list[Move]]:
    """Weights that score a play by minus the heuristic's value, and a play decision whose
    three moves the heuristic tells clearly apart, with its moves best first."""
    backwards = [0.0] * len(prior.MOVE_INPUTS)
    backwards[prior.MOVE_INPUTS.index("heuristic")] = -1.0
    use_weights(monkeypatch, tmp_path, {"inputs": list(prior.MOVE_INPUTS),
                                        "decisions": {"PLAY": backwards}})

    def apart(g: Game) -> bool:
        values = sorted(move_value(g, mv) for mv in g.legal)
        return all(b - a > 0.2 for a, b in pairwise(values))

    g = next(g for g in positions("base", 8, seed=32)
             if g.decision is Decision.PLAY and len(g.legal) == 3 and apart(g))
    return g, sorted(g.legal, key=lambda mv: -move_value(g, mv))


def test_the_search_expands_moves_in_the_learned_priors_order(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A prior that scores a move by minus the heuristic's value turns the expansion order
    round once the root has been visited; without it the heuristic's order stays."""
    g, best_first = backwards_prior(monkeypatch, tmp_path)
    assert expansion_order(g, 3) == best_first
    learned = expansion_order(g, 3, learned_prior=1)
    assert learned[0] == best_first[0]  # the first visit is the heuristic's
    assert learned[1:] == [best_first[2], best_first[1]]


def test_puct_follows_the_learned_prior(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With a strong PUCT constant the most searched move is the prior's favourite: the
    heuristic's, or with the backwards prior from the second visit on, its worst."""
    g, best_first = backwards_prior(monkeypatch, tmp_path)
    assert searched_most(g, PUCT(5.0)) == best_first[0]
    assert searched_most(g, PUCT(5.0, learned_prior=1)) == best_first[2]


def searched_most(g: Game, tree: PUCT) -> Move:
    search = searched(g.observation(g.to_play), random.Random(2), tree, HeuristicCutoff(), 300)
    return search.estimates()[0].move


def synthetic_rows(games: range, rand: random.Random) -> list[dict[str, Any]]:
    """Play decisions whose teacher favours the move that grows the biggest section most,
    whatever the heuristic says."""
    grow = prior.MOVE_INPUTS.index("mover_biggest_section")
    rows = []
    for game in games:
        for _ in range(30):
            inputs = []
            for growth in rand.sample([0.0, 1.0, 2.0], 3):
                x = [0.0] * len(prior.MOVE_INPUTS)
                x[0] = rand.uniform(0, 3)
                x[grow] = growth
                x[prior.MOVE_INPUTS.index("kind_play")] = 1.0
                inputs.append(x)
            visits = [int(10 + 100 * x[grow] + rand.randrange(10)) for x in inputs]
            rows.append({"game": game, "decision": "PLAY", "inputs": inputs,
                         "visits": visits})
    return rows


def test_the_fitting_tool_learns_what_the_search_favours(tmp_path: Path) -> None:
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps(synthetic_rows(range(22), random.Random(3))))
    out = tmp_path / "prior.json"
    assert fit_prior.main(["--games", "20", "--rows", str(rows), "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["inputs"] == list(prior.MOVE_INPUTS)
    assert set(data["decisions"]) == {"PLAY"}
    weights = data["decisions"]["PLAY"]
    assert weights[prior.MOVE_INPUTS.index("mover_biggest_section")] > 0.5
    held_out = data["held_out"]["PLAY"]
    assert held_out["prior_agreement"] > 0.9
    assert held_out["prior_cross_entropy"] < held_out["heuristic_cross_entropy"]
    assert not list(tmp_path.glob("*.tmp"))


def test_the_fitting_tool_plays_games_keeps_their_rows_and_writes_weights(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A small real run: self-play of greedy, a short teacher search, rows kept, and a
    weights file the bots can read."""
    rows, out = tmp_path / "rows.json", tmp_path / "prior_weights.json"
    assert fit_prior.main(["--games", "10", "--player", "greedy", "--teacher-iterations",
                           "30", "--share", "0.5", "--rows", str(rows),
                           "--out", str(out)]) == 0
    kept = json.loads(rows.read_text())
    assert {r["game"] for r in kept} == set(range(12))
    assert all(len(r["inputs"]) == len(r["visits"]) > 1 for r in kept)
    assert all(sum(r["visits"]) == 30 for r in kept)
    data = json.loads(out.read_text())
    assert "PLAY" in data["held_out"]
    monkeypatch.setattr(prior, "PRIOR_FILE", out)
    assert set(prior.weights()) == {Decision[name] for name in data["decisions"]}
