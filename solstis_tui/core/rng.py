"""A tiny deterministic random generator (SplitMix64), the same on every machine.

The game's random state is one int, so copying a game copies it for free.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


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


def shuffle(state: int, items: list) -> int:
    """Shuffle ``items`` in place (Fisher-Yates); returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int)."""
    return seed & _MASK
