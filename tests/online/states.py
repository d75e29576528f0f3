"""Waiting for the host's ``state`` messages: a test names the state it expects and reads
the table's states until one shows it, never for a length of time (a loaded machine
delivers them late, not out of order)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from solstis_tui.client.client import HostClient

State = dict[str, Any]
SAFETY = 60.0  # seconds: only a guard against a hang, never the expectation


async def state_where(client: HostClient, table: str, expected: Callable[[State], bool],
                      safety: float = SAFETY) -> State:
    """The first state of ``table`` that ``client`` receives and ``expected`` holds for
    (the states before it are read and passed over)."""
    async with asyncio.timeout(safety):
        while True:
            state = await client.receive_until("state", table=table)
            if expected(state):
                return state


def seated(state: State) -> bool:
    """Both seats are taken (by a person or a bot): the game is under way."""
    return all(s["name"] or s["bot"] for s in state["seats"])


def over(state: State) -> bool:
    return bool(state["observation"]["is_over"])


def moves(state: State) -> int:
    """How many moves the game's history holds."""
    return len(state["observation"]["history"])


def after(count: int) -> Callable[[State], bool]:
    """The game has moved past ``count`` moves."""
    return lambda state: moves(state) > count


def deciding(state: State) -> bool:
    """The receiving seat has a decision to make (it holds legal moves)."""
    return bool(state["observation"]["legal_moves"])


def next_turn(count: int) -> Callable[[State], bool]:
    """Past ``count`` moves, the receiving seat decides or the game is over (a bot's moves
    in between pass by)."""
    return lambda state: moves(state) > count and (deciding(state) or over(state))


async def your_turn(client: HostClient, table: str) -> State:
    """The state in which ``client``'s seat decides, or the game is over."""
    return await state_where(client, table, lambda s: seated(s) and (deciding(s) or over(s)))
