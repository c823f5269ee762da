"""The fund's moves in phases 2, 3 and 5: a plant, its fuel, and running its plants.

- Phase 2 (FND-10..FND-14): the humans alone bid; once per phase 2, right
  after the first human purchase or the first player's pass, the fund takes
  the highest actual plant for free (with 3 plants only if it is higher than
  its own lowest, which then leaves the game) and a replacement is drawn. It
  counts as having bought this round (``GameState.bought``), which is what
  narrows Europe's no-purchase removal (FND-14, AUC-21).
- Phase 3 (FND-15..FND-17, RES-10): in its turn it takes, free, exactly the
  fuel each of its plants needs to run once, counting what it holds, plants in
  rank order, a hybrid alternating gas then oil; as much as the market has.
- Phase 5 (FND-18): it runs every plant it can, earns nothing, and its fuel
  goes to the general supply.

This is a helper of ``powergrid.rules.fund``, not a rule module of its own.
"""

from __future__ import annotations

from powergrid.data import load
from powergrid.enums import Phase, Resource
from powergrid.frozen import evolve
from powergrid.mechanics import market
from powergrid.rules.fund.variant import DELUXE_FUND, FundVariant, opening
from powergrid.rules.ruleset import Ruleset
from powergrid.state import ActorState, GameState

_DATA = load("fund.json")
FUND: int = _DATA["actor"]


# --- phase 2 ----------------------------------------------------------------------------


def fund_take_on_purchase(
    state: GameState, seat: int, plant: str, variant: FundVariant = DELUXE_FUND
) -> GameState:
    """FND-11: the first human purchase of this phase 2 is the fund's moment.

    Unless the first player passed before it: that pass was the moment. The
    Trust (``variant.takes_on_its_turn``, RCH-85 c, OQ-R08) waits for its own
    turn: only the first player's purchase is its moment, even when the
    other human bought first in the first player's auction.
    """
    first = _first_player(state)
    if variant.takes_on_its_turn:
        return _fund_take(state, variant) if seat == first else state
    passed = first in state.done and first not in state.bought
    if seat < 0 or passed or _humans_bought(state) != {seat}:
        return state
    return _fund_take(state, variant)


def fund_take_on_pass(state: GameState, seat: int, variant: FundVariant = DELUXE_FUND) -> GameState:
    """FND-11: so is the first player's pass, when nobody has bought yet.

    The Trust (RCH-85 c): the first player's pass is its moment whoever bought before.
    """
    if seat != _first_player(state):
        return state
    if _humans_bought(state) and not variant.takes_on_its_turn:
        return state
    return _fund_take(state, variant)


def _first_player(state: GameState) -> int:
    return next(s for s in state.order if s >= 0)


def _humans_bought(state: GameState) -> set[int]:
    return {s for s in state.bought if s >= 0}


def _fund_take(state: GameState, variant: FundVariant) -> GameState:
    """FND-11, FND-12: take the highest actual plant free, dropping the lowest at the limit."""
    actual = state.market.actual
    fund = state.actor(FUND)
    if not actual:
        return state.log(
            "fund_passed",
            f"The actual market is empty: {_called(state, lower=True)} takes no plant (FND-11).",
            FUND,
        )
    best = actual[-1]
    number = state.rules.number
    if len(fund.plants) >= _DATA["max_plants"]:
        lowest = fund.plants[0]
        if number(best) <= number(lowest):
            return state.log(
                "fund_passed",
                f"{_called(state)} takes no plant: plant {best} is not higher than its lowest "
                f"plant, {lowest} (FND-12).",
                FUND,
                best,
            )
    state = market.take_plant(state, best)
    if variant.take_is_purchase:  # OQ-R09: plant 39 starts the German phase-out
        state = state.rules.hooks.after_purchase(state, best)
    fund = evolve(fund, plants=state.rules.ranked(fund.plants + (best,)))
    state = evolve(state.with_actor(fund), bought=state.bought | {FUND}).log(
        "fund_took_plant", f"{_called(state)} takes plant {best} free (FND-11).", FUND, best
    )
    if len(fund.plants) > _DATA["max_plants"]:
        state = _drop_lowest(state, variant.first_hybrid_kind)
    return market.draw(state)  # AUC-10: the replacement (it may move the token, FND-13)


def _drop_lowest(state: GameState, first: Resource) -> GameState:
    """FND-12: the fund's lowest plant leaves the game, the tokens on it to the supply.

    The fund's tokens stand on its plants in rank order, as it takes them
    (FND-16), so the lowest plant holds the first share of them.
    """
    fund = state.actor(FUND)
    lowest, kept = fund.plants[0], fund.plants[1:]
    drop = _share(state.rules, lowest, fund.resources, first)
    keep = tuple(h - d for h, d in zip(fund.resources, drop, strict=True))
    state = _to_supply(state.with_actor(evolve(fund, plants=kept, resources=keep)), drop)
    state = market.leave_play(state, lowest, "discarded")
    return state.log(
        "fund_dropped_plant",
        f"{_called(state)} removes its lowest plant, {lowest}, from the game (FND-12)"
        + (f"; {_tokens_text(state, drop)} go to the supply." if any(drop) else "."),
        FUND,
        lowest,
        *drop,
    )


# --- phase 3 and 5 ----------------------------------------------------------------------


def fund_turn(state: GameState, actor: int, variant: FundVariant = DELUXE_FUND) -> GameState:
    """The fund's place in the order: fuel in phase 3, running its plants in phase 5.

    In phase 4 it never builds on its own turn (FND-08): its houses answer
    the humans' builds (the module's build policy).
    """
    if actor != FUND:
        return state
    first = variant.first_hybrid_kind
    if state.phase is Phase.RESOURCES:
        return _take_fuel(state, variant)
    if state.phase is Phase.BUREAUCRACY:
        return _run_plants(state, first)
    return state


