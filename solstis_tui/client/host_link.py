"""The online app's connection to the game host, from connecting to hanging up: where the
host is, who this player says they are, and the messages read one after another until the
connection ends, with why it ended in a sentence. No Textual here: ``OnlineApp`` runs it in
a worker and shows what it hears."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .client import HostClient, HostError

if TYPE_CHECKING:
    from ..wire.tls import TlsTarget

#: What a message the app cannot read raises in its handler: the host broke the protocol.
UNREADABLE = (KeyError, TypeError, AttributeError, ValueError, IndexError)


class HostLink:
    """The host at ``socket``, ``tcp`` or ``tls`` (see ``HostClient.connect``), and this
    player: ``name`` or ``code`` (``wanted``), or the SSH key they logged in with."""

    def __init__(self, *, socket: Path | None = None, tcp: tuple[str, int] | None = None,
                 tls: TlsTarget | None = None, ssh_key: str | None = None,
                 name: str | None = None, code: str | None = None) -> None:
        self.socket, self.tcp, self.tls = socket, tcp, tls
        self.ssh_key = ssh_key  # a player known by their key says hello at once
        self.wanted: tuple[str | None, str | None] = (name, code)
        """The name or resume code to say hello with once connected."""
        self.client: HostClient | None = None
        """The connection while it is up."""

    def named(self) -> bool:
        """Whether hello can be said as soon as the connection is up."""
        return bool(self.wanted[0] or self.wanted[1] or self.ssh_key)

    async def run(self, heard: Callable[[dict[str, Any]], None],
                  connected: Callable[[HostClient], None]) -> str:
        """Connect (``connected`` is told), say hello if ``named``, and hand each message
        to ``heard`` until the connection ends: why it ended, once it is hung up. A message
        ``heard`` cannot read (``UNREADABLE``) ends it: a host that breaks the protocol
        costs the connection, never the app."""
        last: dict[str, Any] = {}  # the host's last word: why it closed, if it said
        try:
            client = self.client = await HostClient.connect(self.socket, self.tcp,
                                                            tls=self.tls)
            client.ssh_key = self.ssh_key
            connected(client)
            if self.named():
                client.post(client.hello_message(*self.wanted))
            while True:
                last = await client.receive()
                try:
                    heard(last)
                except UNREADABLE:
                    kind = str(last.get("type"))[:20]
                    why = (f"the game host sent a {kind!r} message this program cannot "
                           "read; disconnected")
                    break
        except HostError as exc:
            said = last.get("message") if last.get("type") == "error" else None
            why = f"{exc}: {said}" if isinstance(said, str) else str(exc)
        except (OSError, ValueError) as exc:
            why = f"the connection to the game host failed ({exc})"
        self.hang_up()
        return why

    def post(self, message: dict[str, Any]) -> bool:
        """Send ``message`` without waiting for it to leave; False: no connection."""
        if self.client is None:
            return False
        self.client.post(message)
        return True

    def hello(self, name: str | None = None, code: str | None = None) -> bool:
        """Say who this is (``HostClient.hello_message``); False: no connection."""
        return self.client is not None and self.post(self.client.hello_message(name, code))

    def hang_up(self) -> None:
        """Close the connection, if one is up (the host waits for it)."""
        if self.client is not None:
            self.client.hang_up()
            self.client = None
