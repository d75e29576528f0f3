"""Hints (``t``): the judge's best move at a person's decision, and in game terms why it
beats the next best.

The judge (``ai/judge.py``) values the moves from the deciding seat's observation only,
at the analysis's own effort, so a hint and the analysis of the game agree. It runs away
from the screen, in the app's hint process (``local/bot_process.py``, ``judge_moves``
here is what that process runs), and stops when the game moves on. The words come from
``solstis_tui.coach.reasons``; they are made in the hint process too (``answer``), since
finding them plays the moves in a few deals, which the screen's process is better without.
No Textual here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from solstis_tui.ai.clock import Signal
from solstis_tui.ai.judge import judge

from ..core import Move, Observation
from ..words.moves import close_call, describe_move
from .analysis import Effort, signed
from .reasons import explain

HINT_EFFORT: Final = Effort()
"""The analysis's effort (2,000 iterations, floor 30, 1,000 shared deals): on one core of
the compiled engine a hint takes 0.53 s (median), 0.69 s (95th percentile), 0.78 s at most
over 24 positions (benchmarks/hint_judge.py, 2026-12-04, load average 4-5 on 2 cores)."""
HINT_SEED: Final = 12345
"""The judge's seed: the same position always gets the same hint."""

Judged = tuple[Move, float, float]
"""A move, its expected star margin and its win chance (0 to 1), for the deciding seat."""


class Answer(NamedTuple):
    """A hint: the judged moves, best first, and the hint's words (``hint_text``)."""

    judged: list[Judged]
    text: str


def answer(obs: Observation, names: Sequence[str], effort: Effort = HINT_EFFORT,
           cancel: Signal | None = None) -> Answer:
    """The hint for the decision pending in ``obs`` (the deciding seat's observation):
    ``judge_moves``, then ``hint_text``. Cancelled soon after ``cancel`` is set."""
    judged = judge_moves(obs, effort, cancel)
    return Answer(judged, hint_text(obs, judged, names))


def judge_moves(obs: Observation, effort: Effort = HINT_EFFORT,
                cancel: Signal | None = None) -> list[Judged]:
    """Every legal move of ``obs``'s pending decision with its expected result, best
    first (``ai.judge``). Cancelled soon after ``cancel`` is set."""
    verdict = judge(obs, HINT_SEED, effort.iterations, effort.floor, None, effort.close_floor,
                    cancel=cancel)
    return [(v.move, v.margin, v.win) for v in verdict.moves]


def hint_text(obs: Observation, judged: Sequence[Judged], names: Sequence[str]) -> str:
    """The hint: the judge's best move, what it does that the next best does not (and the
    other way round), and the two expected results. ``names`` are the seats' names (plain
    text: shown as text, never markup)."""
    best, margin, win = judged[0]
    if len(judged) == 1:
        return f"Hint: {describe_move(best)} — the only move"
    second, margin2, win2 = judged[1]
    words = explain(obs, second, best, names, best_as="it")
    if close_call(margin - margin2):
        figures = (f"about as good as {describe_move(second)}: {signed(margin)}★ vs "
                   f"{signed(margin2)}★ expected")
    else:
        figures = (f"{signed(margin)}★ vs {signed(margin2)}★ expected, {win:.0%} vs "
                   f"{win2:.0%} win")
    return f"Hint: {describe_move(best)} — {words[:1].lower()}{words[1:]} ({figures})"
