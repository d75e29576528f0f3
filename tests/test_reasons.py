"""Reasons in game terms: every fact a reason says holds when the move is played in the real
game, and a reason names no tile the deciding seat could not see."""

from __future__ import annotations

import random

import pytest

from solstis_tui.coach.move_facts import CHANCE, Panoramas
from solstis_tui.coach.reasons import (
    BestCapture,
    CaptureChoice,
    Captures,
    Denied,
    DrawUnseen,
    EvilForbids,
    EvilPassed,
    Firefly,
    FiresLit,
    LeftInDisplay,
    NoCapture,
    RainbowBlocked,
    RainbowOn,
    Section,
    SpiritGain,
    SquareDone,
    SquareNear,
    Stars,
    TileLost,
    ToLine,
    differences,
    explain,
    facts,
    say,
)
from solstis_tui.core import Decision, Game, Move, Options
from solstis_tui.core.board import NAMES, SQUARE_CELLS, SQUARES
from solstis_tui.core.events import Captured, Covered, Discarded, Kept, Took, TurnBegan
from solstis_tui.core.scoring import score_panorama
from solstis_tui.core.spirits import Spirit
from solstis_tui.words.moves import describe_move

VARIANTS = {"base": Options(), "beginner": Options(beginner=True),
            "firefly": Options(firefly=True)}
NAMES_OF = ("You", "Expert")


def positions(options: Options, seed: int, every: int = 2):
    """(game, observation) at every ``every``-th decision with a real choice of a random
    game."""
    g = Game.new(seed=seed, options=options)
    rand = random.Random(seed)
    k = 0
    while not g.is_over:
        if len(g.legal) > 1:
            k += 1
            if k % every == 0:
                yield g, g.observation(g.to_play)
        g.play(rand.choice(g.legal_moves()))


def _filled(g: Game, seat: int) -> int:
    return g.land[seat] | g.rainbow_cells[seat]


#: Where what a move did ends and the draw's (or the other seat's) doing begins.
CUTS = (*CHANCE, Covered, TurnBegan)


def at_cut(before: Game, after: Game, cuts: tuple[type, ...] = CUTS) -> Game:
    """``after`` with both panoramas and the tiles out of the game as they stood when the
    move's own events ended (a draw, the other seat's cover, the next turn): followed
    event by event with ``Panoramas``, which the engine checks below."""
    panoramas = Panoramas(before)
    for ev in after.log[len(before.log):]:
        if isinstance(ev, cuts):
            break
        panoramas.follow(ev)
    cut = after.copy()
    cut.land, cut.rainbow_cells = list(panoramas.land), list(panoramas.rainbows)
    cut.removed = panoramas.removed
    return cut


