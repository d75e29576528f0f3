"""What a local game could not write (its autosave, its record) is said once, not after
every decision, and said again only after a write worked in between (``KeepWarnings``, which
``SolstisApp`` shows as a warning)."""

from __future__ import annotations

import random

from solstis_tui.local import saves
from solstis_tui.local.seats import Seat
from solstis_tui.local.session import KeptRecord, Session, Setup
from solstis_tui.local_app.keep_warnings import KeepWarnings


def saving_session() -> Session:
    session = Session(Setup(seed=4, seats=(Seat.parse("human"), Seat.parse("random"))))
    session.save_to = lambda _session: None
    return session


def test_a_save_that_fails_is_said_once_and_again_after_one_worked():
    warnings, session = KeepWarnings(), saving_session()
    session.save_error = PermissionError(13, "Permission denied", "/data/save.json")
    said = warnings.after_save(session)
    assert said == saves.failure_message(session.save_error)
    assert warnings.after_save(session) is None  # the next decision: not again
    session.save_error = None
    assert warnings.after_save(session) is None  # written: nothing to say
    session.save_error = PermissionError(13, "Permission denied", "/data/save.json")
    assert warnings.after_save(session) == said  # failing again after a save worked


def test_a_game_that_is_not_saved_here_warns_of_nothing():
    warnings, session = KeepWarnings(), saving_session()
    session.save_to = None
    session.save_error = PermissionError(13, "Permission denied")
    assert warnings.after_save(session) is None


def test_a_record_that_cannot_be_written_is_said_once_and_again_after_one_was(
        tmp_path, monkeypatch):
    monkeypatch.setenv("SOLSTIS_DATA_DIR", str(tmp_path))
    session = Session(Setup(seed=4, seats=(Seat.parse("random"), Seat.parse("random"))))
    rng = random.Random(4)
    while not session.game.is_over:
        session.apply(rng.choice(session.game.legal_moves()))
    record, warnings = session.record(), KeepWarnings()
    assert warnings.after_end(session) is None  # no record was asked for
    session.kept = KeptRecord(record, None, "Read-only file system")
    said = warnings.after_end(session)
    assert said is not None and "could not be kept as a record" in said
    assert "Read-only file system" in said and str(tmp_path) in said
    assert warnings.after_end(session) is None  # the next game's failure: not again
    session.kept = KeptRecord(record, tmp_path / "kept.solstis")
    assert warnings.after_end(session) is None
    session.kept = KeptRecord(record, None, "Read-only file system")
    assert warnings.after_end(session) == said
