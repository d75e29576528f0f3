"""The deployment blocks of docs/ssh.md, read from the document itself (never a copy).

A block is a fenced code block whose info string carries ``key=value`` words after the
language, e.g. ```` ```sshd_config file=/etc/ssh/sshd_config.d/solstis.conf ````.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "ssh.md"

# The names the document deploys with; the tests swap them for their own.
ACCOUNT = "solstis"
PROGRAM = "/opt/solstis/bin/solstis"
SOCKET = "/run/solstis/host.sock"
KEYS = "/etc/ssh/solstis_authorized_keys"
DROPIN = "/etc/ssh/sshd_config.d/solstis.conf"
UNIT = "/etc/systemd/system/solstis-host.service"
FRONTEND_DROPIN = "/etc/ssh/sshd_config.d/solstis-frontend.conf"  # several machines
HOST_TLS = "/etc/systemd/system/solstis-host.service.d/tls.conf"

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
_PIP_INSTALL = re.compile(r"pip3?\s+install\b([^`\n]*)")


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its ``key=value`` words and its text."""

    lang: str
    attrs: dict[str, str]
    text: str


def read() -> str:
    return DOC.read_text(encoding="utf-8")


def blocks(text: str | None = None) -> list[Block]:
    found = []
    for match in _FENCE.finditer(read() if text is None else text):
        lang, *words = match.group(1).split() or [""]
        attrs = dict(word.split("=", 1) for word in words if "=" in word)
        found.append(Block(lang, attrs, match.group(2)))
    return found


def the_block(**attrs: str) -> Block:
    """The one block whose info string has these ``key=value`` words."""
    hits = [b for b in blocks() if all(b.attrs.get(k) == v for k, v in attrs.items())]
    assert len(hits) == 1, f"docs/ssh.md has {len(hits)} blocks marked {attrs}, not one"
    return hits[0]


def shell_lines() -> list[str]:
    """Every command line of the ``sh`` blocks (comments kept)."""
    return [line for b in blocks() if b.lang == "sh" for line in b.text.splitlines()]


def substitute(text: str, swaps: dict[str, str]) -> str:
    """``text`` with each key replaced by its value; each key must occur in it."""
    for old, new in swaps.items():
        assert old in text, f"docs/ssh.md no longer says {old!r} where the test expects it"
        text = text.replace(old, new)
    return text


def pip_install_targets(text: str | None = None) -> list[str]:
    """What every ``pip install`` in the document (code blocks and inline code) installs:
    its arguments that are not options."""
    targets = []
    for match in _PIP_INSTALL.finditer(read() if text is None else text):
        args = shlex.split(match.group(1).split("#")[0])
        targets += [a for a in args if not a.startswith("-")]
    return targets


def grep_pattern(command_start: str) -> re.Pattern[str]:
    """The ``grep -E '…'`` pattern of the shell line that starts with ``command_start``."""
    lines = [line for line in shell_lines() if line.startswith(command_start)]
    assert len(lines) == 1, f"docs/ssh.md has {len(lines)} lines starting {command_start!r}"
    words = shlex.split(lines[0].split("|", 1)[1])
    assert words[:2] == ["grep", "-E"], lines[0]
    return re.compile(words[2])


def directive_lines(config: str) -> list[str]:
    """The configuration's directives (comments and blank lines dropped), stripped."""
    return [s for line in config.splitlines() if (s := line.strip()) and not s.startswith("#")]
