"""What a frontend asks of a state: bids, prices, costs, income and names.

A bot, a view, a terminal or a web page needs the numbers the rules work out
(the lowest bid a plant takes, what three coal cost now, what a house in
Essen costs seat 2, what powering six cities pays) without re-implementing
a rule or reaching into a phase module. These answer with the rules in force
in the state's game, its rule modules' hooks and tables included, and refuse
a question about something the game does not have with a ``ValueError``
naming it.

>>> import powergrid as pg
>>> from powergrid.engine import queries
>>> state = pg.new_game(pg.GameConfig(players=3, map="europe", components="classic"), seed=1)
>>> queries.min_bid(state, state.market.actual[0]) == int(state.market.actual[0])
True
>>> queries.resource_price(state, "coal", 3)  # RES-06: the three cheapest, 1 Elektro each
3
>>> queries.income(state, 6)  # BUR-04
73
>>> queries.phase_title(state)
'phase 2 (auction)'

A player's display name is :meth:`GameState.name_of <powergrid.GameState.name_of>`.
"""

from __future__ import annotations

from powergrid.actions import Action
from powergrid.engine.phases import auction, building, bureaucracy, resources
from powergrid.engine.phases.table import flow_of
from powergrid.engine.views import PublicView
from powergrid.enums import Phase, Resource
from powergrid.rules.ruleset import ruleset_for
from powergrid.state import GameState

__all__ = [
    "action_phase",
    "build_cost",
    "cities_powered",
    "income",
    "min_bid",
    "phase_title",
    "resource_price",
]


def min_bid(state: GameState, plant: str) -> int:
    """The lowest opening bid for ``plant`` now (AUC-04: its number; a rule module may lower it).

    ``plant`` is a card label of the game (``"13"``, Deluxe ``"13e"``); the
    bid is the one the actual market would take, as ``legal_actions`` offers
    it in phase 2.
    """
    if plant not in state.rules.plants:
        raise ValueError(f"plant {plant!r} is not a card of this game")
    return auction.min_bid(state, plant)


def resource_price(state: GameState, kind: Resource | str, count: int) -> int:
    """What buying the ``count`` cheapest tokens of ``kind`` costs now (RES-06).

    ``kind`` is a :class:`~powergrid.Resource` of the game's component set
    (or its name). More tokens than the market holds have no price: that
    raises, as does a negative count.
    """
    kinds = state.rules.resources
    if kind not in kinds:
        names = ", ".join(k.value for k in kinds)
        raise ValueError(f"{kind!s} is not a resource of this game ({names})")
    index = kinds.index(kind)  # a StrEnum equals its name, so "coal" finds Resource.COAL
    held = state.resources.market[index]
    if not 0 <= count <= held:
        raise ValueError(f"{count} {kinds[index].value} asked for; the market holds {held}")
    return resources.price(state, index, count)


def build_cost(state: GameState, seat: int, city: str) -> int:
    """What a house in ``city`` costs ``seat`` now: the next slot plus the connection (BLD-03..05).

    ``city`` is a city id of the play area. The next slot is the cheapest free
    one (10, 15, 20 Elektro); the connection is the cheapest from the seat's
    network (nothing for a seat's first city, BLD-04). Whether the seat may
    build there now (the Step, a house of its own) is for ``legal_actions``.
    """
    if not 0 <= seat < len(state.players):
        raise ValueError(f"seat {seat} is not in this {len(state.players)}-player game")
    if city not in state.rules.area.board.index:
        raise ValueError(f"{city!r} is not a city of the play area")
    houses = state.board.houses[state.rules.area.board.index[city]]
    if len(houses) >= len(state.rules.tables.house_costs):
        raise ValueError(f"{city} has no free slot")
    return building.build_cost(state, seat, city)


def income(state: GameState, cities: int) -> int:
    """The Elektro that powering ``cities`` cities pays (BUR-04; beyond the table, its last)."""
    if cities < 0:
        raise ValueError(f"cannot power {cities} cities")
    table = state.rules.tables.income
    return table[min(cities, len(table) - 1)]


def cities_powered(state: GameState, seat: int, plants: tuple[str, ...]) -> int:
    """How many cities ``seat`` powers by running ``plants`` (BUR-03: at most its cities).

    ``plants`` are card labels of the seat's hand; whether it holds the fuel to
    run them is for ``legal_actions``. With :func:`income` it says what a Power
    brings: ``income(state, cities_powered(state, seat, power.plants))``.
    """
    if not 0 <= seat < len(state.players):
        raise ValueError(f"seat {seat} is not in this {len(state.players)}-player game")
    owned = state.players[seat].plants
    missing = [p for p in plants if p not in owned]
    if missing:
        raise ValueError(f"{state.name_of(seat)} owns no plant {missing[0]}")
    return bureaucracy.supplied(state, seat, plants)


def phase_title(state: GameState | PublicView) -> str:
    """The current phase as players say it: ``"phase 2 (auction)"``, or ``"game over"``.

    The titles are those of the game's table of phases, the one the engine
    plays and its messages name. A public view (and so any picture of a
    player's view) names its phase the same way.
    """
    if state.result is not None or state.phase is Phase.GAME_OVER:
        return "game over"
    if isinstance(state, GameState):
        rules = state.rules
    else:
        rules = ruleset_for(state.config, state.regions)
    return flow_of(rules)[state.phase].title


def action_phase(state: GameState, action: Action) -> Phase | None:
    """The phase in which this game plays actions of ``action``'s kind (``None``: any, or none).

    From the game's table of phases, rule modules' actions included: a
    ``BuyResource`` belongs to phase 3, the fund's starting house to the setup.
    A chance outcome belongs to no phase. Frontends use it to say why an
    action typed in the wrong phase cannot be played now.
    """
    for record in flow_of(state.rules):
        if record.actions and isinstance(action, record.actions):
            return record.phase
    return None
