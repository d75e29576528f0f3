"""The judge: each move's expected result at a decision, from one seat's observation only.

The judge is the expert's search (ISMCTS with mcts's parts, ``mcts.Settings``) run at a
fixed iteration budget from a seed, so the same observation, budget and seed always give
the same verdict. Every iteration deals the unseen tiles and spirits afresh from the
observation (``core.Dealer``); the real game's hidden parts are never read.

Additions to the search, all outside it:

- every iteration's result is kept per root move, from the judged seat's side: the win
  (1, a draw 0.5, or the learned value's win chance where a playout is cut off) and the
  star margin. Their means are the move's expected result and their standard errors its
  error;
- after the search, moves with fewer than ``floor`` results get more iterations that start
  with that move (then go on down the same tree), so that a move the search neglects (a bad
  one, often the one a person played) is still judged on enough deals;
- a move that the seat's own decisions follow in the turn before any draw (play, then
  capture; take the Fish, then place its rainbow) is valued with each way through them
  (up to ``CONTINUATION_DEPTH`` decisions) on a few shared deals
  (``_screen``): at the floor it was valued exploring those ways, most of them poor, and
  its best way's figure stands for it when the leaders are chosen;
- the ``LEADERS`` best moves and the ``focus`` move (the one played) are then judged
  afresh, ``close_floor`` results each, *on the same deals* (``_paired``): the luck of the
  draw cancels in the differences between them, which are the losses a review reads. A
  move of the *other* seat that a deal does not allow (a tile it may not hold) is left out
  of that deal. There, a move is valued by its best continuation within the turn, so
  that its loss agrees with the figure the next decision gets: a move with ways is valued
  once with each of its best ``MOST_CONTINUATIONS`` on the same deals and takes its best
  line's value; decisions further on in the turn are taken as the tree has settled on
  (most visits, a clear share of them), not explored;
- with ``luck``, the ``focus`` move is valued once more, ``close_floor`` results, with
  the next decision after it played as the tree rates best for its decider (no exploring):
  where an analysis's stretch of luck starts (``luck_start``); and with ``after`` (the
  seat's observation at that next decision, once the game went on), the same valuation
  from there, on deals that drew what was drawn (``luck_end``): the stretch's two ends
  valued alike, iterated in turn on the same growing tree, so that its luck averages 0
  over the draws the start foresaw.

``judge(obs, seed)`` is the whole interface; ``Verdict`` holds the result.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from solstis_tui.core import Game, Move, Observation

from .base import Budget, Cancelled, Stopwatch
from .clock import Signal
from .judge_tree import Line, Recorder, Tally, TreePolicy, draws
from .judge_tree import MoveValue as MoveValue  # (a part of the verdict: judge's API)
from .mcts import Settings
from .search import Node, Search, edge_key

#: Iterations of the main search (the expert's parts); see docs/analysis.md for the choice.
DEFAULT_ITERATIONS: Final = 2000
#: Results every legal move of the seat gets at least.
DEFAULT_FLOOR: Final = 30
#: Results on shared deals for the leading moves and the focus move: the losses that
#: labels read are differences between these.
DEFAULT_CLOSE_FLOOR: Final = 1000
#: How many of the seat's best moves (after every move has ``floor`` results) are valued
#: on the shared deals at least; others as close to the best as the floor's few results
#: can tell (``WITHIN`` standard errors of the difference) join them, up to
#: ``MOST_LEADERS``.
LEADERS: Final = 2
WITHIN: Final = 2.0
MOST_LEADERS: Final = 5
#: A focus move of the other seat gets at most this many tries per result it needs (deals
#: where the move is not possible are tried and dropped).
TRIES_PER_RESULT: Final = 20
#: A leading move that the same seat's decisions follow in the same turn, with nothing
#: drawn between (play, then capture), is valued on the shared deals once with each way
#: through them, up to this many (the best on a few deals, ``_screen``), and takes the
#: best: its loss then agrees with the figure the next decision gets.
MOST_CONTINUATIONS: Final = 5
#: Deals on which a continuation's moves must agree to be valued line by line.
CONTINUATION_DEALS: Final = 8
#: A line goes on through at most this many of the seat's decisions after the move, and
#: a move has at most this many lines (a level that would pass it is left to the tree).
CONTINUATION_DEPTH: Final = 3
MOST_SEQUENCES: Final = 60
#: A move's ways are first valued (``_screen``) on one shared deal for every this many of
#: ``close_floor`` (40 at the shipped 1,000), at least two.
SHARED_PER_SCREEN_DEAL: Final = 25
#: How many times the shared deals are dealt afresh when a move valued only on the floor
#: comes out best (it joins the moves valued there).
RESHARES: Final = 2




@dataclass(frozen=True)
class Verdict:
    """A judged decision: the moves' expected results from ``seat``'s observation."""

    seat: int
    """Whose observation, and whose side every value is from."""
    to_play: int
    """Who decides (``seat`` itself, or the other seat)."""
    moves: tuple[MoveValue, ...]
    """The seat's own decision: every legal move, best (highest margin) first. The other
    seat's decision: the moves the search met, most searched first."""
    expected: MoveValue
    """The position's value for ``seat``: the best move if ``seat`` decides, else the other
    seat's choice deal by deal, each deal's being the move the search tree rates best for
    it among those the deal allows (``move`` is then its most searched move)."""
    iterations: int
    luck_start: MoveValue | None = None
    """With ``luck``: the focus move's value when the next decision after it (whoever's)
    is played as the tree rates best for its decider, each deal's own best, without the
    search's exploring. The next decision's value is such a choice (``expected``), so a
    stretch of luck measured from here to there counts no exploring as luck."""
    luck_end: MoveValue | None = None
    """With ``luck`` and ``after``: the same valuation as ``luck_start`` from the seat's
    observation at the next decision, the chance between as it fell: the two ends of a
    stretch of luck valued alike, so that the luck averages 0 over the draws the start
    foresaw (``_luck``)."""

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def value_of(self, mv: Move) -> MoveValue | None:
        """``mv``'s value, or None if it was never judged."""
        for value in self.moves:
            if value.move == mv:
                return value
        return None

    def loss(self, mv: Move) -> tuple[float, float]:
        """(stars, win chance) that ``mv`` gives up against the best move. The stars are
        never negative (the best has the highest margin); the win chance may be slightly
        negative when the star-best move wins a little less often."""
        value = self.value_of(mv)
        if value is None:
            raise ValueError(f"{mv} was not judged")
        best = self.best
        return max(0.0, best.margin - value.margin), best.win - value.win


