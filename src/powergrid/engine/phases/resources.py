"""Phase 3: buying resources, last player first (RES-01..RES-09)."""

from __future__ import annotations

import functools
import itertools

from powergrid.actions import Action, BuyResource, EndPurchase, kinds_in
from powergrid.enums import Phase
from powergrid.errors import Reason, illegal
from powergrid.frozen import evolve
from powergrid.mechanics.fuel_storage import hand
from powergrid.rules.tables import ComponentTables
from powergrid.state import GameState, ResourceMarket

#: The phase's own actions, from the registry (:data:`powergrid.actions.BASE_KINDS`).
ACTIONS: tuple[type, ...] = kinds_in(Phase.RESOURCES)

_end = functools.lru_cache(maxsize=16)(lambda p: EndPurchase(player=p))


def current(state: GameState) -> int | None:
    """RES-01: reverse player order, one turn each."""
    done = state.done
    order = state.order
    if not done and order:  # the round's first turn: nobody is done yet
        return order[-1]
    for seat in reversed(order):
        if seat not in done:
            return seat
    return None


def price(state: GameState, kind: int, count: int) -> int:
    """RES-06: the sum of the ``count`` cheapest tokens of a kind on the market.

    Past the market's tokens, a kind with a supply price (RCH-43) costs that
    much a token while the supply lasts; beyond what can be bought nothing
    more is priced (as the sum of a slice).
    """
    cum = _tables(state.rules.tables).cumulative[kind]
    on_market = state.resources.market[kind]
    start = len(cum) - 1 - on_market
    cost = cum[min(start + count, len(cum) - 1)] - cum[start]
    extra = min(count - on_market, _from_supply(state, kind))
    return cost + extra * (state.rules.tables.supply_prices[kind] or 0) if extra > 0 else cost


def _from_supply(state: GameState, kind: int) -> int:
    """How many tokens of a kind may be bought from the general supply (RES-07, RCH-43)."""
    if state.rules.tables.supply_prices[kind] is None:
        return 0
    return state.resources.supply[kind]


class _Tables:
    """What phase 3 looks up for one set of component tables, built once, shared by its games.

    ``cumulative`` holds per kind the price of the track's first j spaces for
    every j (0 first), ``tracks`` each track's length, ``index`` each kind's
    position and ``names`` its value (``Enum.value`` is a Python-level
    property). ``affordable[kind][m][money]`` is how many of the ``m`` tokens
    on the market ``money`` buys, cheapest first (RES-06); money past the end
    of that row buys them all. ``rows[seat][kind][n]`` is the seat's first
    ``n`` BuyResource of the kind (of 1, 2, ... tokens), a ready prefix.
    ``supply_priced`` says whether some kind may be bought from the supply (RCH-43).
    """

    __slots__ = (
        "affordable",
        "cumulative",
        "index",
        "kinds",
        "names",
        "rows",
        "supply_priced",
        "tracks",
    )

    def __init__(self, tables: ComponentTables) -> None:
        self.kinds = tables.resources
        self.cumulative = tuple((0, *itertools.accumulate(prices)) for prices in tables.slot_prices)
        self.tracks = tuple(len(cum) - 1 for cum in self.cumulative)
        self.index = {kind: i for i, kind in enumerate(self.kinds)}
        self.names = tuple(kind.value for kind in self.kinds)
        self.affordable = tuple(_affordable(cum) for cum in self.cumulative)
        self.supply_priced = any(x is not None for x in tables.supply_prices)
        self.rows: dict[int, tuple[tuple[tuple[BuyResource, ...], ...], ...]] = {}

    def seat_rows(self, seat: int) -> tuple[tuple[tuple[BuyResource, ...], ...], ...]:
        """Per kind and n, the seat's BuyResource of 1, 2, ... n tokens (see the class)."""
        rows = self.rows.get(seat)
        if rows is None:
            rows = self.rows[seat] = tuple(
                _prefixes(
                    [BuyResource(player=seat, resource=kind, count=n + 1) for n in range(size)]
                )
                for kind, size in zip(self.kinds, self.tracks, strict=True)
            )
        return rows