def holds(fact, before: Game, after: Game, me: int) -> bool:
    """``fact`` checked in the engine: ``after`` is ``before`` with the move played. What
    the move built (sections, squares, fires) is checked where its own events end: a
    draw after it is luck, not the move."""
    log = after.log[len(before.log):]
    if isinstance(fact, Section | SquareDone | SquareNear | FiresLit):
        after = at_cut(before, after)
    match fact:
        case Captures(tile=tile, target=target):
            return any(isinstance(e, Captured) and e.player == me and e.tile == tile
                       and e.target == target for e in log)
        case CaptureChoice(tile=tile, targets=targets):
            return (after.decision is Decision.CAPTURE and after.context[0] == tile
                    and {m.arg for m in after.legal} == set(targets))
        case BestCapture(target=target, gain=gain):
            if after.decision is not Decision.CAPTURE:
                return False
            gains = {}
            for mv in after.legal:
                trial = after.copy()
                trial.play(mv)
                gains[mv.arg] = trial.score(me).total - after.score(me).total
            return gains[target] == gain == max(gains.values()) and \
                sorted(gains.values())[-2:-1] != [gain]
        case NoCapture(tile=tile, seat=seat, stars=stars, square=square):
            return (any(isinstance(e, Discarded) and e.tile == tile for e in log)
                    and is_worth(before, seat, tile, stars, square, or_less=True))
        case Denied(seat=seat, tile=tile, stars=stars, square=square):
            return (any(isinstance(e, Captured) and e.player == me and e.target == tile
                        for e in log)
                    and tile in before.face_up and tile not in after.face_up
                    and is_worth(before, seat, tile, stars, square))
        case SquareNear(seat=seat, square=sq):  # and its last tile is still to be had
            cells = SQUARE_CELLS[sq]
            last = cells & ~_filled(after, seat)
            return (_filled(after, seat) & cells).bit_count() == 3 > \
                (_filled(before, seat) & cells).bit_count() \
                and not (after.removed | after.land[1 - seat]) & last
        case Section(seat=seat, before=b, after=a):
            return (before.score(seat).biggest_section == b
                    and after.score(seat).biggest_section == a)
        case SquareDone(seat=seat, squares=squares, spirit=spirit, fireflies=fireflies):
            done = [sq for sq in SQUARES
                    if _filled(after, seat) & SQUARE_CELLS[sq] == SQUARE_CELLS[sq]
                    != _filled(before, seat) & SQUARE_CELLS[sq]]
            return (list(squares) == done
                    and spirit == bool(before.spirit_pile or before.spirit_line)
                    and fireflies == (before.options.firefly and len(done) > 1))
        case Stars(seat=seat, before=b, after=a):
            return before.score(seat).total == b and after.score(seat).total == a
        case FiresLit(seat=seat, before=b, after=a):
            return before.score(seat).lit_fires == b and after.score(seat).lit_fires == a
        case SpiritGain(seat=seat, spirit=spirit, stars=stars):
            if not any(isinstance(e, (Kept, Took)) and e.spirit == spirit for e in log):
                return False
            placed = after.copy()
            while placed.decision is Decision.SQUARE and placed.to_play == seat:
                placed.play(placed.legal[0])
            if not any(s == spirit for s, _ in placed.spirits[seat]):
                return False
            if placed.is_over or _filled(placed, seat) != _filled(before, seat):
                return True  # a plain spirit's effect or the game's end: not comparable
            # Fireflies landing on the turn's other squares (Firefly) are not the spirit's.
            with_it = score_panorama(placed.land[seat], placed.rainbow_cells[seat],
                                     placed.spirits[seat], before.fireflies[seat],
                                     placed.covered[seat])
            return with_it.total - before.score(seat).total == stars
        case ToLine(seat=seat, spirit=spirit, stars=stars):
            if spirit not in after.spirit_line or spirit in before.spirit_line:
                return False
            with_it = score_panorama(before.land[seat], before.rainbow_cells[seat],
                                     (*before.spirits[seat], (spirit, -1)),
                                     before.fireflies[seat], before.covered[seat])
            return with_it.total - before.score(seat).total == stars
        case DrawUnseen(pile=pile):
            return len(before.spirit_pile) == pile
        case LeftInDisplay(seat=seat, tile=tile, stars=stars, square=square):
            return tile in after.face_up and is_worth(after, seat, tile, stars, square)
        case RainbowOn(seat=seat, cell=cell):
            return bool(after.rainbow_cells[seat] >> cell & 1
                        and not before.rainbow_cells[seat] >> cell & 1)
        case RainbowBlocked(seat=seat, cell=cell):
            return bool(after.rainbow_cells[seat] >> cell & 1 and after.blocked[seat] >> cell & 1)
        case TileLost(tile=tile):
            return bool(after.removed >> tile & 1) and not before.removed >> tile & 1
        case EvilPassed(seat=seat):
            return after.evil_player == seat != before.evil_player
        case EvilForbids(seat=seat, cell=cell):
            return after.evil_player == seat and after.evil_cell == cell
        case Firefly(seat=seat, square=sq, count=count):
            return (bool(after.fireflies[seat] >> sq & 1)
                    and before.fireflies[seat].bit_count() < count
                    <= after.fireflies[seat].bit_count())
    raise AssertionError(f"the test does not know {fact!r}")


