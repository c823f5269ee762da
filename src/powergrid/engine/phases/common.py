"""Helpers shared by the phase modules: turn lookup, names and errors."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NoReturn

from powergrid.actions import CHANCE
from powergrid.errors import IllegalAction, Reason
from powergrid.state import GameState


def name(state: GameState, seat: int) -> str:
    """A player's display name (the configured one, or ``"player N"``), an actor's, or chance's."""
    if seat < 0:
        return "chance" if seat == CHANCE else state.actor(seat).name
    names = state.config.names
    if names:
        return names[seat]
    return _DEFAULT_NAMES[seat] if seat < len(_DEFAULT_NAMES) else f"player {seat}"


_DEFAULT_NAMES = tuple(f"player {seat}" for seat in range(8))  # built once: names are hot


def illegal(message: str, reason: Reason, action: object) -> NoReturn:
    """Raise :class:`~powergrid.IllegalAction` with a message and a stable reason."""
    raise IllegalAction(message, reason=reason, action=action)


def next_in(order: Iterable[int], done: frozenset[int]) -> int | None:
    """The first seat of ``order`` that is not done yet, or None.

    Phases 3 and 4 pass the player order reversed (CON-04, RES-01, BLD-01).
    """
    for seat in order:
        if seat not in done:
            return seat
    return None
