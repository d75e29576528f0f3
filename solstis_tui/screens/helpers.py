"""Words for the game screen that only the screen draws: the board's legend, which names
only what the game being played has (beginner: no Evil Spirit; fireflies and the forbidden
cell only with Firefly; a covered spirit only in the base game)."""

from __future__ import annotations

from ..widgets.view import ASCII, UNICODE, asciify


def legend_lines(ascii_only: bool, variant: str = "base") -> tuple[str, ...]:
    """The board's symbols in short lines (at most 78 characters: an 80-column prompt
    line); ``g`` shows them one after the other, each but the last saying there is more."""
    g = ASCII if ascii_only else UNICODE
    spirits = "Bee, Frg...: spirits on squares"
    if variant == "firefly":
        spirits += f"  {g.firefly} firefly  {g.forbidden} cell the Evil Spirit forbids"
    last = f"{g.target} a cell you may pick"
    if variant == "base":
        last += "  bee (lower case): a spirit the Evil Spirit covers"
    lines = (
        "Rows 1-6: V valley M meadow F forest H hills P pastures S summits (g: more)",
        f"{g.fire_lit} lit fire  {g.fire_unlit} unlit fire  {g.rainbow} rainbow  "
        f"{g.face_down} (display) a tile lies below (g: more)",
        f"{spirits} (g: more)",
        last,
    )
    return tuple(asciify(line) for line in lines) if ascii_only else lines


def legend_text(ascii_only: bool, variant: str = "base") -> str:
    """The board's symbols, for the legend shown on big terminals."""
    g = ASCII if ascii_only else UNICODE
    marks = f"{g.fire_lit} lit fire  {g.fire_unlit} unlit fire  {g.rainbow} rainbow"
    if variant == "firefly":
        marks += f"  {g.firefly} firefly  {g.forbidden} forbidden (Evil Spirit)"
    spirit = "Bee/Frg… spirit on a square"
    if variant == "base":
        spirit += " (bee: covered by the Evil Spirit)"
    text = (
        "Rows: S summits 6 · P pastures 5 · H hills 4 · F forest 3 · M meadow 2 · V valley 1\n"
        f"{marks}\n{spirit}\n"
        f"{g.target} a cell you may pick  {g.face_down} face-down tile beneath\n"
        "e: every spirit's effect · v: the whole log · ?: keys and rules"
    )
    return asciify(text) if ascii_only else text
