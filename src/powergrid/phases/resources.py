"""Phase 3: buying resources, last player first (RES-01..RES-09)."""

from __future__ import annotations

import bisect
import functools
import itertools

from powergrid.actions import Action, BuyResource, EndPurchase
from powergrid.errors import Reason
from powergrid.phases.common import illegal, name
from powergrid.ruleset import CACHE_SIZE, Ruleset
from powergrid.state import GameState, evolve
from powergrid.storage import hand

ACTIONS = (BuyResource, EndPurchase)

_end = functools.lru_cache(maxsize=16)(lambda p: EndPurchase(player=p))


def current(state: GameState) -> int | None:
    """RES-01: reverse player order, one turn each."""
    done = state.done
    for seat in reversed(state.order):
        if seat not in done:
            return seat
    return None


def price(state: GameState, kind: int, count: int) -> int:
    """RES-06: the sum of the ``count`` cheapest tokens of a kind on the market."""
    cum = _tables(state.rules).cumulative[kind]
    start = len(cum) - 1 - state.resources.market[kind]
    # Beyond the market's tokens nothing more is priced (as the sum of a slice).
    return cum[min(start + count, len(cum) - 1)] - cum[start]


class _Tables:
    """What phase 3 looks up for one ruleset, built once and shared by its games.

    ``cumulative`` holds per kind the price of the track's first j spaces for
    every j (0 first), ``tracks`` each track's length, ``index`` each kind's
    position and ``rows`` per seat and kind its BuyResource of 1, 2, ... tokens.
    """

    __slots__ = ("cumulative", "index", "kinds", "rows", "tracks")

    def __init__(self, rules: Ruleset) -> None:
        self.kinds = rules.resources
        self.cumulative = tuple(
            (0, *itertools.accumulate(prices)) for prices in rules.components.slot_prices
        )
        self.tracks = tuple(len(cum) - 1 for cum in self.cumulative)
        self.index = {kind: i for i, kind in enumerate(self.kinds)}
        self.rows: dict[int, tuple[tuple[BuyResource, ...], ...]] = {}

    def seat_rows(self, seat: int) -> tuple[tuple[BuyResource, ...], ...]:
        """Per kind, the seat's BuyResource of 1, 2, ... tokens up to its whole track."""
        rows = self.rows.get(seat)
        if rows is None:
            rows = self.rows[seat] = tuple(
                tuple(BuyResource(player=seat, resource=kind, count=n) for n in range(1, size + 1))
                for kind, size in zip(self.kinds, self.tracks, strict=True)
            )
        return rows


# Keyed by the ruleset itself, which hashes by identity (cheap); one per ruleset.
_tables = functools.lru_cache(maxsize=CACHE_SIZE)(_Tables)


def legal(state: GameState) -> tuple[Action, ...]:
    """Every legal phase-3 action: each kind and count that fits, then EndPurchase."""
    seat = current(state)
    if seat is None:
        return ()
    p = state.players[seat]
    tables = _tables(state.rules)
    rows = tables.seat_rows(seat)
    stored = hand(state.rules, p.plants)
    # RES-05: a kind's room is its cap less its tokens, unless a hybrid joins kinds.
    caps, held = stored.caps, p.resources
    if caps is None:
        caps, held = stored.room(held), (0,) * len(held)
    money = p.money
    out: tuple[Action, ...] = ()
    for kind, on_market in enumerate(state.resources.market):
        limit = caps[kind] - held[kind]
        if limit > on_market:
            limit = on_market
        if limit > 0:
            # RES-06: the cheapest tokens first, so the most affordable count is
            # where the running price passes the player's money.
            cum = tables.cumulative[kind]
            start = tables.tracks[kind] - on_market
            n = bisect.bisect_right(cum, cum[start] + money, start, start + limit + 1) - start - 1
            if n:
                out += rows[kind][:n]
    return (*out, _end(seat))


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
    tables = _tables(state.rules)
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
    stored = hand(state.rules, p.plants)
    if not stored.fits(held):
        illegal(
            f"{name(state, seat)}'s plants can store only {stored.room(p.resources)[i]} more "
            f"{kind.value} (RES-05)",
            Reason.NO_STORAGE,
            action,
        )
    cum = tables.cumulative[i]
    start = tables.tracks[i] - on_market
    cost = cum[start + count] - cum[start]
    if cost > p.money:
        illegal(
            f"{count} {kind.value} cost {cost} Elektro; {name(state, seat)} has {p.money}",
            Reason.CANNOT_AFFORD,
            action,
        )
    mkt = res.market[:i] + (on_market - count,) + res.market[i + 1 :]
    text = f"{name(state, seat)} buys {count} {kind.value} for {cost}."
    return evolve(
        state,
        players=state.replaced(evolve(p, money=p.money - cost, resources=held)),
        resources=evolve(res, market=mkt),
        events=state.noted("resources_bought", text, seat, i, count, cost),
    )
