"""The judge: the same seed gives the same verdict, and only the judged seat's
observation counts (hidden changes to the real game change nothing)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from solstis_tui.ai.judge import _continuations, _luck, judge
from solstis_tui.ai.judge_tree import Recorder, TreePolicy, draws, exploited
from solstis_tui.ai.mcts import Settings
from solstis_tui.ai.search import Node, Search, edge_key
from solstis_tui.core import Game, Move, Observation, Options
from solstis_tui.core.events import Drew, Flipped, SpiritsDrawn

from .conftest import VARIANTS, positions
from .test_fairness import hidden_twin, twins


def test_the_same_seed_gives_the_same_verdict() -> None:
    g = positions("base", 1, seed=5)[0]
    obs = g.observation(g.to_play)
    assert judge(obs, 9, 120, 8, None, 20) == judge(obs, 9, 120, 8, None, 20)
    assert judge(obs, 9, 120, 8, None, 20) != judge(obs, 10, 120, 8, None, 20)


def test_every_legal_move_is_judged_with_an_error() -> None:
    g = positions("firefly", 1, seed=6)[0]
    obs = g.observation(g.to_play)
    assert len(obs.legal_moves) > 2
    verdict = judge(obs, 1, 10, 6, None, 12)  # fewer iterations than the moves need
    assert {v.move for v in verdict.moves} == set(obs.legal_moves)
    assert all(v.results >= 6 and 0 <= v.win <= 1 and v.margin_error > 0
               for v in verdict.moves)
    assert verdict.moves[0].margin == max(v.margin for v in verdict.moves)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_deciding_seat_is_judged_from_its_observation_only(variant: str) -> None:
    for g, h in twins(variant, 3):
        me = g.to_play
        played = g.legal[-1]
        assert (judge(g.observation(me), 4, 80, 6, played, 12, luck=True)
                == judge(h.observation(me), 4, 80, 6, played, 12, luck=True))


def test_the_other_seat_is_judged_from_its_observation_only() -> None:
    rand = random.Random(5)
    for g in positions("base", 3, seed=8):
        other = 1 - g.to_play
        h = hidden_twin(g, other, rand)
        assert g.observation(other) == h.observation(other)
        played = g.legal[0]
        assert (judge(g.observation(other), 4, 80, 6, played, 12, luck=True)
                == judge(h.observation(other), 4, 80, 6, played, 12, luck=True))


def test_measuring_luck_changes_no_value_a_label_reads() -> None:
    for g in positions("base", 3, seed=12):
        obs = g.observation(g.to_play)
        played = g.legal[-1]
        plain = judge(obs, 3, 100, 6, played, 30)
        with_luck = judge(obs, 3, 100, 6, played, 30, luck=True)
        assert plain.luck_start is None
        assert with_luck.luck_start is not None
        assert with_luck.luck_start.move == played and with_luck.luck_start.results == 30
        assert (with_luck.moves, with_luck.expected) == (plain.moves, plain.expected)


def searched(obs: Observation, seed: int, iterations: int
             ) -> tuple[Recorder, TreePolicy, Search]:
    """The judge's search from ``obs`` after ``iterations``: its recorder, tree policy and
    search."""
    settings = Settings()
    recorder = Recorder(settings, obs.player)
    tree = TreePolicy(settings, recorder)
    search = Search(obs, random.Random(seed), tree, recorder)
    for _ in range(iterations):
        search.iterate()
    return recorder, tree, search


def test_luck_starts_with_the_next_decision_played_as_the_tree_rates_best() -> None:
    g = positions("base", 1, seed=14)[0]
    obs = g.observation(g.to_play)
    focus = g.legal[0]
    _, tree, search = searched(obs, 2, 400)
    tree.forced, tree.exploit_next = focus, True
    chosen: list[Move] = []
    rated_best: list[Move | None] = []
    descend = tree.descend

    def watched(search: Search, g: Game, path: list[Node]) -> None:
        start = g.copy()
        descend(search, g, path)
        # Replay the path on its deal before the statistics change: the forced moves,
        # then the first real choice after the focus move.
        node = search.root
        for child in path:
            if len(start.legal) > 1 and node is not search.root:
                assert child.move is not None
                chosen.append(child.move)
                rated_best.append(exploited(node, start))
                return
            assert child.move is not None
            start.play(child.move)
            node = child

    tree.descend = watched  # type: ignore[method-assign]
    for _ in range(40):
        search.iterate()
    assert len(chosen) > 20  # most deals reached a next decision the tree had tried
    assert chosen == rated_best


def a_draw_after_a_choice(seed: int) -> tuple[Game, Move, tuple[tuple[int, Move], ...]]:
    """A position of a random game whose move ``played`` is followed by a chance event
    before the next decision with a choice (that decision straight after the draw), late
    enough in the game that the seat's expected result is far from even."""
    rand = random.Random(seed)
    g = Game.new(seed=seed)
    while not g.is_over:
        legal = g.legal_moves()
        mv = rand.choice(legal)
        if len(legal) > 1 and g.turn > 8:
            after = g.copy()
            at, history_at = len(after.log), len(after.history)
            after.play(mv)
            path = tuple((s, m) for s, m, auto in after.history[history_at:] if not auto)
            if (len(path) == 1 and not after.is_over and len(after.legal_moves()) > 1
                    and any(isinstance(ev, (Drew, Flipped, SpiritsDrawn))
                            for ev in after.log[at:])):
                return g, mv, path
        g.play(mv)
    raise AssertionError("no draw after a choice in this game")


