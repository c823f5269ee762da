"""What a player may see: :func:`view` and :func:`public_view` (hidden information).

A view is the state without its :class:`~powergrid.state.Secret` (the order of
the draw deck, the plants removed unseen, the random stream) plus what a user
interface needs without re-implementing rules: each actual plant's minimum
bid, each city's next slot cost, the price of the next token of each kind,
whose turn it is and, for the viewer on turn, the legal actions. Two states
that differ only in their secret give equal views.
"""

from __future__ import annotations

from typing import Any

import attrs

from powergrid.actions import Action
from powergrid.config import EXPLICIT_CHANCE, GameConfig
from powergrid.engine.game import current_player, legal_actions
from powergrid.engine.phases.auction import min_bid
from powergrid.engine.phases.building import connection_costs
from powergrid.enums import Phase, Resource
from powergrid.events import EventLog
from powergrid.module_state import NONE as NO_MODULE_STATE
from powergrid.module_state import ModuleStates, from_pickle, seen_by
from powergrid.outcome import Outcome
from powergrid.plants import Card
from powergrid.rules.ruleset import state_specs_for
from powergrid.state import (
    ActorState,
    AuctionState,
    GameState,
    PlantMarket,
    PlayerState,
    ResourceMarket,
    seat_name,
)


@attrs.frozen(kw_only=True)
class PublicView:
    """What everybody may know about a game: the state minus its secret, plus UI facts.

    ``houses`` maps each city with houses to the seats there, in build order.
    ``min_bids`` gives each actual plant's current minimum opening bid
    (1 under the discount token). ``slot_costs`` gives each play-area city's
    next slot price, or ``None`` when the city is closed in the current Step.
    ``prices`` gives the price of the next token of each kind (``None`` when
    none can be bought: the market holds none and the supply sells none,
    RCH-43). ``turn`` is the seat to act (``None`` when over).
    ``actors`` are the automatic actors of a rule module, all public.
    ``done`` holds the seats (and actors) that finished the current phase and
    ``bought`` those that bought a plant this round (CON-06, AUC-12): both are
    seen at the table, so a view carries them. They are ``None`` only in a view
    read from a JSON document written before views carried them, which does
    not say. ``modules`` holds the rule modules' own state records as a
    spectator may see them (:mod:`powergrid.module_state`: North America's
    discount token, a customised deck's inactive area). ``next_back`` is the
    printed back of the draw deck's top card where the edition shows it to
    all (Recharged ``"plug"`` or ``"socket"``, RCH-21), else ``None``; a game
    with explicit chance shows none, since its caller draws each card as it
    comes.
    """

    config: GameConfig
    regions: tuple[str, ...]
    round: int
    step: int
    phase: Phase
    order: tuple[int, ...]
    players: tuple[PlayerState, ...]
    market: PlantMarket
    resources: ResourceMarket
    houses: tuple[tuple[str, tuple[int, ...]], ...]
    auction: AuctionState | None
    discarding: int | None
    build_step: int
    end_triggered: bool
    result: Outcome | None
    events: EventLog
    turn: int | None
    min_bids: tuple[tuple[Card, int], ...]
    slot_costs: tuple[tuple[str, int | None], ...]
    prices: tuple[tuple[Resource, int | None], ...]
    actors: tuple[ActorState, ...] = ()
    done: frozenset[int] | None = None
    bought: frozenset[int] | None = None
    modules: ModuleStates = NO_MODULE_STATE
    next_back: str | None = None

    def name_of(self, seat: int) -> str:
        """A seat's or an actor's display name, as the state gives it.

        The same as :func:`~powergrid.state.seat_name` of this view.
        """
        return seat_name(self, seat)

    def __getstate__(self) -> dict[str, Any]:
        return {a.name: getattr(self, a.name) for a in attrs.fields(PublicView)}

    def __setstate__(self, values: dict[str, Any]) -> None:
        if "modules" not in values:  # pickled before rule modules kept their own state
            specs = state_specs_for(values["config"])
            values = from_pickle(values, specs, PlantMarket)
        if "discard" in values:  # pickled before the field was named for what it holds
            values = {**values, "discarding": values["discard"]}
        for a in attrs.fields(PublicView):
            object.__setattr__(self, a.name, values.get(a.name, a.default))


