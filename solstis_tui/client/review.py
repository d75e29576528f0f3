"""Reviewing a game played at the host: its record, fetched once the game is over, opened
on the analysis board ``solstis review FILE`` opens for a record.

``open_review`` is the one place the online app reaches that screen: the rest of the
client knows only a ``GameRecord`` and the seat reviewed. The record is kept in the data
directory's ``online/`` folder (apart from the games played here, so the drill and the
list of games do not take the other player's moves for yours), and its analysis beside
it, by the coach's one store: a game opened again shows its analysis at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from textual.app import App

from ..files import data_dir
from ..record_files import keep
from ..records import GameRecord

#: Where records fetched from hosts are kept, in the data directory.
ONLINE: Final = "online"

#: The judge's processes for a review at the host: as few as keep the board's keys quick
#: (each runs below the screen's priority), however many cores the host has, so that
#: strangers reviewing games cannot take the machine the tables' bots think on.
JUDGES: Final = 2


def open_review(app: App[Any], record: GameRecord, seat: int | None,
                closed: Callable[[Any], None] | None = None, judged: Any = None) -> None:
    """Open the analysis board of ``record`` on ``app``: ``seat``'s decisions (0 or 1;
    None: a game the player watched, both seats'). Each decision is judged from the
    observation its player had then, and only that seat's hand is shown (see
    ``screens.review``). ``judged``: the analysis the host sent with the record (its
    JSON), kept beside the record if it reads as one. ``closed`` is called once it is
    closed."""
    from ..screens.review import ReviewScreen

    effort = getattr(app, "review_effort", None)
    path = kept_online(record)
    if path is not None and judged is not None:
        keep_judged(path, judged, effort)
    app.push_screen(ReviewScreen(record, None if seat is None else (seat,), path=path,
                                 effort=effort,
                                 workers=getattr(app, "review_workers", JUDGES)), closed)


def kept_online(record: GameRecord) -> Path | None:
    """Keep ``record`` in the online records' folder (the same game is one file however
    often it is fetched); its path, or None where it cannot be written (then the review
    judges it afresh and keeps nothing)."""
    with contextlib.suppress(OSError):
        return keep(record, data_dir() / ONLINE)
    return None


def keep_judged(path: Path, judged: Any, effort: Any = None) -> bool:
    """Keep the host's analysis ``judged`` beside the record at ``path`` if it reads as an
    analysis of this program's version (anything else is dropped: the review judges the
    game itself). Whether it was kept."""
    from ..coach import analysis, store
    from ..records import read_text

    if not isinstance(judged, dict):
        return False
    try:
        found = analysis.from_json(judged)
        store.keep(path, read_text(path), found, effort)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError,
            OSError):
        return False
    return True
