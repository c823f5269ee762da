"""The game state: frozen records built from tuples (DESIGN: State).

Everything a player may not know lives in :class:`Secret` (the order of the
draw deck, the plants removed unseen at setup, and the random stream), so views
strip it mechanically. Unchanged parts are shared between successive states.

The records that change with every action (GameState, PlayerState, PlantMarket,
ResourceMarket, Board, AuctionState) are frozen attrs classes *without* slots,
on purpose: :func:`~powergrid.frozen.evolve` derives a new record by copying its instance
dictionary, which measured about nine times faster than ``attrs.evolve`` over
24 slots and lifted random 4-player games from about 46 to 52 per second.
Records that rarely change (Secret, RngState, Event) stay slotted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import attrs

from powergrid.actions import CHANCE
from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.enums import Phase
from powergrid.events import EventLog
from powergrid.frozen import evolve as evolve  # re-exported: where the phases import it
from powergrid.module_state import NONE as NO_MODULE_STATE
from powergrid.module_state import ModuleStates, from_pickle
from powergrid.plants import Card
from powergrid.record import mypyc_attr, record

if TYPE_CHECKING:
    from powergrid.mechanics.chance_points import ChancePoint
    from powergrid.outcome import Outcome
    from powergrid.rules.ruleset import Ruleset


@attrs.frozen
class Secret:
    """Hidden information: deck order above the Step 3 card, unseen removals, RNG."""

    deck: tuple[Card, ...]
    removed_unseen: tuple[Card, ...]
    rng: RngState


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True, acyclic=True)
class PlayerState:
    """One seat: money, plants (by rank), tokens per resource kind, cities in build order.

    Plants are card labels (:mod:`powergrid.plants`). ``resources`` is aligned
    with the game's resource kinds (:attr:`powergrid.rules.ruleset.Ruleset.resources`).
    """

    __attrs_attrs__: ClassVar[Any]  # set by record(); makes it an attrs class to mypy

    seat: int
    money: int
    plants: tuple[Card, ...]
    resources: tuple[int, ...]
    cities: tuple[str, ...]

    def __init__(
        self,
        seat: int,
        money: int,
        plants: tuple[Card, ...] = (),
        resources: tuple[int, ...] = (),
        cities: tuple[str, ...] = (),
    ) -> None:
        self.seat = seat
        self.money = money
        self.plants = plants
        self.resources = resources
        self.cities = cities

    def _replace(self, changes: dict[str, Any]) -> PlayerState:
        seat, money, plants, resources, cities = (
            self.seat,
            self.money,
            self.plants,
            self.resources,
            self.cities,
        )
        for name, value in changes.items():
            if name == "money":
                money = value
            elif name == "resources":
                resources = value
            elif name == "plants":
                plants = value
            elif name == "cities":
                cities = value
            elif name == "seat":
                seat = value
            else:
                no_field(self, name)
        return PlayerState(seat, money, plants, resources, cities)

    @property
    def city_count(self) -> int:
        """Cities connected to this player's network (CON-12)."""
        return len(self.cities)


record(PlayerState)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True, acyclic=True)
class ActorState:
    """An automatic actor: a place in the player order, plants, tokens, houses, no money.

    A rule module adds it (the 2-player fund of RULES.md section 9 is one, at
    position 2 of the player order, ORD-06) and plays its turns inside
    :func:`powergrid.apply`; ``current_player`` and ``legal_actions`` never
    act for it. ``actor`` is its public identity, a negative number distinct
    from every seat, used alike in ``GameState.order``, the board's houses,
    ``done`` and events. ``name`` is what players call it. ``resources`` is
    aligned with the game's resource kinds like a player's. ``houses`` counts
    the houses still in its own supply, beside the board (the fund's spare
    houses, FND-05, FND-08).
    """

    __attrs_attrs__: ClassVar[Any]  # set by record(); makes it an attrs class to mypy

    actor: int
    name: str
    plants: tuple[Card, ...]
    resources: tuple[int, ...]
    cities: tuple[str, ...]
    houses: int

    def __init__(
        self,
        actor: int,
        name: str,
        plants: tuple[Card, ...] = (),
        resources: tuple[int, ...] = (),
        cities: tuple[str, ...] = (),
        houses: int = 0,
    ) -> None:
        self.actor = actor
        self.name = name
        self.plants = plants
        self.resources = resources
        self.cities = cities
        self.houses = houses

    def _replace(self, changes: dict[str, Any]) -> ActorState:
        actor, name_, plants, resources, cities, houses = (
            self.actor,
            self.name,
            self.plants,
            self.resources,
            self.cities,
            self.houses,
        )
        for name, value in changes.items():
            if name == "resources":
                resources = value
            elif name == "plants":
                plants = value
            elif name == "cities":
                cities = value
            elif name == "houses":
                houses = value
            elif name == "actor":
                actor = value
            elif name == "name":
                name_ = value
            else:
                no_field(self, name)
        return ActorState(actor, name_, plants, resources, cities, houses)

    @property
    def city_count(self) -> int:
        """Cities that hold one of its houses."""
        return len(self.cities)


