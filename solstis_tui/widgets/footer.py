"""The footer of every screen: Textual's, without the keys it forgets to let go of.

Textual's ``Footer`` makes its keys anew each time the screen's bindings change (every
decision, every screen opened or closed). Each key watches the footer's ``compact`` (its
``data_bind``), and Textual keeps that watch on the footer until ``compact`` changes
(Textual issue #6666), which in this app it never does: every key ever shown stayed in
memory, with its styles, and the garbage collector's full passes grew from 20 to 150 ms in
a session, each one felt as a key that answered late.
"""

from __future__ import annotations

from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """``textual.widgets.Footer`` that drops its closed keys' watches when it remakes them."""

    async def recompose(self) -> None:
        await super().recompose()
        # Textual's store of watches on this node (textual.reactive._watch); pruned the way
        # textual.reactive._check_watchers prunes it when the value changes.
        watches: dict[str, list[tuple[object, object]]] = getattr(self, "__watchers", {})
        for entries in watches.values():
            entries[:] = [(node, callback) for node, callback in entries
                          if not getattr(node, "_closing", False)]
