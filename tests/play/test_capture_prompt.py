"""The capture prompt names only the piles that can be captured, and a pile that cannot, or
a lowercase letter, is refused with the reason (not ignored)."""

from __future__ import annotations

from solstis_tui.core import Decision
from solstis_tui.local.session import Session
from solstis_tui.play.controller import PlayController
from solstis_tui.play.zones import Zone
from tests.tui.positions import find_position

from .test_controller import Port


def with_a_pile_that_cannot_capture(session: Session) -> bool:
    legal = {mv.arg for mv in session.game.legal_moves()}
    obs = session.game.observation(0)
    return len(legal) >= 2 and any(t not in legal for t, _ in obs.display)


def capture_controller() -> PlayController:
    session = find_position({Decision.CAPTURE}, check=with_a_pile_that_cannot_capture)
    play = PlayController(session, Port())
    play.board()
    assert play.zone is Zone.DISPLAY
    return play


def test_the_keys_name_only_the_piles_that_capture() -> None:
    play = capture_controller()
    view = play.board()
    legal = [chr(65 + i) for i, it in enumerate(view.items) if it.legal]
    illegal = [chr(65 + i) for i, it in enumerate(view.items) if not it.legal]
    detail = play.prompt().detail
    assert f"{', '.join(legal)} or ←→ pick a pile" in detail, detail
    assert not any(f" {letter}," in detail or f"{letter} or" in detail for letter in illegal)
    assert " to " not in detail.split("pick a pile")[0]


def test_a_pile_that_cannot_capture_is_refused_with_the_reason() -> None:
    play = capture_controller()
    view = play.board()
    index = next(i for i, it in enumerate(view.items) if not it.legal)
    before = play.choice.selected
    play.pile(index)
    assert play.choice.selected == before
    assert play.error.startswith(f"pile {chr(65 + index)}: ") and "cannot capture" in \
        play.error, play.error


def test_a_lowercase_letter_says_piles_take_capitals() -> None:
    play = capture_controller()
    assert play.lowercase("c")
    assert play.error == "piles are picked with capital letters: Shift+c for pile C"
    play.error = ""
    play.session.apply(play.session.game.legal_moves()[0])
    play.board()
    assert not play.lowercase("c") and not play.error, "only while a pile is to be picked"


def test_the_spirit_choices_come_in_the_order_the_line_shows() -> None:
    def two_in_line(session: Session) -> bool:
        line = session.game.observation(0).spirit_line
        return len(set(line)) >= 2 and list(dict.fromkeys(line)) != sorted(set(line))

    session = find_position({Decision.ENCOUNTER}, check=two_in_line, seeds=600)
    play = PlayController(session, Port())
    view = play.board()
    line = [s.title for s in dict.fromkeys(view.obs.spirit_line)]
    assert [it.label for it in view.items[1:]] == [f"Take {t}" for t in line]