def test_a_stretch_of_luck_ends_valued_as_it_starts_so_the_draws_average_out() -> None:
    """``luck_end`` values the seat's position once the draw fell as ``luck_start`` valued
    it before: over the draws the start foresaw (the hidden parts dealt again), the ends
    average the start, within their noise."""
    g, played, path = a_draw_after_a_choice(21)
    me = g.to_play
    obs = g.observation(me)
    rand = random.Random(3)
    ends: list[float] = []
    start = None
    for _ in range(24):
        twin = hidden_twin(g, me, rand)
        twin.play(played)
        verdict = judge(obs, 7, 150, 6, played, 60, luck=True,
                        after=twin.observation(me), path=path)
        assert verdict.luck_start is not None and verdict.luck_end is not None
        assert verdict.luck_end.move == played and verdict.luck_end.results == 60
        start = verdict.luck_start.margin
        ends.append(verdict.luck_end.margin)
    assert start is not None
    spread = statistics.stdev(ends) / math.sqrt(len(ends)) + 0.5
    assert abs(statistics.fmean(ends) - start) < 3 * spread, (start, ends)
    assert len(set(ends)) > 1  # the draws made a difference
    assert judge(obs, 7, 150, 6, played, 60, luck=True).luck_end is None


def test_a_move_its_own_seat_follows_in_the_turn_is_valued_with_each_next_move() -> None:
    """Play, then capture: the judge values the play once with each way the seat may go
    on in the turn (a capture; a capture, then take the Fish, then place its rainbow): its
    best line is the play's value, so that the play's loss agrees with the figure the
    next decision gets. A move after which a draw or the other seat comes has
    no such lines."""
    heads = followed = deep = 0
    for g in positions("base", 40, seed=31):
        obs = g.observation(g.to_play)
        _, _, search = searched(obs, 1, 60)
        for mv in obs.legal_moves:
            after = g.copy()
            after.play(mv)
            same_turn = (not after.is_over and after.to_play == g.to_play
                         and draws(after, g.to_play) == draws(g, g.to_play)
                         and len(after.legal_moves()) > 1)
            lines = _continuations(search, mv)
            if same_turn:
                heads += 1
                assert {line[0] for line in lines} == set(after.legal_moves())
                for line in lines:  # each a way the seat may go on, decision by decision
                    g_line = after.copy()
                    for then in line:
                        assert g_line.to_play == g.to_play and then in g_line.legal_moves()
                        assert len(g_line.legal_moves()) > 1
                        g_line.play(then)
                    deep += len(line) > 1
            else:
                followed += 1
                assert lines == [()]
    assert heads > 5 and followed > 5 and deep > 5  # (take the Fish, then its rainbow)


def renard_decisions(count: int) -> list[Game]:
    """Firefly positions, from random play, where the seat to play may take the Renard."""
    rand = random.Random(5)
    found: list[Game] = []
    for deal in range(400):
        g = Game.new(seed=deal, options=Options.for_variant("firefly"))
        while not g.is_over and len(found) < count:
            if any(str(mv) == "take renard" for mv in g.legal_moves()):
                found.append(g.copy())
            g.play(rand.choice(g.legal_moves()))
        if len(found) >= count:
            break
    return found