def is_worth(g: Game, seat: int, tile: int, stars: int, square: int,
             or_less: bool = False) -> bool:
    """``tile`` would add ``stars`` to ``seat``'s score in ``g`` (and complete their
    square at ``square``, if not -1), were it put into their panorama (a cell the Evil
    Spirit forbids, or a blocked rainbow's, loses it: worth nothing). ``or_less``: "worth
    0" also stands for less than nothing."""
    bit = 1 << tile
    lost = g.blocked[seat] & g.rainbow_cells[seat] & bit
    if lost or (g.evil_player == seat and g.evil_cell == tile):
        return (stars, square) == (0, -1)
    into = g.copy()
    into.land[seat] |= bit
    into.rainbow_cells[seat] &= ~bit
    gain = into.score(seat).total - g.score(seat).total
    if square >= 0:
        cells = SQUARE_CELLS[square]
        if _filled(into, seat) & cells != cells or _filled(g, seat) & cells == cells:
            return False
    return gain == stars or (or_less and stars == 0 and gain < 0)


def seen_names(obs) -> set[str]:
    seen = set(obs.hand) | set(obs.opponent_known) | set(obs.removed) | set(obs.in_transit)
    seen.update(t for t, _ in obs.display)
    for view in obs.panoramas:
        seen.update(view.land)
    return {NAMES[t] for t in seen}


def test_every_fact_a_reason_states_holds_when_the_move_is_played():
    """Many seeded positions of the three variants: each fact of each legal move is
    checked in the real game, the move played."""
    kinds: set[str] = set()
    checked = 0
    for variant, options in VARIANTS.items():
        for seed in (1, 2, 3, 4, 5, 6):
            for g, obs in positions(options, seed):
                me = obs.player
                for mv in obs.legal_moves:
                    said = facts(obs, mv, deals=4)
                    after = g.copy()
                    after.play(mv)
                    for fact in said:
                        assert holds(fact, g, after, me), (variant, seed, str(mv), fact)
                        kinds.add(type(fact).__name__)
                        if isinstance(fact, NoCapture) and fact.square >= 0:
                            kinds.add("NoCapture completing a square")
                        checked += 1
    assert checked > 500
    assert {"Stars", "Captures", "CaptureChoice", "BestCapture", "NoCapture", "Section",
            "SquareDone", "FiresLit", "SpiritGain", "ToLine", "DrawUnseen",
            "LeftInDisplay", "NoCapture completing a square", "RainbowBlocked",
            "TileLost", "Denied", "SquareNear"} <= kinds, kinds


def test_the_panoramas_followed_event_by_event_are_the_engines():
    """``Panoramas`` follows a move's events; followed to the end, what it ends with is
    exactly the engine's land, rainbows and lost tiles, whatever the move set going (so
    the position it gives where a draw cuts them is the engine's too)."""
    compared, kinds = 0, set()
    for variant, seed in (("base", 3), ("base", 7), ("beginner", 1), ("firefly", 14)):
        for g, obs in positions(VARIANTS[variant], seed, every=1):
            for mv in obs.legal_moves:
                after = g.copy()
                after.play(mv)
                kinds.update(type(ev).__name__ for ev in after.log[len(g.log):])
                cut = at_cut(g, after, cuts=())
                assert (cut.land, cut.rainbow_cells, cut.removed) == (
                    list(after.land), list(after.rainbow_cells), after.removed), \
                    (variant, seed, str(mv))
                compared += 1
    assert compared > 500
    assert {"Placed", "RainbowPlaced", "RainbowShifted", "Removed", "ViperTook"} <= kinds


