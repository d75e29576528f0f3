"""The keyed generator's draws are the documented ones: the deal's shuffle is Fisher-Yates
over the stream's 64-bit numbers, skipping the few past the last whole multiple (the
engine reads each number as two 32-bit halves, which must change nothing)."""

from __future__ import annotations

import itertools
import random

from solstis_tui.core import rng


def reference_shuffle(keyed: rng.Keyed, domain: bytes, items: list[int]) -> None:
    """The keyed shuffle as documented, on the stream's 64-bit numbers: position i swaps
    with x % (i + 1) for the next number x below the largest multiple of i + 1 under 2**64."""
    top = 1 << 64
    numbers = (x for block in itertools.count() for x in keyed.words(domain, block))
    for i in range(len(items) - 1, 0, -1):
        x = next(numbers)
        while x >= top - top % (i + 1):
            x = next(numbers)
        j = x % (i + 1)
        items[i], items[j] = items[j], items[i]


def test_the_keyed_shuffle_is_fisher_yates_over_the_streams_64_bit_numbers():
    for seed in (0, 1, 42, 2**64 + 5, 2**127 + 3):
        keyed = rng.Keyed(seed)
        for domain in (b"tiles", b"spirits", b"other"):
            for size in (0, 1, 2, 15, 19, 48, 64, 65, 130):
                shuffled, expected = list(range(size)), list(range(size))
                keyed.shuffle(domain, shuffled)
                reference_shuffle(keyed, domain, expected)
                assert shuffled == expected, (seed, domain, size)


def test_a_draw_skips_exactly_the_numbers_past_the_last_whole_multiple():
    """``pick`` reads a 64-bit number as two 32-bit halves (the shuffle's numbers); it gives
    the number's remainder, and -1 (draw again) from the largest multiple of n under 2**64
    on. Real streams almost never reach those numbers, so they are checked one by one."""
    top = 1 << 64
    rand = random.Random(11)
    for n in range(1, 200):
        limit = top - top % n
        edges = {0, 1, n - 1, n, limit - n, limit - 1, limit, limit + 1, top - 2, top - 1,
                 (1 << 32) - 1, 1 << 32, ((1 << 32) - 1) << 32}
        numbers = edges | {top - 1 - k for k in range(70)} | {rand.getrandbits(64)
                                                               for _ in range(50)}
        for x in sorted(x for x in numbers if 0 <= x < top):
            expected = x % n if x < limit else -1
            assert rng.pick(x & 0xFFFFFFFF, x >> 32, n) == expected, (n, x)
