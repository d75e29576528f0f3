"""A compact, lasting record of an arena run: one CSV line per game, a few KB a run.

An arena ``--json`` keeps every decision's time (about 30 KB per 1,000 games of figures,
and 13,000 lines for 400 games); this record keeps only what the published rows are made
of, so that every row can be recomputed, game by game, from a file small enough to keep in
the repository. The file is CSV with two comment lines first::

    # solstis arena record 1
    # {"bots": ["mcts@0.25s", "plain-ismcts@1250"], "seed": 3031, "variant": "base", ...}
    pair,deal,first,winner,score0,score1,end
    0,0,0,0,52,40,normal
    0,0,1,1,37,44,normal

``pair`` numbers the pairs of ``bots`` as the arena does (``itertools.combinations``);
``first`` is 0 when the pair's first bot sat in seat 0 and 1 when the second did;
``winner`` is the seat that won (empty for a draw). A deal's seed is not stored: the arena
makes it from the run's seed, variant and deal (``arena.stable_seed``).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from typing import Any

from .arena_stats import GameRecord

MAGIC = "# solstis arena record 1"
#: The most bots a record's settings may name (their pairs are listed: n * (n - 1) / 2).
MAX_BOTS = 64
COLUMNS = ("pair", "deal", "first", "winner", "score0", "score1", "end")


def dumps(settings: dict[str, Any], games: list[GameRecord]) -> str:
    """The record of ``games`` played with ``settings`` (which must name ``bots``)."""
    pairs = list(itertools.combinations(settings["bots"], 2))
    out = io.StringIO()
    out.write(f"{MAGIC}\n# {json.dumps(settings, sort_keys=True)}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for g in sorted(games, key=lambda g: (g["pair"], g["deal"], g["bots"] != list(
            pairs[g["pair"]]))):
        first = 0 if tuple(g["bots"]) == pairs[g["pair"]] else 1
        winner = "" if g["winner"] is None else g["winner"]
        writer.writerow((g["pair"], g["deal"], first, winner, *g["scores"], g["end"] or ""))
    return out.getvalue()


def loads(text: str, deal_seed: Any = None) -> tuple[dict[str, Any], list[GameRecord]]:
    """(settings, games) of a record; ``deal_seed(settings, deal)`` gives each game's deal
    seed back (0 when not given). ValueError saying what is wrong with a bad record."""
    lines = text.splitlines()
    if len(lines) < 3 or lines[0] != MAGIC or not lines[1].startswith("# "):
        raise ValueError("not a solstis arena record (it should start with "
                         f"{MAGIC!r} and a line of settings)")
    try:
        settings = json.loads(lines[1][2:])
        bots = settings["bots"]
        if not isinstance(bots, list) or len(bots) > MAX_BOTS or \
                not all(isinstance(b, str) for b in bots):
            raise TypeError(f"'bots' is a list of at most {MAX_BOTS} bots' specs")
        pairs = list(itertools.combinations(bots, 2))  # specs are only compared, never made
    except RecursionError:
        raise ValueError("the record's settings line is malformed: nested too deep") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"the record's settings line is malformed: {exc}") from None
    rows = csv.reader(lines[2:])
    if tuple(next(rows)) != COLUMNS:
        raise ValueError(f"the record's columns should be {','.join(COLUMNS)}")
    games: list[GameRecord] = []
    for number, row in enumerate(rows, 1):
        try:
            pair, deal, first, winner, s0, s1, end = row
            a, b = pairs[int(pair)]
            seats = [a, b] if first == "0" else [b, a]
            if first not in ("0", "1") or winner not in ("", "0", "1"):
                raise ValueError("first and winner are 0 or 1 (winner empty for a draw)")
            games.append({
                "pair": int(pair), "deal": int(deal), "bots": seats,
                "game_seed": deal_seed(settings, int(deal)) if deal_seed else 0,
                "winner": None if winner == "" else int(winner),
                "scores": [int(s0), int(s1)], "end": end or None, "times": [[], []],
            })
        except (ValueError, IndexError) as exc:
            raise ValueError(f"game {number} of the record is malformed: {exc}") from None
    return settings, games