def test_a_square_completed_before_a_forced_draw_is_still_said():
    """A move that completes a square, where the spirit must be drawn at once (the line is
    empty): the square, the section and the fires are facts of the move, said as they
    stood before the draw; the draw itself is luck."""
    found = 0
    for variant, options in VARIANTS.items():
        for seed in range(1, 13):
            for g, obs in positions(options, seed, every=1):
                for mv in obs.legal_moves:
                    after = g.copy()
                    after.play(mv)
                    log = after.log[len(g.log):]
                    cut = next((i for i, ev in enumerate(log) if isinstance(ev, CHANCE)), None)
                    if cut is None:
                        continue
                    said = facts(obs, mv, deals=4)
                    for fact in said:
                        assert holds(fact, g, after, obs.player), (variant, seed, str(mv), fact)
                    if any(isinstance(f, SquareDone) for f in said):
                        found += 1
    assert found >= 3


def test_the_evil_spirit_and_fireflies_are_told_truly():
    """Games where the Evil Spirit is passed (base) and placed, and fireflies land
    (Firefly): those facts hold too."""
    kinds: set[str] = set()
    for variant, seed in (("base", 9), ("firefly", 11), ("firefly", 12), ("firefly", 27)):
        for g, obs in positions(VARIANTS[variant], seed, every=1):
            for mv in obs.legal_moves:
                said = facts(obs, mv, deals=4)
                after = g.copy()
                after.play(mv)
                for fact in said:
                    assert holds(fact, g, after, obs.player), (variant, seed, str(mv), fact)
                    kinds.add(type(fact).__name__)
    assert {"EvilPassed", "EvilForbids", "Firefly"} <= kinds, kinds


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_reason_says_each_of_its_facts_and_names_no_tile_the_seat_cannot_see(variant):
    for g, obs in positions(VARIANTS[variant], 4, every=3):
        names = NAMES_OF if obs.player == 0 else NAMES_OF[::-1]
        best, played = obs.legal_moves[0], obs.legal_moves[-1]
        text = explain(obs, played, best, names, deals=4)
        only_best, only_played, _ = differences(obs, played, best, deals=4)
        told = [f for f in only_best + only_played if say(f, obs.player, names) in text]
        assert told or not only_best + only_played, text  # a difference found is said
        after_best, after_played = g.copy(), g.copy()
        after_best.play(best)
        after_played.play(played)
        assert all(holds(f, g, after_best, obs.player) for f in only_best), text
        assert all(holds(f, g, after_played, obs.player) for f in only_played), text
        named = {w.strip(".,():") for w in text.split()} & set(NAMES.values())
        visible = seen_names(obs) | {NAMES[c] for f in only_best + only_played
                                     for c in _cells_of(f)}
        assert named <= visible, (text, named - visible)
        assert 1 <= text.count(". ") + 1 <= 3 and len(text) < 400


def _cells_of(fact) -> list[int]:
    """Cells (not tiles) a fact may name: squares, rainbows, forbidden cells."""
    match fact:
        case SquareDone(squares=squares):
            return list(squares)
        case Firefly(square=sq):
            return [sq]
        case LeftInDisplay(square=sq) | NoCapture(square=sq) | Denied(square=sq) if sq >= 0:
            return [sq]
        case SquareNear(square=sq):
            return [sq]
        case RainbowOn(cell=c) | RainbowBlocked(cell=c) | EvilForbids(cell=c):
            return [c]
    return []


