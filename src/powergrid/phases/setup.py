"""The setup phase: decisions a rule module asks of the players before round 1.

The base game asks none (SET-01..SET-12 are automatic), so a game goes
straight to its first phase 2. A module that needs player decisions at setup
(the fund's six starting houses, FND-05) defines the ``setup_turn``,
``setup_actions`` and ``setup_apply`` hooks (:mod:`powergrid.hooks`); this
module only dispatches to them, like the other phase modules' ``current``,
``legal`` and ``apply``.
"""

from __future__ import annotations

from powergrid.actions import Action, PlaceFundHouse
from powergrid.state import GameState

#: The action types a setup phase accepts.
ACTIONS = (PlaceFundHouse,)


def current(state: GameState) -> int | None:
    """The seat that must make the next setup decision, or None when setup is over."""
    return state.rules.hooks.setup_turn(state)


def legal(state: GameState, seat: int | None) -> tuple[Action, ...]:
    """Every legal setup decision of ``seat``, the seat on turn, in a stable order."""
    if seat is None:
        return ()
    return tuple(state.rules.hooks.setup_actions(state, seat))


def apply(state: GameState, action: Action) -> GameState:
    """Play a setup action (the caller checked phase and turn)."""
    return state.rules.hooks.setup_apply(state, action)