def _affordable(cum: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per count m of tokens on a track, and per amount of money, how many of them it buys."""
    track = len(cum) - 1
    out = []
    for m in range(track + 1):
        start = track - m  # the market fills a track from its most expensive space down
        row: list[int] = []
        for n in range(m):
            # cum is nondecreasing: n tokens are affordable up to the price of n + 1.
            row += [n] * (cum[start + n + 1] - cum[start] - len(row))
        out.append(tuple(row))
    return tuple(out)


def _prefixes(row: list[BuyResource]) -> tuple[tuple[BuyResource, ...], ...]:
    """Every prefix of ``row``, the empty one first."""
    return tuple(tuple(row[:n]) for n in range(len(row) + 1))


# Keyed by the component tables, which hash by identity (cheap) and are shared by
# every play area of a config. Not by the ruleset: that differs with the play area,
# so nearly every game would build anew.
_tables = functools.lru_cache(maxsize=64)(_Tables)


def legal(state: GameState, seat: int | None) -> tuple[Action, ...]:
    """Every legal phase-3 action of ``seat``, the player to act: each kind and count that fits."""
    if seat is None:
        return ()
    p = state.players[seat]
    tables = _tables(state.rules.tables)
    rows = tables.rows.get(seat) or tables.seat_rows(seat)
    stored = hand(state.rules, p.plants)
    # RES-05: a kind's room is its cap less its tokens, unless a hybrid joins kinds.
    caps, held = stored.caps, p.resources
    if stored.joined:
        caps, held = stored.room(held), (0,) * len(held)
    money = p.money if p.money > 0 else 0
    out: tuple[Action, ...] = ()
    supply_priced = tables.supply_priced
    for kind, on_market in enumerate(state.resources.market):
        room = caps[kind] - held[kind]
        if room > 0 and on_market:
            # RES-06: the cheapest tokens first, as many as the money buys.
            afford = tables.affordable[kind][on_market]
            n = afford[money] if money < len(afford) else on_market
            if n == on_market and supply_priced:
                n += _supply_affordable(state, kind, money - price(state, kind, n))
            if n:
                out += rows[kind][n if n < room else room]
        elif room > 0 and supply_priced:
            n = _supply_affordable(state, kind, money)
            if n:
                out += rows[kind][n if n < room else room]
    return (*out, _end(seat))


def _supply_affordable(state: GameState, kind: int, money: int) -> int:
    """How many supply tokens of a kind ``money`` buys at its supply price (RCH-43)."""
    unit = state.rules.tables.supply_prices[kind]
    if unit is None:
        return 0
    return min(
        state.resources.supply[kind], money // unit if unit else state.resources.supply[kind]
    )


def apply(state: GameState, action: Action) -> GameState:
    """Check and play a phase-3 action."""
    seat = action.player
    if isinstance(action, EndPurchase):
        note = state.events_with(
            "purchase_ended", f"{state.name_of(seat)} is done buying resources.", seat
        )
        return evolve(state, done=state.done | {seat}, events=note)
    assert isinstance(action, BuyResource)
    return _buy_tokens(state, action)


def _buy_tokens(state: GameState, action: BuyResource) -> GameState:
    seat, kind, count = action.player, action.resource, action.count
    tables = _tables(state.rules.tables)
    i = tables.index.get(kind)
    if i is None:
        kinds = tables.kinds
        illegal(
            f"This game has no {kind.value}; its resources are {', '.join(k.value for k in kinds)}",
            Reason.UNKNOWN_RESOURCE,
            action,
        )
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        illegal(f"Buy at least 1 {kind.value}, not {count!r}", Reason.BAD_COUNT, action)
    res = state.resources
    on_market = res.market[i]
    extra = count - on_market  # tokens from the general supply, where a rule sells them
    if extra > 0 and extra > _from_supply(state, i):  # the supply only past the market
        illegal(_short_text(state, i, on_market), Reason.MARKET_SHORT, action)
    p = state.players[seat]
    held = p.resources[:i] + (p.resources[i] + count,) + p.resources[i + 1 :]
    # The tokens held fit (a consistent state), so the purchase fits exactly when
    # the new holdings do; the room itself is only worked out for the message.
    stored = hand(state.rules, p.plants)
    if not stored.fits(held):
        illegal(
            f"{state.name_of(seat)}'s plants can store only {stored.room(p.resources)[i]} more "
            f"{kind.value} (RES-05)",
            Reason.NO_STORAGE,
            action,
        )
    if extra > 0:
        cost = price(state, i, count)
    else:
        cum = tables.cumulative[i]
        start = tables.tracks[i] - on_market
        cost = cum[start + count] - cum[start]
    if cost > p.money:
        illegal(
            f"{count} {kind.value} cost {cost} Elektro; {state.name_of(seat)} has {p.money}",
            Reason.CANNOT_AFFORD,
            action,
        )
    if extra > 0:
        return _buy_with_supply(state, action, i, cost, held)
    mkt = res.market[:i] + (on_market - count,) + res.market[i + 1 :]
    text = f"{state.name_of(seat)} buys {count} {tables.names[i]} for {cost}."
    players = state.players
    return evolve(
        state,
        players=(
            *players[:seat],
            evolve(p, money=p.money - cost, resources=held),
            *players[seat + 1 :],
        ),
        # Built directly: two fields, cheaper than evolve's copy of the dictionary.
        resources=ResourceMarket(mkt, res.supply),
        events=state.events.added("resources_bought", state.round, text, seat, (i, count, cost)),
    )


def _short_text(state: GameState, kind: int, on_market: int) -> str:
    """Why a purchase asks for more tokens than there are (RES-07, RCH-43)."""
    name = state.rules.resources[kind].value
    unit = state.rules.tables.supply_prices[kind]
    if unit is None:
        return (
            f"The market holds only {on_market} {name}; nothing is bought from the general "
            "supply (RES-07)"
        )
    return (
        f"The market holds only {on_market} {name} and the supply "
        f"{state.resources.supply[kind]} more at {unit} each (RCH-43)"
    )


def _buy_with_supply(
    state: GameState, action: BuyResource, kind: int, cost: int, held: tuple[int, ...]
) -> GameState:
    """RCH-43: the market's tokens of a kind and the rest from the supply at its price."""
    seat, count = action.player, action.count
    res = state.resources
    on_market = res.market[kind]
    extra = count - on_market
    market = res.market[:kind] + (0,) + res.market[kind + 1 :]
    supply = res.supply[:kind] + (res.supply[kind] - extra,) + res.supply[kind + 1 :]
    unit = state.rules.tables.supply_prices[kind]
    name = state.rules.resources[kind].value
    text = (
        f"{state.name_of(seat)} buys {count} {name} for {cost} ({extra} from the supply at "
        f"{unit} each, RCH-43)."
    )
    p = state.players[seat]
    return evolve(
        state,
        players=state.replaced(evolve(p, money=p.money - cost, resources=held)),
        resources=ResourceMarket(market, supply),
        events=state.events.added("resources_bought", state.round, text, seat, (kind, count, cost)),
    )
