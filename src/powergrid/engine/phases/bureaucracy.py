"""Phase 5: powering cities, income, refill and the market update (BUR-01..BUR-09).

Which sets of plants a hand can run on which tokens is :mod:`powergrid.mechanics.burning`;
this module lists and plays the Power actions and runs the rest of the phase.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

from powergrid.actions import Action, Amounts, Power, kinds_in, trusted, vector_amounts
from powergrid.engine.phases.common import next_in
from powergrid.enums import Phase, Resource
from powergrid.errors import Reason, illegal
from powergrid.frozen import evolve
from powergrid.mechanics import burning, market
from powergrid.rules.ruleset import Cards
from powergrid.state import GameState

#: The phase's own actions, from the registry (:data:`powergrid.actions.BASE_KINDS`).
ACTIONS: tuple[type, ...] = kinds_in(Phase.BUREAUCRACY)


def current(state: GameState) -> int | None:
    """BUR-01: player order."""
    return next_in(state.order, state.done)


def consumptions(state: GameState, plants: tuple[str, ...]) -> frozenset[tuple[int, ...]]:
    """Every total burn vector the running ``plants`` can have (hybrids: any mix)."""
    rules, nk = state.rules.cards, len(state.rules.resources)
    totals: tuple[tuple[int, ...], ...] = ((0,) * nk,)
    for plant in plants:
        totals = burning.add_options(totals, burning.fuel_options(rules, plant, nk))
    return frozenset(totals)


def can_burn(state: GameState, seat: int, plants: tuple[str, ...], use: tuple[int, ...]) -> bool:
    """Whether ``plants`` can run burning ``use`` from the player's tokens (BUR-02).

    ``use`` must come from :func:`consumptions` (an exact split among the running
    plants). Each plant must carry its share when it runs, the other tokens
    stored elsewhere; plants may run one after another with tokens moved in
    between (RES-08; see storage.py).
    """
    p = state.players[seat]
    return (plants, use) in burning.runnable(state.rules.cards, p.plants, p.resources)


def options(state: GameState, seat: int) -> tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]:
    """Every (running plants, burn vector) the player can choose, stable order.

    The running plants of each option are in the canonical order of a
    :class:`~powergrid.Power` action (:func:`powergrid.plants.label_key`).
    """
    p = state.players[seat]
    return burning.runnable(state.rules.cards, p.plants, p.resources)


def supplied(state: GameState, seat: int, plants: tuple[str, ...]) -> int:
    """BUR-03: cities powered = min(supply of running plants, city count)."""
    total = sum(state.rules.plant(n).cities for n in plants)
    return min(total, state.players[seat].city_count)


def best_powered(state: GameState, seat: int) -> int:
    """END-02: the most cities the player can power with what the plants hold."""
    p = state.players[seat]
    plain = burning.plain_hand(state.rules.cards, p.plants)
    if plain is None:
        runs = [plants for plants, _ in options(state, seat)]
    else:  # as legal(): a set runs exactly when the tokens cover its need
        held = p.resources
        runs = [plants for plants, need in plain if all(held[i] >= n for i, n in need)]
    return max((supplied(state, seat, plants) for plants in runs), default=0)


def legal(state: GameState, seat: int | None) -> tuple[Action, ...]:
    """Every legal Power action of ``seat``, the player to act, fewest plants first."""
    if seat is None:
        return ()
    p = state.players[seat]
    held, rules, owned = p.resources, state.rules.cards, p.plants
    plain = burning.plain_hand(rules, owned)
    if plain is None:
        return _shared_legal(rules, seat, owned, held)
    out = []
    for plants, need in plain:
        for i, n in need:
            if held[i] < n:
                break
        else:
            out.append(_plain_power(rules, seat, plants)[0])
    return tuple(out)


def _shared_legal(
    rules: Cards, seat: int, owned: tuple[str, ...], held: tuple[int, ...]
) -> tuple[Action, ...]:
    """legal() for a hand with a hybrid: the burns that run on the tokens held (burning.runs)."""
    kinds = rules.resources
    return tuple(
        [_power(kinds, seat, plants, use) for plants, use in burning.runs(rules, owned, held)]
    )


@functools.lru_cache(maxsize=4096)
def _plain_power(
    rules: Cards, seat: int, plants: tuple[str, ...]
) -> tuple[Power, tuple[int, ...], int]:
    """The Power running ``plants`` (canonical order, fixed burns), its burn vector and supply."""
    fixed, cards, kinds = burning.fixed_burns(rules), rules.plants, rules.resources
    use, supply = [0] * len(kinds), 0
    for n in plants:
        kind, burn = fixed[n]  # type: ignore[misc]  # only plants with a fixed burn come here
        use[kind] += burn
        supply += cards[n].cities
    vector = tuple(use)
    # Built here, not by _power: this cache already holds it, once per seat and plants.
    power = trusted(Power, player=seat, plants=plants, mix=_mix(kinds, vector))
    return power, vector, supply


@functools.lru_cache(maxsize=4096)
def _power(
    kinds: tuple[Resource, ...], seat: int, plants: tuple[str, ...], use: tuple[int, ...]
) -> Power:
    """The Power running ``plants`` (canonical order) on ``use``; the same recur across hands."""
    return trusted(Power, player=seat, plants=plants, mix=_mix(kinds, use))


#: A burn vector as a Power's mix (cached: the same burns recur all game).
_mix = functools.lru_cache(maxsize=4096)(vector_amounts)


def apply(state: GameState, action: Action) -> GameState:
    """Check and play a Power action: burn, then income (BUR-02..BUR-04)."""
    assert isinstance(action, Power)
    seat = action.player
    p = state.players[seat]
    # A Power the hand can play is checked by looking it up; anything else
    # goes through the checks that say what is wrong with it.
    cards, owned, plants = state.rules.cards, p.plants, action.plants
    names = set(plants)
    if len(names) == len(plants) and names.issubset(owned):
        if burning.plain_hand(cards, owned) is not None:
            power, use, supply = _plain_power(cards, seat, plants)
            if (power is action or power == action) and all(map(operator.le, use, p.resources)):
                return _power_up(state, action, use, supply)
        else:
            vector = _vector(cards.resources, action.mix)
            if vector is not None and burning.runs_with(cards, owned, p.resources, plants, vector):
                return _power_up(state, action, vector)
    _check(state, action)
    kinds = state.rules.resources
    return _power_up(state, action, tuple(dict(action.mix).get(k, 0) for k in kinds))


@functools.lru_cache(maxsize=4096)
def _vector(kinds: tuple[Resource, ...], mix: Amounts) -> tuple[int, ...] | None:
    """A Power's mix as a burn vector; ``None`` unless it is the canonical mix of one."""
    counts = dict(mix)
    vector = tuple(counts.get(k, 0) for k in kinds)
    return vector if _mix(kinds, vector) == mix else None


