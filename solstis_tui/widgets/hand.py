"""The hand: your tiles, numbered; the opponent's as a count (plus any Renard-revealed tiles)."""

from __future__ import annotations

from rich.text import Text

from ..core import Decision, MoveKind
from .board_widget import BoardWidget
from .clicks import tag
from .tiles import review_marks, tile_chip
from .view import BoardView, palette_of


class HandBar(BoardWidget):
    """``Hand 1:3-5 2:4-7 3:1-2 │ Bot: 3 tiles``; the picked tile is reversed, tiles clickable."""

    DEFAULT_CSS = """
    HandBar { height: auto; max-height: 2; padding: 0 1; }
    """

    def draw(self, view: BoardView) -> Text:
        pal = palette_of(self)
        me, them = view.me, 1 - view.me
        out = Text()
        if view.obs.spectator:  # a watcher sees neither hand, only how many tiles each holds
            sep = " │ " if not view.ascii else " | "
            counts = [f"{view.names[p]}: {n} tile{'s' if n != 1 else ''}"
                      for p, n in enumerate(view.obs.hand_counts)]
            out.append(sep.join(counts), style=pal.bold)
            return out
        out.append("Hand ", style=pal.bold)
        mine_active = view.zone == "hand"
        for i, tile in enumerate(view.my_hand):
            picked = mine_active and view.selected == i
            start = len(out)
            legal = not mine_active or (i < len(view.items) and view.items[i].legal)
            out.append(f"{i + 1}:", style=pal.target if mine_active and legal else pal.dim)
            chip = tile_chip(tile, pal, pal.cursor if picked else None)
            if not legal:
                chip.stylize(pal.illegal)
            elif tile in view.marks:
                chip.stylize(pal.mark)
            review_marks(chip, tile, view, pal)
            out.append_text(chip)
            forced = view.obs.must_play[me]
            if forced == tile:
                out.append("!", style=pal.evil)
            tag(out, start, ("item", "hand", i))
            out.append(" ")
        if not view.my_hand:
            out.append("(empty) ", style=pal.dim)
        obs = view.obs
        if obs.decision is Decision.CAPTURE and obs.to_play == me and obs.context:
            # the tile whose match is being chosen: played, or drawn for a second chance
            tile = obs.context[0]
            last = next((mv for p, mv, _ in reversed(obs.history) if p == me), None)
            played = last is not None and last.kind is MoveKind.PLAY and last.arg == tile
            out.append("played " if played else "drew ", style=pal.dim)
            out.append_text(tile_chip(tile, pal, None))
            out.append(" ")
        out.append("│ " if not view.ascii else "| ", style=pal.dim)
        out.append(f"{view.names[them]}: {view.their_count} tile"
                   f"{'s' if view.their_count != 1 else ''}", style=pal.bold)
        theirs_active = view.zone == "opp_hand"
        if view.their_hand:
            out.append(" ")
            for i, tile in enumerate(view.their_hand):
                picked = theirs_active and view.selected == i
                start = len(out)
                if theirs_active:
                    out.append(f"{i + 1}:", style=pal.target)
                chip = tile_chip(tile, pal, pal.cursor if picked else None)
                review_marks(chip, tile, view, pal)
                out.append_text(chip)
                if theirs_active:
                    tag(out, start, ("item", "opp_hand", i))
                out.append(" ")
            if not theirs_active and view.obs.opponent_known and view.their_count:
                out.append("(seen)", style=pal.dim)
        return out
