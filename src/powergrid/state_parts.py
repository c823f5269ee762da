"""The records a game state is made of: seats, automatic actors, markets, board, auction.

Each is written as a plain class (its fields, an ``__init__`` and a ``_replace``)
that the compiled build turns into a mypyc native class; :func:`powergrid.record.record`
gives it the value behaviour of a frozen attrs record in both builds. They are
re-exported by :mod:`powergrid.state`, where the records were defined before
issue 34, so pickles naming ``powergrid.state.PlayerState`` still load.
"""

from __future__ import annotations

from typing import Any, ClassVar

from powergrid.plants import Card
from powergrid.record import mypyc_attr, record


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
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


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
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


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
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


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
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


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
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


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
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
