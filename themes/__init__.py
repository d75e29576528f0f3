"""Textual themes for Solstis: dark, light, high-contrast and ansi-16 (the 16 terminal colours).

Besides Textual's colours each theme sets the board's own variables, read by the board
widgets as Rich colours: ``row-1`` .. ``row-6`` (the landscape colours, red valley at the
bottom to purple summits at the top), ``row-1-text`` .. ``row-6-text`` (the letters on
each row's tiles), ``row-text`` (a picked tile's letters, on the target colour), ``rainbow``,
``fire-lit``, ``fire-unlit``, ``target`` (cells a pending choice may pick), ``spirit``,
``blue-spirit``, ``firefly``, ``evil`` and ``empty`` (empty cells and their unlit fires).
A theme may also set ``row-1-label`` .. ``row-6-label``: the row numbers beside the grid,
drawn on the panel, which need darker colours than the tiles on a light background (they
default to the row colours). Colours are never the only cue: every row also has its letter
and every mark its symbol.

Contrast (``tests/tui/test_theme_contrast.py``): each theme's text colours (ansi-16 aside:
the terminal's own) reach 4.5:1 against its background, surface and panel, and its board
symbols 3:1; the letters on every row's tiles reach 4.5:1 against the row colour (ansi-16
measured in xterm's default colours); with ``NO_COLOR`` every piece of board text
reaches 4.5:1 (``no_color``).
"""

from __future__ import annotations

from textual.theme import BUILTIN_THEMES, Theme

BOARD_DEFAULTS: dict[str, str] = {
    # Exact xterm-256 colours, each nearest a different one of the 16 basic colours:
    # the six rows stay apart when a terminal has 256 or only 16 colours.
    "row-1": "#d70000",
    "row-2": "#ffaf00",
    "row-3": "#00af00",
    "row-4": "#00afd7",
    "row-5": "#ff87ff",
    "row-6": "#8700af",
    "row-text": "#101010",
    # The letters on each row's tiles: dark on the light rows, white on the dark red valley
    # and purple summits (#101010 there read 3.5:1 and 2.4:1; white reads 5.4:1 and 7.9:1).
    "row-1-text": "#ffffff",
    "row-2-text": "#101010",
    "row-3-text": "#101010",
    "row-4-text": "#101010",
    "row-5-text": "#101010",
    "row-6-text": "#ffffff",
    "rainbow": "#f4d03f",
    "fire-lit": "#ffb000",
    "fire-unlit": "#8a8a8a",
    "target": "#00d7ff",
    "spirit": "#ffffff",
    "blue-spirit": "#7fb3ff",
    "firefly": "#f7ff7a",
    "evil": "#ff4f4f",
    "empty": "#5a5a5a",
}
#: Optional board variables: the row numbers' colours (default: the row colours).
ROW_LABELS: tuple[str, ...] = tuple(f"row-{r}-label" for r in range(1, 7))

DARK = Theme(
    name="dark",
    primary="#4f9fd8",
    secondary="#7a5fb0",
    accent="#ffb000",
    warning="#ffb000",
    error="#ff5f5f",
    success="#5fd75f",
    foreground="#e4e4e4",
    background="#15171c",
    surface="#1e2128",
    panel="#262a33",
    dark=True,
    variables={
        **BOARD_DEFAULTS,
        # Row numbers and empty cells light enough for the dark panel (4.5:1 and 3:1).
        "row-1-label": "#ff6b6b",
        "row-6-label": "#b48cff",
        "empty": "#7a7a7a",
        "evil": "#ff5f5f",
    },
)

LIGHT = Theme(
    name="light",
    primary="#1f5f99",
    secondary="#6a4a9c",
    accent="#b35900",
    warning="#b35900",
    error="#b00020",
    success="#1e7b34",
    foreground="#1a1a1a",
    background="#f7f5ef",
    surface="#ece9e0",
    panel="#e0dccf",
    dark=False,
    variables={
        **BOARD_DEFAULTS,
        # Dark enough for text on the light panel (4.5:1), symbols at least 3:1.
        "row-1-label": "#af0000",
        "row-2-label": "#704800",
        "row-3-label": "#1a6e1a",
        "row-4-label": "#005f87",
        "row-5-label": "#af0087",
        "rainbow": "#6e5400",
        "fire-lit": "#8f2f00",
        "fire-unlit": "#6c6c6c",
        "target": "#005faf",
        "row-text": "#ffffff",  # a picked tile's letters on the dark blue target: 6.4:1
        "spirit": "#000000",
        "blue-spirit": "#1f4fbf",
        "firefly": "#5f5f00",
        "evil": "#c00000",
        "empty": "#767676",
    },
)

HIGH_CONTRAST = Theme(
    name="high-contrast",
    primary="#00ffff",
    secondary="#ffff00",
    accent="#ffff00",
    warning="#ffff00",
    error="#ff0000",
    success="#00ff00",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#202020",
    dark=True,
    luminosity_spread=0.3,
    text_alpha=1.0,
    variables={
        **BOARD_DEFAULTS,
        "row-1": "#ff0000",
        "row-2": "#ffd700",
        "row-3": "#00ff00",
        "row-4": "#00ffff",
        "row-5": "#ff87ff",
        "row-6": "#875fff",
        "row-1-label": "#ff6b6b",
        "row-6-label": "#b48cff",
        "row-text": "#000000",
        **{f"row-{r}-text": "#000000" for r in range(1, 7)},  # every row is bright here
        "rainbow": "#ffff00",
        "fire-lit": "#ffff00",
        "fire-unlit": "#c0c0c0",
        "target": "#00ffff",
        "firefly": "#ffff00",
        "empty": "#c0c0c0",
    },
)

ANSI_16 = Theme(
    name="ansi-16",
    ansi=True,
    primary="ansi_blue",
    secondary="ansi_cyan",
    warning="ansi_yellow",
    error="ansi_red",
    success="ansi_green",
    accent="ansi_yellow",
    foreground="ansi_default",
    background="ansi_default",
    surface="ansi_default",
    panel="ansi_default",
    boost="ansi_default",
    dark=True,
    variables={
        **BUILTIN_THEMES["ansi-dark"].variables,
        # board colours, as Rich names of the 16 terminal colours
        "row-1": "red",
        "row-2": "yellow",
        "row-3": "green",
        "row-4": "cyan",
        "row-5": "bright_magenta",
        "row-6": "magenta",
        "row-text": "black",
        **{f"row-{r}-text": "black" for r in range(2, 6)},
        "row-1-text": "bright_white",  # on the terminal's red and magenta, black is dim
        "row-6-text": "bright_white",
        "rainbow": "bright_yellow",
        "fire-lit": "bright_yellow",
        "fire-unlit": "white",
        "target": "bright_cyan",
        "spirit": "default",  # the terminal's own text colour: seen on light and dark
        "blue-spirit": "bright_blue",
        "firefly": "bright_yellow",
        "evil": "bright_red",
        "empty": "bright_black",
    },
)

THEMES: dict[str, Theme] = {t.name: t for t in (DARK, LIGHT, HIGH_CONTRAST, ANSI_16)}
DEFAULT_THEME = "dark"

__all__ = ["ANSI_16", "BOARD_DEFAULTS", "DARK", "DEFAULT_THEME", "HIGH_CONTRAST", "LIGHT",
           "ROW_LABELS", "THEMES"]
