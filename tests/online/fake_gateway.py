"""A stand-in for the fleet gateway (``python fake_gateway.py MODE``): it speaks the
gateway's wire to the host as an honest gateway, a broken one or a hostile one would, so
the host's checks are tested without Dask. MODE: honest, no-workers, garbage, wrong-types,
illegal, slow-thinker, never, silent, oversize, crash."""

from __future__ import annotations

import json
import sys
import threading
import time

from solstis_tui.core import Move
from solstis_tui.core.observation_json import observation_from_dict

MODE = sys.argv[1]


LOCK = threading.Lock()


def say(message: dict | bytes) -> None:
    data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
    with LOCK:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


def present() -> None:
    """Say twice a second that the fleet is there, as the real gateway does."""
    while True:
        say({"type": "presence", "connected": True,
             "workers": 0 if MODE == "no-workers" else 2})
        time.sleep(0.5)


def illegal(obs) -> str:
    for text in ("play 6-6", "capture 1-1", "rainbow 1-1", "draw", "play 1-1", "keep 1"):
        try:
            move = Move.parse(text)
        except ValueError:
            continue
        if move not in obs.legal_moves:
            return text
    raise AssertionError("no illegal move found")


def answer(ask: dict) -> None:
    ident = ask["id"]
    obs = observation_from_dict(ask["observation"])
    legal = str(obs.legal_moves[0])
    fields = {"type": "answer", "id": ident, "iterations": 10, "seconds": 0.01,
              "worker": "tls://fake:1"}
    if MODE == "honest":
        say({**fields, "move": legal})
    elif MODE == "garbage":
        say(b"\x00\xff not json at all\n")
        say(b"gASVIQAAAAAAAACMBXBvc2l4lIwGc3lzdGVtlJOUjAR0cnVllIWUUpQu\n")  # a pickle, as text
        say({"type": "answer", "id": ident})
    elif MODE == "wrong-types":
        say({**fields, "move": [legal], "iterations": "many"})
        say({**fields, "move": legal, "seconds": float("nan")})
    elif MODE == "illegal":
        say({**fields, "move": illegal(obs)})
    elif MODE == "slow-thinker":
        say({**fields, "move": legal, "seconds": 10_000.0})


def main() -> None:
    json.loads(sys.stdin.readline())  # the hello
    if MODE == "crash":
        sys.exit(3)
    say({"type": "presence", "connected": True, "workers": 0 if MODE == "no-workers" else 2})
    if MODE == "silent":
        time.sleep(3600)
    threading.Thread(target=present, daemon=True).start()
    if MODE == "oversize":
        say(b'{"type":"presence","connected":true,"workers":2,"x":"' + b"y" * 100_000
            + b'"}\n')
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "ask" and MODE != "never":
            answer(message)


if __name__ == "__main__":
    main()
