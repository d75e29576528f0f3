"""What adapts the apps to a terminal and its player: greys for NO_COLOR, ASCII for poor
terminals, the themes offered in the palette, the remembered settings, and the garbage
collector kept away from key presses. Used by the shell both apps share."""
