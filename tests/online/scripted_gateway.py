"""A stand-in fleet gateway (``python scripted_gateway.py MODE [WORKERS]``) for the host's
accounting of what its fleet says, beside ``fake_gateway.py``'s broken and hostile ones.
It says the fleet is there with WORKERS workers (default 2), then answers each ``ask`` as
MODE says:

- ``not-a-move``: an answer whose move is no move at all;
- ``failed:WHY``: a failure, in the words WHY (as the real gateway says them);
- ``retried-late``: an honest answer, then two starts of that decision (a lost worker's
  retry said after the answer came);
- ``dies``: the gateway ends at the first ask, which it never answers;
- ``flood``: thousands of presence lines at once;
- ``bad-lines``: a stream of lines that are not the wire's;
- ``hold``: no answer at all (the host gives up on it in time).
"""

from __future__ import annotations

import json
import sys

from solstis_tui.core.observation_json import observation_from_dict

MODE = sys.argv[1]
WORKERS = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def say(message: dict | bytes) -> None:
    data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def answer(ask: dict) -> None:
    ident = ask["id"]
    legal = str(observation_from_dict(ask["observation"]).legal_moves[0])
    fields = {"type": "answer", "id": ident, "iterations": 10, "seconds": 0.01,
              "worker": "tls://scripted:1"}
    if MODE == "not-a-move":
        say({**fields, "move": "dance a jig"})
    elif MODE.startswith("failed:"):
        say({"type": "failed", "id": ident, "why": MODE.removeprefix("failed:")})
    elif MODE == "retried-late":
        say({**fields, "move": legal})
        say({"type": "started", "id": ident})
        say({"type": "started", "id": ident})
    elif MODE == "dies":
        sys.exit(4)
    elif MODE == "flood":
        say(b'{"type":"presence","connected":true,"workers":2}\n' * 5000)
    elif MODE == "bad-lines":
        say(b'{"type":"gossip"}\n' * 200)


def main() -> None:
    json.loads(sys.stdin.readline())  # the hello
    say({"type": "presence", "connected": True, "workers": WORKERS})
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "ask":
            answer(message)


if __name__ == "__main__":
    main()
