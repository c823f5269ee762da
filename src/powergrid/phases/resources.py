"""Phase 3: buying resources, last player first (RES-01..RES-09)."""

from __future__ import annotations

import bisect
import functools
import itertools

from powergrid.actions import Action, BuyResource, EndPurchase
from powergrid.enums import Resource
from powergrid.errors import Reason
from powergrid.phases.common import illegal, name, next_in
from powergrid.state import GameState, evolve
from powergrid.storage import fits, free_room, plant_slots

ACTIONS = (BuyResource, EndPurchase)

_end = functools.lru_cache(maxsize=16)(lambda p: EndPurchase(player=p))


def current(state: GameState) -> int | None:
    """RES-01: reverse player order, one turn each."""
    return next_in(reversed(state.order), state.done)


def price(state: GameState, kind: int, count: int) -> int:
    """RES-06: the sum of the ``count`` cheapest tokens of a kind on the market."""
    cum = _cumulative(state.rules.components.slot_prices)[kind]
    start = len(cum) - 1 - state.resources.market[kind]
    # Beyond the market's tokens nothing more is priced (as the sum of a slice).
    return cum[min(start + count, len(cum) - 1)] - cum[start]


@functools.lru_cache(maxsize=64)
def _cumulative(slot_prices: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Per kind, the price of the track's first j spaces for every j (0 first)."""
    return tuple((0, *itertools.accumulate(prices)) for prices in slot_prices)


def _room(state: GameState, seat: int) -> tuple[int, ...]:
    """RES-05: per kind, how many more tokens the player's plants could store."""
    p = state.players[seat]
    return free_room(plant_slots(state.rules, p.plants), p.resources)


def legal(state: GameState) -> tuple[Action, ...]:
    """Every legal phase-3 action: each kind and count that fits, then EndPurchase."""
    seat = current(state)
    if seat is None:
        return ()
    p = state.players[seat]
    rules = state.rules
    room = _room(state, seat)
    cums = _cumulative(rules.components.slot_prices)
    money = p.money
    most = []
    for kind, on_market in enumerate(state.resources.market):
        limit = min(room[kind], on_market)
        if limit:
            # RES-06: the cheapest tokens first, so the most affordable count is
            # where the running price passes the player's money.
            cum = cums[kind]
            start = len(cum) - 1 - on_market
            end = bisect.bisect_right(cum, cum[start] + money, start, start + limit + 1)
            most.append(end - start - 1)
        else:
            most.append(0)
    rows = _buy_rows(seat, rules.resources, tuple(map(len, cums)))
    out: tuple[Action, ...] = ()
    for row, n in zip(rows, most, strict=True):
        if n:
            out += row[:n]
    return (*out, _end(seat))


@functools.lru_cache(maxsize=256)
def _buy_rows(
    seat: int, kinds: tuple[Resource, ...], tracks: tuple[int, ...]
) -> tuple[tuple[BuyResource, ...], ...]:
    """Per kind, a seat's BuyResource of 1, 2, ... tokens up to its whole track."""
    return tuple(
        tuple(BuyResource(player=seat, resource=kind, count=n) for n in range(1, size))
        for kind, size in zip(kinds, tracks, strict=True)
    )


def apply(state: GameState, action: Action) -> GameState:
    """Check and play a phase-3 action."""
    seat = action.player
    if isinstance(action, EndPurchase):
        note = state.noted("purchase_ended", f"{name(state, seat)} is done buying resources.", seat)
        return evolve(state, done=state.done | {seat}, events=note)
    assert isinstance(action, BuyResource)
    return _buy_tokens(state, action)


def _buy_tokens(state: GameState, action: BuyResource) -> GameState:
    seat, kind, count = action.player, action.resource, action.count
    kinds = state.rules.resources
    if kind not in kinds:
        illegal(
            f"This game has no {kind.value}; its resources are {', '.join(k.value for k in kinds)}",
            Reason.UNKNOWN_RESOURCE,
            action,
        )
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        illegal(f"Buy at least 1 {kind.value}, not {count!r}", Reason.BAD_COUNT, action)
    i = kinds.index(kind)
    on_market = state.resources.market[i]
    if count > on_market:
        illegal(
            f"The market holds only {on_market} {kind.value}; nothing is bought from the "
            "general supply (RES-07)",
            Reason.MARKET_SHORT,
            action,
        )
    p = state.players[seat]
    held = p.resources[:i] + (p.resources[i] + count,) + p.resources[i + 1 :]
    # The tokens held fit (a consistent state), so the purchase fits exactly when
    # the new holdings do; the room itself is only worked out for the message.
    if not fits(plant_slots(state.rules, p.plants), held):
        room = _room(state, seat)[i]
        illegal(
            f"{name(state, seat)}'s plants can store only {room} more {kind.value} (RES-05)",
            Reason.NO_STORAGE,
            action,
        )
    cost = price(state, i, count)
    if cost > p.money:
        illegal(
            f"{count} {kind.value} cost {cost} Elektro; {name(state, seat)} has {p.money}",
            Reason.CANNOT_AFFORD,
            action,
        )
    res = state.resources
    mkt = res.market[:i] + (on_market - count,) + res.market[i + 1 :]
    text = f"{name(state, seat)} buys {count} {kind.value} for {cost}."
    return evolve(
        state,
        players=state.replaced(evolve(p, money=p.money - cost, resources=held)),
        resources=evolve(res, market=mkt),
        events=state.noted("resources_bought", text, seat, i, count, cost),
    )
