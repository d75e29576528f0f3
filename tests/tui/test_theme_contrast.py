"""The board reads well in every theme: text at least 4.5:1 against what it is drawn on,
board symbols (empty cells, unlit fires) at least 3:1 (WCAG 2 contrast ratios), and with
NO_COLOR=1 every piece of board text 4.5:1 as the terminal gets it. ansi-16 takes the
terminal's own colours: measurable only through NO_COLOR's greys.
"""

from __future__ import annotations

import pytest
from rich.color import Color
from textual.command import CommandPalette
from textual.widgets import OptionList

from solstis_tui.themes import BOARD_DEFAULTS, THEMES

from .conftest import make_app, settle

#: Board colours drawn as text on the theme's background, surface and panel.
TEXT = ("rainbow", "fire-lit", "target", "spirit", "blue-spirit", "firefly", "evil")
#: Board colours drawn only as symbols: the empty cell's dot and its unlit fire.
SYMBOLS = ("empty", "fire-unlit")
SYMBOL_CHARS = set("·△▲≈✦◇▪✕│◀ ")


def luminance(colour: str | Color) -> float:
    rgb = (Color.parse(colour) if isinstance(colour, str) else colour).get_truecolor()

    def channel(c: int) -> float:
        c2 = c / 255
        return c2 / 12.92 if c2 <= 0.03928 else ((c2 + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(rgb.red) + 0.7152 * channel(rgb.green) + 0.0722 * channel(rgb.blue)


def contrast(a: str | Color, b: str | Color) -> float:
    """The WCAG 2 contrast ratio of two colours, 1 to 21."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def shortfalls(theme_name: str) -> list[str]:
    theme = THEMES[theme_name]
    grounds = theme.to_color_system().generate()
    variables = {**BOARD_DEFAULTS, **theme.variables}
    wanted = {name: 4.5 for name in TEXT} | {name: 3.0 for name in SYMBOLS}
    wanted |= {f"row-{r}-label": 4.5 for r in range(1, 7)}  # the row numbers
    wanted["foreground"] = 4.5
    out = []
    for name, need in wanted.items():
        if name == "foreground":
            colour = theme.foreground or ""
        else:
            colour = variables.get(name) or variables[name.removesuffix("-label")]
        for ground in ("background", "surface", "panel"):
            ratio = contrast(colour, grounds[ground])
            if ratio < need:
                out.append(f"{name} {colour} on {ground} {grounds[ground]}: {ratio:.2f}")
    return out


@pytest.mark.parametrize("theme", ["light", "dark", "high-contrast"])
def test_board_colours_stand_out_from_the_background(theme):
    assert not shortfalls(theme)


#: xterm's default 16 colours: what ansi-16's named colours most often look like.
XTERM = ("#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd",
         "#e5e5e5", "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff",
         "#00ffff", "#ffffff")


def in_xterm(colour: Color) -> Color:
    """A named terminal colour as xterm shows it by default (others as they are)."""
    if colour.number is not None and colour.number < 16:
        return Color.parse(XTERM[colour.number])
    return colour


def tile_text_shortfalls(theme_name: str, no_color: bool = False) -> list[str]:
    """Each row's tile letters (and a picked tile's, on the target colour) under 4.5:1
    against the tile, as the theme draws them, or with NO_COLOR's greys. ansi-16's named
    colours are measured as xterm shows them by default."""
    from solstis_tui.terminal.no_color import contrast as grey_contrast
    from solstis_tui.terminal.no_color import readable
    from solstis_tui.widgets.view import Palette

    theme = THEMES[theme_name]
    pal = Palette({**BOARD_DEFAULTS, **theme.variables})
    ground = Color.parse("#000000")
    chips = {f"row {r}": style for r, style in pal.rows.items()}
    chips |= {"a picked tile": pal.mark, "a pickable pile": pal.target_bg}
    out = []
    for name, style in chips.items():
        if no_color:
            style = readable(style, ground)
        fg, bg = style.color, style.bgcolor
        assert fg is not None and bg is not None
        fg, bg = in_xterm(fg), in_xterm(bg)
        ratio = grey_contrast(fg, bg) if no_color else contrast(fg, bg)
        if ratio < 4.5:
            out.append(f"{name}: {fg.name} on {bg.name} {ratio:.2f}")
    return out


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("no_color", [False, True])
def test_the_letters_on_every_tile_colour_read_at_4_5(theme, no_color):
    """The valley's red and the summits' purple tiles read 3.5:1 and 2.4:1 in the default
    and light themes: every row's letters now reach 4.5:1, with and without NO_COLOR."""
    assert not tile_text_shortfalls(theme, no_color)


def board_segments(app):
    """(widget id, text, contrast, what it needs) of every visible piece of text drawn on
    a board widget's own background (tile chips have their own background: not here)."""
    gs = app.game_screen
    for widget in gs.query("#mine, #theirs, #pool, #hand, #display, #scoreline, #prompt"):
        ground = widget.background_colors[1].rich_color
        for y in range(widget.region.height):
            for seg in widget.render_line(y):
                style = seg.style
                if not seg.text.strip() or style is None or style.bgcolor != ground:
                    continue
                need = 3.0 if set(seg.text) <= SYMBOL_CHARS else 4.5
                yield widget.id, seg.text.strip(), contrast(style.color, ground), need


async def test_the_light_theme_chosen_in_the_palette_is_readable():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.action_change_theme()  # Ctrl+P, Theme
        for _ in range(50):
            await pilot.pause(0.02)
            if isinstance(app.screen, CommandPalette) and \
                    app.screen.query_one(OptionList).option_count:
                break
        await pilot.press("down", "enter")  # dark, light, ...
        await pilot.pause()
        assert app.theme == "light"
        seen = list(board_segments(app))
        texts = {text for _, text, _, _ in seen}
        # The smallest marks (a digit, a dot, a triangle, a star) are among what was measured.
        assert {"2", "·", "△"} <= texts and any(t.startswith("rainbows") for t in texts)
        assert any(t.startswith("★") for t in texts)
        poor = [f"{wid} {text!r}: {ratio:.2f} < {need}" for wid, text, ratio, need in seen
                if ratio < need]
        assert not poor, "\n".join(poor)


def filtered_segments(app):
    """(widget id, text, contrast) of every piece of text on the board as the terminal gets
    it: after the app's line filters (NO_COLOR's included), tile chips included."""
    from solstis_tui.terminal.no_color import contrast as grey_contrast

    gs = app.game_screen
    filters = list(app.get_line_filters())
    for widget in gs.query("#mine, #theirs, #pool, #hand, #display, #scoreline, #prompt, "
                           "#lastturn, #topbar"):
        ground = widget.background_colors[1]
        for y in range(widget.region.height):
            segments = list(widget.render_line(y))
            for line_filter in filters:
                segments = line_filter.apply(segments, ground)
            for seg in segments:
                style = seg.style
                if not seg.text.strip() or style is None or style.color is None:
                    continue
                fg, bg = style.color, style.bgcolor or ground.rich_color
                if style.reverse:
                    fg, bg = bg, fg
                if fg.is_default and bg.is_default:
                    continue  # the terminal's own text on its own background
                yield widget.id, seg.text.strip(), grey_contrast(fg, bg)


@pytest.mark.parametrize("theme", ["dark", "light", "high-contrast", "ansi-16"])
async def test_with_no_color_every_piece_of_board_text_reads_at_4_5(theme, monkeypatch):
    """NO_COLOR=1: the valley tiles, row numbers, the opponent's summits and the display
    piles were black on black (233 on 236); every text now stands out 4.5:1."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(seats=("greedy", "human"), seed=5, theme_name=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("1", "enter")
        await settle(pilot, app)
        await pilot.pause()
        assert app.no_color
        seen = list(filtered_segments(app))
        texts = {text for _, text, _ in seen}
        assert any(t.startswith("V") for t in texts) and "1" in texts and "6" in texts
        poor = [f"{wid} {text!r}: {ratio:.2f}" for wid, text, ratio in seen if ratio < 4.5]
        assert not poor, "\n".join(poor)


def test_ansi_16_draws_no_board_text_in_white_which_vanishes_on_a_light_terminal():
    variables = {**BOARD_DEFAULTS, **THEMES["ansi-16"].variables}
    white = [name for name in TEXT if variables[name] in ("white", "bright_white")]
    assert not white, f"{white}: invisible on a terminal with a light background"


@pytest.mark.parametrize("theme", ["dark", "light", "high-contrast"])
async def test_in_colour_every_piece_of_board_text_tiles_included_reads_at_4_5(theme):
    """As drawn in colour (no NO_COLOR): every text on the board, the tiles' letters on
    their row colours included, reaches 4.5:1 (a symbol alone, 3:1)."""
    app = make_app(seats=("greedy", "human"), seed=5, theme_name=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("1", "enter")
        await settle(pilot, app)
        await pilot.pause()
        seen = list(filtered_segments(app))
        assert any(t.startswith("V") for t in (text for _, text, _ in seen))
        poor = [f"{wid} {text!r}: {ratio:.2f}" for wid, text, ratio in seen
                if ratio < (3.0 if set(text) <= SYMBOL_CHARS else 4.5)]
        assert not poor, "\n".join(poor)
