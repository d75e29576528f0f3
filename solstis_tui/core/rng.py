"""The engine's random generators: a keyed one for real deals, SplitMix64 for bots' worlds.

``Keyed`` deals real games: BLAKE2b keyed with a key derived from the game's seed, in
counter mode. Its outputs (the order of the tiles, the Fly's pick) reveal nothing about the
key, so a player cannot work back from what they see to the hidden tiles; the same seed
still deals the same game on every machine. A seed nobody chose comes from ``new_secret``.

``SPLITMIX`` (SplitMix64) is fast but not secret: bots' imaginary worlds use it, and games
saved in game format 1 (before secret deals) were dealt by it and continue with it.

Either way a game's random state is one int (the Fly's draw counter, or the SplitMix
state), so copying a game copies it for free; ``below(state, n)`` advances it.
"""

from __future__ import annotations

import random
import secrets
import struct
from collections.abc import Callable
from hashlib import blake2b
from typing import Any, Final, TypeVar

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_WORD: Final = 1 << 64
_HALF: Final = 1 << 32
_HALF_ONES: Final = _HALF - 1
#: ``shuffle_steps`` reads a 64-bit number ``x`` as its two 32-bit halves, ``lo`` and ``hi``
#: (``x = hi * 2**32 + lo``), so that the compiled engine computes with machine words, not
#: big integers. For n up to 64: ``x % n`` is ``((hi % n) * _FOLD[n] + lo) % n``, and ``x`` is at
#: or above the largest multiple of n below 2**64 (and skipped) exactly when ``hi`` is all
#: ones and ``lo`` is at least ``_SKIP[n]``.
_FOLD: Final[tuple[int, ...]] = tuple(_HALF % n if n else 0 for n in range(65))
_SKIP: Final[tuple[int, ...]] = tuple(_HALF - _WORD % n if n else 0 for n in range(65))
#: A block of output as sixteen 32-bit numbers, low half of each 64-bit number first.
_HALVES: Final[Callable[[bytes], tuple[int, ...]]] = struct.Struct("<16I").unpack
#: How many bits of the OS's randomness a seed nobody chose has.
SECRET_BITS: Final = 128


def new_secret() -> int:
    """A fresh seed nobody chose: ``SECRET_BITS`` bits from the OS's CSPRNG."""
    return secrets.randbits(SECRET_BITS)


# ---------------------------------------------------------------------- random.Random
def rand_below(rand: random.Random, n: int) -> int:
    """``rand.randrange(n)`` (n > 0), the same number from the same generator state: what
    CPython's ``Random`` does, written here so that compiled code asks the generator for
    its bits directly instead of running random.py's interpreted code."""
    k = n.bit_length()
    r = rand.getrandbits(k)
    while r >= n:
        r = rand.getrandbits(k)
    return r


def rand_shuffle(rand: random.Random, items: list[T]) -> None:
    """``rand.shuffle(items)``: the same order from the same generator state (see
    ``rand_below``)."""
    for i in range(len(items) - 1, 0, -1):
        j = rand_below(rand, i + 1)
        items[i], items[j] = items[j], items[i]


# ---------------------------------------------------------------------- SplitMix64
def next_state(state: int) -> tuple[int, int]:
    """Advance ``state``; returns (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A number in ``range(n)``; returns (new state, number)."""
    state, out = next_state(state)
    return state, out % n


def shuffle(state: int, items: list[T]) -> int:
    """Shuffle ``items`` in place (Fisher-Yates); returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int)."""
    return seed & _MASK


class SplitMix64:
    """The fast generator as a game's draw source (the state is the SplitMix state)."""

    keyed = False

    def below(self, state: int, n: int) -> tuple[int, int]:
        """A number in ``range(n)``; returns (new state, number)."""
        return below(state, n)


SPLITMIX: Final = SplitMix64()


# ---------------------------------------------------------------------- keyed BLAKE2b
class Keyed:
    """BLAKE2b keyed with a key derived from ``seed``, in counter mode. Each use (the land
    tiles, the spirits, the Fly...) reads its own stream, named by a short domain."""

    keyed = True
    __slots__ = ("_key", "_streams")

    def __init__(self, seed: int) -> None:
        raw = seed.to_bytes(seed.bit_length() // 8 + 1, "little", signed=True)
        self._key = blake2b(raw, digest_size=32, person=b"solstis-seed").digest()
        # Each domain's hasher with the key already absorbed: a block copies it.
        self._streams: dict[bytes, Any] = {}

    def block(self, domain: bytes, counter: int) -> bytes:
        """64 bytes of output: block ``counter`` (0 <= counter < 2**64) of ``domain``."""
        stream = self._streams.get(domain)
        if stream is None:
            stream = blake2b(key=self._key, digest_size=64, person=domain)
            self._streams[domain] = stream
        hasher = stream.copy()
        hasher.update(counter.to_bytes(8, "little"))
        digest: bytes = hasher.digest()
        return digest

    def words(self, domain: bytes, counter: int) -> tuple[int, ...]:
        """Block ``counter`` of ``domain``'s stream as eight 64-bit numbers."""
        return struct.unpack("<8Q", self.block(domain, counter))

    def shuffle(self, domain: bytes, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, unbiased) from ``domain``'s stream of
        64-bit numbers: position ``i`` swaps with ``x % (i + 1)``, where a number ``x`` at
        or above the largest multiple of ``i + 1`` below 2**64 is skipped
        (``shuffle_steps``, a block at a time)."""
        position, counter = len(items) - 1, 0
        while position > 0:
            halves = _HALVES(self.block(domain, counter))
            position = shuffle_steps(items, position, halves)
            counter += 1

    def below(self, state: int, n: int) -> tuple[int, int]:
        """A number in ``range(n)`` from the draw stream (the Fly); ``state`` counts the
        blocks used. Returns (new state, number)."""
        top = 1 << 512
        limit = top - top % n
        while True:
            x = int.from_bytes(self.block(b"draw", state), "little")
            state += 1
            if x < limit:
                return state, x % n


def shuffle_steps(items: list[T], position: int, halves: tuple[int, ...]) -> int:
    """Fisher-Yates steps on ``items`` from ``position`` down, one for each of the 64-bit
    numbers ``halves`` holds (as ``_HALVES`` reads a block: two 32-bit halves each, low
    first) that is not skipped: ``position`` swaps with the number's remainder by
    ``position + 1``; a number at or above the largest multiple of that below 2**64 is
    skipped. Returns the position still to fill (0 when the shuffle is done). For up to 64
    items this reckons in small numbers (``_FOLD``), which the compiled engine keeps in
    machine words."""
    if position < 1:
        return position
    for k in range(0, len(halves), 2):
        lo, hi, n = halves[k], halves[k + 1], position + 1
        if n < len(_FOLD):
            if hi == _HALF_ONES and lo >= _SKIP[n]:
                continue
            j = ((hi % n) * _FOLD[n] + lo) % n
        else:
            x = hi * _HALF + lo
            if x >= _WORD - _WORD % n:
                continue
            j = x % n
        items[position], items[j] = items[j], items[position]
        position -= 1
        if not position:
            break
    return position


def derive(seed: int, purpose: bytes, index: int = 0) -> int:
    """A 64-bit number made from ``seed`` for ``purpose`` (at most 16 bytes), such as a
    bot's own seed: the same every time, and it reveals nothing of ``seed``."""
    return int.from_bytes(Keyed(seed).block(purpose, index)[:8], "little")


#: What a game's random draws come from.
Draws = Keyed | SplitMix64