def test_tiles_that_capture_nothing_are_told_apart_by_their_worth_to_the_other_seat():
    """Two tiles that would only join the display: the reason says what each is worth to
    the other seat there; worth the same, it says they do the same this turn."""
    alike = unlike = 0
    for _g, obs in positions(Options(), 7, every=1):
        names = NAMES_OF if obs.player == 0 else NAMES_OF[::-1]
        dropped = {mv: f for mv in obs.legal_moves
                   for f in facts(obs, mv, deals=2) if isinstance(f, NoCapture)}
        for a, fa in dropped.items():
            for b, fb in dropped.items():
                if a == b:
                    continue
                text = explain(obs, a, b, names, deals=2)
                if (fa.stars, fa.square) == (fb.stars, fb.square):
                    alike += 1
                    assert text == (f"{describe_move(b).capitalize()} does what "
                                    f"{describe_move(a)} does this turn: the difference is "
                                    "in what may follow."), text
                else:
                    unlike += 1
                    me = obs.player
                    assert say(fb, me, names) in text and say(fa, me, names) in text, text
                    assert "★ to" in text, text
    assert alike and unlike


def test_a_hidden_tile_is_never_named_even_when_every_deal_agrees():
    """With one deal, every deal agrees (a tile a capture turned up, say); a tile the seat
    could not see is still never named: a filter, not luck, keeps hidden tiles out."""
    for _g, obs in positions(Options(), 5, every=1):
        for mv in obs.legal_moves:
            for fact in facts(obs, mv, deals=1):
                for t in (getattr(fact, "tile", None), getattr(fact, "target", None)):
                    assert t is None or NAMES[t] in seen_names(obs), (str(mv), fact)


def test_the_example_sentence_reads_in_game_terms():
    g = Game.new(seed=3, options=Options())
    obs = g.observation(g.to_play)
    text = explain(obs, obs.legal_moves[1], obs.legal_moves[0], ("You", "Expert"))
    assert text.startswith("Play ") and text.endswith(".")
    assert "[" not in text  # plain words, no markup


def test_names_are_kept_as_written():
    g = Game.new(seed=2, options=Options())
    rand = random.Random(0)
    for _ in range(12):
        g.play(rand.choice(g.legal_moves()))
    obs = g.observation(g.to_play)
    fact = LeftInDisplay(1 - obs.player, obs.display[0][0], 2, -1)
    names = ["[bold]Ann[/]", "[red]Bob"]
    assert names[1 - obs.player] in say(fact, obs.player, names)


def test_taking_a_spirit_says_its_stars_and_drawing_says_it_is_luck():
    assert say(DrawUnseen(1), 0, NAMES_OF) == "leaves it to luck (1 unseen spirit in the pile)"
    assert say(DrawUnseen(7), 0, NAMES_OF) == "leaves it to luck (7 unseen spirits in the pile)"
    fact = SpiritGain(0, Spirit.BEE, 3)
    assert say(fact, 0, NAMES_OF) == "is worth 3★ now (+1 per plain spirit)"
    assert "another turn" in say(SpiritGain(0, Spirit.MARMOT, 1), 0, NAMES_OF)


def test_an_illegal_move_is_refused_with_a_message():
    g = Game.new(seed=1, options=Options())
    obs = g.observation(g.to_play)
    with pytest.raises(ValueError, match="not a legal move"):
        facts(obs, Move.parse("draw"))


def test_the_analysis_says_why_in_game_terms_and_keeps_the_figures():
    """A greedy game where taking the Bee instead of the Squirrel costs stars: the
    analysis's reason names both spirits' worth and then the loss."""
    from solstis_tui.ai.registry import make_bot
    from solstis_tui.coach import analysis

    g = Game.new(seed=11, options=Options())
    bot = make_bot("greedy", 1)
    while len(g.history) < 48:
        g.play(bot.choose(g.observation(g.to_play)))
    g.play(Move.parse("take bee"))
    found = analysis.analyse(g, ("Ann", "Bob"), seed=3, effort=analysis.Effort(300, 20, 120),
                             since=48)
    note = found.decisions()[0]
    assert str(note.best) == "take squirrel"
    words, _, figures = note.reason.rpartition(" (")
    assert words.startswith("Take the Squirrel from the line is worth")
    assert "Take the Bee from the line is worth" in words
    stars, win = figures.removesuffix("% win)").split("★, ")
    assert stars.startswith("−") and abs(float(stars[1:]) - note.loss_stars) <= 0.051
    assert abs(float(win.replace("−", "-")) + note.loss_win * 100) <= 0.51
    assert "plus the tiles left in hand at the end" in words
    assert analysis.to_json(found)["decisions"][0]["reason"] == note.reason


