"""Phase 2's discards: a buyer over the plant limit removes a plant (AUC-16..AUC-18).

The buyer chooses the plant (not the one just bought, with the classic
components) and which of its tokens go to the general supply: only tokens
that could stand on it, and what stays must fit on the other plants (RES-05).
The options come from one pass over the hand's storage conditions.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from powergrid.actions import Action, DiscardPlant, trusted, vector_amounts
from powergrid.enums import Resource
from powergrid.errors import Reason, illegal
from powergrid.frozen import evolve
from powergrid.mechanics import market
from powergrid.mechanics.fuel_storage import binding_sets
from powergrid.rules.ruleset import Ruleset
from powergrid.state import GameState, PlayerState

#: One storage condition of a hand: its kinds as a bit mask and as positions, and
#: how many of the held tokens of those kinds exceed its room (at most 0 when they fit).
Excess = tuple[int, tuple[int, ...], int]


@functools.lru_cache(maxsize=16)  # small: it serves the apply right after legal_actions
def _excess(rules: Ruleset, owned: tuple[str, ...], held: tuple[int, ...]) -> tuple[Excess, ...]:
    """The hand's storage conditions (RES-05) with the held tokens' excess over each room.

    The conditions are :func:`powergrid.mechanics.fuel_storage.conditions`' (a set's room is
    the capacity of the plants accepting a kind of it), computed here with
    the excess in one pass rather than through the storage caches: a hand at
    a discard is new (it just grew), so they would only miss.

    Discarding a plant of capacity ``cap`` takes ``cap`` from the room of
    each condition whose kinds it accepts: what is left must hold the
    tokens, so a drop must return at least ``excess + cap`` tokens of those
    kinds. A set binding for the smaller hand binds for the whole one too
    (fewer plants join fewer kinds), so these conditions are complete for
    every discard; a set that only bound for the whole hand is still a true
    condition.
    """
    slots = [rules.plant_slots[n] for n in owned]
    masks = frozenset(m for m, cap in slots if cap > 0 and m)
    out = []
    for subset, kinds in binding_sets(masks, len(held)):
        room = 0
        for m, cap in slots:
            if m & subset:
                room += cap
        tokens = held[kinds[0]] if len(kinds) == 1 else sum(held[k] for k in kinds)
        out.append((subset, kinds, tokens - room))
    return tuple(out)


def _counts(pmask: int, cap: int, excess: tuple[Excess, ...], held: tuple[int, ...]) -> range:
    """AUC-18 for a plant storing one kind or none: the token counts it may drop.

    A condition without the kind holds or fails whatever is dropped, and one
    with it asks for at least its excess; a plant storing nothing drops nothing.
    """
    least = 0
    for mask, _, e in excess:
        if mask & pmask:
            e += cap
            if e > least:
                least = e
        elif e > 0:
            return range(0)
    if not pmask:
        return range(1)
    return range(least, min(held[pmask.bit_length() - 1], cap) + 1)


def _hybrid_drops(
    pmask: int, cap: int, excess: tuple[Excess, ...], held: tuple[int, ...]
) -> list[tuple[int, ...]]:
    """AUC-18 for a plant storing several kinds: its drops, in the order of the kinds.

    Every vector of counts the plant could hold is tried (a hybrid's are few).
    """
    need = []
    for mask, kinds, e in excess:
        if mask & pmask:
            if e + cap > 0:
                need.append((kinds, e + cap))
        elif e > 0:
            return []
    ranges = [range(min(h, cap) + 1) if pmask >> i & 1 else range(1) for i, h in enumerate(held)]
    return [
        drop
        for drop in itertools.product(*ranges)
        if sum(drop) <= cap and all(sum(drop[k] for k in kinds) >= n for kinds, n in need)
    ]


def drops(
    rules: Ruleset, owned: tuple[str, ...], held: tuple[int, ...], plant: str
) -> tuple[tuple[int, ...], ...]:
    """AUC-18: token vectors that may go to the supply when ``plant`` is discarded.

    A drop is legal when it could stand on the discarded plant (its kinds, its
    capacity) and everything else fits on the remaining plants.
    """
    pmask, cap = rules.plant_slots[plant]
    excess = _excess(rules, owned, held)
    if pmask & (pmask - 1):
        return tuple(_hybrid_drops(pmask, cap, excess, held))
    kind = pmask.bit_length() - 1  # -1: a plant storing nothing drops nothing
    positions = range(len(held))
    return tuple(
        tuple(d if i == kind else 0 for i in positions) for d in _counts(pmask, cap, excess, held)
    )


def drop_allowed(
    rules: Ruleset, owned: tuple[str, ...], held: tuple[int, ...], plant: str, drop: tuple[int, ...]
) -> bool:
    """Whether ``drop`` is one of :func:`drops`, checked without listing them."""
    if not any(held):  # nothing held: only the empty drop (and every condition holds)
        return not any(drop)
    pmask, cap = rules.plant_slots[plant]
    if sum(drop) > cap:
        return False
    for i, d in enumerate(drop):
        if d < 0 or d > held[i] or (d and not pmask >> i & 1):
            return False
    for mask, kinds, e in _excess(rules, owned, held):
        if mask & pmask:
            e += cap
        if e > 0 and sum(drop[k] for k in kinds) < e:
            return False
    return True


def _discardable(state: GameState, seat: int) -> tuple[str, ...]:
    """AUC-17: the plants the buyer may discard (classic: not the one just bought)."""
    plants = state.players[seat].plants
    if state.rules.components.may_discard_new_plant:
        return plants
    return tuple(n for n in plants if n != state.new_plant)


def options(state: GameState, seat: int) -> tuple[Action, ...]:
    """Every discard ``seat`` may make now, by plant and then by drop."""
    p = state.players[seat]
    return discards(state.rules, seat, p.plants, p.resources, _discardable(state, seat))


def discards(
    rules: Ruleset,
    seat: int,
    owned: tuple[str, ...],
    held: tuple[int, ...],
    allowed: tuple[str, ...],
) -> tuple[Action, ...]:
    """Every discard of a plant of ``allowed``, by plant and then by drop as :func:`drops`.

    Not cached: the holdings at a discard seldom repeat, while the actions do
    (rows per seat and plant, or per drop for a hybrid).
    """
    kinds = rules.resources
    if not any(held):
        return _empty_discards(rules, seat, allowed)
    excess = _excess(rules, owned, held)
    out: list[Action] = []
    for plant in allowed:
        pmask, cap = rules.plant_slots[plant]
        if pmask & (pmask - 1):
            vectors = _hybrid_drops(pmask, cap, excess, held)
            out += [_hybrid_discard(seat, plant, kinds, d) for d in vectors]
        else:
            counts = _counts(pmask, cap, excess, held)
            if counts:
                kind = kinds[pmask.bit_length() - 1] if pmask else None
                out += _single_discards(seat, plant, kind, counts)
    return tuple(out)


def _empty_discards(rules: Ruleset, seat: int, allowed: tuple[str, ...]) -> tuple[Action, ...]:
    """:func:`discards` of a hand holding no tokens: one discard per plant, dropping nothing.

    With nothing held every storage condition holds whatever is discarded, and
    the only drop is the empty one, so no condition need be worked out.
    """
    kinds = rules.resources
    zeros = (0,) * len(kinds)
    out: list[Action] = []
    for plant in allowed:
        pmask, _ = rules.plant_slots[plant]
        if pmask & (pmask - 1):
            out.append(_hybrid_discard(seat, plant, kinds, zeros))
        else:
            kind = kinds[pmask.bit_length() - 1] if pmask else None
            out += _single_discards(seat, plant, kind, range(1))
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _discard_row(seat: int, plant: str, kind: Resource | None) -> list[tuple[DiscardPlant, ...]]:
    """A growing row of the discards of a plant storing one ``kind`` (or none), by count.

    Held in a one-item list that :func:`_single_discards` extends only as far as
    a discard needed: most drop nothing, so most rows stay one action long.
    """
    return [()]


def _single_discards(
    seat: int, plant: str, kind: Resource | None, counts: range
) -> tuple[DiscardPlant, ...]:
    """The discards of a plant storing one ``kind`` (or none) dropping ``counts`` tokens."""
    holder = _discard_row(seat, plant, kind)
    row = holder[0]
    if len(row) < counts.stop:
        row = holder[0] = row + tuple(
            trusted(DiscardPlant, player=seat, plant=plant, drop=((kind, d),) if d else ())
            for d in range(len(row), counts.stop)
        )
    return row[counts.start : counts.stop]


@functools.lru_cache(maxsize=4096)
def _hybrid_discard(
    seat: int, plant: str, kinds: tuple[Resource, ...], drop: tuple[int, ...]
) -> DiscardPlant:
    """The discard of a hybrid returning the token vector ``drop`` (cached per vector)."""
    return trusted(DiscardPlant, player=seat, plant=plant, drop=vector_amounts(kinds, drop))


def play(state: GameState, action: DiscardPlant) -> GameState:
    """AUC-17/18: check and remove a plant from the game; unhoused tokens go to the supply.

    The caller draws the replacement and settles the purchase (AUC-19).
    """
    seat, plant = action.player, action.plant
    changes, text, drop = _discarding(state, action)
    state = market.leave_play(evolve(state, **changes), plant, "discarded")
    return state.log("plant_discarded", text, seat, plant, *drop)


def played(state: GameState, action: DiscardPlant) -> dict[str, Any]:
    """:func:`play` as the changes of one evolve, for the base ``leave_play`` hook only.

    The base hook lays the plant beside the game (``market.removed``); the
    caller merges the replacement draw into the same copy of the state.
    """
    seat, plant = action.player, action.plant
    changes, text, drop = _discarding(state, action)
    m = state.market
    changes["market"] = evolve(m, removed=m.removed + (plant,))
    changes["events"] = state.events_with("plant_discarded", text, seat, plant, *drop)
    return changes


def _discarding(
    state: GameState, action: DiscardPlant
) -> tuple[dict[str, Any], str, tuple[int, ...]]:
    """A checked discard's changes to the state but the plant's exit, its text and drop."""
    seat, plant = action.player, action.plant
    p, drop = _checked(state, action)
    changes: dict[str, Any] = {"players": state.replaced(p), "discarding": None, "new_plant": None}
    if any(drop):
        res = state.resources
        supply = tuple(s + d for s, d in zip(res.supply, drop, strict=True))
        changes["resources"] = evolve(res, supply=supply)
    return changes, f"{state.name_of(seat)} discards plant {plant}.", drop


def _checked(state: GameState, action: DiscardPlant) -> tuple[PlayerState, tuple[int, ...]]:
    """The discarding player's record after the discard and the tokens dropped (AUC-17/18).

    Raises :class:`~powergrid.errors.IllegalAction` for a discard that is not allowed.
    """
    seat = action.player
    p = state.players[seat]
    if action.plant not in p.plants:
        illegal(
            f"{state.name_of(seat)} owns no plant {action.plant} (owns "
            f"{', '.join(map(str, p.plants))})",
            Reason.NOT_OWN_PLANT,
            action,
        )
    if action.plant == state.new_plant and not state.rules.components.may_discard_new_plant:
        illegal(
            f"With the classic components the plant just bought ({action.plant}) cannot be "
            "discarded: discard an older plant (AUC-17)",
            Reason.DISCARD_NEW_PLANT,
            action,
        )
    kinds = state.rules.resources
    if action.drop:
        amounts = dict(action.drop)
        unknown = [k for k in amounts if k not in kinds]
        if unknown:
            illegal(f"This game has no {unknown[0].value}", Reason.UNKNOWN_RESOURCE, action)
        drop = tuple([amounts.get(k, 0) for k in kinds])
    else:  # the usual discard returns nothing
        drop = (0,) * len(kinds)
    if not drop_allowed(state.rules, p.plants, p.resources, action.plant, drop):
        illegal(
            "Those tokens cannot be returned: only tokens that could stand on the discarded "
            "plant may go to the supply, and the rest must fit on the remaining plants "
            "(AUC-18)",
            Reason.BAD_RESOURCE_DROP,
            action,
        )
    held = (
        tuple([h - d for h, d in zip(p.resources, drop, strict=True)])
        if action.drop
        else p.resources
    )
    return evolve(p, plants=tuple([n for n in p.plants if n != action.plant]), resources=held), drop
