"""Online game records at the host: what keeping a record costs when a game ends, how big
one is, and how fast a player's list and a record are read from a large ``ratings.db``.

Run: python benchmarks/host_records.py [--games 40] [--rows 100000] [--writes 3000]

It plays ``--games`` random games to their end and times, for each, what the host does on
its event loop as the game ends (``archive.archived``: the record replayed and written as
text) and the record's size. It then writes ``--writes`` finished games through the
host's ``Ratings`` (one transaction each: result, record, both ratings, as the host's
writer thread does as games end; the SQLite writer's ceiling). Then it fills a
``ratings.db`` with ``--rows`` stored records (each with two readers, spread over 1,000
players) and times a ``games`` page and a ``record`` fetch for one player
(``archive.games_of`` and ``archive.fetch``, as the host's database thread runs them).
Printed: medians and worst cases.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from solstis_tui.core import Game, Options
from solstis_tui.host import archive
from solstis_tui.host.ratings import Ratings, result_of
from solstis_tui.host.tables import Seat, Table


def finished_table(seed: int) -> Table:
    rand = random.Random(seed)
    game = Game.new(seed=rand.getrandbits(128), options=Options())
    while not game.is_over:
        game.play(rand.choice(game.legal_moves()))
    seats = [Seat("Ann", "code-ann", identity="key:Ann"), Seat("Bob", "code-bob")]
    return Table("t000001", game, seats, game_id="g" + f"{seed:032x}")


def timed_ms(work, *args) -> tuple[float, object]:
    start = time.perf_counter()
    out = work(*args)
    return (time.perf_counter() - start) * 1000, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--writes", type=int, default=3000)
    args = parser.parse_args()
    costs, sizes, entries = [], [], []
    for seed in range(args.games):
        table = finished_table(seed)
        ms, entry = timed_ms(archive.archived, table, 1.0, time.time())
        costs.append(ms)
        sizes.append(len(entry.text.encode()))
        entries.append(entry)
    print(f"record at a game's end ({args.games} random games): median "
          f"{statistics.median(costs):.1f} ms, worst {max(costs):.1f} ms on the event loop; "
          f"size median {statistics.median(sizes):.0f} B, largest {max(sizes)} B")
    with tempfile.TemporaryDirectory() as folder:
        ratings = Ratings(Path(folder))
        ratings.open()
        start = time.perf_counter()
        for i in range(args.writes):  # what the host's writer thread does as a game ends
            ratings.record_now(result_of(f"w{i:031x}", (f"key:p{i % 500}", f"key:q{i % 499}"),
                                         i % 2, record=entries[i % len(entries)]))
        took = time.perf_counter() - start
        ratings.close()
        print(f"finished games written one transaction each (result, record, both ratings), "
              f"as the host's writer thread does: {args.writes / took:.0f} a second "
              f"({took / args.writes * 1000:.2f} ms each, {args.writes} games)")
        conn = sqlite3.connect(Path(folder) / "ratings.db")
        start = time.perf_counter()
        with conn:
            for i in range(args.rows):
                entry = entries[i % len(entries)]
                readers = ((f"key:p{i % 1000}", 0), (f"key:p{(i * 7 + 1) % 1000}", 1))
                archive.store(conn, f"g{i:032x}", 1e9 + i,
                              archive.Archived(entry.text, entry.variant, entry.names,
                                               entry.end, entry.winner, entry.stars, readers))
        filled = time.perf_counter() - start
        size = (Path(folder) / "ratings.db").stat().st_size
        pages, fetches = [], []
        for n in range(50):
            player = f"key:p{n * 13 % 1000}"
            ms, (rows, total) = timed_ms(archive.games_of, conn, player, 0)
            pages.append(ms)
            ms, found = timed_ms(archive.fetch, conn, player, rows[0]["game"])
            assert found is not None
            fetches.append(ms)
        conn.close()
    print(f"{args.rows:,} records stored in {filled:.1f} s ({size / 1e6:.0f} MB); a player with "
          f"{total} games: a games page median {statistics.median(pages):.2f} ms (worst "
          f"{max(pages):.2f}), a record fetch median {statistics.median(fetches):.2f} ms "
          f"(worst {max(fetches):.2f})")


if __name__ == "__main__":
    main()
