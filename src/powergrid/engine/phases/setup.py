"""The setup phase: decisions a rule module asks of the players before round 1.

The base game asks none (SET-01..SET-12 are automatic), so a game goes
straight to its first phase 2. A module that needs player decisions at setup
names the seat on turn with the ``setup_turn`` hook (:mod:`powergrid.rules.hooks`)
and declares the decisions as its own actions of ``Phase.SETUP``
(:class:`powergrid.rules.ModuleAction`), which the game's table of phases
(:func:`powergrid.engine.phases.table.flow_of`) adds to this phase: the phase has
none of its own.
"""

from __future__ import annotations

from powergrid.actions import Action
from powergrid.state import GameState

#: The setup phase's own action types: none (its decisions are the modules').
ACTIONS: tuple[type[Action], ...] = ()


def current(state: GameState) -> int | None:
    """The seat that must make the next setup decision, or None when setup is over."""
    return state.rules.hooks.setup_turn(state)


def legal(state: GameState, seat: int | None) -> tuple[Action, ...]:
    """The setup phase's own legal actions: none (the modules' are added to them)."""
    return ()


def apply(state: GameState, action: Action) -> GameState:
    """Never called: the setup phase has no action of its own to play."""
    raise AssertionError(f"the setup phase has no action {action} of its own")
