"""Reading and driving Textual apps in Pilot tests: what the screen shows, clicks on it,
waits on conditions, and checks at both terminal sizes."""

from __future__ import annotations

import asyncio

from textual._context import active_app
from textual.app import App
from textual.events import Click, MouseDown, MouseUp
from textual.geometry import Offset
from textual.pilot import _get_mouse_message_arguments

SIZES = [(80, 24), (160, 48)]


# ---------------------------------------------------------------------- reading the screen
def screen_lines(app: App) -> list[str]:
    """What the terminal shows now, line by line (the top screen, toasts included)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def widget_text(app: App, selector: str) -> str:
    """The screen text inside one widget's region."""
    region = app.screen.query_one(selector).region
    strips = app.screen._compositor.render_strips()[region.y:region.bottom]
    return "\n".join(s.crop(region.x, region.right).text for s in strips)


def lobby_text(app: App) -> str:
    """The lobby's table list and the line under it (the selected table in full)."""
    return widget_text(app, "#tables") + "\n" + widget_text(app, "#row")


def assert_shown(app: App, *texts: str) -> None:
    shown = "\n".join(screen_lines(app))
    for text in texts:
        assert text in shown, f"{text!r} is not on screen:\n{shown}"


class Spy:
    """Records any action or link a click on markup would run."""

    def __init__(self, *apps: App) -> None:
        self.ran: list[str] = []
        for app in apps:
            app.action_quit = self._quit  # type: ignore[method-assign]
            app.open_url = self._url  # type: ignore[method-assign]

    async def _quit(self) -> None:
        self.ran.append("quit")

    def _url(self, url: str, **_kwargs) -> None:
        self.ran.append(url)


async def click_on(app: App, pilot, text: str, most: int = 3) -> int:
    """Click (at most ``most`` of) the places ``text`` is shown; how many were clicked.

    A click is what a terminal reports and ``Pilot.click`` sends (mouse down, up, click on
    the second character), sent at once with one wait afterwards instead of one per event.
    """
    places = [(line.find(text), y) for y, line in enumerate(screen_lines(app)) if text in line]
    for x, y in places[:most]:
        screen = app.screen
        where = _get_mouse_message_arguments(screen, (x + 1, y), button=1)
        assert (x + 1, y) in screen.region, "the text is off the screen"
        app.mouse_position = Offset(x + 1, y)
        for event in (MouseDown(**where), MouseUp(**where), Click(**where, chain=1)):
            screen._forward_event(event)
        await pilot.pause()
    return len(places[:most])


# ---------------------------------------------------------------------- two sizes
async def until(predicate, pilot, timeout: float = 30.0) -> None:
    """Let the app run until ``predicate()`` holds (``timeout`` is only a safety net), then
    until it has drawn what it has to."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)
    await pilot.pause()


def wide(app: App) -> bool:
    """True at 160×48, where the score sheet stands beside the board."""
    return app.size.width >= 120


async def flip(app: App, pilot) -> None:
    """Resize the terminal from one of SIZES to the other."""
    width, height = SIZES[0] if wide(app) else SIZES[1]
    await pilot.resize_terminal(width, height)
    await until(lambda: tuple(app.screen.outer_size) == (width, height), pilot)


async def at_both_sizes(app: App, pilot, check, both: bool = True) -> None:
    """``await check()`` at the app's size, then (if ``both``) again at the other size."""
    # Widgets measure the screen through the active app: make it this one, not the last
    # app the test started (the apps of one test differ in size).
    token = active_app.set(app)
    try:
        await pilot.pause()
        await check()
        if both:
            await flip(app, pilot)
            await check()
    finally:
        active_app.reset(token)
