"""The log in plain words: one narrator, for the log and for the last turn's summary."""

from __future__ import annotations

from solstis_tui.core import Game, Options, Spirit, cell_name, parse_cell
from solstis_tui.core.events import (
    EVENT_TYPES,
    BeetleTook,
    Captured,
    Covered,
    DeerPlaced,
    Discarded,
    Drew,
    EagleDrew,
    EffectLost,
    EndReason,
    Event,
    EvilGiven,
    EvilKept,
    EvilOut,
    EvilPlaced,
    FireflyPlaced,
    Flipped,
    FlyTook,
    GameEnded,
    Kept,
    MarmotTurn,
    NoSpirit,
    Passed,
    Placed,
    Played,
    RainbowLost,
    RainbowOut,
    RainbowPlaced,
    RainbowShifted,
    Removed,
    RenardChose,
    Revealed,
    SecondChance,
    SpiritPlaced,
    SpiritsDrawn,
    SquirrelPlaced,
    ToLine,
    Took,
    TurnBegan,
    ViperTook,
)
from solstis_tui.words.narrate import narrate


def names(p: int) -> str:
    return ("You", "Minimax bot")[p]


def test_play_and_capture_read_as_one_sentence():
    events = [Played(0, parse_cell("3-5")), Captured(0, parse_cell("3-5"), parse_cell("3-8"))]
    assert narrate(events, names, viewer=0) == ["You played 3-5 and captured 3-8"]


def test_drawing_two_spirits_and_keeping_one():
    events = [SpiritsDrawn(1, (Spirit.BEE, Spirit.FROG)), ToLine(Spirit.FROG),
              Kept(1, Spirit.BEE)]
    [line] = narrate(events, names, viewer=0)
    assert line.startswith("Minimax bot drew two spirits") and "kept the Bee" in line


def test_the_log_shows_what_the_observation_shows():
    """Narration hides nothing itself: the observation's log already hides the other
    seat's draw (its tile is None)."""
    events = [Drew(1, None), Drew(0, parse_cell("4-4"))]
    assert narrate(events, names, viewer=0) == ["Minimax bot drew a tile", "You drew 4-4"]


def test_the_opponents_draw_stays_hidden_in_a_real_game():
    game = Game.new(seed=11, options=Options())
    while not any(isinstance(e, Drew) and e.player == 1 for e in game.log):
        game.play(game.legal_moves()[0])
    mine = narrate(game.observation(0).log, names, viewer=0)
    theirs = narrate(game.observation(1).log, names, viewer=1)
    drawn = [e.tile for e in game.log if isinstance(e, Drew) and e.player == 1]
    assert "Minimax bot drew a tile" in mine
    assert all(cell_name(t) not in line for t in drawn for line in mine if "drew" in line)
    assert f"Minimax bot drew {cell_name(drawn[0])}" in theirs
    watcher = narrate(game.observation(0, spectator=True).log, names, viewer=None)
    assert not any(line.startswith("You drew ") and line != "You drew a tile"
                   for line in watcher)


def test_a_renard_look_reads_from_the_lookers_side():
    events = [Revealed(1, (parse_cell("2-2"), parse_cell("3-3")))]
    assert narrate(events, names, viewer=1) == [
        "Renard: Minimax bot sees the opponent's hand: 2-2 and 3-3"]
    assert narrate(events, names, viewer=0) == ["Renard: Minimax bot looks at the opponent's hand"]
    hidden = [Revealed(1, None)]  # a watcher's log
    assert narrate(hidden, names) == ["Renard: Minimax bot looks at the opponent's hand"]


def samples() -> dict[str, Event]:
    """One event of every kind the engine logs."""
    events: list[Event] = [
        TurnBegan(0, 3, False), Passed(0), Discarded(0, 5), SecondChance(0, 5), Flipped(5),
        Placed(0, 5), RainbowPlaced(0, 5), RainbowLost(0), RainbowShifted(0, 5, 6),
        RainbowOut(0, 5), Removed(0, 5, "blocked"), Drew(0, 5), SpiritsDrawn(0, (Spirit.BEE,)),
        Kept(0, Spirit.BEE), ToLine(Spirit.BEE), Took(0, Spirit.BEE),
        SpiritPlaced(0, Spirit.BEE, 0), NoSpirit(0), FireflyPlaced(0, 0),
        EffectLost(0, Spirit.FLY), EagleDrew(0, 5), FlyTook(0, 5), DeerPlaced(0, 5),
        BeetleTook(0, 5), ViperTook(0, 5), Revealed(0, (5, 6)), RenardChose(0, 5),
        MarmotTurn(0), EvilKept(0), EvilGiven(0), EvilPlaced(0, 5), EvilOut(0),
        Covered(1, 0, Spirit.BEE), SquirrelPlaced(0, (5,)), GameEnded(EndReason.NORMAL, None),
        Played(0, 5), Captured(0, 5, 6),
    ]
    return {e.kind: e for e in events}


def test_every_engine_event_kind_has_words():
    assert set(samples()) == set(EVENT_TYPES)
    for kind, event in samples().items():
        lines = narrate([event], names, viewer=0)
        if kind != "place":
            assert lines, kind
            assert lines[0] != kind, (kind, lines)  # more than the kind's bare name


def test_possessives_read_as_english_for_you_and_for_a_named_player():
    fish = SpiritPlaced(0, Spirit.FISH, parse_cell("1-4"))
    assert narrate([fish], names) == ["The Fish sits on your square at 1-4"]
    assert narrate([fish], lambda p: ("Ann", "You")[p]) == ["The Fish sits on Ann's square at 1-4"]
    shift = RainbowShifted(0, parse_cell("2-2"), parse_cell("2-3"))
    assert narrate([shift], names) == ["Your rainbow moved from 2-2 to 2-3"]
    assert narrate([Covered(1, 0, Spirit.BEE)], names) == [
        "Minimax bot made the Evil Spirit cover your Bee"]
    assert narrate([EvilPlaced(1, parse_cell("3-3"))], names) == [
        "Minimax bot put the Evil Spirit on your cell 3-3: it is forbidden"]
    assert narrate([EvilGiven(1)], names) == ["Minimax bot gives the Evil Spirit to you"]


def test_verbs_agree_with_you():
    assert narrate([MarmotTurn(0)], names) == ["Marmot: You play another turn"]
    assert narrate([MarmotTurn(1)], names) == ["Marmot: Minimax bot plays another turn"]
    assert narrate([EvilGiven(0)], names) == ["You give the Evil Spirit to Minimax bot"]


def test_a_game_a_person_ended_says_how_in_lower_case_for_you():
    """"Ben ran out of time, so you win", never "so You win"; an abandoned game has no
    winner and says it counts for nobody."""
    ben = lambda p: ("You", "Ben")[p]  # noqa: E731
    assert narrate([GameEnded(EndReason.TIME, 0)], ben) == [
        "Game over: Ben ran out of time, so you win"]
    assert narrate([GameEnded(EndReason.RESIGNED, 1)], ben) == [
        "Game over: You resigned, so Ben wins"]
    assert narrate([GameEnded(EndReason.ABANDONED, None)], ben) == [
        "Game over: the game was abandoned, and counts for nobody"]
