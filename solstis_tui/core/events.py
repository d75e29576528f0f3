"""The game log: what happened, as tuples ``(kind, ...)`` appended to ``Game.log``.

``Observation.log`` is the same list with private details hidden (a ``draw`` event's tile is
None for the other player). ``p`` is a player (0 or 1), tiles and cells are board indices
(``board.NAMES``), squares are named by their lower-left cell, spirits are ``Spirit`` values.

=====================================  =================================================
``("turn", p, number, end_phase)``     p's turn begins (end_phase: the land pile is empty)
``("play", p, tile)``                  p played a hand tile
``("pass", p)``                        p passed (end phase, nothing to capture)
``("capture", p, tile, target)``       p's tile captured the display tile target
``("discard", p, tile)``               tile joined the display as a new pile (no capture)
``("second", p, tile)``                second chance: p drew tile from the land pile
``("flip", tile)``                     a face-down display tile was turned up
``("place", p, tile)``                 a land tile went into p's panorama
``("rainbow", p, cell)``               p placed a new rainbow
``("no_rainbow", p)``                  a rainbow p would get was lost (none left / no cell)
``("shift", p, tile, cell)``           p's free rainbow moved from tile's cell to cell
``("rainbow_out", p, tile)``           the displaced rainbow had nowhere to go: to the box
``("removed", p, tile, why)``          a land tile left the game (why: blocked, forbidden)
``("draw", p, tile)``                  p drew a land tile into hand (tile private to p)
``("spirits_drawn", p, spirits)``      p drew these (one or two) spirits
``("keep", p, spirit)``                p kept a drawn spirit
``("to_line", spirit)``                the other drawn spirit went to the spirit line
``("take", p, spirit)``                p took a spirit from the line
``("spirit", p, spirit, square)``      the spirit sits on p's square
``("no_spirit", p)``                   a square formed but no spirit was left anywhere
``("firefly", p, square)``             a firefly went on p's square (Firefly)
``("lost", p, spirit)``                the plain spirit's effect could not happen
``("eagle", p, tile)``                 Eagle: tile came from the land pile
``("fly", p, tile)``                   Fly: tile came from the opponent's hand
``("deer", p, tile)``                  Deer: p put hand tile into the panorama
``("beetle", p, tile)``                Beetle: p took the display tile
``("viper", p, tile)``                 Viper: p took the opponent's isolated tile
``("reveal", p, tiles)``               Renard: p saw the opponent's hand
``("renard", p, tile)``                Renard: the opponent must play tile next turn
``("marmot", p)``                      p plays another turn (Marmot)
``("evil_kept", p)``                   base: p drew the Evil Spirit and holds it
``("evil_given", p)``                  base: p passed the Evil Spirit to the opponent
``("evil_placed", p, cell)``           Firefly: p put the Evil Spirit on the opponent's cell
``("evil_out", p)``                    Firefly: no cell for the Evil Spirit; it left play
``("cover", chooser, holder, spirit)`` the Evil Spirit covers holder's spirit
``("squirrel", p, tiles)``             Squirrel: p's hand tiles go into the panorama
``("end", reason, winner)``            game over ("normal" or "fireflies"; winner or None)
=====================================  =================================================
"""

EVENT_KINDS = frozenset(
    {
        "turn", "play", "pass", "capture", "discard", "second", "flip", "place", "rainbow",
        "no_rainbow", "shift", "rainbow_out", "removed", "draw", "spirits_drawn", "keep",
        "to_line", "take", "spirit", "no_spirit", "firefly", "lost", "eagle", "fly", "deer",
        "beetle", "viper", "reveal", "renard", "marmot", "evil_kept", "evil_given",
        "evil_placed", "evil_out", "cover", "squirrel", "end",
    }
)
