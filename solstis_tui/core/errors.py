"""The errors the engine raises at its callers."""


class IllegalMove(ValueError):
    """A move that the rules do not allow now; the message says why, in a player's words."""


class InvalidPosition(ValueError):
    """A saved or hand-made game that cannot be loaded; the message names the problem."""
