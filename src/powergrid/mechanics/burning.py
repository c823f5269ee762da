"""The burns a hand of plants can make (BUR-02, RES-04, RES-08), per hand and tokens held.

A hand whose plants all have a fixed burn runs a set of plants exactly when the
tokens held cover its need (:func:`plain_hand`). A hand with a hybrid lists every
(running plants, burn vector) once (:func:`candidates`) and tests each against the
tokens, the leftover's storage and, failing that, running the plants in turn
(:func:`runs_in_turn`). Everything here depends on the cards alone and is cached per
:class:`~powergrid.rules.ruleset.Cards` and hand; phase 5
(:mod:`powergrid.engine.phases.bureaucracy`) builds the Power actions.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

from powergrid.mechanics.fuel_storage import Condition, binding_sets, fits_conditions
from powergrid.plants import label_key

if TYPE_CHECKING:  # the rules' record of a game's cards, read here, built above
    from powergrid.rules.ruleset import Cards


def hybrid_splits(mask: int, burn: int, nkinds: int) -> list[tuple[int, ...]]:
    """RES-04: every split of a hybrid's ``burn`` among the kinds of ``mask``, as vectors."""
    kinds = [i for i in range(nkinds) if mask & (1 << i)]
    out = []
    for combo in itertools.combinations_with_replacement(kinds, burn):
        vec = [0] * nkinds
        for k in combo:
            vec[k] += 1
        out.append(tuple(vec))
    return out


#: A burn's nonzero (kind position, count) pairs: the tokens it needs.
Need = tuple[tuple[int, int], ...]
#: One way to run plants: the plants (canonical order), the burn vector, its
#: need, and the storage conditions the leftover tokens must meet when a hybrid
#: shares kinds (``None`` without hybrids).
Candidate = tuple[tuple[str, ...], tuple[int, ...], Need, tuple[Condition, ...] | None]


@functools.lru_cache(maxsize=1024)
def candidates(rules: Cards, owned: tuple[str, ...], nk: int) -> tuple[Candidate, ...]:
    """Every (running plants, burn) of a hand whatever the tokens, in the order of options().

    Depends on the plants alone, so it is built once per hand (a hand changes a
    few times a game) and each phase 5 only filters it by the tokens held.
    """
    n = len(owned)
    # The burn totals of each set of running plants (by bit mask), each built
    # from those of the set without its lowest plant.
    uses: list[tuple[tuple[int, ...], ...]] = [((0,) * nk,)] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        uses[mask] = add_options(uses[mask & (mask - 1)], fuel_options(rules, owned[low], nk))
    # Without hybrids every kind has its own plants, and burning a running plant's
    # share frees exactly the room it used, so the leftover always fits: skip the check.
    shared = any(rules.plants[name].is_hybrid for name in owned)
    rooms = _mask_rooms(rules, owned, nk) if shared else None
    named = _namer(rules, owned)
    out: list[Candidate] = []
    for mask, running in subsets(n):
        plants = named(running)
        room = None if rooms is None else rooms[mask]
        for use in uses[mask]:
            out.append((plants, use, need_of(use), room))
    return tuple(out)


def _mask_rooms(rules: Cards, owned: tuple[str, ...], nk: int) -> list[tuple[Condition, ...]]:
    """Per set of running plants (by bit mask): the conditions the leftover tokens must meet."""
    # A set's rooms are those of the set without its lowest plant, less what that plant frees.
    rooms = residual_rooms(rules, owned, nk)
    kinds = [c[0] for c in rooms]
    frees = [[0] * len(rooms) for _ in owned]
    for c, (_, _, members) in enumerate(rooms):
        for j, freed in members:
            frees[j][c] = freed
    left: list[tuple[int, ...]] = [tuple(c[1] for c in rooms)] * (1 << len(owned))
    for mask in range(1, 1 << len(owned)):
        low = (mask & -mask).bit_length() - 1
        left[mask] = tuple(map(operator.sub, left[mask & (mask - 1)], frees[low]))
    return [tuple(zip(kinds, room, strict=True)) for room in left]