def test_taking_the_renard_is_not_valued_once_for_each_tile_of_the_other_hand() -> None:
    """After taking the Renard the seat chooses a tile of the other hand, which it sees
    only then: those moves differ from deal to deal. Valued line by line, each tile's line
    would count only the deals whose other hand holds it, and the take would be worth the
    luckiest of those hands (a noise of 2.7 stars was measured so). So the take has no
    lines: its turn goes on as the tree plays it. Where a choice the seat sees comes
    first (which of two squares the spirit takes), or the other hand is known (every
    unseen tile is in it), the take keeps its lines."""
    renard = squares = 0
    for g in renard_decisions(12):
        obs = g.observation(g.to_play)
        _, _, search = searched(obs, 1, 60)
        take = next(mv for mv in obs.legal_moves if str(mv) == "take renard")
        after = g.copy()
        after.play(take)
        if after.is_over or after.to_play != g.to_play or len(after.legal_moves()) < 2:
            continue  # the Renard was lost (an empty hand): nothing to choose
        deals = [search.dealer.deal(random.Random(n)) for n in range(20)]
        hidden = len({tuple(sorted(map(str, d.hands[1 - g.to_play]))) for d in deals}) > 1
        if str(after.legal_moves()[0]).startswith("renard ") and hidden:
            renard += 1
            assert _continuations(search, take) == [()]
        else:
            squares += 1
            assert {line[0] for line in _continuations(search, take)} == set(
                after.legal_moves())
    assert renard >= 3 and squares >= 3


def tree_figures(node: Node) -> tuple[object, ...]:
    """Every statistic a choice reads in the tree under ``node`` (not the availability
    counts, which only weigh the exploring)."""
    return (node.n, node.w, node.margin,
            tuple(sorted((key, tree_figures(child)) for key, child in node.children.items())))


def test_the_luck_end_chooses_the_next_decision_without_learning_the_draw() -> None:
    """The end's deals all drew what was really drawn. Had its iterations taught the tree,
    the next decision would be chosen for the draw that fell, better than the start (which
    does not know it) could, and the decider would gain that as luck. So the end reads
    the tree and changes none of it, and is still valued."""
    g, played, path = a_draw_after_a_choice(21)
    me = g.to_play
    obs = g.observation(me)
    recorder, tree, search = searched(obs, 2, 300)
    twin = hidden_twin(g, me, random.Random(5))
    twin.play(played)
    after = twin.observation(me)
    _, end = _luck(search, tree, recorder, played, 40, after, path)
    assert end is not None and end.results == 40
    assert tree.learns  # as it was
    # The end's iterations alone, as _luck makes them: the tree is as it was.
    node = search.root
    for player, mv in path:
        node = node.children[edge_key(player, mv)]
    before = tree_figures(search.root)
    end_search = Search(after, random.Random(9), tree, recorder, root=node)
    tree.exploit, tree.learns = True, False
    for _ in range(60):
        end_search.iterate()
    assert tree_figures(search.root) == before
    tree.learns = True  # and a search that learns does change it
    end_search.iterate()
    assert tree_figures(search.root) != before


#: A greedy-against-mcts game of the base variant (seed 6633) up to the greedy seat's
#: decision after playing 5-3: draw, or take the Fish, the Fly or the Butterfly. Taking
#: the Fish, then placing its rainbow well, is worth about 12.6 stars; drawing about 6.
#: Most of the Fish's twenty-two places are poor.
FISH_GAME = (
    "play 3-4, capture 3-3, play 4-8, play 1-4, capture 2-4, play 6-5, capture 2-5, "
    "play 4-2, play 2-3, play 4-6, capture 4-9, play 1-1, play 2-2, rainbow 2-3, keep bee, "
    "play 3-9, play 1-2, take bird, play 4-7, capture 5-7, play 3-5, play 1-7, play 2-7, "
    "play 3-6, play 1-3, keep eagle, square 1-2, play 2-10, play 1-9, rainbow 1-9, draw, "
    "keep ladybug, play 5-8, draw, keep marmot, play 6-6, play 2-1, rainbow 1-1, play 5-3")


def test_a_move_worth_one_of_its_many_ways_is_found_best() -> None:
    """Valued at the floor, the Fish's few results explore its twenty-two places and it
    looks poor: it was left off the shared deals, and the judge called drawing best (and a
    player who took the Fish would have read a mistake). Each move's ways are valued on a
    few shared deals before the leaders are chosen."""
    g = Game.new(seed=6633, options=Options())
    for text in FISH_GAME.split(", "):
        g.play(Move.parse(text))
    obs = g.observation(g.to_play)
    assert sorted(map(str, obs.legal_moves)) == [
        "draw", "take butterfly", "take fish", "take fly"]
    for seed in range(8):
        verdict = judge(obs, seed, iterations=300, close_floor=100)
        assert str(verdict.best.move) == "take fish", (seed, verdict.moves)
