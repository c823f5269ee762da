"""Phase 2: auctioning power plants (AUC-01..AUC-19).

The floor belongs to the first player in player order who has neither bought
nor passed (AUC-02, AUC-11). Bidding runs clockwise by seat (CON-05, AUC-06).
"""

from __future__ import annotations

import functools
import itertools

from powergrid import market
from powergrid.actions import (
    Action,
    Amounts,
    Bid,
    ChoosePlant,
    DiscardPlant,
    PassAuction,
    PassBid,
    trusted,
)
from powergrid.enums import Resource
from powergrid.errors import Reason
from powergrid.phases.common import illegal, name, next_in
from powergrid.ruleset import Ruleset
from powergrid.state import AuctionState, GameState, evolve
from powergrid.storage import Condition, conditions, fits_conditions, plant_slots

ACTIONS = (ChoosePlant, PassAuction, Bid, PassBid, DiscardPlant)


def _width(hi: int) -> int:
    """Length of a cached row of amounts 0..hi: the next multiple of 64 above ``hi``."""
    return (hi // 64 + 1) * 64


@functools.lru_cache(maxsize=4096)
def _choose_row(seat: int, plant: str, width: int) -> tuple[ChoosePlant, ...]:
    """Opening bids 0..width-1 on a plant (index = bid), built once and sliced after."""
    return tuple(trusted(ChoosePlant, player=seat, plant=plant, bid=b) for b in range(width))


@functools.lru_cache(maxsize=256)
def _bid_row(seat: int, width: int) -> tuple[Bid, ...]:
    """Raises 0..width-1 (index = amount), built once and sliced after."""
    return tuple(trusted(Bid, player=seat, amount=x) for x in range(width))


def _choose(seat: int, plant: str, lo: int, hi: int) -> tuple[ChoosePlant, ...]:
    """Opening bids lo..hi for one plant, sliced from a cached row (legal_actions is hot)."""
    return _choose_row(seat, plant, _width(hi))[lo : hi + 1] if hi >= lo else ()


def _bids(seat: int, lo: int, hi: int) -> tuple[Bid, ...]:
    """Raises lo..hi, sliced from a cached row."""
    return _bid_row(seat, _width(hi))[lo : hi + 1] if hi >= lo else ()


_pass = functools.lru_cache(maxsize=16)(lambda p: PassAuction(player=p))
_fold = functools.lru_cache(maxsize=16)(lambda p: PassBid(player=p))


def current(state: GameState) -> int | None:
    """Who acts in phase 2: the discarding player, the next bidder, or the floor."""
    if state.discard is not None:
        return state.discard
    if state.auction is not None:
        return state.auction.active[0]
    return next_in(state.order, state.done)


def min_bid(state: GameState, plant: str) -> int:
    """The lowest opening bid for an actual-market plant (AUC-04; hooks may lower it)."""
    return int(state.rules.hook("min_bid")(state, plant))


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
    return all(min_bid(state, p) > money for p in state.market.actual)


def legal(state: GameState) -> tuple[Action, ...]:
    """Every legal phase-2 action, in a stable order."""
    seat = current(state)
    if seat is None:
        return ()
    if state.discard is not None:
        return _discard_options(state, seat)
    money = state.players[seat].money
    if state.auction is not None:
        a = state.auction
        return _bids(seat, a.bid + 1, money) + (_fold(seat),)
    last = _last_player(state)
    out: tuple[Action, ...] = ()
    for plant in state.market.actual:
        lo = min_bid(state, plant)
        out += _choose(seat, plant, lo, min(lo, money) if last else money)
    if _may_pass_phase(state, seat):
        out += (_pass(seat),)
    return out


def apply(state: GameState, action: Action) -> GameState:
    """Check and play a phase-2 action (the caller checked phase and turn)."""
    if state.discard is not None:
        if not isinstance(action, DiscardPlant):
            illegal(
                f"{name(state, state.discard)} must first discard a plant (limit "
                f"{state.rules.max_plants}, AUC-17)",
                Reason.DISCARD_REQUIRED,
                action,
            )
        return _discard(state, action)
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
            f"Bid {bid} is more than the {money} Elektro {name(state, seat)} has (AUC-07)",
            Reason.BID_ABOVE_MONEY,
            action,
        )
    if _last_player(state) and bid != lo:
        illegal(
            f"As the last player, {name(state, seat)} buys plant {plant} at its minimum {lo} "
            "without an auction (AUC-14)",
            Reason.LAST_PLAYER_PAYS_MINIMUM,
            action,
        )
    state = state.log(
        "auction_opened", f"{name(state, seat)} opens plant {plant} at {bid}.", seat, plant, bid
    )
    # AUC-05: only players who neither bought nor passed this phase take part
    eligible = [s for s in _clockwise_after(state, seat) if s not in state.done]
    if not eligible:
        return _sell(state, seat, plant, bid)
    auction = AuctionState(
        plant=plant, bid=bid, high_bidder=seat, auctioneer=seat, active=(*eligible, seat)
    )
    return evolve(state, auction=auction)


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
        who = name(state, seat)
        illegal(
            f"Bid {action.amount} is more than the {money} Elektro {who} has (AUC-07)",
            Reason.BID_ABOVE_MONEY,
            action,
        )
    auction = evolve(a, bid=action.amount, high_bidder=seat, active=a.active[1:] + (seat,))
    text = f"{name(state, seat)} bids {action.amount}."
    return evolve(
        state, auction=auction, events=state.noted("bid", text, seat, a.plant, action.amount)
    )


