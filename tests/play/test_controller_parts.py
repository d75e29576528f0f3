"""The play controller's parts (the log's narration, the bots' pacing, the half-made
choice...) are state the controller holds too: drawing changes none of them."""

from __future__ import annotations

import random

from solstis_tui.local.seats import PERSON

from .test_controller import controller, draw_everything, person_to_play


def is_part(value: object) -> bool:
    """An object of ``solstis_tui.play`` (a part, or a part's part)."""
    return type(value).__module__.startswith("solstis_tui.play.")


def parts_state(holder: object, prefix: str = "") -> dict[str, dict[str, object]]:
    """What each part the controller owns holds, and each part's own parts (named as
    ``turns.pacing``), their caches (names starting with ``_``) left out."""
    state: dict[str, dict[str, object]] = {}
    for name, part in vars(holder).items():
        if is_part(part):
            state[prefix + name] = {k: v for k, v in vars(part).items()
                                    if not k.startswith("_") and not is_part(v)}
            state |= parts_state(part, f"{prefix}{name}.")
    return state


def test_drawing_changes_none_of_the_controllers_parts() -> None:
    """A game against a bot: whenever the person is to decide, drawing everything, twice,
    leaves the log's narration, the bots' pacing and every other part as they were."""
    play, port, _ = controller(seats=(PERSON, "random"), pace=0.0)
    assert {"log", "turns", "turns.pacing", "choice"} <= parts_state(play).keys()
    rand = random.Random(3)
    checked = 0
    while not play.obs.is_over and checked < 60:
        person_to_play(play, port)
        before = parts_state(play)
        draw_everything(play)
        draw_everything(play)
        assert parts_state(play) == before
        play.try_move(rand.choice(play.session.game.legal_moves()))
        checked += 1
    assert checked > 20
