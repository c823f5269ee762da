"""The building blocks a rule module uses: module API 2 (``powergrid.version.MODULE_API``).

A module written from the guide ("Writing rule modules") needs nothing of the package
beyond this page, :mod:`powergrid.rules.hooks` (the hook table and the types of its hooks) and
the records of :mod:`powergrid.rules`. Everything here keeps its name and meaning within
a module API version; a change that would break a module raises the version, and the
library refuses a module written for a newer one.

The plant market:

- :func:`draw` fills the market after a plant left it (BUR-07, AUC-10), through the
  ``draw_filter``, ``after_market_entry`` and ``market_shape`` hooks;
- :func:`take_plant` takes a plant out of the market (bought, or on its way out of
  play); a module's token lying on it is lifted with it;
- :func:`leave_play` is the one exit of plants (CON-11), through the ``leave_play``
  hook: call it for a plant already out of the market or a hand;
- :func:`remove_from_game` and :func:`remove_lowest` take a market plant out of play
  face up (CON-11, AUC-20);
- :func:`market_shape` says how many of the market's plants are actual and future
  (CON-07).

A module's own state (:mod:`powergrid.module_state`):
:class:`~powergrid.module_state.StateSpec` declares it, ``state.modules[name]`` reads
it, :func:`~powergrid.module_state.with_module` writes it; a token lying on a market
plant is a field the spec lists in ``marks`` (placing it is writing the field).

The board and the players: :func:`connection_costs` (the cheapest connection of a seat
to each city, BLD-04), :func:`build_cost` (what a seat pays to build in a city now),
:func:`min_bid` (a plant's opening bid in force), :func:`name` (what players call a seat
or an automatic actor), :func:`illegal` (refuse an action with a reason).

Changing a state: ``evolve`` (a record with some fields replaced, like
``attrs.evolve``), ``state.log(kind, text, player, *values)`` (an event appended).
"""

from __future__ import annotations

from powergrid.engine.phases.auction import min_bid
from powergrid.engine.phases.building import build_cost, connection_costs
from powergrid.errors import illegal
from powergrid.frozen import evolve
from powergrid.mechanics.market import draw, leave_play, remove_from_game, remove_lowest, take_plant
from powergrid.module_state import ModuleStates, StateSpec, with_module
from powergrid.state import GameState
from powergrid.version import MODULE_API

__all__ = [
    "MODULE_API",
    "ModuleStates",
    "StateSpec",
    "build_cost",
    "connection_costs",
    "draw",
    "evolve",
    "illegal",
    "leave_play",
    "market_shape",
    "min_bid",
    "name",
    "remove_from_game",
    "remove_lowest",
    "take_plant",
    "with_module",
]


def market_shape(state: GameState) -> tuple[int, int]:
    """How many of the market's plants are actual and how many future (the hook in force).

    The ``market_shape`` hook's answer for ``state`` (CON-07): the base game's is 4 and
    4 (6 and 0 in Step 3); a map may change it (Europe's 4 + 5 in Step 1, SET-26).
    """
    return state.rules.hooks.market_shape(state)


def name(state: GameState, seat: int) -> str:
    """What players call ``seat`` (:meth:`GameState.name_of <powergrid.GameState.name_of>`)."""
    return state.name_of(seat)
