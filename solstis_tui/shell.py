"""The shell every Solstis app shares, wherever its games come from: themes, ASCII mode,
the help, log, spirits and message screens, and the palette's common commands.
``SolstisApp`` (``app``, local games) and ``OnlineApp`` (``client.app``, games at a host)
are built on it."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.filter import LineFilter, Monochrome
from textual.screen import Screen

from solstis_tui.themes import DEFAULT_THEME, THEMES

from . import engine_build
from .core import Decision, Observation
from .terminal import settings
from .terminal.ascii_filter import AsciiFilter, to_ascii
from .terminal.no_color import ReadableGreys
from .terminal.quiet_gc import QuietCollector

if TYPE_CHECKING:
    from .screens.game import GameScreen
    from .screens.help import HelpScreen

ASCII_FILTER = AsciiFilter()
NO_COLOR_FILTER = ReadableGreys()
#: Textual's key symbols as ASCII mode's footer names them.
KEY_WORDS = {"⏎": "Enter", "←": "Left", "→": "Right", "↑": "Up", "↓": "Down", "⇥": "Tab",
             "⌫": "Bksp", "⇧": "Shift"}


class ShellApp(App[None]):
    """What every Solstis app has, wherever its games come from: the themes, ASCII mode,
    the message, help, log and spirits screens, and their palette commands.

    It knows no game source: a subclass opens its first screen in ``open_first_screen``,
    keeps its game screen in ``game_screen`` and adds its own palette commands.
    ``theme_name`` None: the theme last chosen in the command palette (``settings``), else
    the default.
    """

    TITLE = "Solstis"
    CSS_PATH = str(Path(__file__).resolve().with_name("app.tcss"))
    ENABLE_COMMAND_PALETTE = True
    more_keys = ""
    """Markdown for the help's key list after the game's keys (the online app's table keys)."""
    prepare_in_idle = True
    """Build the screens a key opens (the help, a subclass's ``more_screens``) in idle time
    after start-up, so that the first key shows them at once. Without it each is built
    when its key is first pressed."""

    def __init__(self, *, theme_name: str | None = None, ascii_mode: bool = False) -> None:
        super().__init__()
        self.theme_name = theme_name or settings.remembered_theme() or DEFAULT_THEME
        self.ascii_mode = ascii_mode
        self.game_screen: GameScreen | None = None
        self.help_screen: HelpScreen | None = None
        self.laid_out: set[str] = set()
        """Installed screens composed and laid out off screen in idle time, by name."""
        self.quiet_gc = QuietCollector()
        for theme in THEMES.values():
            self.register_theme(theme)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        from solstis_tui.themes import BOARD_DEFAULTS

        return dict(BOARD_DEFAULTS)

    def on_mount(self) -> None:
        # Everything loaded so far lives as long as the app: keep it out of the garbage
        # collector's full passes, which otherwise walk it all and stall a key by 100 ms.
        self.call_after_refresh(gc.freeze)
        self.quiet_gc.start()
        self.set_interval(0.1, self.quiet_gc.tick, name="quiet gc")
        if self.prepare_in_idle:
            self.call_after_refresh(self.prepare_help)
        self.theme = self.theme_name if self.theme_name in self.available_themes else \
            DEFAULT_THEME
        self.open_first_screen()
        self.warn_if_stale()

    def warn_if_stale(self) -> None:
        """An edited engine source runs as slower pure Python: say so on screen too (the
        line printed before the full-screen app started is hidden while it runs)."""
        if engine_build.STATUS.stale:
            self.notify(engine_build.stale_message(engine_build.STATUS), title="Slower engine",
                        severity="warning", timeout=30, markup=False)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self.quiet_gc.input_came()  # no full garbage pass right now
        await super().on_event(event)

    def on_unmount(self) -> None:
        self.quiet_gc.stop()

    def open_first_screen(self) -> None:
        """The app's first screen (a game, a question, a lobby): each app has its own."""
        raise NotImplementedError

    # ------------------------------------------------------------------ screens
    def show_message(self, title: str, text: str) -> None:
        from .screens.message import MessageScreen

        self.push_screen(MessageScreen(title, text))

    def pass_keyboard(self, name: str, callback: Callable[[object], None]) -> None:
        from .screens.passkb import PassScreen

        self.push_screen(PassScreen(name), callback)

    def bot_error(self, message: str, fallback: str,
                  callback: Callable[[str | None], None]) -> None:
        from .screens.boterror import BotErrorScreen

        self.push_screen(BotErrorScreen(message, fallback), callback)

    def prepare_help(self) -> None:
        """In idle time after start-up, before anyone asks: import and parse the help's
        rules in a thread, then build the screens a key opens (``prepare_screens``)."""
        from .screens.help import prepare

        variant = self.game_screen.session.variant if self.game_screen else "base"

        def prepare_and_keep() -> None:
            prepare(variant, self.more_keys)
            self.call_from_thread(self.prepare_screens)

        self.run_worker(prepare_and_keep, thread=True, group="help", exclusive=True,
                        exit_on_error=False, name="prepare help")

    def prepare_screens(self) -> None:
        """Build the help of the game on screen (and a subclass's ``more_screens``) off
        screen, composed and laid out at the terminal's size, so that the first '?' only
        shows it."""
        variant = self.game_screen.session.variant if self.game_screen else "base"
        self.help_screen_for(variant)
        for name, make in self.more_screens():
            if not self.is_screen_installed(name):
                self.install_screen(make(), name)
        for name in ("help", *(name for name, _ in self.more_screens())):
            self.lay_out_off_screen(name)
        # What was built lives as long as the app: out of the full passes too.
        self.call_after_refresh(gc.freeze)

    def more_screens(self) -> list[tuple[str, Callable[[], Screen[Any]]]]:
        """Other installed screens to prepare in idle time: (name, how to make it)."""
        return []

    def lay_out_off_screen(self, name: str) -> None:
        """Mount the installed screen ``name`` and lay it out at the app's size without
        showing it (Textual has no public call for this: these are the steps its push
        takes before the screen shows, minus the showing)."""
        screen = self.get_screen(name)
        if screen.is_running or screen in self.screen_stack:
            return
        self._load_screen_css(screen)
        _, mounted = self._get_screen(name)  # registers it: it composes and mounts its widgets

        async def lay_out() -> None:
            await mounted
            if screen.is_running and screen not in self.screen_stack:
                screen._refresh_layout(self.size)
                self.laid_out.add(name)

        self.call_after_refresh(lay_out)

    def help_screen_for(self, variant: str) -> HelpScreen:
        """The installed help screen, built for ``variant`` (again, for another one)."""
        from .screens.help import HelpScreen

        old = self.help_screen
        if old is not None and old.variant != variant and old not in self.screen_stack:
            self.uninstall_screen("help")
            if old.is_running:  # built off screen: nothing else will close it
                self.call_later(old.remove)
            self.help_screen = None
            self.laid_out.discard("help")
        if self.help_screen is None:
            self.help_screen = HelpScreen(more_keys=self.more_keys, variant=variant)
            self.install_screen(self.help_screen, "help")
        return self.help_screen

    def show_help(self, decision: Decision | None = None, keys: str = "",
                  variant: str = "base", deciding: str = "") -> None:
        """Keys and rules of ``variant``, opened at the rules section of ``decision`` (if
        any; ``deciding`` names who decides when it is not the person here). The help
        screen is built at the first '?' and kept (installed): later ones open at once; a
        game of another variant builds it again."""
        help_screen = self.help_screen_for(variant)
        help_screen.show_for(decision, keys, deciding)
        if self.screen is not help_screen:
            self.push_screen("help")

    def show_rules(self) -> None:
        """The help of the game on screen (the base game's without one)."""
        screen = self.game_screen
        self.show_help(variant=screen.session.variant if screen else "base")

    def show_log(self, lines: list[str]) -> None:
        from .screens.logview import LogScreen

        self.push_screen(LogScreen(lines))

    def show_spirits(self, obs: Observation) -> None:
        from .screens.spiritinfo import SpiritsScreen

        names = ("Seat 1", "Seat 2")
        if self.game_screen is not None:
            names = (self.game_screen.session.name(0), self.game_screen.session.name(1))
        self.push_screen(SpiritsScreen(obs, names))

    # ------------------------------------------------------------------ toggles
    def toggle_ascii(self) -> None:
        self.ascii_mode = not self.ascii_mode
        for screen in self.screen_stack:
            screen.set_class(self.ascii_mode, "-ascii")
            for widget in screen.walk_children():
                widget.refresh()  # redrawn through the ASCII filter (or without it)
        if self.game_screen is not None:
            self.game_screen.redraw()
            self.game_screen.play.log.reset()

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, with ``NO_COLOR``'s greys made readable (``no_color``), and
        in ASCII mode one that makes every glyph ASCII."""
        filters = [NO_COLOR_FILTER if isinstance(f, Monochrome) else f
                   for f in super().get_line_filters()]
        if self.ascii_mode:
            filters.append(ASCII_FILTER)
        return filters

    def get_key_display(self, binding: Binding) -> str:
        """Keys as the footer shows them; in ASCII mode, words for Textual's symbols."""
        shown = super().get_key_display(binding)
        if self.ascii_mode and not shown.isascii():
            return KEY_WORDS.get(shown, to_ascii(shown))
        return shown

    def choose_theme(self, name: str) -> None:
        """The palette's choice: used now and kept for the next start (if the data
        directory cannot be written, a warning says it is used now only)."""
        self.theme = name
        try:
            settings.remember_theme(name)
        except OSError as exc:
            self.notify(f"The {name} theme is used now but could not be kept for next time: "
                        f"{exc}", severity="warning", markup=False)

    def search_themes(self) -> None:
        """The palette's Theme command: our four themes only, made for the board (Textual's
        stock themes were not)."""
        from textual.command import CommandPalette

        from .terminal.theme_provider import SolstisThemes

        self.push_screen(CommandPalette(providers=[SolstisThemes],
                                        placeholder="Search for themes..."))

    # ------------------------------------------------------------------ palette
    def textual_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's own palette commands (Theme, Quit, Keys, Screenshot...)."""
        yield from super().get_system_commands(screen)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands, the game screen's log and spirits, help and ASCII mode (the
        palette lists them by title); a subclass adds its own."""
        yield from self.textual_commands(screen)
        gs = self.game_screen
        if gs is not None:
            yield SystemCommand("Game log", "The whole log, scrollable", gs.action_show_log)
            yield SystemCommand("Spirits", "Every spirit and its effect", gs.action_spirits)
        yield SystemCommand("Rules and keys", "Help", self.show_rules)
        yield SystemCommand("Toggle ASCII mode", "Plain ASCII drawing", self.toggle_ascii)
