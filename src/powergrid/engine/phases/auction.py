"""Phase 2: auctioning power plants (AUC-01..AUC-19).

The floor belongs to the first player in player order who has neither bought
nor passed (AUC-02, AUC-11). Bidding runs clockwise by seat (CON-05, AUC-06).

``legal_actions`` lists every opening bid and raise one by one, so the phase
lives on its action lists: they are sliced from rows of actions built once per
seat and plant and shared across games (:class:`_Row`, :func:`_bids`).
Discarding over the plant limit is :mod:`powergrid.engine.phases.discard`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from powergrid.actions import (
    Action,
    Bid,
    ChoosePlant,
    DiscardPlant,
    PassAuction,
    PassBid,
    kinds_in,
)
from powergrid.engine.phases import discard
from powergrid.engine.phases.common import next_in
from powergrid.enums import Phase
from powergrid.errors import Reason, illegal
from powergrid.events import EventLog
from powergrid.frozen import evolve
from powergrid.mechanics import market
from powergrid.module_state import lifted
from powergrid.rules.ruleset import Cards
from powergrid.state import AuctionState, GameState

#: The phase's own actions, from the registry (:data:`powergrid.actions.BASE_KINDS`).
ACTIONS: tuple[type, ...] = kinds_in(Phase.AUCTION)

_new = object.__new__


def _slot_setters(cls: type, *fields: str) -> tuple[Callable[[object, Any], None], ...]:
    """The slot descriptors' setters of a frozen attrs class's fields.

    They write past the frozen ``__setattr__`` like
    :func:`powergrid.actions.trusted`, for a third of its cost (no keyword
    dictionary, no name lookups): the rows below build thousands of actions
    in a game's first rounds. Only for field values already in canonical form.
    """
    return tuple(cls.__dict__[f].__set__ for f in fields)


_CHOOSE_FIELDS = _slot_setters(ChoosePlant, "player", "plant", "bid")
_BID_FIELDS = _slot_setters(Bid, "player", "amount")


def _choose_actions(seat: int, plant: str, bids: range) -> tuple[ChoosePlant, ...]:
    """Opening bids ``bids`` of ``seat`` on ``plant``, built in canonical form."""
    set_player, set_plant, set_bid = _CHOOSE_FIELDS
    out = []
    for b in bids:
        a = _new(ChoosePlant)
        set_player(a, seat)
        set_plant(a, plant)
        set_bid(a, b)
        out.append(a)
    return tuple(out)


def _bid_actions(seat: int, amounts: range) -> tuple[Bid, ...]:
    """Raises ``amounts`` of ``seat``, built in canonical form."""
    set_player, set_amount = _BID_FIELDS
    out = []
    for x in amounts:
        a = _new(Bid)
        set_player(a, seat)
        set_amount(a, x)
        out.append(a)
    return tuple(out)


class _Row:
    """One seat's opening bids on one plant, from a minimum bid up: built as needed, shared.

    The row only ever reaches the most money its seat had when the plant was
    offered, and none of it is built below the minimum bid.
    """

    __slots__ = ("actions", "lo", "plant", "seat")

    def __init__(self, seat: int, plant: str, lo: int) -> None:
        self.seat, self.plant, self.lo = seat, plant, lo
        self.actions: tuple[ChoosePlant, ...] = ()

    def upto(self, hi: int) -> tuple[ChoosePlant, ...]:
        """The opening bids lo..hi, after growing the row to ``hi`` if it is shorter."""
        n = hi - self.lo + 1
        if n <= 0:
            return ()
        got = self.actions
        if len(got) < n:
            more = _choose_actions(self.seat, self.plant, range(self.lo + len(got), hi + 1))
            got = self.actions = got + more
        return got[:n]


@functools.lru_cache(maxsize=4096)
def _choose_row(seat: int, plant: str, lo: int) -> _Row:
    """The row of ``seat``'s opening bids on ``plant`` from ``lo`` (shared across games)."""
    return _Row(seat, plant, lo)