def _check(state: GameState, action: Power) -> None:
    """Raise the IllegalAction that says why ``action`` cannot be played."""
    seat = action.player
    p = state.players[seat]
    missing = [n for n in action.plants if n not in p.plants]
    if missing:
        illegal(f"{state.name_of(seat)} owns no plant {missing[0]}", Reason.NOT_OWN_PLANT, action)
    twice = sorted({n for n in action.plants if action.plants.count(n) > 1})
    if twice:
        illegal(
            f"Plant {twice[0]} is named twice: a plant runs at most once per phase 5 (BUR-02)",
            Reason.BAD_POWER_MIX,
            action,
        )
    kinds = state.rules.resources
    mix = dict(action.mix)
    if any(k not in kinds for k in mix):
        illegal("That mix names a resource this game does not use", Reason.UNKNOWN_RESOURCE, action)
    use = tuple(mix.get(k, 0) for k in kinds)
    if use not in consumptions(state, action.plants):
        illegal(
            f"Plants {', '.join(map(str, action.plants))} do not burn exactly "
            f"{_describe(action)} (BUR-02)",
            Reason.BAD_POWER_MIX,
            action,
        )
    if not can_burn(state, seat, action.plants, use):
        illegal(
            f"{state.name_of(seat)} does not hold the fuel to run plants "
            f"{', '.join(map(str, action.plants))} on {_describe(action)}",
            Reason.NOT_ENOUGH_FUEL,
            action,
        )


