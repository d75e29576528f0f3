"""Every spirit in play with what it does (the 'e' key)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..core import Decision, Observation, Options, Spirit, cell_name
from ..core.events import EvilOut
from ..core.spirits import spirit_set
from ..widgets.rendered import Rendered


def where_is(obs: Observation, names: tuple[str, str]) -> dict[Spirit, str]:
    """Where each spirit of the game is, as far as ``obs`` may know ('pile' for the rest):
    the line, drawn and being chosen, on a player's square (covered or not), and the Evil
    Spirit held (base game), on a panorama (Firefly) or out of play."""
    where: dict[Spirit, str] = {s: "line" for s in obs.spirit_line}
    if obs.decision is Decision.KEEP:
        for drawn in obs.context:
            where[Spirit(drawn)] = "drawn, being chosen"
    for p in (0, 1):
        pano = obs.panoramas[p]
        for spirit, _sq in pano.spirits:
            covered = " (covered)" if pano.covered == spirit else ""
            where[Spirit(spirit)] = names[p] + covered
    if obs.evil_player is not None:
        holder = names[obs.evil_player]
        forbidden = obs.panoramas[obs.evil_player].forbidden
        if not obs.options.firefly:
            where[Spirit.EVIL] = f"held by {holder}"
        elif forbidden is not None:
            where[Spirit.EVIL] = f"{holder}'s panorama, {cell_name(forbidden)}"
    elif obs.decision is Decision.EVIL:
        where[Spirit.EVIL] = f"being placed by {names[obs.to_play]}"
    elif obs.options.firefly and any(isinstance(ev, EvilOut) for ev in obs.log):
        where[Spirit.EVIL] = "out of play"
    return where


def spirit_rows(obs: Observation, names: tuple[str, str]) -> list[tuple[str, str, str, str]]:
    """The table's rows: (spirit, kind, where, effect), in the pile's order of kinds."""
    where = where_is(obs, names)
    rows = []
    for spirit in spirit_set(obs.options.firefly, obs.options.beginner):
        kind = "evil" if spirit == Spirit.EVIL else "plain" if spirit.is_plain else "blue"
        rows.append((spirit.title, kind, where.get(spirit, "pile"),
                     effect_in(spirit, obs.options)))
    return rows


def effect_in(spirit: Spirit, options: Options) -> str:
    """What ``spirit`` does in a game with ``options``: the Evil Spirit's base-game or
    Firefly part only, and no 'uncovered' where nothing is ever covered (the Evil Spirit
    covers a spirit only in the base game, §11)."""
    effect = spirit.effect
    if spirit == Spirit.EVIL:
        base, firefly = effect.split(". Firefly: ")
        return firefly.capitalize() + "." if options.firefly else \
            base.removeprefix("base game: ").capitalize() + "."
    if options.variant != "base":
        effect = effect.replace("uncovered ", "")
    return effect


class SpiritsScreen(ModalScreen[None]):
    """A table: spirit, kind, where it is, effect."""

    BINDINGS = [Binding("escape,e,q", "app.pop_screen", "Back")]
    DEFAULT_CSS = """
    SpiritsScreen { align: center middle; background: $background; }
    SpiritsScreen VerticalScroll { width: 90%; height: 90%; border: thick $primary;
        background: $surface; padding: 0 1; }
    """

    def __init__(self, obs: Observation, names: tuple[str, str]) -> None:
        super().__init__()
        self.obs = obs
        self.names = names

    def compose(self) -> ComposeResult:
        obs = self.obs
        table = Table(box=None, expand=True)
        table.add_column("Spirit", style="bold")
        table.add_column("Kind")
        table.add_column("Where")
        table.add_column("Effect", ratio=1)
        for title, kind, where, effect in spirit_rows(obs, self.names):
            table.add_row(title, kind, Text(where), effect)  # a name is text, never markup
        with VerticalScroll():
            yield Static(f"Spirits (pile: {obs.spirit_pile} face down) — Esc: back")
            yield Rendered(table)