@functools.lru_cache(maxsize=64)
def _printed_rows(cards: Cards, seat: int) -> dict[str, _Row]:
    """Per card of the deck, ``seat``'s row from its printed number (AUC-04).

    For the base game's ``min_bid`` hook, whose minimum is that number in
    every state: one lookup per legal_actions instead of one per plant.
    """
    return {label: _choose_row(seat, label, p.number) for label, p in cards.plants.items()}


def _rows(state: GameState, seat: int) -> list[_Row]:
    """``seat``'s row of opening bids for each actual-market plant, from its minimum bid."""
    rules = state.rules
    if rules.hooks.min_bid is rules.base_hooks.min_bid:
        rows = _printed_rows(rules.cards, seat)
        return [rows[p] for p in state.market.actual]
    mins = _min_bids(state)
    return [_choose_row(seat, p, lo) for p, lo in zip(state.market.actual, mins, strict=True)]


@functools.lru_cache(maxsize=64)
def _bid_row(seat: int) -> list[tuple[Bid, ...]]:
    """A growing row of raises 0, 1, ... (index = amount), in a one-item list to extend."""
    return [()]


def _bids(seat: int, lo: int, hi: int) -> tuple[Bid, ...]:
    """Raises lo..hi, sliced from the seat's row."""
    if hi < lo:
        return ()
    holder = _bid_row(seat)
    row = holder[0]
    if len(row) <= hi:
        row = holder[0] = row + _bid_actions(seat, range(len(row), hi + 1))
    return row[lo : hi + 1]


_pass = functools.lru_cache(maxsize=16)(lambda p: PassAuction(player=p))
_fold = functools.lru_cache(maxsize=16)(lambda p: PassBid(player=p))


def current(state: GameState) -> int | None:
    """Who acts in phase 2: the discarding player, the next bidder, or the floor."""
    if state.discarding is not None:
        return state.discarding
    if state.auction is not None:
        return state.auction.active[0]
    return next_in(state.order, state.done)


def min_bid(state: GameState, plant: str) -> int:
    """The lowest opening bid for an actual-market plant (AUC-04; hooks may lower it)."""
    rules = state.rules
    hook = rules.hooks.min_bid
    if hook is rules.base_hooks.min_bid:  # the printed number (AUC-04): no call needed
        return rules.plants[plant].number
    return int(hook(state, plant))  # a module's number may be any integral type


def _min_bids(state: GameState) -> list[int]:
    """The minimum opening bid of each actual-market plant, in market order."""
    rules = state.rules
    hook = rules.hooks.min_bid
    if hook is rules.base_hooks.min_bid:
        plants = rules.plants
        return [plants[p].number for p in state.market.actual]
    return [int(hook(state, p)) for p in state.market.actual]


def _last_player(state: GameState) -> bool:
    """AUC-14: exactly one player remains who has neither bought nor passed.

    Human-only: automatic actors stand in ``order`` but start phase 2 done.
    """
    return len(state.order) - len(state.done) == 1


def _may_pass_phase(state: GameState, seat: int) -> bool:
    """AUC-13: no passing in round 1, unless no actual plant is affordable at all (OQ-33).

    With nothing affordable (or an empty actual market) AUC-13 cannot be
    satisfied; OQ-33 lets that player pass so the game can go on.
    """
    if state.round > 1:
        return True
    money = state.players[seat].money
    return all(lo > money for lo in _min_bids(state))


def legal(state: GameState, seat: int | None) -> tuple[Action, ...]:
    """Every legal phase-2 action, in a stable order; ``seat``: :func:`current` of ``state``."""
    if state.discarding is not None:
        return discard.options(state, state.discarding)
    a = state.auction
    if a is not None:
        bidder = a.active[0]
        return _bids(bidder, a.bid + 1, state.players[bidder].money) + (_fold(bidder),)
    if seat is None:
        return ()
    money = state.players[seat].money
    last = _last_player(state)
    out: tuple[Action, ...] = ()
    cheapest = money + 1
    for row in _rows(state, seat):
        lo = row.lo
        if lo < cheapest:
            cheapest = lo
        hi = min(lo, money) if last else money
        n = hi - lo + 1
        if n > 0:
            got = row.actions
            # the row's own slice when it is long enough: legal_actions is hot
            out += got[:n] if len(got) >= n else row.upto(hi)
    # AUC-13 / OQ-33 as in _may_pass_phase, from the minimum bids at hand
    if state.round > 1 or cheapest > money:
        out += (_pass(seat),)
    return out