def test_against_a_draw_a_take_is_not_credited_with_what_the_draw_may_do_too():
    """Taking a spirit from the line, against drawing two: the taken spirit's square, the
    display left and the Evil Spirit passed would come of the draw too (its spirit sits
    somewhere as well), so the reason says only what is the take's own."""
    from solstis_tui.coach.move_facts import _POSITION

    met = 0
    for variant in ("base", "firefly"):
        for seed in range(1, 12):
            for _g, obs in positions(VARIANTS[variant], seed, every=1):
                draw = Move.parse("draw")
                takes = [m for m in obs.legal_moves if str(m).startswith("take ")]
                if draw not in obs.legal_moves or not takes:
                    continue
                only_take, only_draw, _ = differences(obs, draw, takes[0], deals=4)
                met += 1
                assert not [f for f in only_take if isinstance(f, _POSITION)], only_take
                assert only_draw == [DrawUnseen(obs.spirit_pile)]
    assert met >= 5


def test_a_capture_that_denies_a_tile_says_whom_it_is_kept_from():
    tile, square = 23, 33
    assert say(Denied(1, tile, 2, -1), 0, NAMES_OF) == \
        f"keeps {NAMES[tile]} from Expert (worth +2★ to them)"
    assert say(Denied(0, tile, 1, square), 1, NAMES_OF) == (
        f"keeps {NAMES[tile]} from you (worth +1★ to you, completing your square at "
        f"{NAMES[square]})")
    assert say(SquareNear(0, square), 0, NAMES_OF) == \
        f"brings the square at {NAMES[square]} to 3 of its 4 cells"


def test_two_captures_denying_tiles_of_equal_worth_do_not_list_the_denial_as_a_difference():
    alike = 0
    for variant in ("base", "beginner"):
        for seed in (1, 2, 3):
            for _g, obs in positions(VARIANTS[variant], seed, every=1):
                denied = {mv: f for mv in obs.legal_moves
                          for f in facts(obs, mv, deals=2) if isinstance(f, Denied)}
                for a, fa in denied.items():
                    for b, fb in denied.items():
                        if a != b and (fa.stars, fa.square) == (fb.stars, fb.square):
                            alike += 1
                            only_b, only_a, _ = differences(obs, a, b, deals=2)
                            assert not any(isinstance(f, Denied) for f in only_a + only_b)
    assert alike


def test_a_tile_worth_less_than_nothing_to_the_other_seat_reads_as_worth_nothing():
    from solstis_tui.coach.move_facts import tile_worth
    from solstis_tui.core import MoveKind

    for g, obs in positions(VARIANTS["base"], 8, every=1):
        for mv in obs.legal_moves:
            if mv.kind is MoveKind.PLAY and tile_worth(g, 1 - obs.player, mv.arg) == (-1, -1):
                (fact,) = [f for f in facts(obs, mv, deals=2) if isinstance(f, NoCapture)]
                assert (fact.stars, fact.square) == (0, -1)
                assert say(fact, obs.player, NAMES_OF) == \
                    "captures nothing (it joins the display: a second chance)"
                return
    raise AssertionError("no tile worth less than nothing came up: choose another seed")


def test_a_tile_worth_no_stars_that_would_complete_a_square_says_only_the_square():
    assert say(LeftInDisplay(1, 23, 0, 33), 0, NAMES_OF) == \
        f"leaves {NAMES[23]} in the display, where it would complete Expert's square at " \
        f"{NAMES[33]} (a spirit)"
    assert say(Denied(1, 23, 0, 33), 0, NAMES_OF) == \
        f"keeps {NAMES[23]} from Expert (it would complete their square at {NAMES[33]})"