def _power_up(
    state: GameState, action: Power, use: tuple[int, ...], supply: int | None = None
) -> GameState:
    """BUR-02..BUR-04: burn ``use``, power the cities, earn the income; ``supply``: if known."""
    seat = action.player
    p = state.players[seat]
    rules = state.rules
    if supply is None:
        supply = sum(rules.plants[n].cities for n in action.plants)
    powered = min(supply, p.city_count)  # BUR-03, as supplied()
    table = rules.tables.income
    income = table[min(powered, len(table) - 1)]
    res = state.resources
    if any(use):
        p = evolve(p, money=p.money + income, resources=tuple(map(operator.sub, p.resources, use)))
        res = evolve(res, supply=tuple(map(operator.add, res.supply, use)))
    else:  # nothing burned (no plant run, or eco plants only): the tokens stay as they are
        p = evolve(p, money=p.money + income)
    cities = "city" if powered == 1 else "cities"
    text = f"{state.name_of(seat)} powers {powered} {cities} and earns {income}."
    return evolve(
        state,
        players=state.replaced(p),
        resources=res,
        done=state.done | {seat},
        events=state.events_with("powered", text, seat, powered, income),
    )


def _describe(action: Power) -> str:
    return ", ".join(f"{n} {k.value}" for k, n in action.mix) or "no fuel"


def refill(state: GameState) -> GameState:
    """BUR-05: refill each track from the supply by the table, capped by supply and room."""
    return evolve(state, **_refilled(state))


def _refilled(state: GameState) -> dict[str, Any]:
    """:func:`refill` as the changes of one evolve (resources and events)."""
    rules = state.rules
    tables = rules.tables
    column = state.step - 1
    res = state.resources
    mkt, sup, added = [], [], []
    amounts = tuple(row[column] for row in tables.refill)
    if rules.hooks.refill_amounts is not rules.base_hooks.refill_amounts:
        amounts = rules.hooks.refill_amounts(state, amounts)  # e.g. RCH-42
    for amount, on_market, in_supply, track in zip(
        amounts, res.market, res.supply, tables.slot_prices, strict=True
    ):
        n = min(amount, in_supply, len(track) - on_market)
        mkt.append(on_market + n)
        sup.append(in_supply - n)
        added.append(n)
    moved = tuple(added)
    return {
        "resources": evolve(res, market=tuple(mkt), supply=tuple(sup)),
        "events": state.events_with(
            "market_refilled", _refill_text(rules.resources, moved), None, *moved
        ),
    }


@functools.lru_cache(maxsize=256)
def _refill_text(kinds: tuple[Resource, ...], added: tuple[int, ...]) -> str:
    """The refill's event text (the same few refills recur all game)."""
    text = ", ".join(f"{n} {kind.value}" for n, kind in zip(added, kinds, strict=True))
    return f"Resource market refilled: {text}."


def end_of_phase(state: GameState) -> GameState:
    """BUR-08: after everyone powered, refill then update the plant market, in one copy.

    A Step 3 card that came up as the Step 2 replacement after phase 4 was
    resolved then (RCH-73); the refill used the Step 2 column, and Step 3
    begins now in place of the market update.
    """
    if state.step3_pending:  # the card and the lowest plant left already: no market update
        return market.begin_step3(refill(state))
    return market.market_update(state, **_refilled(state))
