"""What a local game could not write as it went on: its autosave, and its record once it
ended. Each failure is said once, not after every decision, until writing works again; the
game goes on. No Textual here: ``SolstisApp`` shows the sentence."""

from __future__ import annotations

from ..local import saves
from ..local.session import Session


class KeepWarnings:
    """The last failure said of the autosave and of the records ("": none since one was
    written)."""

    def __init__(self) -> None:
        self.save_error = ""
        self.record_error = ""

    def after_save(self, session: Session) -> str | None:
        """``session`` saved itself after a change (``Session.save_to``): the warning to
        show now (None: it was written, or this failure was already said)."""
        if session.save_to is None:
            return None
        if session.save_error is None:
            self.save_error = ""
            return None
        warned, self.save_error = (self.save_error,
                                   saves.failure_message(session.save_error))
        return None if warned else self.save_error

    def after_end(self, session: Session) -> str | None:
        """``session``'s game ended and kept its record (``Session.kept``): the warning to
        show now (None: it was written, or this failure was already said)."""
        from .. import record_files

        kept = session.kept
        if kept is None:
            return None
        if not kept.problem:
            self.record_error = ""
            return None
        warned = self.record_error
        self.record_error = (
            f"This game could not be kept as a record: {record_files.records_dir()} "
            f"cannot be written ({kept.problem}).")
        return None if warned else self.record_error