def _fold_bid(state: GameState, action: PassBid) -> GameState:
    a = state.auction
    assert a is not None
    rest = a.active[1:]
    note = state.noted("bid_passed", f"{name(state, action.player)} drops out.", action.player)
    if len(rest) == 1:
        return _sell(evolve(state, auction=None, events=note), a.high_bidder, a.plant, a.bid)
    return evolve(state, auction=evolve(a, active=rest), events=note)


def _sell(state: GameState, seat: int, plant: str, price: int) -> GameState:
    """AUC-08/09/19: pay, take the plant; discard if over the limit; then draw."""
    p = state.players[seat]
    p = evolve(p, money=p.money - price, plants=state.rules.ranked(p.plants + (plant,)))
    state = market.take_plant(state.with_player(p), plant)
    # AUC-09: the buyer is done for this phase 2
    state = evolve(state, auction=None, done=state.done | {seat}, bought=state.bought | {seat}).log(
        "plant_bought", f"{name(state, seat)} buys plant {plant} for {price}.", seat, plant, price
    )
    state = state.rules.hook("after_purchase")(state, plant)
    if len(p.plants) > state.rules.max_plants:
        return evolve(state, discard=seat, new_plant=plant)
    return _settled(market.draw(state), seat, plant)


def _settled(state: GameState, seat: int, plant: str) -> GameState:
    """The purchase is settled (discard, replacement draw, re-sort done): the hook runs."""
    return state.rules.hook("after_purchase_settled")(state, seat, plant)  # type: ignore[no-any-return]


def _pass_phase(state: GameState, action: PassAuction) -> GameState:
    seat = action.player
    if not _may_pass_phase(state, seat):
        illegal(
            f"{name(state, seat)} must buy a plant in the first round (AUC-13)",
            Reason.PASS_FORBIDDEN_FIRST_ROUND,
            action,
        )
    state = evolve(state, done=state.done | {seat}).log(
        "auction_passed", f"{name(state, seat)} passes for this round.", seat
    )
    return state.rules.hook("after_pass")(state, seat)  # type: ignore[no-any-return]


def _discard_drops(state: GameState, seat: int, plant: str) -> tuple[tuple[int, ...], ...]:
    """AUC-18: token vectors that may go to the supply when ``plant`` is discarded.

    A drop is legal when it could stand on the discarded plant (its kinds, its
    capacity) and everything else fits on the remaining plants.
    """
    p = state.players[seat]
    return _drops(state.rules, p.plants, p.resources, plant)


@functools.lru_cache(maxsize=64)  # small: it serves the apply right after legal_actions
def _drops(
    rules: Ruleset, owned: tuple[str, ...], held: tuple[int, ...], plant: str
) -> tuple[tuple[int, ...], ...]:
    pmask, cap = rules.plant_slots[plant]
    conds = _rest_conditions(rules, owned, plant, len(held))
    if pmask & (pmask - 1) == 0:  # one kind or none: the drops are one run of counts
        return _single_kind_drops(conds, held, pmask.bit_length() - 1, cap)
    ranges = [range(min(h, cap) + 1) if pmask & (1 << i) else range(1) for i, h in enumerate(held)]
    out = []
    for drop in itertools.product(*ranges):
        if sum(drop) <= cap and fits_conditions(
            conds, tuple(h - d for h, d in zip(held, drop, strict=True))
        ):
            out.append(drop)
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _rest_conditions(
    rules: Ruleset, owned: tuple[str, ...], plant: str, nk: int
) -> tuple[Condition, ...]:
    """The storage conditions of a hand without ``plant``, from the whole hand's.

    Each condition loses the discarded plant's capacity where it accepts a kind
    of the set. A set binding for the smaller hand binds for the whole one too
    (fewer plants join fewer kinds), so the list is complete; a set that only
    bound for the whole hand is still a true condition.
    """
    pmask, cap = rules.plant_slots[plant]
    out = []
    for kinds, room in conditions(plant_slots(rules, owned), nk):
        joined = any(pmask >> k & 1 for k in kinds)
        out.append((kinds, room - cap if joined else room))
    return tuple(out)