def _check(cancel: Signal | None) -> None:
    """Raise Cancelled once ``cancel`` is set (a hint nobody waits for any more)."""
    if cancel is not None and cancel.is_set():
        raise Cancelled


def _top_up(search: Search, tree: TreePolicy, tallies: dict[Move, Tally], moves: list[Move],
            floor: int, cancel: Signal | None = None) -> None:
    """Iterate from each of ``moves`` until it has ``floor`` results (or, for a move that
    few deals allow, until its tries run out)."""
    for mv in moves:
        tree.forced = mv
        tries = 0
        tally = tallies.get(mv)
        while (tally is None or tally.n < floor) and tries < floor * TRIES_PER_RESULT:
            _check(cancel)
            search.iterate()
            tries += 1
            tally = tallies.get(mv)
        tree.forced = None


def _continuations(search: Search, mv: Move) -> list[tuple[Move, ...]]:
    """The ways the decider may go on after ``mv`` within the turn, while its own
    decisions follow with nothing drawn between (play, then capture; take the Fish, then
    place its rainbow): each the moves of those decisions, up to ``CONTINUATION_DEPTH`` of
    them and ``MOST_SEQUENCES`` ways in all (deeper decisions are left to the tree). Else
    ``[()]``. Also ``[()]`` where those moves differ from deal to deal (the Renard's: a
    tile of the other hand, which the seat sees only then): a line would be valued only
    on the deals that allow it, and the best of such lines would be the best of the other
    hands, not of the seat's moves. The deepest level on which every deal agrees counts."""
    found: list[list[set[tuple[Move, ...]]]] = []
    for _ in range(CONTINUATION_DEALS):
        g = search.dealer.deal(search.rand)
        if mv not in g.legal:
            return [()]
        p = g.to_play
        drawn = draws(g, p)
        g.play(mv)
        found.append(_ways(g, p, drawn))
    ways: list[tuple[Move, ...]] = [()]
    for depth in range(CONTINUATION_DEPTH):
        level = [deal[depth] if depth < len(deal) else None for deal in found]
        first = level[0]
        if first is None or any(other != first for other in level):
            break
        ways = sorted(first, key=lambda way: tuple(map(str, way)))
    return ways


