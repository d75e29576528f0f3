"""The judge's hold on its search (``judge``): each iteration's result kept under its root
move and line (``Recorder``), and a tree policy that forces a move, follows a line of the
seat's next moves, and plays decisions as the tree rates them (``TreePolicy``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from solstis_tui.core import Game, Move

from .mcts import Settings
from .search import GuidedUCB, Node, Search, edge_key

#: Within the turn, a continuation is followed only once the tree has settled on it: this
#: share of the visits, of at least this many (``settled``).
SETTLED_SHARE: Final = 0.6
SETTLED_VISITS: Final = 30


Line = tuple[Move, tuple[Move, ...]]
"""A move valued on the shared deals, and the same seat's next moves in the same turn that
it is valued with (none: the tree's own continuation)."""


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


class Tally:
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

    def merge(self, other: Tally) -> None:
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


class Recorder:
    """The evaluator: mcts's, plus each result kept under the iteration's root move."""

    def __init__(self, settings: Settings, seat: int) -> None:
        _, self.inner = settings.parts()
        self.share = settings.margin_share
        self.scale = settings.margin_scale
        self.seat = seat
        self.root_move: Move | None = None
        self.tallies: dict[Move, Tally] = {}
        self.paired: dict[Move, Tally] | None = None
        self.line: tuple[Move, ...] = ()
        """The continuation the iteration's root move is valued with (``_paired``)."""
        self.lines: dict[Line, Tally] | None = None
        """While set (``_paired``), results go here, by root move and continuation."""
        self.halves: dict[Line, tuple[Tally, Tally]] = {}
        """The shared deals' results again, split by the round's parity (``_paired``)."""
        self.half = -1
        """The round's parity while ``_paired`` runs, else -1 (nothing split)."""
        self.overall: Tally | None = None
        """While set, every result is added here too, whatever its move."""

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
                tally = self.lines[line] = Tally()
        else:
            tallies = self.paired if self.paired is not None else self.tallies
            tally = tallies.get(mv)
            if tally is None:
                tally = tallies[mv] = Tally()
        tally.add(win, margin)
        if self.lines is not None and self.half >= 0:
            halves = self.halves.get(line)
            if halves is None:
                halves = self.halves[line] = (Tally(), Tally())
            halves[self.half].add(win, margin)
        if self.overall is not None:
            self.overall.add(win, margin)
        return r0, r1, m0


class TreePolicy:
    """The tree policy: mcts's, or with ``forced`` set, that move first and then mcts's
    from its node. Tells the recorder each iteration's root move (None: deal dropped)."""

    def __init__(self, settings: Settings, recorder: Recorder) -> None:
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
        self.then: tuple[Move, ...] = ()
        """While set (with ``forced``), the decider's next moves in the same turn, played
        right after the forced one (a deal where they cannot be is dropped)."""
        self.learns = True
        """While unset, an iteration reads the tree and changes none of its statistics:
        its path is a copy, and a node it added is taken out again (the luck's end, whose
        deals all drew what was really drawn: a tree that learnt from them would play the
        next decision knowing the draw, which the start's choice could not)."""

    def descend(self, search: Search, g: Game, path: list[Node]) -> None:
        self._descend(search, g, path)
        if not self.learns:
            detach(search.root, path)

    def _descend(self, search: Search, g: Game, path: list[Node]) -> None:
        forced = self.forced
        if self.exploit:
            forced = exploited(search.root, g)
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
        drawn = draws(g, p)
        g.play(forced)
        path.append(child)
        self.recorder.root_move = forced
        for then in self.then:
            if g.is_over or g.to_play != p or draws(g, p) != drawn or then not in g.legal:
                path.clear()
                self.recorder.root_move = None  # this deal does not allow the line
                return
            key = edge_key(p, then)
            step = child.children.get(key)
            if step is None:
                step = child.children[key] = Node(p, then)
            g.play(then)
            path.append(step)
            child = step
        if self.exploit_next:
            node: Node | None = exploit_next(child, g, path)
        elif self.finish_turn:
            node = settle_turn(child, g, path, p, drawn)
        else:
            node = child
        if node is not None and not g.is_over:
            below = Search(search.obs, search.rand, self.inner, self.recorder, root=node,
                           dealer=search.dealer)
            self.inner.descend(below, g, path)


def detach(root: Node, path: list[Node]) -> None:
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


def exploit_next(node: Node, g: Game, path: list[Node]) -> Node | None:
    """From ``node`` down: follow the forced moves the tree holds, then play the next
    decision with a choice as the tree rates best for its decider (``exploited``). The
    node to go on from by the tree policy; None when the game ended on the way."""
    while not g.is_over:
        legal = g.legal
        mv = legal[0] if len(legal) == 1 else exploited(node, g)
        child = None if mv is None else node.children.get(edge_key(g.to_play, mv))
        if mv is None or child is None:
            return node  # nothing tried here yet: the tree policy grows it
        g.play(mv)
        path.append(child)
        if len(legal) > 1:
            return child
        node = child
    return None


def draws(g: Game, seat: int) -> tuple[int, int, int, int]:
    """What changes when chance acts or a turn passes: the land pile, the spirit pile, the
    other hand (a Fly takes from it) and the turn. (A search plays quietly: no events.)"""
    return len(g.pile), len(g.spirit_pile), len(g.hands[1 - seat]), g.turn


def settle_turn(node: Node, g: Game, path: list[Node], seat: int,
                 drawn: tuple[int, int, int, int]) -> Node | None:
    """From ``node`` down: while ``seat`` still decides in the same turn and nothing was
    drawn since ``drawn`` (``draws`` before the forced move), play its decisions as the
    tree has settled on (``settled``; a single legal move as it stands). The node to go on
    from by the tree policy; None when the game ended on the way."""
    while not g.is_over:
        if g.to_play != seat or draws(g, seat) != drawn:
            return node
        legal = g.legal
        mv = legal[0] if len(legal) == 1 else settled(node, g)
        child = None if mv is None else node.children.get(edge_key(seat, mv))
        if mv is None or child is None:
            return node  # nothing tried, or the tree undecided: its policy goes on
        g.play(mv)
        path.append(child)
        node = child
    return None


def settled(node: Node, g: Game) -> Move | None:
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


def exploited(node: Node, g: Game) -> Move | None:
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
