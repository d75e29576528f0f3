"""``solstis online --waiting``: one line saying how many of your games wait for your
move at the host, and an exit status, for a shell prompt or a login message.

It knows you as the lobby does, but never by a name (so it never makes a player under a
name of its own): by your SSH key (``--ssh-key``; a key the host's owner added gets its
player at its first login, as in the lobby), your resume code (``--code``) or your own
account on the host's machine.
Exit status: 0 when a game waits for you, 1 when none does, 2 when the host could not
say (not reached, or it does not know you).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

from ..wire.replies import Error, Welcome, parse_reply
from ..wire.tls import TlsTarget
from .client import HostClient, HostError

#: Seconds the whole exchange may take: a prompt must never hang on a busy host.
WAITING_TIMEOUT = 10.0
SOME, NONE, UNKNOWN = 0, 1, 2


def waiting_words(count: int) -> str:
    """What the lobby's first line (and ``--waiting``) says of the games that wait for the
    player's move ("" for none)."""
    if not count:
        return ""
    return f" {count} game{' waits' if count == 1 else 's wait'} for your move."


def sentence(said: str) -> str:
    """``said`` ending with a full stop (a host's words often end without one)."""
    return said if said.endswith((".", "?", "!")) else said + "."


async def waiting_line(socket: Path | None = None, tcp: tuple[str, int] | None = None,
                       tls: TlsTarget | None = None, code: str | None = None,
                       ssh_key: str | None = None) -> tuple[int, str]:
    """The exit status and the line to print (see the module's docstring)."""
    try:
        async with asyncio.timeout(WAITING_TIMEOUT):
            client = await HostClient.connect(socket, tcp, tls=tls)
            client.ssh_key = ssh_key
            try:
                await client.send(client.hello_message(None, code, probe=True))
                answer = None
                while not isinstance(answer, Welcome | Error):
                    answer = parse_reply(await client.receive())
            finally:
                with contextlib.suppress(OSError, ConnectionError):
                    await client.close()
    except TimeoutError:
        return UNKNOWN, "solstis: the game host did not answer in time."
    except (OSError, ValueError) as exc:  # ReplyError too: a host that breaks the protocol
        return UNKNOWN, f"solstis: the connection to the game host failed ({exc})."
    except HostError as exc:
        return UNKNOWN, f"solstis: {sentence(str(exc))}"
    if isinstance(answer, Error):
        if answer.code == "name_needed":  # the host has no player of this login
            return UNKNOWN, ("solstis: the game host knows no player of yours yet (by your "
                             "key, your account or --code): open the lobby once.")
        return UNKNOWN, f"solstis: {sentence(answer.message)}"
    waiting = answer.page.get("waiting")
    if not isinstance(waiting, list):
        return UNKNOWN, "solstis: this game host does not say which games wait for you."
    new_code = answer.code
    if code is not None and new_code != code:
        # an old short code, exchanged for good at this hello: the only place it is said
        print(f"solstis: your resume code is now #{new_code} (the old one no longer "
              "works).", file=sys.stderr)
    count = len(waiting)
    if not count:
        return NONE, "solstis: no game waits for your move."
    return SOME, "solstis:" + waiting_words(count)