def _ways(g: Game, seat: int, drawn: tuple[int, int, int, int]) -> list[set[tuple[Move, ...]]]:
    """``_continuations``'s ways for one deal, level by level: the sequences of ``seat``'s
    decisions after ``g`` (each of two moves or more, nothing drawn since ``drawn``) of
    one decision, of up to two, and so on, while there are at most ``MOST_SEQUENCES``."""
    def open_(game: Game) -> bool:
        return (not game.is_over and game.to_play == seat and draws(game, seat) == drawn
                and len(game.legal) > 1)

    levels: list[set[tuple[Move, ...]]] = []
    frontier: list[tuple[tuple[Move, ...], Game]] = [((), g)] if open_(g) else []
    done: set[tuple[Move, ...]] = set()
    while frontier and len(levels) < CONTINUATION_DEPTH:
        grown: list[tuple[tuple[Move, ...], Game]] = []
        for way, game in frontier:
            for then in game.legal:
                after = game.copy()
                after.play(then)
                grown.append(((*way, then), after))
        if len(done) + len(grown) > MOST_SEQUENCES:
            break
        frontier = [(way, game) for way, game in grown if open_(game)]
        done |= {way for way, game in grown if not open_(game)}
        levels.append(done | {way for way, _ in frontier})
    return levels


def _rounds(search: Search, tree: TreePolicy, recorder: Recorder, lines: list[Line],
            count: int, cancel: Signal | None = None, split: bool = False
            ) -> dict[Line, Tally]:
    """``count`` fresh results for each of ``lines``, all on the same deals: each round
    draws one seed, and every line's iteration starts from a generator of that seed, so
    they meet the same hidden tiles, spirits and draws. A line a deal does not allow (the
    other seat's move) has fewer results. With ``split``, ``recorder.halves`` gets the
    results again by the round's parity."""
    recorder.lines = {}
    master = search.rand
    rounds = 0
    tree.finish_turn = True
    try:
        while lines and rounds < count * TRIES_PER_RESULT and min(
                (recorder.lines[line].n if line in recorder.lines else 0)
                for line in lines) < count:
            rounds += 1
            recorder.half = rounds % 2 if split else -1
            _check(cancel)
            deal = master.getrandbits(64)
            for mv, then in lines:
                search.rand = random.Random(deal)
                tree.forced, tree.then, recorder.line = mv, then, then
                search.iterate()
    finally:
        search.rand = master
        tree.forced = None
        tree.then = recorder.line = ()
        tree.finish_turn = False
        recorder.half = -1
    found, recorder.lines = recorder.lines, None
    return found


def _mean(tally: Tally | None) -> float:
    return tally.m / tally.n if tally is not None and tally.n else -math.inf


Ways = dict[Move, list[tuple[Move, ...]]]
"""For each move of the seat, the ways through its decisions after it in the turn that it
is valued with on the shared deals (``_screen``)."""


def _screen(search: Search, tree: TreePolicy, recorder: Recorder, moves: Sequence[Move],
            deals: int, cancel: Signal | None = None) -> tuple[Ways, dict[Move, Tally]]:
    """For each of ``moves`` that the seat's own decisions follow in the turn, its ways
    (``_continuations``), each valued on ``deals`` shared deals: the best
    ``MOST_CONTINUATIONS`` of them, and the best one's results. At the floor such a move
    was valued exploring those ways (a rainbow's twenty places, most of them poor), which
    could hide a move whose best way is the best of the decision."""
    ways: Ways = {}
    best: dict[Move, Tally] = {}
    for mv in moves:
        found = _continuations(search, mv)
        if len(found) > 1:
            screened = _rounds(search, tree, recorder, [(mv, way) for way in found],
                               deals, cancel)
            found = sorted(found, key=lambda way: -_mean(screened.get((mv, way))))
            top = screened.get((mv, found[0]))
            if top is not None and top.n:
                best[mv] = top
        ways[mv] = found[:MOST_CONTINUATIONS]
    return ways, best


def _paired(search: Search, tree: TreePolicy, recorder: Recorder, moves: list[Move],
            count: int, ways: Ways, cancel: Signal | None = None) -> dict[Move, Tally]:
    """``count`` results for each of ``moves`` on the same deals (``_rounds``): the luck
    of the draw, most of a result's spread, then largely cancels in the differences
    between them (the losses). A move that has ``ways`` (``_screen``) is valued once with
    each, and its result is its best line's."""
    lines: list[Line] = []
    for mv in moves:
        lines.extend((mv, way) for way in ways.get(mv, [()]))
    recorder.halves = {}
    found = _rounds(search, tree, recorder, lines, count, cancel, split=True)
    paired: dict[Move, Tally] = {}
    for (mv, _way), tally in found.items():
        if tally.n and _mean(tally) > _mean(paired.get(mv)):
            paired[mv] = tally
    return paired


