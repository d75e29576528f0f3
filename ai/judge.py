"""The judge: each move's expected result at a decision, from one seat's observation only.

The judge is the expert's search (ISMCTS with mcts's parts, ``mcts.Settings``) run at a
fixed iteration budget from a seed, so the same observation, budget and seed always give
the same verdict. Every iteration deals the unseen tiles and spirits afresh from the
observation (``core.Dealer``); the real game's hidden parts are never read.

Three additions to the search, all outside it:

- every iteration's result is kept per root move, from the judged seat's side: the win
  (1, a draw 0.5, or the learned value's win chance where a playout is cut off) and the
  star margin. Their means are the move's expected result and their standard errors its
  error;
- after the search, moves with fewer than ``floor`` results get more iterations that start
  with that move (then go on down the same tree), so that a move the search neglects (a bad
  one, often the one a person played) is still judged on enough deals;
- the ``LEADERS`` best moves and the ``focus`` move (the one played) are then judged
  afresh, ``close_floor`` results each, *on the same deals* (``_paired``): the luck of the
  draw cancels in the differences between them, which are the losses a review reads. A
  move of the *other* seat that a deal does not allow (a tile it may not hold) is left out
  of that deal. There, a move is valued by its best continuation within the turn, so
  that its loss agrees with the figure the next decision gets: where the decider's own
  decision follows it before any draw (play, then capture), the move is valued once with
  each of that decision's moves (up to ``MOST_CONTINUATIONS``) on the same deals and
  takes its best line's value; decisions further on in the turn are taken as the tree
  has settled on (most visits, a clear share of them), not explored;
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
from .mcts import Settings
from .search import GuidedUCB, Node, Search, edge_key

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
#: Within the turn, a continuation is followed only once the tree has settled on it: this
#: share of the visits, of at least this many (``_settled``).
SETTLED_SHARE: Final = 0.6
SETTLED_VISITS: Final = 30
#: A leading move that the same seat's decision follows in the same turn, with nothing
#: drawn between (play, then capture), is valued on the shared deals once with each of
#: that decision's moves, up to this many (the tree's most visited first), and takes the
#: best: its loss then agrees with the figure the next decision gets.
MOST_CONTINUATIONS: Final = 5
#: Deals on which a continuation's moves must agree to be valued line by line.
CONTINUATION_DEALS: Final = 8
#: How many times the shared deals are dealt afresh when a move valued only on the floor
#: comes out best (it joins the moves valued there).
RESHARES: Final = 2


Line = tuple[Move, Move | None]
"""A move valued on the shared deals, and the same seat's next move in the same turn that
it is valued with (None: the tree's own continuation)."""


@dataclass(frozen=True)
class MoveValue:
    """One move's expected result for the judged seat, with standard errors."""

    move: Move
    results: int
    """Deals (iterations) the mean is over."""
    win: float
    """Expected win chance of the judged seat, 0 to 1 (a draw counts a half)."""
    margin: float
    """Expected final star margin of the judged seat (its stars minus the other's)."""
    win_error: float
    margin_error: float


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


class _Tally:
    __slots__ = ("m", "m2", "n", "w", "w2")

    def __init__(self) -> None:
        self.n = 0
        self.w = self.w2 = self.m = self.m2 = 0.0

    def add(self, win: float, margin: float) -> None:
        self.n += 1
        self.w += win
        self.w2 += win * win
        self.m += margin
        self.m2 += margin * margin

    def merge(self, other: _Tally) -> None:
        self.n += other.n
        self.w += other.w
        self.w2 += other.w2
        self.m += other.m
        self.m2 += other.m2

    def value(self, mv: Move) -> MoveValue:
        n = self.n
        if not n:
            return MoveValue(mv, 0, 0.5, 0.0, 0.5, math.inf)
        w, m = self.w / n, self.m / n
        return MoveValue(mv, n, w, m, _error(self.w2 / n - w * w, n),
                         _error(self.m2 / n - m * m, n))


def _error(variance: float, n: int) -> float:
    return math.sqrt(max(0.0, variance) / (n - 1)) if n > 1 else math.inf


class _Recorder:
    """The evaluator: mcts's, plus each result kept under the iteration's root move."""

    def __init__(self, settings: Settings, seat: int) -> None:
        _, self.inner = settings.parts()
        self.share = settings.margin_share
        self.scale = settings.margin_scale
        self.seat = seat
        self.root_move: Move | None = None
        self.tallies: dict[Move, _Tally] = {}
        self.paired: dict[Move, _Tally] | None = None
        self.line: Move | None = None
        """The continuation the iteration's root move is valued with (``_paired``)."""
        self.lines: dict[Line, _Tally] | None = None
        """While set (``_paired``), results go here, by root move and continuation."""
        self.halves: dict[Line, tuple[_Tally, _Tally]] = {}
        """The shared deals' results again, split by the round's parity (``_paired``)."""
        self.half = -1
        """The round's parity while ``_paired`` runs, else -1 (nothing split)."""
        self.overall: _Tally | None = None
        """While set, every result is added here too, whatever its move."""
        """While set, results go here instead (``_paired``)."""

    def judge(self, search: Search, g: Game) -> tuple[float, float, float]:
        mv = self.root_move
        if mv is None:  # a dropped deal: no path to credit, nothing to play out
            return 0.5, 0.5, 0.0
        r0, r1, m0 = self.inner.judge(search, g)
        # The reward mixes the win and the squashed margin (search.mix): take the win back.
        squashed = self.share / 2 * (1.0 + math.tanh(m0 / self.scale))
        win0 = (r0 - squashed) / (1.0 - self.share) if self.share < 1.0 else 0.5
        win0 = min(1.0, max(0.0, win0))
        win, margin = (win0, m0) if self.seat == 0 else (1.0 - win0, -m0)
        line = (mv, self.line)
        if self.lines is not None:
            tally = self.lines.get(line)
            if tally is None:
                tally = self.lines[line] = _Tally()
        else:
            tallies = self.paired if self.paired is not None else self.tallies
            tally = tallies.get(mv)
            if tally is None:
                tally = tallies[mv] = _Tally()
        tally.add(win, margin)
        if self.lines is not None and self.half >= 0:
            halves = self.halves.get(line)
            if halves is None:
                halves = self.halves[line] = (_Tally(), _Tally())
            halves[self.half].add(win, margin)
        if self.overall is not None:
            self.overall.add(win, margin)
        return r0, r1, m0


class _Tree:
    """The tree policy: mcts's, or with ``forced`` set, that move first and then mcts's
    from its node. Tells the recorder each iteration's root move (None: deal dropped)."""

    def __init__(self, settings: Settings, recorder: _Recorder) -> None:
        tree, _ = settings.parts()
        assert isinstance(tree, GuidedUCB)
        self.inner = tree
        self.recorder = recorder
        self.forced: Move | None = None
        self.exploit = False
        """While set, the root move is the one the tree rates best for whoever decides,
        among those this deal allows (no exploration)."""
        self.exploit_next = False
        """While set (with ``forced``), the next decision with a choice after the forced
        move is taken the same way."""
        self.finish_turn = False
        """While set (with ``forced``), the decider's own decisions that follow the forced
        move in the same turn, with no draw between, are taken the same way: a move is
        valued by its best continuation (play, then the best capture)."""
        self.then: Move | None = None
        """While set (with ``forced``), the decider's next move in the same turn, played
        right after the forced one (a deal where it cannot be is dropped)."""
        self.learns = True
        """While unset, an iteration reads the tree and changes none of its statistics:
        its path is a copy, and a node it added is taken out again (the luck's end, whose
        deals all drew what was really drawn: a tree that learnt from them would play the
        next decision knowing the draw, which the start's choice could not)."""

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        self._descend(search, g, path)
        if not self.learns:
            _detach(search.root, path)

    def _descend(self, search: Search, g: Game, path: list[Node]) -> None:
        forced = self.forced
        if self.exploit:
            forced = _exploited(search.root, g)
        if forced is None:
            self.inner.descend(search, g, path)
            self.recorder.root_move = path[0].move if path else None
            return
        if forced not in g.legal:
            self.recorder.root_move = None
            return
        p = g.to_play
        key = edge_key(p, forced)
        child = search.root.children.get(key)
        if child is None:
            child = search.root.children[key] = Node(p, forced)
        drawn = _draws(g, p)
        g.play(forced)
        path.append(child)
        self.recorder.root_move = forced
        if self.then is not None:
            if g.is_over or g.to_play != p or _draws(g, p) != drawn or self.then not in g.legal:
                path.clear()
                self.recorder.root_move = None  # this deal does not allow the line
                return
            key = edge_key(p, self.then)
            step = child.children.get(key)
            if step is None:
                step = child.children[key] = Node(p, self.then)
            g.play(self.then)
            path.append(step)
            child = step
        if self.exploit_next:
            node: Node | None = _exploit_next(child, g, path)
        elif self.finish_turn:
            node = _finish_turn(child, g, path, p, drawn)
        else:
            node = child
        if node is not None and not g.is_over:
            below = Search(search.obs, search.rand, self.inner, self.recorder, root=node,
                           dealer=search.dealer)
            self.inner.descend(below, g, path)


def _detach(root: Node, path: list[Node]) -> None:
    """Make ``path`` (a descent from ``root``) a copy the search's statistics go to, and
    take out of the tree the node the descent added (the first without visits: the ones
    after it hang from it)."""
    parent = root
    for node in path:
        if node.n == 0:
            assert node.move is not None
            del parent.children[edge_key(node.player, node.move)]
            break
        parent = node
    path[:] = [Node(node.player, node.move) for node in path]


def _exploit_next(node: Node, g: Game, path: list[Node]) -> Node | None:
    """From ``node`` down: follow the forced moves the tree holds, then play the next
    decision with a choice as the tree rates best for its decider (``_exploited``). The
    node to go on from by the tree policy; None when the game ended on the way."""
    while not g.is_over:
        legal = g.legal
        mv = legal[0] if len(legal) == 1 else _exploited(node, g)
        child = None if mv is None else node.children.get(edge_key(g.to_play, mv))
        if mv is None or child is None:
            return node  # nothing tried here yet: the tree policy grows it
        g.play(mv)
        path.append(child)
        if len(legal) > 1:
            return child
        node = child
    return None


def _draws(g: Game, seat: int) -> tuple[int, int, int, int]:
    """What changes when chance acts or a turn passes: the land pile, the spirit pile, the
    other hand (a Fly takes from it) and the turn. (A search plays quietly: no events.)"""
    return len(g.pile), len(g.spirit_pile), len(g.hands[1 - seat]), g.turn


def _finish_turn(node: Node, g: Game, path: list[Node], seat: int,
                 drawn: tuple[int, int, int, int]) -> Node | None:
    """From ``node`` down: while ``seat`` still decides in the same turn and nothing was
    drawn since ``drawn`` (``_draws`` before the forced move), play its decisions as the
    tree has settled on (``_settled``; a single legal move as it stands). The node to go on
    from by the tree policy; None when the game ended on the way."""
    while not g.is_over:
        if g.to_play != seat or _draws(g, seat) != drawn:
            return node
        legal = g.legal
        mv = legal[0] if len(legal) == 1 else _settled(node, g)
        child = None if mv is None else node.children.get(edge_key(seat, mv))
        if mv is None or child is None:
            return node  # nothing tried, or the tree undecided: its policy goes on
        g.play(mv)
        path.append(child)
        node = child
    return None


def _settled(node: Node, g: Game) -> Move | None:
    """The move the tree has settled on at ``node`` for ``g``'s decider: the most visited
    child, if it holds at least ``SETTLED_SHARE`` of the visits (of ``SETTLED_VISITS`` at
    least). None while the tree is undecided: following its best mean then would make a
    move's value hang on which continuation one search happened to favour."""
    p = g.to_play
    children = [c for mv in g.legal if (c := node.children.get(edge_key(p, mv))) is not None]
    total = sum(c.n for c in children)
    if total < SETTLED_VISITS:
        return None
    best = max(children, key=lambda c: c.n)
    return best.move if best.n >= SETTLED_SHARE * total else None


def _exploited(node: Node, g: Game) -> Move | None:
    """The move ``g``'s decider rates best in ``node``'s children (mean reward, from its
    side), among ``g``'s legal moves; None if none was tried."""
    best: Move | None = None
    best_mean = -1.0
    p = g.to_play
    for mv in g.legal:
        child = node.children.get(edge_key(p, mv))
        if child is not None and child.n and child.w / child.n > best_mean:
            best, best_mean = mv, child.w / child.n
    return best


def _check(cancel: Signal | None) -> None:
    """Raise Cancelled once ``cancel`` is set (a hint nobody waits for any more)."""
    if cancel is not None and cancel.is_set():
        raise Cancelled


def _top_up(search: Search, tree: _Tree, tallies: dict[Move, _Tally], moves: list[Move],
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


def _continuations(search: Search, mv: Move) -> list[Move | None]:
    """The moves of the decider's next decision when ``mv`` is followed by another of its
    decisions in the same turn with nothing drawn between (the tree's most visited first,
    up to ``MOST_CONTINUATIONS``); else ``[None]``. Also ``[None]`` where those moves
    differ from deal to deal (the Renard's: a tile of the other hand, which the seat sees
    only then): a line would be valued only on the deals that allow it, and the best of
    such lines would be the best of the other hands, not of the seat's moves."""
    options: set[tuple[Move, ...]] = set()
    for _ in range(CONTINUATION_DEALS):
        g = search.dealer.deal(search.rand)
        if mv not in g.legal:
            return [None]
        p = g.to_play
        drawn = _draws(g, p)
        g.play(mv)
        if g.is_over or g.to_play != p or _draws(g, p) != drawn or len(g.legal) < 2:
            return [None]
        options.add(tuple(g.legal))
    if len(options) > 1:
        return [None]
    child = search.root.children.get(edge_key(p, mv))

    def visits(then: Move) -> int:
        node = child.children.get(edge_key(p, then)) if child is not None else None
        return node.n if node is not None else 0

    ranked = sorted(g.legal, key=lambda then: (-visits(then), str(then)))
    return list(ranked[:MOST_CONTINUATIONS])


def _paired(search: Search, tree: _Tree, recorder: _Recorder, moves: list[Move],
            count: int, cancel: Signal | None = None,
            continued: bool = False) -> dict[Move, _Tally]:
    """``count`` fresh results for each of ``moves``, all on the same deals: each round
    draws one seed, and every move's iteration starts from a generator of that seed, so
    they meet the same hidden tiles, spirits and draws. The luck of the draw, most of a
    result's spread, then largely cancels in the differences between them (the losses).
    A move a deal does not allow (the other seat's) has fewer results. With ``continued``,
    a move the same seat's decision follows within the turn is valued once with each of
    that decision's moves (``_continuations``), and its result is its best line's."""
    lines: list[Line] = []
    for mv in moves:
        thens = _continuations(search, mv) if continued else [None]
        lines.extend((mv, then) for then in thens)
    recorder.lines = {}
    recorder.halves = {}
    master = search.rand
    rounds = 0
    tree.finish_turn = True
    try:
        while lines and rounds < count * TRIES_PER_RESULT and min(
                (recorder.lines[line].n if line in recorder.lines else 0)
                for line in lines) < count:
            rounds += 1
            recorder.half = rounds % 2
            _check(cancel)
            deal = master.getrandbits(64)
            for mv, then in lines:
                search.rand = random.Random(deal)
                tree.forced, tree.then, recorder.line = mv, then, then
                search.iterate()
    finally:
        search.rand = master
        tree.forced = tree.then = recorder.line = None
        tree.finish_turn = False
        recorder.half = -1
    found, recorder.lines = recorder.lines, None
    paired: dict[Move, _Tally] = {}
    for (mv, _then), tally in found.items():
        best = paired.get(mv)
        if tally.n and (best is None or tally.m / tally.n > best.m / best.n):
            paired[mv] = tally
    return paired


def _luck(search: Search, tree: _Tree, recorder: _Recorder, focus: Move, count: int,
          after: Observation | None, path: Sequence[tuple[int, Move]],
          cancel: Signal | None = None) -> tuple[MoveValue | None, MoveValue | None]:
    """A stretch of luck's two ends. The start: ``count`` fresh results for ``focus`` with
    the next decision after it played as the tree rates best for its decider
    (``_Tree.exploit_next``). The end, with ``after`` (the seat's observation at that next
    decision, once ``path`` was played: the focus move, then the moves up to there, as
    ``(seat, move)``, and the chance between fell as it did): ``count`` results from
    ``after``, that decision played the same way from the tree's node after ``path``
    (``_Tree.exploit``): the start's valuation, on the deals that drew what was drawn.
    The two are iterated in turn, so both read the same tree as it grows, and only the
    start grows it (``_Tree.learns``: the end's deals all know the draw, and a tree that
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
    starts: dict[Move, _Tally] = {}
    ends: dict[Move, _Tally] = {}
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
    total = _Tally()
    for tally in ends.values():  # each deal's result, whatever the decider chose
        total.merge(tally)
    return start, (total.value(focus) if total.n else None)


def _unbiased(halves: dict[Line, tuple[_Tally, _Tally]]) -> MoveValue | None:
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


def _leaders(tallies: dict[Move, _Tally], moves: tuple[Move, ...]) -> list[Move]:
    """The ``LEADERS`` moves with the highest mean margin so far, and any other that its
    few results cannot tell from the first (within ``WITHIN`` standard errors of the
    difference), up to ``MOST_LEADERS`` in all: a move the floor's deals happened to
    undervalue still gets the shared deals."""
    def value(mv: Move) -> MoveValue:
        return (tallies.get(mv) or _Tally()).value(mv)
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
    recorder = _Recorder(settings, seat)
    tree = _Tree(settings, recorder)
    search = Search(obs, random.Random(seed), tree, recorder)
    search.run(Stopwatch(Budget(iterations=iterations), Budget(), cancel))
    _check(cancel)
    tallies = recorder.tallies
    mine = obs.to_play == seat and not obs.spectator
    predicted = max(tallies, key=lambda mv: (tallies[mv].n, str(mv)), default=None)
    close: list[Move] = []
    if mine:
        _top_up(search, tree, tallies, list(obs.legal_moves), floor, cancel)
        close = _leaders(tallies, obs.legal_moves)
    if focus is not None and focus not in close:
        close.append(focus)
    paired = _paired(search, tree, recorder, close, close_floor, cancel, continued=mine)

    def value(mv: Move) -> MoveValue:
        return (paired.get(mv) or tallies.get(mv) or _Tally()).value(mv)

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
            paired = _paired(search, tree, recorder, close, close_floor, cancel,
                             continued=True)
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
        recorder.overall = _Tally()
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
