"""Property tests over random games of every variant."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solstis_tui.core import Dealer, Game, Options, determinize
from solstis_tui.core.events import EndReason

from .invariants import check_invariants

VARIANTS = [Options(), Options(beginner=True), Options(firefly=True)]
#: No game may take more decisions than this (48 tiles; a turn has a handful of choices).
MAX_DECISIONS = 600

games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from(VARIANTS), st.integers(0, 2**16))
quick = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _play_out(game: Game, rand: random.Random, each=None) -> int:
    steps = 0
    while not game.is_over:
        if each:
            each(game, steps)
        game.play(rand.choice(game.legal_moves()))
        steps += 1
        assert steps <= MAX_DECISIONS, "game did not end"
    return steps


@quick
@given(games)
def test_every_tile_rainbow_and_spirit_stays_in_exactly_one_place(case):
    seed, options, choice_seed = case
    game = Game.new(seed=seed, options=options)
    _play_out(game, random.Random(choice_seed), lambda g, _: check_invariants(g))
    check_invariants(game)
    assert game.end_reason is not None and game.end_reason.by_rules
    totals = [game.score(0).total, game.score(1).total]
    if game.end_reason is EndReason.NORMAL:
        expected = None if totals[0] == totals[1] else int(totals[1] > totals[0])
        assert game.winner == expected


@quick
@given(games)
def test_saved_game_continues_identically(case):
    seed, options, choice_seed = case
    rand = random.Random(choice_seed)
    game = Game.new(seed=seed, options=options)
    for _ in range(rand.randrange(1, 80)):
        if game.is_over:
            break
        game.play(rand.choice(game.legal_moves()))
    loaded = Game.from_json(game.to_json())
    assert loaded.to_json() == game.to_json()
    follow = random.Random(choice_seed + 1)
    twin = random.Random(choice_seed + 1)
    while not game.is_over:
        move = follow.choice(game.legal_moves())
        assert twin.choice(loaded.legal_moves()) == move
        game.play(move)
        loaded.play(move)
    assert loaded.to_json() == game.to_json()
    assert loaded.winner == game.winner


@quick
@given(games)
def test_copy_is_independent(case):
    seed, options, choice_seed = case
    rand = random.Random(choice_seed)
    game = Game.new(seed=seed, options=options)
    for _ in range(rand.randrange(0, 60)):
        if game.is_over:
            return
        game.play(rand.choice(game.legal_moves()))
    before = game.to_json()
    twin = game.copy()
    _play_out(twin, rand)
    assert game.to_json() == before
    assert twin.is_over


@quick
@given(games)
def test_observations_leak_nothing_hidden(case):
    """A game rebuilt with every hidden tile and spirit re-dealt looks the same."""
    seed, options, choice_seed = case
    rand = random.Random(choice_seed)
    game = Game.new(seed=seed, options=options)

    def check(g: Game, step: int) -> None:
        if step % 5:
            return
        for player in (0, 1):
            obs = g.observation(player)
            other = determinize(obs, rand)
            assert other.observation(player) == obs
            check_invariants(other)

    _play_out(game, rand, check)


@quick
@given(games)
def test_a_dealer_deals_each_game_afresh(case):
    """A search deals thousands of games from one observation and plays each to its end:
    no deal may leak into the next, so one dealer deals what a new one would."""
    seed, options, choice_seed = case
    rand = random.Random(choice_seed)
    game = Game.new(seed=seed, options=options)
    for _ in range(rand.randrange(40)):
        if game.is_over:
            break
        game.play(rand.choice(game.legal_moves()))
    obs = game.observation(game.to_play)
    dealer = Dealer(obs)
    for i in range(3):
        dealt = dealer.deal(random.Random(i))
        assert dealt.observation(obs.player) == obs
        _play_out(dealt, rand)
    again = dealer.deal(random.Random(0))
    assert again.to_json() == Dealer(obs).deal(random.Random(0)).to_json()
    assert again.to_json() != dealer.deal(random.Random(1)).to_json() or not obs.land_pile


def test_same_seed_and_moves_give_the_same_game():
    rand_a, rand_b = random.Random(3), random.Random(3)
    a, b = Game.new(seed=99), Game.new(seed=99)
    _play_out(a, rand_a)
    _play_out(b, rand_b)
    assert a.to_json() == b.to_json()


def test_a_seed_deals_the_same_tiles_on_any_machine():
    """Pinned so a change of shuffle or generator shows up (saves replay from the seed):
    the keyed deal, and the SplitMix64 deal that saves of format 1 replay from."""
    obs = Game.new(seed=7).observation(0)
    assert [str(m) for m in obs.legal_moves] == ["play 1-10", "play 2-4", "play 3-3"]
    assert [t for t, _ in obs.display] == [55, 12, 20, 26, 23, 54]
    obs = Game.new(seed=7, legacy=True).observation(0)
    assert [str(m) for m in obs.legal_moves] == ["play 3-5", "play 3-7", "play 4-2"]
    assert [t for t, _ in obs.display] == [44, 47, 25, 36, 9, 55]


def test_random_games_in_every_variant_end():
    for i, options in enumerate(VARIANTS * 20):
        game = Game.new(seed=i, options=options)
        _play_out(game, random.Random(i))
        assert game.is_over
