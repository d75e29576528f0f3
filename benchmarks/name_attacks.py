"""Names a stranger would pick to pass for a player, a free seat, a bot or the game itself.

Run: python benchmarks/name_attacks.py [--verbose]

Each candidate is put to the host's own checks, the way a hello puts it: ``normalize_name``
(bad_name), then the look-alike keys of the names already taken (name_taken). Prints how
many are accepted and each accepted one, so that a person can judge whether it looks
clearly different from every taken name and seat word (``--verbose``: the refused ones
too, with the reason). Then the same for the look-alikes of issue 60 (``FOUND_ON_MAIN``,
``NEW_ATTACKS``: none may be accepted) and for honest names (``HONEST``: every one must
be, beside the taken names and each other). tests/online/test_name_posing.py asserts both.
Nothing here is timed.
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

#: Issue 60: names of three kinds the host accepted before it (2026-12-06) beside the
#: taken names, by what each passes for: a taken name (a Latin letter with a hook, tail or
#: loop outside Unicode's table, or one the table maps in the other case only, "ƅ"); a
#: mark the screens put after a name (any brackets, a rating); a bot.
FOUND_ON_MAIN = {
    "taken": ["Boƅ", "Boᶀ", "Kiᶆ", "Evᶒ", "Dᶏn", "Aᶇn", "Tⱺm"],
    "mark": ["Ann (host)", "Ann (admin)", "Ann ⦅guest⦆", "Ann [bot]", "Ann (mod)",
             "Ann {you}", "Ann 【staff】"],
    "rating": ["Ann 1500?"],
    "bot": ["Expert bot (2 cores)", "Expert bot 2", "MCTS bot v2", "Greedy Bot Jr"],
}
#: Forty more of the same kinds, each also accepted before issue 60.
NEW_ATTACKS = {
    "taken": ["Boᵬ", "Ꞗob", "Kᶖm", "Kiꬺ", "Ꝃim", "Eᶌe", "Eⱱe", "Evⱸ", "Sⱥm", "Ꞩam", "Ꟈan",
              "Aꞑn", "Daȵ", "Tꝍm"],
    "mark": ["Ann ⟨away⟩", "Ann «host»", "Ann <admin>", "Ann 〔mod〕", "Ann ❨mod❩",
             "Ann （owner）", "Ann - host", "Ann | staff", "Kim·admin", "Ann (gone)",
             "Ann (h o s t)", "Ann ⁽ʰᵒˢᵗ⁾"],
    "rating": ["Ann 2100", "Eve 1500 ?"],
    "bot": ["Expert (2 cores)", "EXPERT BOT (4 cores)", "Expert-bot-2", "ExpertBot9000",
            "E x p e r t 2", "Minimax 2", "MCTS 2.0", "The Expert bot", "Random bot #3",
            "Ann bot", "Expert · wins 58%", "Greedy bot Jr."],
}
#: Names people really have or pick: accents, other scripts, digits, common names, and
#: names that share letters with the program's words.
HONEST = ["Zoë", "Élodie", "Nguyễn Văn An", "José", "François", "Søren", "Łukasz", "Björk",
          "Siobhán", "Dvořák", "Şebnem", "Đorđe", "東京たろう", "김철수", "李小龍", "Пётр",
          "Νίκος", "Mal74", "R2D2", "Agent 47", "Bob2", "Kim Lee", "Anna", "Annie", "Hannah",
          "Dana", "Ivan", "Kai", "Liam", "Noah", "Olivia", "Mohammed", "Priya", "Jean-Luc",
          "O'Brien", "Mary Ann", "Botond", "Talbot", "Hostetler", "Max", "Theo", "Ann Lee",
          "Guido", "Moderna"]


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


def taken_keys(names: tuple[str, ...] = TAKEN) -> dict[str, str]:
    """Clash key -> name, for ``names``."""
    return {key: name for name in names for key in clash_keys(name)}


def attacks(groups: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(kind, name) for every name of ``groups``."""
    return [(kind, name) for kind, names in groups.items() for name in names]


def honest_clashes() -> list[tuple[str, str]]:
    """Pairs of honest names (and taken ones) that the host would take for each other."""
    seen: dict[str, str] = {}
    clashes = []
    for name in (*TAKEN, *HONEST):
        for key in clash_keys(name):
            if key in seen and seen[key] != name:
                clashes.append((seen[key], name))
            seen.setdefault(key, name)
    return clashes


def report_issue_60(taken: dict[str, str], verbose: bool) -> None:
    """Print how many of issue 60's look-alikes and honest names are accepted."""
    for label, groups in (("found on main", FOUND_ON_MAIN), ("new", NEW_ATTACKS)):
        tried = attacks(groups)
        accepted = [name for _kind, name in tried if verdict(name, taken) is None]
        print(f"issue 60, {label}: {len(tried)} look-alikes, {len(accepted)} accepted"
              + (f": {', '.join(accepted)}" if accepted else ""))
        if verbose:
            for kind, name in tried:
                print(f"  {kind:7} {name!r:24} {verdict(name, taken)}")
    refused = [(name, why) for name in HONEST if (why := verdict(name, taken)) is not None]
    print(f"honest names: {len(HONEST)}, {len(refused)} refused, "
          f"{len(honest_clashes())} pairs taken for each other")
    for name, why in refused:
        print(f"  {name!r:24} {why}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="show the refused ones too")
    args = parser.parse_args()
    taken = taken_keys()
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
    report_issue_60(taken, args.verbose)


if __name__ == "__main__":
    main()