def fuel_wanted(
    rules: Ruleset,
    plants: tuple[str, ...],
    held: tuple[int, ...],
    offered: tuple[int, ...],
    first: Resource = DELUXE_FUND.first_hybrid_kind,
) -> tuple[int, ...]:
    """FND-15..FND-17: tokens per kind the fund takes from a market offering ``offered``.

    Each plant, in rank order, first counts the tokens the fund holds, then
    takes what it still needs to run once, as far as the market has it; a
    hybrid alternates starting with ``first`` (gas for the fund, FND-17; coal
    for the Trust, RCH-85 a) while both kinds are on the market.
    Taking from the cheapest spaces first (FND-16) is how a market track is
    always emptied, so a count per kind says which spaces.
    """
    spare, left = list(held), list(offered)
    take = [0] * len(held)
    for card in plants:
        kinds = _kinds(rules, card, first)
        need = rules.plant(card).burn
        need -= sum(_draw(spare, kinds, need))
        turn = 0
        while need and any(left[k] for k in kinds):
            want = kinds[turn % len(kinds)]
            k = want if left[want] else next(k for k in kinds if left[k])
            left[k] -= 1
            take[k] += 1
            need -= 1
            turn += 1
    return tuple(take)


def _kinds(rules: Ruleset, card: str, first: Resource) -> list[int]:
    """The kinds a plant burns as state indices, a hybrid's ``first`` kind first (FND-17)."""
    kinds = sorted(map(rules.kind_index, rules.plant(card).accepts))
    return sorted(kinds, key=lambda k: rules.resources[k] is not first)


def _draw(spare: list[int], kinds: list[int], need: int) -> list[int]:
    """Take up to ``need`` tokens from ``spare`` (changed in place), kinds in order; per kind."""
    used = [0] * len(spare)
    for k in kinds:
        used[k] = min(need, spare[k])
        spare[k] -= used[k]
        need -= used[k]
    return used


def _share(rules: Ruleset, card: str, held: tuple[int, ...], first: Resource) -> tuple[int, ...]:
    """The tokens of ``held`` that stand on ``card`` when it is the first to take its run."""
    return tuple(_draw(list(held), _kinds(rules, card, first), rules.plant(card).burn))


def _take_fuel(state: GameState, variant: FundVariant) -> GameState:
    """RES-10: the fund's free resource turn (FND-15..FND-17).

    The Trust (``variant.takes_priced_supply``, OQ-R09) also takes, free, the
    tokens a player could buy from the supply once the market has none (the
    USA coal storage, RCH-43), after the market's.
    """
    fund = state.actor(FUND)
    res = state.resources
    offered = res.market
    if variant.takes_priced_supply:
        prices = state.rules.tables.supply_prices
        offered = tuple(
            m + (s if p is not None else 0)
            for m, s, p in zip(res.market, res.supply, prices, strict=True)
        )
    take = fuel_wanted(state.rules, fund.plants, fund.resources, offered, variant.first_hybrid_kind)
    if not any(take):
        return state.log(
            "fund_took_resources", f"{_called(state)} needs no fuel (FND-15).", FUND, *take
        )
    held = tuple(h + t for h, t in zip(fund.resources, take, strict=True))
    left = tuple(m - t for m, t in zip(res.market, take, strict=True))
    supply = res.supply
    if min(left) < 0:  # the Trust took what the market lacked from the priced supply
        supply = tuple(s + min(m, 0) for s, m in zip(supply, left, strict=True))
        left = tuple(max(m, 0) for m in left)
    state = evolve(state, resources=evolve(res, market=left, supply=supply)).with_actor(
        evolve(fund, resources=held)
    )
    return state.log(
        "fund_took_resources",
        f"{_called(state)} takes {_tokens_text(state, take)} free (FND-15).",
        FUND,
        *take,
    )


def _run_plants(state: GameState, first: Resource) -> GameState:
    """FND-18: run every plant that has its fuel; no income; all its fuel to the supply."""
    fund = state.actor(FUND)
    spare = list(fund.resources)
    ran = []
    for card in fund.plants:
        kinds = _kinds(state.rules, card, first)
        need = state.rules.plant(card).burn
        if sum(spare[k] for k in kinds) >= need:
            _draw(spare, kinds, need)
            ran.append(card)
    state = _to_supply(state.with_actor(_emptied(fund)), fund.resources)
    listed = ", ".join(ran) if ran else "no plant"
    return state.log(
        "fund_ran_plants",
        f"{_called(state)} runs {listed} and earns nothing; its fuel goes to the supply (FND-18).",
        FUND,
        *ran,
    )


def _called(state: GameState, *, lower: bool = False) -> str:
    """What players call the fund or the Trust, its actor's name, to begin a sentence."""
    name = state.actor(FUND).name
    return name if lower else opening(name)


def _emptied(fund: ActorState) -> ActorState:
    return evolve(fund, resources=(0,) * len(fund.resources))


def _to_supply(state: GameState, tokens: tuple[int, ...]) -> GameState:
    res = state.resources
    supply = tuple(s + t for s, t in zip(res.supply, tokens, strict=True))
    return evolve(state, resources=evolve(res, supply=supply))


def _tokens_text(state: GameState, tokens: tuple[int, ...]) -> str:
    kinds = state.rules.resources
    return ", ".join(f"{n} {k.value}" for k, n in zip(kinds, tokens, strict=True) if n)
