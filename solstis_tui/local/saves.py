"""Autosave and resume: one JSON file in the user data directory, written atomically.

The directory is ``platformdirs.user_data_dir("solstis")``, or ``$SOLSTIS_DATA_DIR`` when set
(tests use that). A save that cannot be read is renamed aside (``autosave.corrupt-*.json``),
never overwritten, and the caller gets a message saying where it went. So is a save whose
moves and snapshot disagree, though its game is still rebuilt from the moves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import data_dir, keep_aside, write_atomic
from .seats import Seat
from .session import Session, Setup

AUTOSAVE = "autosave.json"


def autosave_path() -> Path:
    return data_dir() / AUTOSAVE


def save(session: Session, path: Path | None = None) -> Path:
    """Save ``session`` (atomically); returns the path written."""
    path = path or autosave_path()
    write_atomic(path, json.dumps(session.to_save(), indent=1))
    return path


@dataclass
class LoadResult:
    """What ``load`` found: a session, a message, or both (a save rebuilt with a warning),
    and where a bad file was put."""

    session: Session | None = None
    message: str = ""
    kept_as: Path | None = None


def load(path: Path | None = None) -> LoadResult:
    """Load the save at ``path``; a corrupt one is kept aside with a clear message.

    A save that loads but not cleanly (its moves and snapshot disagree) is kept aside too,
    and the session comes with a warning to show.
    """
    path = path or autosave_path()
    if not path.exists():
        return LoadResult(message="There is no saved game to continue.")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        session = Session.from_save(data)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, ValueError) as exc:
        kept = keep_aside(path)
        return LoadResult(
            message=(f"The saved game could not be read ({exc}). It was kept as "
                     f"{kept} and a new game starts."),
            kept_as=kept,
        )
    if session.load_warning:
        kept = keep_aside(path)
        return LoadResult(
            session=session,
            message=(f"{session.load_warning} The save was kept as {kept}; the game "
                     "continues in a new autosave."),
            kept_as=kept,
        )
    return LoadResult(session=session)


def describe(data: dict[str, Any]) -> str:
    """A one-line summary of ``peek`` data, with the seats named as the screens name them:
    "base game, turn 7: You vs Minimax bot"."""
    try:
        seats = ([str(s) for s in data.get("seats", [])] + ["?", "?"])[:2]
        names = ([str(n) for n in data.get("names", [])] + ["", ""])[:2]
        setup = Setup(seats=(Seat.parse(seats[0]), Seat.parse(seats[1])),
                      names=(names[0], names[1]))
        shown = [setup.seat_name(0), setup.seat_name(1)]
    except (ValueError, TypeError):  # a garbled save: its seats as written
        shown = ["?", "?"]
    seed = "" if data.get("secret", True) else f"seed {data.get('seed')}, "
    return (f"{data.get('variant', 'base')} game, {seed}turn "
            f"{data.get('turn', '?')}: {shown[0]} vs {shown[1]}")


def describe_setup(setup: Setup) -> str:
    """A game about to start, in ``describe``'s words: "firefly game, seed 42: You vs
    Minimax bot" (a secret seed is left out)."""
    seed = "" if setup.secret else f", seed {setup.seed}"
    return f"{setup.variant} game{seed}: {setup.seat_name(0)} vs {setup.seat_name(1)}"


def failure_message(exc: OSError) -> str:
    """What to tell the player, once, when the autosave cannot be written."""
    reason = exc.strerror or str(exc)
    return (f"Autosave is off: saves go to {data_dir()}, which cannot be written "
            f"({reason}). The game goes on unsaved. To keep saves, make that folder "
            "writable or set SOLSTIS_DATA_DIR to a folder you can write, then restart.")


def peek(path: Path | None = None) -> dict[str, Any] | None:
    """The save's summary data if an unfinished game is saved there, else None."""
    path = path or autosave_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {"corrupt": True} if path.exists() else None
    if not isinstance(data, dict) or data.get("finished"):
        return None
    return data