def _luck(search: Search, tree: TreePolicy, recorder: Recorder, focus: Move, count: int,
          after: Observation | None, path: Sequence[tuple[int, Move]],
          cancel: Signal | None = None) -> tuple[MoveValue | None, MoveValue | None]:
    """A stretch of luck's two ends. The start: ``count`` fresh results for ``focus`` with
    the next decision after it played as the tree rates best for its decider
    (``TreePolicy.exploit_next``). The end, with ``after`` (the seat's observation at that next
    decision, once ``path`` was played: the focus move, then the moves up to there, as
    ``(seat, move)``, and the chance between fell as it did): ``count`` results from
    ``after``, that decision played the same way from the tree's node after ``path``
    (``TreePolicy.exploit``): the start's valuation, on the deals that drew what was drawn.
    The two are iterated in turn, so both read the same tree as it grows, and only the
    start grows it (``TreePolicy.learns``: the end's deals all know the draw, and a tree that
    learnt from them would choose the next decision for the draw that fell, which the
    start cannot; that choice read as its decider's luck). Measured between them, a draw's
    luck averages 0 over the draws the start foresaw, and what a fresh search at the next
    decision finds beyond the tree's choice is the judge's drift, not luck.
    A move few deals allow gets fewer results; an end no deal reached is None."""
    end: Search | None = None
    if after is not None and path:
        node = search.root
        for player, mv in path:
            key = edge_key(player, mv)
            child = node.children.get(key)
            if child is None:  # never met in the search: the tree policy grows it
                child = node.children[key] = Node(player, mv)
            node = child
        end = Search(after, random.Random(search.rand.getrandbits(64)), tree, recorder,
                     root=node)
    starts: dict[Move, Tally] = {}
    ends: dict[Move, Tally] = {}
    most = count * TRIES_PER_RESULT
    start_tries = end_tries = 0
    try:
        while True:
            more_start = start_tries < most and (starts[focus].n if focus in starts
                                                 else 0) < count
            more_end = (end is not None and end_tries < most
                        and sum(t.n for t in ends.values()) < count)
            if not (more_start or more_end):
                break
            _check(cancel)
            if more_start:
                recorder.paired = starts
                tree.forced, tree.exploit_next = focus, True
                search.iterate()
                tree.forced, tree.exploit_next = None, False
                start_tries += 1
            if more_end and end is not None:
                recorder.paired = ends
                tree.exploit, tree.learns = True, False
                end.iterate()
                tree.exploit, tree.learns = False, True
                end_tries += 1
    finally:
        tree.forced, tree.exploit_next, tree.exploit = None, False, False
        tree.learns = True
        recorder.paired = None
    start = starts[focus].value(focus) if focus in starts and starts[focus].n else None
    total = Tally()
    for tally in ends.values():  # each deal's result, whatever the decider chose
        total.merge(tally)
    return start, (total.value(focus) if total.n else None)


def _unbiased(halves: dict[Line, tuple[Tally, Tally]]) -> MoveValue | None:
    """The position's value without the best-of-many's luck: the move (the line of it,
    ``_paired``) best on one half of the shared deals, valued on the other half. (The
    highest of several noisy means is higher than the best move's true value, and a luck
    measured to it reads that as good luck.) None if no move has results in both halves."""
    both = [(mv, h) for mv, h in halves.items() if h[0].n and h[1].n]
    if not both:
        return None
    pick, (_chooser, valuer) = max(both, key=lambda item: (item[1][0].m / item[1][0].n,
                                                          str(item[0])))
    return valuer.value(pick[0])


def _leaders(tallies: dict[Move, Tally], moves: tuple[Move, ...]) -> list[Move]:
    """The ``LEADERS`` moves with the highest mean margin so far, and any other that its
    few results cannot tell from the first (within ``WITHIN`` standard errors of the
    difference), up to ``MOST_LEADERS`` in all: a move the floor's deals happened to
    undervalue still gets the shared deals."""
    def value(mv: Move) -> MoveValue:
        return (tallies.get(mv) or Tally()).value(mv)
    ranked = sorted((value(mv) for mv in moves), key=lambda v: -v.margin)
    top = ranked[0]
    out = [v.move for v in ranked[:LEADERS]]
    for v in ranked[LEADERS:]:
        if len(out) >= MOST_LEADERS:
            break
        spread = math.hypot(top.margin_error, v.margin_error)
        if math.isfinite(spread) and top.margin - v.margin <= WITHIN * spread:
            out.append(v.move)
    return out


