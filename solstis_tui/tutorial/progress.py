"""Where a tutorial left off, and whether the first-run offer was answered: one small JSON
file, ``tutorial.json``, beside the saved game (``files.data_dir``)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ..core import IllegalMove, Move
from ..files import read_small_json, write_small_json
from .chapters import CHAPTERS, Chapter
from .session import TutorialSession

FILE = "tutorial.json"


def read() -> dict[str, Any]:
    """The file's data; {} when it is missing or unreadable (a tutorial is cheap to redo)."""
    return read_small_json(FILE)


def write(data: dict[str, Any]) -> None:
    """Write the file (OSError if the directory is not writable)."""
    write_small_json(FILE, data)


def save(session: TutorialSession) -> None:
    """Keep ``session``'s place, so that ``solstis learn`` resumes it."""
    place = {**session.progress(), "chapter_version": fingerprint(session.chapter)}
    write({**read(), "offered": True, "place": place})


def fingerprint(chapter: Chapter) -> str:
    """Names the chapter's text and script: a place saved by another version of it is
    not resumed (its steps may no longer fit the moves)."""
    text = json.dumps([chapter.position, chapter.tutor,
                       [(s.say, s.move, s.after_tutor) for s in chapter.steps]])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def forget() -> None:
    """Drop the saved place (the chapter was finished or started over)."""
    data = read()
    if "place" in data:
        data.pop("place")
        write(data)


def resume(chapter: Chapter) -> TutorialSession | None:
    """``chapter`` where it was left, or None if it was not left part-way, or the saved
    place does not fit this version of the chapter (then it starts over)."""
    place = read().get("place")
    if not isinstance(place, dict) or place.get("chapter") != chapter.name \
            or place.get("chapter_version") != fingerprint(chapter):
        return None
    step, moves = place.get("step"), place.get("moves")
    if not isinstance(step, int) or not isinstance(moves, list) \
            or not 0 <= step < len(chapter.steps):
        return None
    try:
        session = TutorialSession.start(chapter, [Move.parse(str(t)) for t in moves], step)
    except (IllegalMove, ValueError, TypeError):
        return None
    return session if session.on_track() else None


def saved_chapter() -> Chapter | None:
    """The chapter left part-way, if any."""
    place = read().get("place")
    name = place.get("chapter") if isinstance(place, dict) else None
    return CHAPTERS.get(name) if isinstance(name, str) else None


def offered() -> bool:
    """Whether the first-run offer was made and answered (taken or skipped)."""
    return bool(read().get("offered"))


def mark_offered() -> None:
    write({**read(), "offered": True})
