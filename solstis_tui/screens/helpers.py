"""Words for the game screen: moves in plain English, the prompt line, a hint's reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..core import Decision, Move, MoveKind, Observation, Spirit
from ..core.board import MATCH, NAMES
from ..session import Session
from ..session_view import SessionView
from ..widgets.view import ASCII, UNICODE, BoardView, asciify
from . import choices


class PromptState(Protocol):
    """What the prompt line is made from: the game screen's state (typed here, so that
    this module does not import the screen)."""

    session: SessionView
    view: BoardView | None
    shown_player: int | None
    paused: bool
    notice: str
    thinking_since: float | None
    turn_in_prompt: bool

    @property
    def obs(self) -> Observation: ...


def describe_move(move: Move) -> str:
    """``move`` in a player's words: 'play 3-5', 'take the Bee', 'rainbow on 2-4'."""
    k, a = move.kind, move.arg
    name = NAMES.get(a, "")
    if k in (MoveKind.TAKE, MoveKind.KEEP, MoveKind.COVER):
        title = Spirit(a).title
        return {MoveKind.TAKE: f"take the {title} from the line",
                MoveKind.KEEP: f"keep the {title}",
                MoveKind.COVER: f"cover the {title}"}[k]
    words = {
        MoveKind.PLAY: f"play {name}",
        MoveKind.PASS: "pass",
        MoveKind.CAPTURE: f"capture {name}",
        MoveKind.RAINBOW: f"rainbow on {name}",
        MoveKind.SHIFT: f"move the rainbow to {name}",
        MoveKind.DRAW: "draw two spirits",
        MoveKind.SQUARE: f"the square at {name}",
        MoveKind.DEER: f"Deer: put {name} into the panorama",
        MoveKind.BEETLE: f"Beetle: take {name}",
        MoveKind.VIPER: f"Viper: take {name}",
        MoveKind.RENARD: f"Renard: force {name}",
        MoveKind.EVIL: f"Evil Spirit on {name}",
    }
    return words.get(k, str(move))


def hint_reason(obs: Observation, ranked: list[tuple[Move, float]]) -> str:
    """A short why for the best move of ``ranked`` (best first)."""
    best, value = ranked[0]
    why = []
    if best.kind is MoveKind.PLAY:
        caps = [NAMES[t] for t, _ in obs.display if MATCH[best.arg] >> t & 1]
        why.append(f"captures {', '.join(caps)}" if caps else
                   "no capture: second chance, maybe a rainbow")
    if len(ranked) > 1:
        second, v2 = ranked[1]
        if value != v2:
            why.append(f"{value:+.1f}★ vs {v2:+.1f}★ for {describe_move(second)} "
                       "(expected star margin)")
        else:
            why.append("several moves look equally good")
    return "; ".join(why) or "the only sensible choice"