def judge(obs: Observation, seed: int, iterations: int = DEFAULT_ITERATIONS,
          floor: int = DEFAULT_FLOOR, focus: Move | None = None,
          close_floor: int = DEFAULT_CLOSE_FLOOR,
          settings: Settings | None = None, cancel: Signal | None = None,
          luck: bool = False, after: Observation | None = None,
          path: Sequence[tuple[int, Move]] = ()) -> Verdict:
    """Judge the decision pending in ``obs`` from ``obs.player``'s side.

    ``iterations`` of the search, then enough more that every legal move of the seat has
    ``floor`` results; then its ``LEADERS`` best moves (the other seat's decision: the
    move the search expects it to play) and ``focus`` (a move of whoever decides, e.g.
    the one played) are valued on ``close_floor`` shared deals; with ``luck`` (and a
    ``focus``), ``Verdict.luck_start`` too, and with ``after`` (the seat's observation at
    the next decision; ``path``: the focus move and the moves after it up to there, as
    ``(seat, move)``) ``Verdict.luck_end``. Deterministic for ``seed``. ValueError if the
    game is over or nobody is to decide; Cancelled soon after ``cancel`` is set (a hint's
    judgement that the game has moved past).
    """
    if iterations < 1:
        raise ValueError("the judge needs at least one iteration")
    if obs.is_over or obs.decision is None:
        raise ValueError("nothing to judge: the game is over or no decision is pending")
    settings = settings if settings is not None else Settings()
    seat = obs.player
    recorder = Recorder(settings, seat)
    tree = TreePolicy(settings, recorder)
    search = Search(obs, random.Random(seed), tree, recorder)
    search.run(Stopwatch(Budget(iterations=iterations), Budget(), cancel))
    _check(cancel)
    tallies = recorder.tallies
    mine = obs.to_play == seat and not obs.spectator
    predicted = max(tallies, key=lambda mv: (tallies[mv].n, str(mv)), default=None)
    close: list[Move] = []
    ways: Ways = {}
    floored = tallies  # each move's results before the shared deals
    if mine:
        _top_up(search, tree, tallies, list(obs.legal_moves), floor, cancel)
        ways, screened = _screen(search, tree, recorder, obs.legal_moves,
                                 max(2, close_floor // SHARED_PER_SCREEN_DEAL), cancel)
        floored = {**tallies, **screened}  # a move with ways: its best way's
        close = _leaders(floored, obs.legal_moves)
    if focus is not None and focus not in close:
        close.append(focus)
    paired = _paired(search, tree, recorder, close, close_floor, ways, cancel)

    def value(mv: Move) -> MoveValue:
        return (paired.get(mv) or floored.get(mv) or Tally()).value(mv)

    def ranked() -> list[MoveValue]:
        return sorted((value(mv) for mv in obs.legal_moves),
                      key=lambda v: (-v.margin, -v.win, str(v.move)))

    if mine:
        values = ranked()
        for _ in range(RESHARES):
            if values[0].move in paired:
                break
            # A move valued only on the floor's few deals came out on top: losses are
            # measured against the best, so the best is valued on the shared deals too
            # (all of them afresh, together).
            close.append(values[0].move)
            paired = _paired(search, tree, recorder, close, close_floor, ways, cancel)
            values = ranked()
        expected = _unbiased(recorder.halves) or values[0]
    else:
        values = sorted((value(mv) for mv in tallies),
                        key=lambda v: (-v.results, str(v.move)))
        # The position's value: in each deal, the other seat plays the move the tree
        # rates best for it among those the deal allows. (One move's mean would count only
        # the deals that allow it; the mean of every iteration would count the search's
        # exploring of moves it would not play.)
        assert predicted is not None  # every iteration of the main search has a root move
        recorder.overall = Tally()
        tree.exploit = True
        for _ in range(close_floor):
            _check(cancel)
            search.iterate()
        tree.exploit = False
        overall, recorder.overall = recorder.overall, None
        expected = overall.value(predicted) if overall.n else value(predicted)
    start = end = None
    if luck and focus is not None:
        start, end = _luck(search, tree, recorder, focus, close_floor, after, path, cancel)
    return Verdict(seat, obs.to_play, tuple(values), expected, search.iterations, start, end)