def apply(state: GameState, action: Action) -> GameState:
    """Check and play a phase-2 action (the caller checked phase and turn)."""
    if state.discarding is not None:
        if not isinstance(action, DiscardPlant):
            illegal(
                f"{state.name_of(state.discarding)} must first discard a plant (limit "
                f"{state.rules.max_plants}, AUC-17)",
                Reason.DISCARD_REQUIRED,
                action,
            )
        return _discarded(state, action)
    if isinstance(action, DiscardPlant):
        illegal(
            "No plant needs to be discarded now: a discard follows a purchase over the "
            "plant limit (AUC-17)",
            Reason.NOTHING_TO_DISCARD,
            action,
        )
    if state.auction is not None:
        if isinstance(action, Bid):
            return _raise_bid(state, action)
        if isinstance(action, PassBid):
            return _fold_bid(state, action)
        illegal(
            f"An auction for plant {state.auction.plant} is running: bid or drop out first",
            Reason.AUCTION_RUNNING,
            action,
        )
    if isinstance(action, ChoosePlant):
        return _open(state, action)
    if isinstance(action, PassAuction):
        return _pass_phase(state, action)
    illegal("No auction is running: choose a plant or pass", Reason.NOT_IN_AUCTION, action)


def _open(state: GameState, action: ChoosePlant) -> GameState:
    """AUC-03/04/05: open an auction; alone, buy at the minimum (AUC-08, AUC-14)."""
    seat, plant, bid = action.player, action.plant, action.bid
    if plant not in state.market.actual:
        offered = ", ".join(map(str, state.market.actual)) or "none"
        illegal(
            f"Plant {plant} is not in the actual market (offered: {offered})",
            Reason.NOT_ACTUAL_PLANT,
            action,
        )
    lo = min_bid(state, plant)
    if bid < lo:
        illegal(
            f"Bid {bid} is below the minimum {lo} for plant {plant}", Reason.BID_TOO_LOW, action
        )
    money = state.players[seat].money
    if bid > money:
        illegal(
            f"Bid {bid} is more than the {money} Elektro {state.name_of(seat)} has (AUC-07)",
            Reason.BID_ABOVE_MONEY,
            action,
        )
    if _last_player(state) and bid != lo:
        illegal(
            f"As the last player, {state.name_of(seat)} buys plant {plant} at its minimum {lo} "
            "without an auction (AUC-14)",
            Reason.LAST_PLAYER_PAYS_MINIMUM,
            action,
        )
    note = state.events_with(
        "auction_opened", f"{state.name_of(seat)} opens plant {plant} at {bid}.", seat, plant, bid
    )
    # AUC-05: only players who neither bought nor passed this phase take part
    eligible = [s for s in _clockwise_after(state, seat) if s not in state.done]
    if not eligible:
        return _sell(state, note, seat, plant, bid)
    auction = AuctionState(
        plant=plant, bid=bid, high_bidder=seat, auctioneer=seat, active=(*eligible, seat)
    )
    return evolve(state, auction=auction, events=note)


def _discarded(state: GameState, action: DiscardPlant) -> GameState:
    """AUC-17..AUC-19: the discard, then the replacement draw; the purchase is settled.

    With the base ``leave_play`` hook the discard and the draw are one copy of the state.
    """
    bought = state.new_plant
    assert bought is not None  # a discard is only asked for right after a purchase
    rules = state.rules
    if rules.hooks.leave_play is rules.base_hooks.leave_play:
        state = market.draw_with(state, **discard.played(state, action))
    else:
        state = market.draw(discard.play(state, action))
    return _settled(state, action.player, bought)


def _clockwise_after(state: GameState, seat: int) -> list[int]:
    # Human-only: the bidders are the seats; automatic actors never bid (AUC-05).
    n = len(state.players)
    return [(seat + k) % n for k in range(1, n)]