record(ActorState)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True, acyclic=True)
class PlantMarket:
    """The visible plant cards: actual and future market, and what is known of the deck.

    Plants are card labels (:mod:`powergrid.plants`); ``actual`` and ``future``
    are in the game's rank order, lowest first (CDK-14). ``step3_in_market`` marks
    the Step 3 card lying in the market as its highest card (STP-05, STP-07).
    ``top`` is a face-up card on top of the deck (classic plant 13, SET-11).
    ``under_step3`` lists the plants pushed under the Step 3 card (BUR-07), which
    every player saw go there. ``deck_size`` counts the hidden cards above the
    Step 3 card. ``removed`` lists plants removed from the game face up.
    A rule module's tokens on market plants and its own areas of cards are its
    own state (``GameState.modules``, :mod:`powergrid.module_state`).
    """

    __attrs_attrs__: ClassVar[Any]  # set by record(); makes it an attrs class to mypy

    actual: tuple[Card, ...]
    future: tuple[Card, ...]
    step3_in_market: bool
    step3_in_deck: bool
    top: Card | None
    under_step3: tuple[Card, ...]
    deck_size: int
    removed: tuple[Card, ...]
    _legacy: dict[str, Any]  # not a field: an older release's pickle (powergrid.record)

    def __init__(
        self,
        actual: tuple[Card, ...],
        future: tuple[Card, ...],
        step3_in_market: bool = False,
        step3_in_deck: bool = True,
        top: Card | None = None,
        under_step3: tuple[Card, ...] = (),
        deck_size: int = 0,
        removed: tuple[Card, ...] = (),
    ) -> None:
        self.actual = actual
        self.future = future
        self.step3_in_market = step3_in_market
        self.step3_in_deck = step3_in_deck
        self.top = top
        self.under_step3 = under_step3
        self.deck_size = deck_size
        self.removed = removed

    def _replace(self, changes: dict[str, Any]) -> PlantMarket:
        actual, future, in_market, in_deck = (
            self.actual,
            self.future,
            self.step3_in_market,
            self.step3_in_deck,
        )
        top, under, deck_size, removed = self.top, self.under_step3, self.deck_size, self.removed
        for name, value in changes.items():
            if name == "actual":
                actual = value
            elif name == "future":
                future = value
            elif name == "deck_size":
                deck_size = value
            elif name == "removed":
                removed = value
            elif name == "step3_in_market":
                in_market = value
            elif name == "step3_in_deck":
                in_deck = value
            elif name == "top":
                top = value
            elif name == "under_step3":
                under = value
            else:
                no_field(self, name)
        return PlantMarket(actual, future, in_market, in_deck, top, under, deck_size, removed)

    @property
    def plants(self) -> tuple[Card, ...]:
        """All plants in the market, lowest rank first."""
        return self.actual + self.future