def _single_kind_drops(
    conds: tuple[Condition, ...], held: tuple[int, ...], kind: int, cap: int
) -> tuple[tuple[int, ...], ...]:
    """The drops of a plant storing one ``kind`` (-1: none), in increasing count.

    The rest must fit on the other plants: a condition without the kind holds
    or fails whatever is dropped, and one with it asks for at least its excess.
    """
    least = 0
    for kinds, room in conds:
        excess = sum(held[k] for k in kinds) - room
        if kind in kinds:
            least = max(least, excess)
        elif excess > 0:
            return ()
    if kind < 0:
        return ((0,) * len(held),) if least <= 0 else ()
    drop = [0] * len(held)
    out = []
    for d in range(least, min(held[kind], cap) + 1):
        drop[kind] = d
        out.append(tuple(drop))
    return tuple(out)


def _discardable(state: GameState, seat: int) -> tuple[str, ...]:
    plants = state.players[seat].plants
    if state.rules.components.may_discard_new_plant:
        return plants
    return tuple(n for n in plants if n != state.new_plant)


def _discard_options(state: GameState, seat: int) -> tuple[Action, ...]:
    p = state.players[seat]
    return _discards(state.rules, seat, p.plants, p.resources, _discardable(state, seat))


def _discards(
    rules: Ruleset,
    seat: int,
    owned: tuple[str, ...],
    held: tuple[int, ...],
    allowed: tuple[str, ...],
) -> tuple[Action, ...]:
    # Not cached: the holdings at a discard seldom repeat, while the actions do.
    kinds = rules.resources
    return tuple(
        _discard_action(seat, plant, kinds, drop)
        for plant in allowed
        for drop in _drops(rules, owned, held, plant)
    )


@functools.lru_cache(maxsize=4096)
def _discard_action(
    seat: int, plant: str, kinds: tuple[Resource, ...], drop: tuple[int, ...]
) -> DiscardPlant:
    return trusted(DiscardPlant, player=seat, plant=plant, drop=_canonical(kinds, drop))


def _canonical(kinds: tuple[Resource, ...], counts: tuple[int, ...]) -> Amounts:
    """Amounts in the form the DiscardPlant/Power converters produce (sorted, no zeros)."""
    return tuple(sorted((k, n) for k, n in zip(kinds, counts, strict=True) if n))


def _discard(state: GameState, action: DiscardPlant) -> GameState:
    """AUC-17/18: remove a plant from the game; unhoused tokens go to the supply."""
    seat = action.player
    p = state.players[seat]
    if action.plant not in p.plants:
        illegal(
            f"{name(state, seat)} owns no plant {action.plant} (owns "
            f"{', '.join(map(str, p.plants))})",
            Reason.NOT_OWN_PLANT,
            action,
        )
    if action.plant not in _discardable(state, seat):
        illegal(
            f"With the classic components the plant just bought ({action.plant}) cannot be "
            "discarded: discard an older plant (AUC-17)",
            Reason.DISCARD_NEW_PLANT,
            action,
        )
    kinds = state.rules.resources
    amounts = dict(action.drop)
    unknown = [k for k in amounts if k not in kinds]
    if unknown:
        illegal(f"This game has no {unknown[0].value}", Reason.UNKNOWN_RESOURCE, action)
    drop = tuple(amounts.get(k, 0) for k in kinds)
    if drop not in _discard_drops(state, seat, action.plant):
        illegal(
            "Those tokens cannot be returned: only tokens that could stand on the discarded "
            "plant may go to the supply, and the rest must fit on the remaining plants "
            "(AUC-18)",
            Reason.BAD_RESOURCE_DROP,
            action,
        )
    held = tuple(h - d for h, d in zip(p.resources, drop, strict=True))
    p = evolve(p, plants=tuple(n for n in p.plants if n != action.plant), resources=held)
    res = state.resources
    supply = tuple(s + d for s, d in zip(res.supply, drop, strict=True))
    bought = state.new_plant
    state = evolve(
        state.with_player(p), resources=evolve(res, supply=supply), discard=None, new_plant=None
    )
    state = market.leave_play(state, action.plant, "discarded").log(
        "plant_discarded",
        f"{name(state, seat)} discards plant {action.plant}.",
        seat,
        action.plant,
        *drop,
    )
    assert bought is not None  # a discard is only asked for right after a purchase
    return _settled(market.draw(state), seat, bought)