def _raise_bid(state: GameState, action: Bid) -> GameState:
    a = state.auction
    assert a is not None
    seat = action.player
    if action.amount <= a.bid:
        illegal(
            f"Bid {action.amount} must be higher than the current bid {a.bid} for plant {a.plant}",
            Reason.BID_TOO_LOW,
            action,
        )
    money = state.players[seat].money
    if action.amount > money:
        who = state.name_of(seat)
        illegal(
            f"Bid {action.amount} is more than the {money} Elektro {who} has (AUC-07)",
            Reason.BID_ABOVE_MONEY,
            action,
        )
    auction = evolve(a, bid=action.amount, high_bidder=seat, active=a.active[1:] + (seat,))
    text = f"{state.name_of(seat)} bids {action.amount}."
    return evolve(
        state, auction=auction, events=state.events_with("bid", text, seat, a.plant, action.amount)
    )


def _fold_bid(state: GameState, action: PassBid) -> GameState:
    a = state.auction
    assert a is not None
    rest = a.active[1:]
    note = state.events_with(
        "bid_passed", f"{state.name_of(action.player)} drops out.", action.player
    )
    if len(rest) == 1:
        return _sell(state, note, a.high_bidder, a.plant, a.bid)
    return evolve(state, auction=evolve(a, active=rest), events=note)


def _sell(state: GameState, events: EventLog, seat: int, plant: str, price: int) -> GameState:
    """AUC-08/09/19: pay, take the plant; discard if over the limit; then draw.

    ``events`` is the log so far: the auction's last event merges into the
    first copy of the state, and the auction closes with it. With the base
    ``after_purchase`` and ``market_shape`` hooks the purchase and the draw
    are one copy of the state; a module's hook sees each step as it happens.
    """
    p = state.players[seat]
    p = evolve(p, money=p.money - price, plants=state.rules.ranked(p.plants + (plant,)))
    over = len(p.plants) > state.rules.max_plants
    text = f"{state.name_of(seat)} buys plant {plant} for {price}."
    bought = {  # AUC-09: the buyer is done for this phase 2
        "done": state.done | {seat},
        "bought": state.bought | {seat},
        "events": events.added("plant_bought", state.round, text, seat, (plant, price)),
    }
    hooks, base_hooks = state.rules.hooks, state.rules.base_hooks
    if (
        hooks.after_purchase is base_hooks.after_purchase
        and hooks.market_shape is base_hooks.market_shape
    ):
        taken = market.taken(state, plant)
        changes = {"players": state.replaced(p), "auction": None, "market": taken, **bought}
        changes.update(lifted(state, plant))
        if over:
            return evolve(state, discarding=seat, new_plant=plant, **changes)
        return _settled(market.draw_with(state, **changes), seat, plant)
    state = evolve(state, players=state.replaced(p), auction=None, events=events)
    state = market.take_plant(state, plant)
    state = hooks.after_purchase(evolve(state, **bought), plant)
    if over:
        return evolve(state, discarding=seat, new_plant=plant)
    return _settled(market.draw(state), seat, plant)


def _settled(state: GameState, seat: int, plant: str) -> GameState:
    """The purchase is settled (discard, replacement draw, re-sort done): the hook runs."""
    rules = state.rules
    hook = rules.hooks.after_purchase_settled
    if hook is rules.base_hooks.after_purchase_settled:
        return state
    return hook(state, seat, plant)


def _pass_phase(state: GameState, action: PassAuction) -> GameState:
    seat = action.player
    if not _may_pass_phase(state, seat):
        illegal(
            f"{state.name_of(seat)} must buy a plant in the first round (AUC-13)",
            Reason.PASS_FORBIDDEN_FIRST_ROUND,
            action,
        )
    note = state.events_with(
        "auction_passed", f"{state.name_of(seat)} passes for this round.", seat
    )
    state = evolve(state, done=state.done | {seat}, events=note)
    rules = state.rules
    hook = rules.hooks.after_pass
    if hook is rules.base_hooks.after_pass:
        return state
    return hook(state, seat)