record(PlantMarket)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True, acyclic=True)
class ResourceMarket:
    """Tokens per kind on the resource market and in the general supply (CON-10).

    Tokens always fill a market track from its most expensive space down (BUR-05)
    and are bought from its cheapest occupied space up (RES-06), so a count per
    kind fully describes the track.
    """

    __attrs_attrs__: ClassVar[Any]  # set by record(); makes it an attrs class to mypy

    market: tuple[int, ...]
    supply: tuple[int, ...]

    def __init__(self, market: tuple[int, ...], supply: tuple[int, ...]) -> None:
        self.market = market
        self.supply = supply

    def _replace(self, changes: dict[str, Any]) -> ResourceMarket:
        market, supply = self.market, self.supply
        for name, value in changes.items():
            if name == "market":
                market = value
            elif name == "supply":
                supply = value
            else:
                no_field(self, name)
        return ResourceMarket(market, supply)


record(ResourceMarket)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True, acyclic=True)
class Board:
    """Houses per city (by the map's city index): seats in the order they built."""

    houses: tuple[tuple[int, ...], ...]

    def __init__(self, houses: tuple[tuple[int, ...], ...]) -> None:
        self.houses = houses

    def _replace(self, changes: dict[str, Any]) -> Board:
        houses = self.houses
        for name, value in changes.items():
            if name == "houses":
                houses = value
            else:
                no_field(self, name)
        return Board(houses)


record(Board)


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True, acyclic=True)
class AuctionState:
    """A running auction (AUC-04..AUC-08).

    ``active`` holds the seats still in the auction in clockwise order, starting
    with the one to act next; the high bidder is always last.
    """

    __attrs_attrs__: ClassVar[Any]  # set by record(); makes it an attrs class to mypy

    plant: Card
    bid: int
    high_bidder: int
    auctioneer: int
    active: tuple[int, ...]

    def __init__(
        self, plant: Card, bid: int, high_bidder: int, auctioneer: int, active: tuple[int, ...]
    ) -> None:
        self.plant = plant
        self.bid = bid
        self.high_bidder = high_bidder
        self.auctioneer = auctioneer
        self.active = active

    def _replace(self, changes: dict[str, Any]) -> AuctionState:
        plant, bid, high, auctioneer, active = (
            self.plant,
            self.bid,
            self.high_bidder,
            self.auctioneer,
            self.active,
        )
        for name, value in changes.items():
            if name == "bid":
                bid = value
            elif name == "high_bidder":
                high = value
            elif name == "active":
                active = value
            elif name == "plant":
                plant = value
            elif name == "auctioneer":
                auctioneer = value
            else:
                no_field(self, name)
        return AuctionState(plant, bid, high, auctioneer, active)


record(AuctionState)


def no_field(obj: object, name: str) -> None:
    """Refuse a copy naming ``name``, which the record lacks (``TypeError``, as evolve)."""
    raise TypeError(f"{type(obj).__name__} has no field {name!r}")


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True, acyclic=True)
class _DecisionSlot:
    """Where the engine keeps a state's decision point: derived, never part of the value.

    The one slot ``_decision`` holds who acts next, the phase's record and what
    :func:`powergrid.apply` may play at once (``powergrid.engine.phases.table.Decision``).
    The engine sets it on every state it returns and fills it at the first query
    of a state made elsewhere (``evolve``, positions, JSON, pickle). It is not a
    field: equality, hashing and ``repr`` (the attrs fields),
    :func:`~powergrid.frozen.evolve` (which copies the instance dictionary, or the
    fields) and pickling (which stores the fields, exactly as before the slot
    existed) never see it, and no copy can carry the decision point of the state
    it was made from. It is a function of the state's value alone, so two threads
    that fill it at once write the same answer.
    """

    __slots__ = ("_decision",)
    _decision: tuple[int | None, Any, frozenset[type]]  # phases.table.Decision

    def __getstate__(self) -> dict[str, Any]:
        try:
            return self.__dict__
        except AttributeError:  # a native record (compiled build): its fields
            return {a.name: getattr(self, a.name) for a in attrs.fields(type(self))}  # type: ignore[arg-type]


_DEFAULT_NAMES = tuple(f"player {seat}" for seat in range(8))  # built once: names are hot


class Named(Protocol):
    """What names seats: a game's config and its automatic actors (a state, a public view)."""

    @property
    def config(self) -> GameConfig:
        """The game's configuration (its ``names``)."""

    @property
    def actors(self) -> tuple[ActorState, ...]:
        """The automatic actors, by id."""