@functools.lru_cache(maxsize=16)
def subsets(n: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The sets of n positions as (bit mask, positions), fewest first, then in order."""
    return tuple(
        (sum(1 << j for j in combo), combo)
        for r in range(n + 1)
        for combo in itertools.combinations(range(n), r)
    )


@functools.lru_cache(maxsize=4096)
def add_options(
    totals: tuple[tuple[int, ...], ...], plant: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...]:
    """The distinct sums of a total and one of a plant's burn vectors, sorted."""
    if len(totals) == 1 and len(plant) == 1:
        return (tuple(map(operator.add, totals[0], plant[0])),)
    return tuple(sorted({tuple(map(operator.add, t, v)) for t in totals for v in plant}))


@functools.lru_cache(maxsize=4096)
def need_of(use: tuple[int, ...]) -> Need:
    """The nonzero (kind, count) pairs of a burn vector."""
    return tuple((i, u) for i, u in enumerate(use) if u)


@functools.lru_cache(maxsize=1024)
def fuel_options(rules: Cards, plant: str, nk: int) -> tuple[tuple[int, ...], ...]:
    """The burn vectors one running plant may have: a hybrid's every split (RES-04)."""
    mask, burn = rules.plant_burns[plant]
    return tuple(hybrid_splits(mask, burn, nk)) if burn else ((0,) * nk,)


@functools.lru_cache(maxsize=1024)  # per hand, like the candidates; RES-08 asks again
def residual_rooms(
    rules: Cards, owned: tuple[str, ...], nk: int
) -> tuple[tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]], ...]:
    """Per binding storage condition of the hand: its kinds, its room and what each plant frees.

    A running plant keeps room only for the tokens left on it, its burn: half
    its capacity (cap - burn = burn). So a condition's room once some plants
    ran is its full room less what those plants freed. The binding sets stay the same:
    a running plant keeps room, so no plant stops joining its kinds.
    """
    slots = list(enumerate(map(rules.plant_slots.__getitem__, owned)))
    masks = frozenset(m for _, (m, cap) in slots if cap > 0 and m)
    out = []
    for subset, kinds in binding_sets(masks, nk):
        full, members = 0, []
        for j, (m, cap) in slots:
            if m & subset:
                full += cap
                members.append((j, cap - cap // 2))
        out.append((kinds, full, tuple(members)))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def label_keys(rules: Cards) -> dict[str, tuple[int, bool, str]]:
    """The canonical sort key of every card of a game (label_key parses a label)."""
    return {label: label_key(label) for label in rules.plants}


def runnable(
    rules: Cards, owned: tuple[str, ...], held: tuple[int, ...]
) -> tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]:
    """Every (running plants, burn vector) of the hand that runs on ``held``, in candidate order."""
    return tuple(
        (c[0], c[1]) for c in candidates(rules, owned, len(held)) if playable(rules, owned, c, held)
    )


def playable(
    rules: Cards, owned: tuple[str, ...], candidate: Candidate, held: tuple[int, ...]
) -> bool:
    """Whether a candidate runs on the tokens held: all at once, or in turn (BUR-02, RES-08).

    Running in turn only differs for two plants or more sharing kinds (a hybrid
    in the hand) whose tokens are held but do not fit all at once: one plant
    alone runs in one step. Tokens short rule every order out.
    """
    _, use, need, room = candidate
    for i, n in need:
        if held[i] < n:
            return False
    if room is None or fits_conditions(room, tuple(map(operator.sub, held, use))):
        return True
    return len(candidate[0]) > 1 and runs_in_turn(rules, owned, candidate[0], use, held)


@functools.lru_cache(maxsize=1024)
def runs_in_turn(
    rules: Cards,
    owned: tuple[str, ...],
    plants: tuple[str, ...],
    use: tuple[int, ...],
    held: tuple[int, ...],
) -> bool:
    """RES-08 in phase 5: the plants may run one after another, tokens moved in between.

    A plant burns the tokens on it (BUR-02), and a player may move tokens
    between his plants at any time (RES-08). So the burn is possible when some
    order of the running plants, and some split of a hybrid's mix, lets each
    plant carry its burn while every other token held then has room
    elsewhere. Only hands with a hybrid get here, after the stricter test of
    all plants running at once (in :func:`playable`) failed.
    """
    if any(h < u for h, u in zip(held, use, strict=True)):
        return False
    nk = len(held)
    rooms = residual_rooms(rules, owned, nk)
    at = {n: j for j, n in enumerate(owned)}
    # Each running plant's conditions while it carries its burn: its room less that burn.
    carrying = {
        at[n]: tuple(
            (kinds, full - sum(f for i, f in members if i == at[n]))
            for kinds, full, members in rooms
        )
        for n in plants
    }
    shares = [[(at[n], b) for b in fuel_options(rules, n, nk)] for n in plants]
    for split in itertools.product(*shares):
        if tuple(map(sum, zip(*(b for _, b in split), strict=True))) != use:
            continue
        for turn in itertools.permutations(split):
            left = held
            for j, burn in turn:
                left = tuple(map(operator.sub, left, burn))
                if not fits_conditions(carrying[j], left):
                    break
            else:
                return True
    return False


@functools.lru_cache(maxsize=64)
def fixed_burns(rules: Cards) -> dict[str, tuple[int, int] | None]:
    """Each card's burn as (kind position, count); ``None`` for a hybrid or a kind not in play."""
    out: dict[str, tuple[int, int] | None] = {}
    for label, plant in rules.plants.items():
        mask, burn = rules.plant_burns[label]
        fixed = not plant.is_hybrid and (not burn or (mask and not mask & (mask - 1)))
        out[label] = (max(mask.bit_length() - 1, 0), burn) if fixed else None
    return out


@functools.lru_cache(maxsize=1024)
def plain_hand(
    rules: Cards, owned: tuple[str, ...]
) -> tuple[tuple[tuple[str, ...], Need], ...] | None:
    """A hand's (running plants, need) in legal()'s order when every burn is fixed, else ``None``.

    Then the leftover tokens always fit (see :func:`candidates`): a set of
    plants runs exactly when the tokens held cover its need.
    """
    burns = fixed_burns(rules)
    fixed = tuple(map(burns.__getitem__, owned))
    if None in fixed:
        return None
    named = _namer(rules, owned)
    return tuple((named(running), need) for running, need in shape(fixed))


def _namer(rules: Cards, owned: tuple[str, ...]) -> Callable[[tuple[int, ...]], tuple[str, ...]]:
    """The running plants at positions of ``owned``, in a Power's canonical order.

    A hand is usually held in that order already; then no sort is needed.
    """
    key = label_keys(rules).__getitem__
    get = owned.__getitem__
    if len(owned) < 2 or list(owned) == sorted(owned, key=key):
        return lambda running: tuple(map(get, running))
    return lambda running: tuple(sorted(map(get, running), key=key))


@functools.lru_cache(maxsize=4096)
def shape(fixed: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], Need], ...]:
    """Per set of plants with these fixed burns, in :func:`subsets` order: positions and need.

    Cached per burns, which recur across hands far more than the hands do.
    """
    out = []
    for _, running in subsets(len(fixed)):
        total: dict[int, int] = {}
        for j in running:
            kind, burn = fixed[j]
            if burn:
                total[kind] = total.get(kind, 0) + burn
        out.append((running, tuple(sorted(total.items()))))
    return tuple(out)
