"""The game-over line says truly what became of the tiles left in hand (§8, §9)."""

from __future__ import annotations

from solstis_tui.core import Game
from solstis_tui.play.prompt import game_over_lines
from tests.core.positions import position


class Names:
    """The two seats as a local game against a bot names them."""

    takeback = None  # nothing to take back

    def name(self, player: int) -> str:
        return "You" if player == 0 else "Ben"


def squirrel_end(opponent_hand: list[str]) -> Game:
    game = position(p0={"hand": ["5-5", "6-7"], "land": ["1-1", "1-2", "2-1", "2-2"],
                        "spirits": [["squirrel", "1-1"]]},
                    p1={"hand": opponent_hand}, empty_pile=True)
    assert game.is_over
    return game


def test_hand_tiles_the_squirrel_scored_are_not_said_to_score_nothing() -> None:
    game = squirrel_end(["4-4"])
    headline, _ = game_over_lines(Names(), game.observation(0))  # type: ignore[arg-type]
    assert "the Squirrel scored your hand" in headline
    assert "tiles left in Ben's hand score nothing" in headline
    assert "tiles left in hand score nothing" not in headline


def test_the_squirrel_is_named_when_it_took_the_only_tiles_left() -> None:
    game = squirrel_end([])
    headline, _ = game_over_lines(Names(), game.observation(1))  # type: ignore[arg-type]
    assert "Neither player could capture: the Squirrel scored your hand." in headline
    assert "score nothing" not in headline
