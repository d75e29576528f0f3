"""research/value_ceiling.py: judging with another weights file than the shipped one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from solstis_tui.ai import value as learned

import value_ceiling
from lab_positions import positions


@pytest.fixture(autouse=True)
def shipped_weights_after() -> Iterator[None]:
    yield
    value_ceiling.use_weights(None)


def shipped() -> dict[str, Any]:
    text = resources.files("solstis_tui.ai").joinpath(learned.WEIGHTS_FILE).read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def test_another_weights_file_is_what_the_value_judges_with(tmp_path: Path) -> None:
    """``--weights FILE``: with a file whose margin has 10 stars more tempo, the value of
    the same position for the player to move is 10 stars higher; the shipped weights come
    back with ``use_weights(None)``."""
    data = shipped()
    for model in data["variants"].values():
        model["margin"]["tempo"][0] += 10.0
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data))
    g = positions("base", 1, seed=9)[0]
    before = learned.value(g, g.to_play)
    value_ceiling.use_weights(path)
    assert learned.value(g, g.to_play)[0] == pytest.approx(before[0] + 10.0)
    assert learned.value(g, g.to_play)[1] == before[1]
    value_ceiling.use_weights(None)
    assert learned.value(g, g.to_play) == before


def test_weights_fitted_to_other_features_are_refused(tmp_path: Path) -> None:
    data = shipped()
    data["features"] = data["features"][1:]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="other features"):
        value_ceiling.use_weights(path)


def test_the_figures_take_the_sampling_noise_out() -> None:
    """Positions whose continuations differ only by luck explain nothing; positions whose
    results are settled explain everything, and a value equal to the expected results has
    no error."""
    luck = [[0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0]]
    assert value_ceiling.figures([0.5, 0.5, 0.5], luck)["explainable"] == 0.0
    settled = [[0.0] * 4, [1.0] * 4, [0.0] * 4, [1.0] * 4]
    f = value_ceiling.figures([0.0, 1.0, 0.0, 1.0], settled)
    assert f["explainable"] == 1.0 and f["value_explains"] == 1.0 and f["value_error"] == 0.0
