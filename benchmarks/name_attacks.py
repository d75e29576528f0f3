"""Names a stranger would pick to pass for a player, a free seat, a bot or the game itself.

Run: python benchmarks/name_attacks.py [--verbose]

Each candidate is put to the host's own checks, the way a hello puts it: ``normalize_name``
(bad_name), then the look-alike keys of the names already taken (name_taken). Prints how
many are accepted and each accepted one, so that a person can judge whether it looks
clearly different from every taken name and seat word (``--verbose``: the refused ones
too, with the reason). Nothing here is timed.
"""

from __future__ import annotations

import argparse
import unicodedata

from solstis_tui.host.player_db import clash_keys
from solstis_tui.wire.names import BadName, normalize_name

#: The players already at the host (Mal73 and Ann from the issue's attack run).
TAKEN = ("Ann", "Dan", "Bob", "Eve", "Mal73", "Kim", "Tom", "Sam")

#: Latin letter -> look-alikes of other scripts (Cyrillic, Greek), some in Unicode's
#: confusables table, some not (п, т, η, к).
HOMOGLYPHS = {
    "a": "аα", "A": "АΑ", "n": "пηπ", "e": "еε", "E": "ЕΕ", "o": "оοσ", "O": "ОΟ",
    "b": "Ьв", "B": "ВΒ", "m": "м", "M": "МΜ", "k": "кκ", "K": "КΚ", "i": "іι", "T": "ТΤ",
    "p": "рρ", "c": "сς", "y": "уγ", "h": "һн", "s": "ѕ", "v": "ѵν", "u": "υц", "t": "т",
    "D": "Ꭰ", "S": "Ѕ", "l": "ӏ1|",
}
SEAT_WORDS = ("open", "empty", "bot", "you", "guest", "host", "away", "waiting")


def swaps(name: str) -> list[str]:
    """``name`` with one letter, then every letter it can, swapped for a look-alike."""
    out = []
    for i, ch in enumerate(name):
        for other in HOMOGLYPHS.get(ch, ""):
            out.append(name[:i] + other + name[i + 1:])
    whole = "".join(HOMOGLYPHS.get(ch, ch)[0] for ch in name)
    return [*out, whole]


def candidates() -> list[str]:
    """About 120 attack names, each tried once."""
    found: list[str] = []
    for name in ("Ann", "Dan", "Bob", "Eve", "Mal73", "Kim", "Tom"):
        found += swaps(name)
        found += [name.upper(), f"{name}\u200b", name.replace("a", "a\u0307"),
                  "\uff21nn" if name == "Ann" else name + "\u00ad",
                  " ".join(name), f"{name}.", name.replace("m", "rn")]
    for word in SEAT_WORDS:
        cyr = word.translate(str.maketrans("openybtuagshwi", "ореnуьтиаgѕһwі"))
        found += [f"— {word} —", f"— {cyr} —", cyr.upper(), f"({word})", word.title() + "!"]
    found += ["Game over", "GAME OVER", "Gаme over", "Game 0ver", "— turn 99", "turn 99",
              "Second chance", "» Ann", "Ann (bot)", "Greedy bot", "Ехрегт", "Μinimax",
              "Ann: hi", "Host: game void", "\u202eevE", "A\u0301\u0301\u0301nn", "D\u0430n",
              "Da\u0301n", "Ánn", "Anna", "Annie", "Dann", "B0b", "8ob", "Ev3", "Mal 73",
              "MaI73", "Ma173", "Kiṃ", "Tοm"]
    return list(dict.fromkeys(found))


def verdict(name: str, taken: dict[str, str]) -> str | None:
    """None if the host accepts ``name`` beside ``taken`` (clash key -> name), else why."""
    try:
        shown = normalize_name(name)
    except BadName as exc:
        return f"bad_name: {exc}"
    clash = [taken[key] for key in clash_keys(shown) if key in taken]
    return f"name_taken: looks like {clash[0]}" if clash else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="show the refused ones too")
    args = parser.parse_args()
    taken = {key: name for name in TAKEN for key in clash_keys(name)}
    tried = candidates()
    accepted = []
    for name in tried:
        why = verdict(name, taken)
        if why is None:
            accepted.append(name)
        elif args.verbose:
            print(f"refused  {name!r:28} {why}")
    print(f"{len(tried)} candidates beside {', '.join(TAKEN)} and the seat words; "
          f"{len(accepted)} accepted:")
    for name in accepted:
        letters = " ".join(unicodedata.name(ch, "?").split(" ")[0] for ch in name
                           if unicodedata.category(ch).startswith("L"))
        print(f"  {name!r:20} {name!a:32} {letters}")


if __name__ == "__main__":
    main()
