"""Names a stranger might pick to pass for someone else, or to spill over the screen."""

from __future__ import annotations

import pytest

from solstis_tui.wire.names import BadName, normalize_name, without_controls


@pytest.mark.parametrize("raw", ["You", "you", " YOU ", "Minimax", "MCTS", "Expert", "Bot"])
def test_names_the_program_gives_cannot_be_taken(raw):
    with pytest.raises(BadName, match="a name the program uses itself"):
        normalize_name(raw)


@pytest.mark.parametrize("raw", ["\u0301\u0301abc", "e\u0301\u0302\u0303\u0304x"])
def test_stacked_or_leading_accents_are_refused(raw):
    with pytest.raises(BadName, match="accents"):
        normalize_name(raw)


@pytest.mark.parametrize("raw", ["Zoë", "Élodie", "Nguyễn", "Youssef", "Botan"])
def test_ordinary_names_with_accents_or_near_reserved_words_are_kept(raw):
    assert normalize_name(raw) == raw


def test_bidirectional_controls_from_the_wire_never_reach_the_screen():
    said = without_controls({"name": "x\u202eevil", "rows": ["\u2066a\u2069", "\x1b[2J"]})
    assert said == {"name": "x\ufffdevil", "rows": ["\ufffda\ufffd", "\ufffd[2J"]}


# ---------------------------------------------------------------------- look-alikes
@pytest.mark.parametrize("raw", ["Y\u043eu", "Y0U", "— open —", "Open!", "H\u043est",
                                 "Greedy (bot)", "expert  BOT", "MCTS!"])
def test_look_alikes_of_the_programs_own_names_are_refused(raw):
    with pytest.raises(BadName, match="looks like, a name the program uses itself"):
        normalize_name(raw)


@pytest.mark.parametrize("raw", ["Sam (bot)", "Ann (guest)", "Bob(BOT)", "Eve (you)"])
def test_a_name_cannot_carry_the_marks_the_screens_put_after_names(raw):
    with pytest.raises(BadName, match="mark the program puts after names"):
        normalize_name(raw)


@pytest.mark.parametrize("raw", ["Host: game void", "Ann:", "Bob： hi"])
def test_a_name_with_a_colon_could_read_as_someone_speaking(raw):
    with pytest.raises(BadName, match="':'"):
        normalize_name(raw)


@pytest.mark.parametrize("ours, theirs", [("Bob", "B0b"), ("Ian", "lan"),
                                          ("Ann", "\uff21nn"), ("Emma", "Ernrna"),
                                          # all Cyrillic or all Greek, outside UTS #39
                                          ("Ann", "Апп"), ("Bob", "Вов"), ("Ann", "Αηη"),
                                          ("Tom", "\u0422\u043e\u043c"),
                                          ("Kim", "\u041a\u0456\u043c"),
                                          # a space, a dot, a dot above
                                          ("Mal73", "Mal 73"), ("Mal73", "Mal73."),
                                          ("Dan", "Da\u0307n")])
async def test_a_name_that_looks_like_a_taken_one_is_refused(connect, ours, theirs):
    from solstis_tui.client.client import HostError

    await connect(ours)
    with pytest.raises(HostError, match="looks too much like one that is"):
        await connect(theirs)


@pytest.mark.parametrize("raw", ["A\u043f\u043f", "B\u043eb", "\u03a9mega", "Dа\u0301n"])
def test_a_name_that_mixes_scripts_is_refused(raw):
    """Letters of two scripts in one name: the way look-alikes outside Unicode's table
    get in ("Aпп" with Cyrillic п beside "Ann")."""
    with pytest.raises(BadName, match="in one script"):
        normalize_name(raw)


@pytest.mark.parametrize("raw", ["東京たろう", "김철수", "Пётр", "Νίκος", "Zoë", "Nguyễn"])
def test_names_in_one_script_or_in_japanese_or_korean_writing_are_kept(raw):
    assert normalize_name(raw) == raw


@pytest.mark.parametrize("raw", ["— ореп —", "ОРЕП", "ЕМРТҮ", "βοτ", "уои", "Empty seat",
                                 "ɢᴜᴇꜱᴛ", "Ноѕт"])
def test_seat_words_and_the_programs_names_are_refused_in_any_script(raw):
    with pytest.raises(BadName, match="looks like, a name the program uses itself"):
        normalize_name(raw)


async def test_a_name_unlike_any_taken_one_is_accepted(connect):
    await connect("Bob")
    assert (await connect("Rob")).name == "Rob"


async def test_a_chat_line_cannot_push_words_onto_a_line_of_their_own(host, connect):
    ann = await connect("Ann")
    await ann.send({"type": "create", "variant": "base", "opponent": "greedy", "seat": 0})
    table = (await ann.receive_until("joined"))["table"]
    await ann.send({"type": "chat", "table": table,
                    "text": "x" + " " * 150 + "Host: the game is void"})
    said = await ann.receive_until("chat")
    assert said["text"] == "x Host: the game is void"


def narrator_openings() -> set[str]:
    """How the game's own lines begin before their first ':' (the player's names aside),
    over whole random games of every variant, read from the narrator itself."""
    import random

    from solstis_tui.core import Game, Options
    from solstis_tui.words.narrate import narrate

    openings = set()
    for seed in range(6):
        game = Game.new(seed=seed, options=Options.for_variant(("base", "firefly")[seed % 2]))
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        for line in narrate(game.observation(0).log, lambda p: f"P{p}", 0):
            head = line.split(": ")[0].lstrip("— ")
            if ": " in line and not head.startswith(("P0", "P1")):
                openings.add(head)
    return openings


def test_names_that_begin_like_the_games_own_lines_are_refused():
    """A watcher called "Game over" or "— turn 99" would write the game's lines in chat."""
    openings = narrator_openings()
    assert {"Game over", "turn 1"} <= openings  # the narrator was really read
    for head in openings:
        for raw in (head, head.upper(), f"{head} 2", head.replace(" ", "-")):
            with pytest.raises(BadName):
                normalize_name(raw)
    for raw in ("GameOver", "SECOND-chance 3"):
        with pytest.raises(BadName, match="begins like one of the game's own lines"):
            normalize_name(raw)
    for raw in ("— turn 99", "-- turn 99", "» Ann", "[chat] Ann"):
        with pytest.raises(BadName, match="starts with a letter or a digit"):
            normalize_name(raw)


@pytest.mark.parametrize("raw", ["Deere", "Flynn", "Theo", "Overgame", "7 Seas", "Turner"])
def test_names_that_only_share_letters_with_the_games_lines_are_kept(raw):
    assert normalize_name(raw) == raw
