"""Solstis TUI: the tile game Solstis in a terminal. Importing this does not import Textual."""

__version__ = "0.1.0"
