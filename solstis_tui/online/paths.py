"""Where the host keeps its data by default, and the name of its TCP token file."""

from __future__ import annotations

import os
from pathlib import Path

#: The file in the host's data folder that holds the token TCP clients must give.
TOKEN_FILE = "tcp-token"


def default_data_dir() -> Path:
    """The host's data folder: ``$SOLSTIS_HOST_DATA``, else ``solstis/host`` in the user's
    state directory."""
    override = os.environ.get("SOLSTIS_HOST_DATA")
    if override:
        return Path(override)
    from platformdirs import user_state_dir

    return Path(user_state_dir("solstis", appauthor=False)) / "host"
