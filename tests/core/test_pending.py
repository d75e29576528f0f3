"""What is still to happen in a turn travels as public facts named in the rules' terms:
a client or a bot worker that receives an observation as JSON rebuilds the same
observation, a search deals full games from it, and no engine step number is in it."""

from __future__ import annotations

import json
import random

import pytest

from solstis_tui.core import Game, InvalidPosition, Move, Options
from solstis_tui.core.determinize import determinize
from solstis_tui.core.observation import observe
from solstis_tui.core.observation_json import observation_from_dict, observation_to_dict
from solstis_tui.core.pending import STEP_NAMES


def games(variant: str, count: int = 20):
    """Every position of ``count`` random games, with the game itself."""
    for seed in range(count):
        game, rand = Game.new(seed=seed, options=Options.for_variant(variant)), \
            random.Random(seed)
        while not game.is_over:
            yield game
            game.play(rand.choice(game.legal_moves()))


@pytest.mark.parametrize("variant", ["base", "beginner", "firefly"])
def test_an_observation_sent_as_json_comes_back_the_same_and_deals_a_game_alike(
        variant: str) -> None:
    for game in games(variant):
        for obs in (observe(game, game.to_play), observe(game, 0, spectator=True)):
            data = json.loads(json.dumps(observation_to_dict(obs)))
            back = observation_from_dict(data)
            assert back == obs
            dealt = determinize(back, random.Random(1))
            assert dealt.observation(obs.player, spectator=obs.spectator).pending == \
                obs.pending
            if not obs.spectator:
                assert set(dealt.legal_moves()) == set(game.legal_moves())


def test_the_pending_steps_name_rules_not_engine_numbers() -> None:
    seen: set[str] = set()
    for variant in ("base", "firefly"):
        for game in games(variant, 10):
            data = observation_to_dict(observe(game, game.to_play))["pending"]
            for step in data["steps"]:
                seen.add(step["step"])
                assert step["step"] in STEP_NAMES
                assert all(type(v) is not int or k == "player" for k, v in step.items())
    assert {"tile_enters", "refill_display", "end_turn", "encounter"} <= seen


@pytest.mark.parametrize("step", [
    {"step": "teleport"},
    {"step": "tile_enters", "player": 0},
    {"step": "spirit_effect", "player": 1},
    {"step": "evil_spirit"},
    {"step": 5},
])
def test_a_pending_step_that_is_not_in_the_rules_is_refused(step: dict[str, object]) -> None:
    data = observation_to_dict(observe(Game.new(seed=1), 0))
    data["pending"]["steps"] = [step]
    with pytest.raises(InvalidPosition):
        observation_from_dict(data)


def test_a_game_with_steps_queued_plays_on_from_its_observation() -> None:
    """A position with several steps queued (a spirit's effect after an encounter) deals
    games whose next moves are those of the real game."""
    for game in games("base", 60):
        obs = observe(game, game.to_play)
        if len(obs.pending.steps) >= 4 and obs.decision is not None:
            dealt = determinize(obs, random.Random(2))
            move: Move = obs.legal_moves[0]
            dealt.play(move)
            game = game.copy()
            game.play(move)
            assert dealt.decision is game.decision and dealt.to_play == game.to_play
            return
    raise AssertionError("no position with four steps queued")
