"""The keyed generator's draws are the documented ones: the deal's shuffle is Fisher-Yates
over the stream's 64-bit numbers, skipping the few past the last whole multiple (the
engine reads each number as two 32-bit halves, which must change nothing)."""

from __future__ import annotations

import random

from solstis_tui.core import rng

TOP = 1 << 64


def reference_steps(items: list[int], position: int, numbers: list[int]) -> int:
    """Fisher-Yates as documented, on 64-bit numbers: position i swaps with x % (i + 1) for
    the next number x below the largest multiple of i + 1 under 2**64 (others are skipped).
    Returns the position still to fill."""
    for x in numbers:
        if position < 1:
            break
        n = position + 1
        if x >= TOP - TOP % n:
            continue
        j = x % n
        items[position], items[j] = items[j], items[position]
        position -= 1
    return position


def halves(numbers: list[int]) -> tuple[int, ...]:
    """64-bit numbers as a block reads them: two 32-bit halves each, low first."""
    return tuple(half for x in numbers for half in (x & 0xFFFFFFFF, x >> 32))


def test_the_keyed_shuffle_is_fisher_yates_over_the_streams_64_bit_numbers():
    for seed in (0, 1, 42, 2**64 + 5, 2**127 + 3):
        keyed = rng.Keyed(seed)
        for domain in (b"tiles", b"spirits", b"other"):
            for size in (0, 1, 2, 15, 19, 48, 64, 65, 130):
                shuffled, expected = list(range(size)), list(range(size))
                keyed.shuffle(domain, shuffled)
                numbers = [x for block in range(size // 4 + 2)
                           for x in keyed.words(domain, block)]
                reference_steps(expected, size - 1, numbers)
                assert shuffled == expected, (seed, domain, size)


def test_a_shuffle_step_skips_exactly_the_numbers_past_the_last_whole_multiple():
    """Real streams almost never reach the numbers a step skips (the top few below 2**64),
    so the steps are checked on numbers chosen at those edges, for every position."""
    rand = random.Random(11)
    for position in range(1, 140):
        n = position + 1
        limit = TOP - TOP % n
        edges = [limit, limit - 1, TOP - 1, limit + 1, TOP - 2, 0, n, (1 << 32) - 1,
                 ((1 << 32) - 1) << 32, limit - n, 1 << 32]
        edges = [x for x in edges if x < TOP]
        for _ in range(30):
            numbers = [rand.choice(edges) if rand.random() < 0.7 else rand.getrandbits(64)
                       for _ in range(8)]
            got, expected = list(range(n)), list(range(n))
            left = rng.shuffle_steps(got, position, halves(numbers))
            assert left == reference_steps(expected, position, numbers), (position, numbers)
            assert got == expected, (position, numbers)
