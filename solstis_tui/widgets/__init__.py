"""The board widgets of the game screen, one per module."""
