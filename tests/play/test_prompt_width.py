"""Every prompt a person can face reads at 80 columns: the headline fits one line, and the
keys that answer the decision are never the part of the second line that is cut off (a
spirit's effect may be: 'e' shows it whole)."""

from __future__ import annotations

import pytest

from solstis_tui.core import Decision
from solstis_tui.play.controller import PlayController
from solstis_tui.play.prompt import LINE
from tests.tui.positions import find_position

from .test_controller import Port

DECISIONS = {
    "base": set(Decision) - {Decision.VIPER, Decision.RENARD, Decision.EVIL},
    "firefly": set(Decision) - {Decision.COVER},
}


@pytest.mark.parametrize(("variant", "decision"), [
    (variant, decision) for variant, wanted in DECISIONS.items()
    for decision in sorted(wanted, key=lambda d: d.value)])
def test_the_prompt_fits_80_columns_with_its_keys_whole(variant, decision):
    session = find_position({decision}, variant=variant)
    play = PlayController(session, Port())
    view = play.board()
    keys = play.zone_keys()
    for i in range(max(1, len(view.items))):
        play.choice = play.choice.with_selected(i)
        prompt = play.prompt()
        assert len(prompt.headline) <= LINE, prompt.headline
        assert keys in prompt.detail[:LINE], prompt.detail