def seat_name(holder: Named, seat: int) -> str:
    """A seat's display name (the configured one, or ``"player N"``), an actor's, or chance's.

    ``GameState.name_of`` and ``PublicView.name_of``: every message, event and
    picture names players through this, so a game with ``GameConfig.names``
    reads the same everywhere. An actor id the game lacks raises ``KeyError``.
    """
    if seat < 0:
        if seat == CHANCE:
            return "chance"
        for actor in holder.actors:
            if actor.actor == seat:
                return actor.name
        raise KeyError(f"no automatic actor {seat} in this game")
    names = holder.config.names
    if names:
        return names[seat]
    return _DEFAULT_NAMES[seat] if seat < len(_DEFAULT_NAMES) else f"player {seat}"


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True, acyclic=True)
class GameState(_DecisionSlot):
    """A point in a game. Never mutated: :func:`powergrid.apply` returns a new one.

    ``regions`` is the play area (SET-04). ``order`` is the player order (seats,
    position 1 first; CON-04). ``done`` holds the seats that finished the
    current phase (CON-06); in phase 2,
    ``bought`` holds those who bought a plant this round. ``discarding`` is the
    seat that must discard a plant before play continues (AUC-17). ``build_step`` is
    the Step whose slots may be used in the current phase 4 (STP-03).
    ``actors`` holds the automatic actors a rule module added (none in the
    base game); their ids may stand in ``order``, ``done`` and the board.
    ``chance`` is the pending chance event of a game with explicit chance
    (:mod:`powergrid.mechanics.chance_points`), ``None`` at every other point. ``modules``
    holds each rule module's own state record under the module's name
    (:mod:`powergrid.module_state`; empty when no module keeps one).

    """

    __attrs_attrs__: ClassVar[Any]  # set by record(); makes it an attrs class to mypy

    config: GameConfig
    regions: tuple[str, ...]
    round: int
    step: int
    phase: Phase
    order: tuple[int, ...]
    players: tuple[PlayerState, ...]
    market: PlantMarket
    resources: ResourceMarket
    board: Board
    secret: Secret
    events: EventLog
    done: frozenset[int]
    bought: frozenset[int]
    auction: AuctionState | None
    discarding: int | None
    new_plant: Card | None
    build_step: int
    step3_pending: bool
    end_triggered: bool
    result: Outcome | None
    actors: tuple[ActorState, ...]
    chance: ChancePoint | None
    modules: ModuleStates
    rules: Ruleset

    def __init__(
        self,
        config: GameConfig,
        regions: tuple[str, ...],
        round: int,
        step: int,
        phase: Phase,
        order: tuple[int, ...],
        players: tuple[PlayerState, ...],
        market: PlantMarket,
        resources: ResourceMarket,
        board: Board,
        secret: Secret,
        events: EventLog,
        done: frozenset[int] = frozenset(),
        bought: frozenset[int] = frozenset(),
        auction: AuctionState | None = None,
        discarding: int | None = None,
        new_plant: Card | None = None,
        build_step: int = 1,
        step3_pending: bool = False,
        end_triggered: bool = False,
        result: Outcome | None = None,
        actors: tuple[ActorState, ...] = (),
        chance: ChancePoint | None = None,
        modules: ModuleStates = NO_MODULE_STATE,
        rules: Ruleset = None,  # type: ignore[assignment]  # set by new_game
    ) -> None:
        self.config = config
        self.regions = regions
        self.round = round
        self.step = step
        self.phase = phase
        self.order = order
        self.players = players
        self.market = market
        self.resources = resources
        self.board = board
        self.secret = secret
        self.events = events
        self.done = done
        self.bought = bought
        self.auction = auction
        self.discarding = discarding
        self.new_plant = new_plant
        self.build_step = build_step
        self.step3_pending = step3_pending
        self.end_triggered = end_triggered
        self.result = result
        self.actors = actors
        self.chance = chance
        self.modules = modules
        self.rules = rules

    def _replace(self, changes: dict[str, Any]) -> GameState:
        config, regions, round, step, phase, order = (
            self.config,
            self.regions,
            self.round,
            self.step,
            self.phase,
            self.order,
        )
        players, market, resources, board, secret, events = (
            self.players,
            self.market,
            self.resources,
            self.board,
            self.secret,
            self.events,
        )
        done, bought, auction, discarding, new_plant, build_step = (
            self.done,
            self.bought,
            self.auction,
            self.discarding,
            self.new_plant,
            self.build_step,
        )
        step3_pending, end_triggered, result, actors, chance, modules = (
            self.step3_pending,
            self.end_triggered,
            self.result,
            self.actors,
            self.chance,
            self.modules,
        )
        rules = self.rules
        for name, value in changes.items():
            if name == "events":
                events = value
            elif name == "done":
                done = value
            elif name == "phase":
                phase = value
            elif name == "players":
                players = value
            elif name == "market":
                market = value
            elif name == "resources":
                resources = value
            elif name == "board":
                board = value
            elif name == "auction":
                auction = value
            elif name == "order":
                order = value
            elif name == "bought":
                bought = value
            elif name == "round":
                round = value
            elif name == "step":
                step = value
            elif name == "discarding":
                discarding = value
            elif name == "new_plant":
                new_plant = value
            elif name == "build_step":
                build_step = value
            elif name == "step3_pending":
                step3_pending = value
            elif name == "end_triggered":
                end_triggered = value
            elif name == "result":
                result = value
            elif name == "actors":
                actors = value
            elif name == "chance":
                chance = value
            elif name == "modules":
                modules = value
            elif name == "secret":
                secret = value
            elif name == "regions":
                regions = value
            elif name == "config":
                config = value
            elif name == "rules":
                rules = value
            else:
                no_field(self, name)
        return GameState(
            config,
            regions,
            round,
            step,
            phase,
            order,
            players,
            market,
            resources,
            board,
            secret,
            events,
            done,
            bought,
            auction,
            discarding,
            new_plant,
            build_step,
            step3_pending,
            end_triggered,
            result,
            actors,
            chance,
            modules,
            rules,
        )

    # A state is an immutable value: a copy may be the state itself. Pickling
    # needs nothing special: the event log pickles flat and the ruleset by
    # reference (powergrid.rules.ruleset).
    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self

    @staticmethod
    def _upgrade_pickle(values: dict[str, Any]) -> dict[str, Any]:
        """The fields of a state pickled by an older release, as today's (see record())."""
        if "modules" not in values:  # pickled before rule modules kept their own state
            values = from_pickle(values, values["rules"].state_specs, PlantMarket)
        if "discard" in values:  # pickled before the field was named for what it holds
            values = {("discarding" if k == "discard" else k): v for k, v in values.items()}
        return values

    def player(self, seat: int) -> PlayerState:
        """The :class:`PlayerState` of ``seat``."""
        return self.players[seat]

    def name_of(self, seat: int) -> str:
        """A seat's display name: what messages and events call it.

        The same as :func:`~powergrid.state.seat_name` of this state.
        """
        return seat_name(self, seat)

    def actor(self, actor: int) -> ActorState:
        """The :class:`ActorState` with id ``actor`` (KeyError when there is none)."""
        for a in self.actors:
            if a.actor == actor:
                return a
        raise KeyError(f"no automatic actor {actor} in this game")

    def with_actor(self, a: ActorState) -> GameState:
        """A copy of this state with one actor's record replaced."""
        return evolve(self, actors=tuple(a if x.actor == a.actor else x for x in self.actors))

    def replaced(self, p: PlayerState) -> tuple[PlayerState, ...]:
        """The players tuple with one player's record replaced."""
        return self.players[: p.seat] + (p,) + self.players[p.seat + 1 :]

    def events_with(
        self, kind: str, text: str, player: int | None = None, *values: int | str
    ) -> EventLog:
        """The event log with one event appended (to merge into a single evolve)."""
        return self.events.added(kind, self.round, text, player, values)

    def log(self, kind: str, text: str, player: int | None = None, *values: int | str) -> GameState:
        """A copy of this state with one event appended to the log."""
        return evolve(self, events=self.events_with(kind, text, player, *values))


record(GameState, rules=attrs.field(default=None, eq=False, repr=False))