@attrs.frozen(kw_only=True)
class PlayerView:
    """What one seat may know: the public view plus its own build costs and legal actions.

    ``build_costs`` maps each city the viewer could build in now (ignoring money)
    to slot plus connection cost (BLD-04). ``legal`` lists the viewer's legal
    actions when it is the viewer's turn, else is empty. ``modules`` holds the
    rule modules' own state records as the viewer may see them (a module may
    show a seat more than a spectator sees, ``StateSpec.view``).
    """

    viewer: int
    public: PublicView
    build_costs: tuple[tuple[str, int], ...]
    legal: tuple[Action, ...]
    modules: ModuleStates = NO_MODULE_STATE

    def __getstate__(self) -> dict[str, Any]:
        return {a.name: getattr(self, a.name) for a in attrs.fields(PlayerView)}

    def __setstate__(self, values: dict[str, Any]) -> None:
        if "modules" not in values:  # pickled before rule modules kept their own state
            values = {**values, "modules": values["public"].modules}
        for a in attrs.fields(PlayerView):
            object.__setattr__(self, a.name, values.get(a.name, a.default))


def public_view(state: GameState) -> PublicView:
    """What every player (and a spectator) may know about ``state``."""
    rules = state.rules
    board = rules.area.board
    houses = tuple((board.cities[i], h) for i, h in enumerate(state.board.houses) if h)
    costs = rules.tables.house_costs
    slots = tuple(
        (board.cities[i], _slot(costs, len(state.board.houses[i]), state.build_step))
        for i in rules.area.cities
    )
    prices = tuple((kind, _next_price(state, i)) for i, kind in enumerate(rules.resources))
    bids = tuple((p, min_bid(state, p)) for p in state.market.actual)
    return PublicView(
        config=state.config,
        regions=state.regions,
        round=state.round,
        step=state.step,
        phase=state.phase,
        order=state.order,
        players=state.players,
        market=state.market,
        resources=state.resources,
        houses=houses,
        auction=state.auction,
        discarding=state.discarding,
        build_step=state.build_step,
        end_triggered=state.end_triggered,
        result=state.result,
        events=state.events,
        turn=current_player(state),
        min_bids=bids if state.phase is Phase.AUCTION else (),
        slot_costs=slots,
        prices=prices,
        actors=state.actors,
        done=state.done,
        bought=state.bought,
        modules=seen_by(state, None),
        next_back=next_back(state),
    )


def next_back(state: GameState) -> str | None:
    """RCH-21: the back of the draw deck's top card, where the edition shows it to all.

    ``None`` where it does not, when the face-up card lies on the deck (its
    face is public), when the deck is empty and with explicit chance.
    """
    if not state.rules.components.shows_top_back or EXPLICIT_CHANCE in state.config.options:
        return None
    if state.market.top is not None or not state.secret.deck:
        return None
    return state.rules.plants[state.secret.deck[0]].back


def view(state: GameState, player: int) -> PlayerView:
    """What seat ``player`` may know about ``state`` (no deck order, no RNG)."""
    if isinstance(player, bool) or not isinstance(player, int):
        raise TypeError(f"player must be a seat number, not {player!r}")
    if not 0 <= player < len(state.players):
        raise ValueError(f"seat {player} does not exist in a {len(state.players)}-player game")
    public = public_view(state)
    costs = connection_costs(state, player)
    board = state.rules.area.board
    build = tuple(
        (city, slot + costs[board.index[city]])
        for city, slot in public.slot_costs
        if slot is not None and player not in state.board.houses[board.index[city]]
    )
    return PlayerView(
        viewer=player,
        public=public,
        build_costs=build,
        legal=legal_actions(state) if public.turn == player else (),
        modules=seen_by(state, player),
    )


def _slot(costs: tuple[int, ...], houses: int, build_step: int) -> int | None:
    """BLD-05: the next slot's price, or None when the Step allows no more houses."""
    return costs[houses] if houses < build_step else None


def _next_price(state: GameState, kind: int) -> int | None:
    """RES-06: the price of the cheapest token of a kind on the market."""
    prices = state.rules.tables.slot_prices[kind]
    count = state.resources.market[kind]
    if count:
        return prices[len(prices) - count]
    unit = state.rules.tables.supply_prices[kind]  # RCH-43: the storage once the market is out
    return unit if unit is not None and state.resources.supply[kind] else None
