"""The log in plain words."""

from __future__ import annotations

from solstis_tui.core import Game, Options, Spirit, cell_name, parse_cell
from solstis_tui.play.narrate import narrate


def names(p: int) -> str:
    return ("You", "Minimax bot")[p]


def test_play_and_capture_read_as_one_sentence():
    events = [("play", 0, parse_cell("3-5")), ("capture", 0, parse_cell("3-5"),
                                               parse_cell("3-8"))]
    assert narrate(events, names, viewer=0) == ["You played 3-5 and captured 3-8"]


def test_drawing_two_spirits_and_keeping_one():
    events = [("spirits_drawn", 1, (Spirit.BEE, Spirit.FROG)), ("to_line", Spirit.FROG),
              ("keep", 1, Spirit.BEE)]
    [line] = narrate(events, names, viewer=0)
    assert line.startswith("Minimax bot drew two spirits") and "kept the Bee" in line


def test_the_log_shows_what_the_observation_shows():
    """Narration hides nothing itself: the observation's log already hides the other
    seat's draw (its tile is None)."""
    events = [("draw", 1, None), ("draw", 0, parse_cell("4-4"))]
    assert narrate(events, names, viewer=0) == ["Minimax bot drew a tile", "You drew 4-4"]


def test_the_opponents_draw_stays_hidden_in_a_real_game():
    game = Game.new(seed=11, options=Options())
    while not any(e[0] == "draw" and e[1] == 1 for e in game.log):
        game.play(game.legal_moves()[0])
    mine = narrate(game.observation(0).log, names, viewer=0)
    theirs = narrate(game.observation(1).log, names, viewer=1)
    drawn = [e[2] for e in game.log if e[0] == "draw" and e[1] == 1]
    assert "Minimax bot drew a tile" in mine
    assert all(cell_name(t) not in line for t in drawn for line in mine if "drew" in line)
    assert f"Minimax bot drew {cell_name(drawn[0])}" in theirs
    watcher = narrate(game.observation(0, spectator=True).log, names, viewer=None)
    assert not any(line.startswith("You drew ") and line != "You drew a tile"
                   for line in watcher)


def test_a_renard_look_reads_from_the_lookers_side():
    events = [("reveal", 1, (parse_cell("2-2"), parse_cell("3-3")))]
    assert narrate(events, names, viewer=1) == [
        "Renard: Minimax bot sees the opponent's hand: 2-2 and 3-3"]
    assert narrate(events, names, viewer=0) == ["Renard: Minimax bot looks at the opponent's hand"]
    hidden = [("reveal", 1, None)]  # a watcher's log
    assert narrate(hidden, names) == ["Renard: Minimax bot looks at the opponent's hand"]


def test_every_kind_has_one_formatter():
    from solstis_tui.core.events import EVENT_KINDS
    from solstis_tui.play.narrate import FORMATTERS

    assert set(FORMATTERS) == set(EVENT_KINDS)


def samples() -> dict[str, tuple]:
    """One event of every kind the engine logs."""
    return {
        "turn": ("turn", 0, 3, False), "pass": ("pass", 0), "discard": ("discard", 0, 5),
        "second": ("second", 0, 5), "flip": ("flip", 5), "place": ("place", 0, 5),
        "rainbow": ("rainbow", 0, 5), "no_rainbow": ("no_rainbow", 0),
        "shift": ("shift", 0, 5, 6), "rainbow_out": ("rainbow_out", 0, 5),
        "removed": ("removed", 0, 5, "blocked"), "draw": ("draw", 0, 5),
        "spirits_drawn": ("spirits_drawn", 0, (Spirit.BEE,)), "keep": ("keep", 0, Spirit.BEE),
        "to_line": ("to_line", Spirit.BEE), "take": ("take", 0, Spirit.BEE),
        "spirit": ("spirit", 0, Spirit.BEE, 0), "no_spirit": ("no_spirit", 0),
        "firefly": ("firefly", 0, 0), "lost": ("lost", 0, Spirit.FLY),
        "eagle": ("eagle", 0, 5), "fly": ("fly", 0, 5), "deer": ("deer", 0, 5),
        "beetle": ("beetle", 0, 5), "viper": ("viper", 0, 5), "reveal": ("reveal", 0, (5, 6)),
        "renard": ("renard", 0, 5), "marmot": ("marmot", 0), "evil_kept": ("evil_kept", 0),
        "evil_given": ("evil_given", 0), "evil_placed": ("evil_placed", 0, 5),
        "evil_out": ("evil_out", 0), "cover": ("cover", 1, 0, Spirit.BEE),
        "squirrel": ("squirrel", 0, (5,)), "end": ("end", "normal", None),
        "play": ("play", 0, 5), "capture": ("capture", 0, 5, 6),
    }


def test_every_engine_event_kind_has_words():
    from solstis_tui.core.events import EVENT_KINDS

    assert set(samples()) >= set(EVENT_KINDS)
    for kind, event in samples().items():
        lines = narrate([event], names, viewer=0)
        if kind != "place":
            assert lines and all(str(event[0]) not in ("", ) for _ in lines), kind
            assert not lines[0].startswith(kind + " "), (kind, lines)


def test_possessives_read_as_english_for_you_and_for_a_named_player():
    fish = ("spirit", 0, Spirit.FISH, parse_cell("1-4"))
    assert narrate([fish], names) == ["The Fish sits on your square at 1-4"]
    assert narrate([fish], lambda p: ("Ann", "You")[p]) == ["The Fish sits on Ann's square at 1-4"]
    shift = ("shift", 0, parse_cell("2-2"), parse_cell("2-3"))
    assert narrate([shift], names) == ["Your rainbow moved from 2-2 to 2-3"]
    assert narrate([("cover", 1, 0, Spirit.BEE)], names) == [
        "Minimax bot made the Evil Spirit cover your Bee"]
    assert narrate([("evil_placed", 1, parse_cell("3-3"))], names) == [
        "Minimax bot put the Evil Spirit on your cell 3-3: it is forbidden"]
    assert narrate([("evil_given", 1)], names) == ["Minimax bot gives the Evil Spirit to you"]


def test_verbs_agree_with_you():
    assert narrate([("marmot", 0)], names) == ["Marmot: You play another turn"]
    assert narrate([("marmot", 1)], names) == ["Marmot: Minimax bot plays another turn"]
    assert narrate([("evil_given", 0)], names) == [
        "You give the Evil Spirit to Minimax bot"]