def prompt_text(screen: PromptState) -> tuple[str, str, bool]:
    """(headline, detail, thinking) for the prompt line (a notice is shown once)."""
    s, game, view = screen.session, screen.obs, screen.view
    assert view is not None
    assists = s.assists
    keys_tail = " · u undo · t hint · ? help" if assists else " · ? help"
    if game.is_over:
        if game.end_reason == "fireflies":
            result = f"{s.name(game.winner)} wins with a 4th firefly"
        elif game.winner is None:
            result = "a shared win"
        else:
            result = f"{s.name(game.winner)} {'win' if s.name(game.winner) == 'You' else 'wins'}"
        undo = " · u undo" if s.can_undo() else ""
        held = sum(game.hand_counts) if game.spectator else \
            len(game.hand) + game.opponent_hand_count
        why = " Neither player could capture: tiles left in hand score nothing." \
            if game.end_reason != "fireflies" and held else ""
        return (f"Game over: {result}.{why}",
                f"Enter: score sheet · r review · n new game{undo} · q quit", False)
    who = s.name(game.to_play)
    prompt = game.decision.prompt if game.decision else ""
    if s.is_hotseat and screen.shown_player is None:
        return f"Pass the keyboard to {who}.", "", False
    if not view.deciding_is_human:
        third = prompt.replace("your opponent", "the opponent").replace("your ", "their ")
        passed = passes_note(game, s.name)
        if screen.paused:
            return (f"Paused: {who} is to {third}.",
                    passed + "p resumes · . makes one bot decision · q quits", False)
        return (f"{who} is thinking: {third}",
                passed + "Space skips ahead · p pauses · q quits",
                screen.thinking_since is not None)
    subject = "Your" if who == "You" else f"{who}'s"
    turn = f" (turn {game.turn})" if screen.turn_in_prompt else ""
    headline = f"{subject} decision{turn}: {prompt}"
    if screen.notice:
        detail = screen.notice
        screen.notice = ""
        return headline, detail, False
    keys = zone_keys(view, esc_takes_back(s))
    n = len(view.items)
    extra = ""
    if 0 <= view.selected < n:
        item = view.items[view.selected]
        extra = choices.item_effect(view.obs, item)
        if view.obs.decision is Decision.PLAY:
            caps = sorted(NAMES[t] for t in view.capturable)
            extra = (f"{item.label} captures {', '.join(caps)}" if caps
                     else f"{item.label} captures nothing: second chance")
        if view.obs.decision is Decision.ENCOUNTER and item.move is not None and \
                item.move.kind is MoveKind.DRAW:
            extra = "d or Enter draws two spirits"
    elif view.cursor is not None:
        extra = f"cursor {NAMES.get(view.cursor, '')}"
        if view.square_mode:
            extra = f"square at {NAMES.get(view.cursor, '')}"
    detail = f"{extra} · {keys}{keys_tail}" if extra else f"{keys}{keys_tail}"
    return headline, passes_note(game, s.name) + detail, False


def passes_note(obs: Observation, name: Callable[[int], str]) -> str:
    """'Minimax bot passed: no tile in hand could capture · ' for every end-phase pass
    made by itself since the viewer's own last decision; '' when there was none."""
    passed: list[int] = []
    for player, mv, auto in reversed(obs.history):
        if not auto and player == obs.player:
            break
        if auto and mv.kind is MoveKind.PASS and player not in passed:
            passed.append(player)
    return "".join(f"{name(p)} passed: no tile in hand could capture · "
                   for p in reversed(passed))


def zone_keys(view, back: bool = False) -> str:
    """The keys that answer the pending decision of ``view`` ('' when none is asked);
    with ``back``, Esc takes back the tile just played (see ``esc_takes_back``)."""
    n = len(view.items)
    keys = choices.ZONE_KEYS.get(view.zone or "", "").format(
        n=max(n, 1), L=chr(ord("A") + max(n - 1, 0)))
    return keys + choices.ESC_BACK if back and view.zone == "display" else keys


def esc_takes_back(session: SessionView) -> bool:
    """Esc would put the tile just played back in the hand (only a local game can)."""
    return isinstance(session, Session) and session.can_take_back_play()


def legend_lines(ascii_only: bool) -> tuple[str, ...]:
    """The board's symbols in short lines (at most 78 characters: an 80-column prompt
    line); ``g`` shows them one after the other."""
    g = ASCII if ascii_only else UNICODE
    lines = (
        "Rows 1-6: V valley M meadow F forest H hills P pastures S summits (g: more)",
        f"{g.fire_lit} lit fire  {g.fire_unlit} unlit fire  {g.rainbow} rainbow  "
        f"{g.face_down} (display) a tile lies below (g: more)",
        f"Bee, Frg...: spirit on a square  {g.firefly} firefly  "
        f"{g.forbidden} cell the Evil Spirit forbids",
    )
    return tuple(asciify(line) for line in lines) if ascii_only else lines


def legend_text(ascii_only: bool) -> str:
    """The board's symbols, for the legend shown on big terminals."""
    g = ASCII if ascii_only else UNICODE
    text = (
        "Rows: S summits 6 · P pastures 5 · H hills 4 · F forest 3 · M meadow 2 · V valley 1\n"
        f"{g.fire_lit} lit fire  {g.fire_unlit} unlit fire  {g.rainbow} rainbow  "
        f"{g.firefly} firefly  {g.forbidden} forbidden (Evil Spirit)\n"
        f"Bee/Frg… spirit on a square  {g.target} a cell you may pick  "
        f"{g.face_down} face-down tile beneath\n"
        "e: every spirit's effect · v: the whole log · ?: keys and rules"
    )
    return asciify(text) if ascii_only else text
