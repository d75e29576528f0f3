"""A hint recommends the top of the judge's values it shows: the first figure is never
below the second."""

from __future__ import annotations

import re

from .conftest import ask_hint, make_app, settle


async def test_the_recommended_move_is_never_shown_as_worth_less_than_the_next():
    app = make_app(seats=("human", "random"), seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        gs = app.game_screen
        await ask_hint(pilot, app)
        assert gs.play.hint_text.startswith("Hint: play")
        values = [float(v.replace("−", "-"))  # a true minus sign, none on 0.0
                  for v in re.findall(r"([+−]?\d+\.\d)★", gs.play.hint_text)]
        assert not values or values[0] >= values[1], gs.play.hint_text
