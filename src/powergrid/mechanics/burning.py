"""The burns a hand of plants can make (BUR-02, RES-04, RES-08), per hand and tokens held.

A hand whose plants all have a fixed burn runs a set of plants exactly when the
tokens held cover its need (:func:`plain_hand`). A hand with a hybrid is
composed of its plants' parts (:func:`hand_burns`): the sets of plants with the
fixed burn of their inert plants (:func:`layout`, per burns) and the totals of
their active plants, in practice the hybrids (:func:`mixes`, per active plants).
:func:`runs` tests each against the tokens, the leftover's storage and, failing
that, running the plants in turn (:func:`runs_in_turn`). Everything but the
tokens depends on the cards alone and is cached per
:class:`~powergrid.rules.ruleset.Cards`; phase 5
(:mod:`powergrid.engine.phases.bureaucracy`) builds the Power actions.
"""

from __future__ import annotations

import functools
import itertools
import operator
from typing import TYPE_CHECKING

from powergrid.mechanics.fuel_storage import Hand, binding_sets, card_hand, fits_conditions
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
#: One plant's part in phase 5 (:func:`plant_parts`): its burn vectors (a hybrid's
#: every split, RES-04), the kinds it stores (bit mask), the room it frees when it
#: runs (cap - cap // 2) and whether it is inert (see :func:`plant_parts`).
Part = tuple[tuple[tuple[int, ...], ...], int, int, bool]


@functools.lru_cache(maxsize=64)
def plant_parts(rules: Cards) -> dict[str, Part]:
    """Every card's :data:`Part`, built once per card set.

    A plant is inert when running it, whatever its burn, changes no storage
    condition's balance: it burns exactly the room it frees, of its one kind
    (cap = 2 x burn, RES-03), or it stores and burns nothing. Whether the
    tokens left fit once a set of plants burned then depends on its other
    (active) plants alone, in practice its hybrids, which is what lets
    :func:`runs` compose a hand's options from its plants' rather than build
    a table per hand.
    """
    nk = len(rules.resources)
    out: dict[str, Part] = {}
    for label in rules.plants:
        mask, cap = rules.plant_slots[label]
        options = fuel_options(rules, label, nk)
        freed = cap - cap // 2
        if mask and not mask & (mask - 1):
            unit = mask.bit_length() - 1
            inert = options == (tuple(freed if i == unit else 0 for i in range(nk)),)
        else:
            inert = not mask and not freed and options == ((0,) * nk,)
        out[label] = (options, mask, freed, inert)
    return out


#: One set of a hand's plants, in :func:`subsets` order (:func:`layout`): the
#: positions, the fixed burn of its inert plants as a vector and as a need, and
#: its active plants as a bit mask of positions.
Place = tuple[tuple[int, ...], tuple[int, ...], Need, int]


@functools.lru_cache(maxsize=1024)
def layout(burns: tuple[tuple[int, ...] | None, ...], nk: int) -> tuple[Place, ...]:
    """Every set of a hand's plants as a :data:`Place`, from each plant's fixed burn.

    ``burns`` holds an inert plant's burn vector and ``None`` for an active
    one. Cached per burns, which recur across hands far more than hands do.
    """
    n = len(burns)
    out = []
    for _, running in subsets(n):
        base = [0] * nk
        active = 0
        for j in running:
            burn = burns[j]
            if burn is None:
                active |= 1 << j
            else:
                base = list(map(operator.add, base, burn))
        out.append((running, tuple(base), need_of(tuple(base)), active))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def need_of(use: tuple[int, ...]) -> Need:
    """The nonzero (kind, count) pairs of a burn vector."""
    return tuple((i, u) for i, u in enumerate(use) if u)


#: The burns of a set of a hand's active plants (:func:`mixes`): the storage
#: conditions they touch, as (condition index, room they free), and each
#: distinct total, sorted, with its need and its tokens of each touched condition.
Mixes = tuple[
    tuple[tuple[int, int], ...], tuple[tuple[tuple[int, ...], Need, tuple[int, ...]], ...]
]


@functools.lru_cache(maxsize=1024)
def mixes(rules: Cards, plants: tuple[str, ...], conds: tuple[int, ...]) -> Mixes:
    """The :data:`Mixes` of active ``plants`` in a hand whose storage conditions are ``conds``.

    ``conds`` are the conditions' kinds as bit masks (``Hand.masks``). A running
    plant keeps room only for its burn (see :func:`residual_rooms`), so each
    condition's room falls by what the running plants of its kinds free; the
    tokens left fit when, for every condition, its slack over the tokens held
    plus the total's tokens of its kinds covers that. Cached per active plants
    and conditions, which recur across hands (the hybrids are few).
    """
    nk = len(rules.resources)
    table = plant_parts(rules)
    totals: tuple[tuple[int, ...], ...] = ((0,) * nk,)
    touched: dict[int, int] = {}  # condition index: the room the plants free in it
    for name in plants:
        options, mask, freed, _ = table[name]
        totals = add_options(totals, options)
        for c, subset in enumerate(conds):
            if mask & subset:
                touched[c] = touched.get(c, 0) + freed
    tests = tuple(sorted(touched.items()))
    kinds = [[k for k in range(nk) if conds[c] >> k & 1] for c, _ in tests]
    return tests, tuple(
        (use, need_of(use), tuple(sum(use[k] for k in ks) for ks in kinds)) for use in totals
    )


#: What a hand needs in phase 5 whatever the tokens (:func:`hand_burns`): its sets
#: of plants (:func:`layout`), the :data:`Mixes` of each set of its active plants
#: indexed by bit mask (empty where no set has those), its storage (``None``
#: without a hybrid: the leftover always fits) and whether the hand is held in a
#: Power's canonical order (else naming a set sorts it).
HandBurns = tuple[tuple[Place, ...], tuple[Mixes, ...], Hand | None, bool]

_NO_MIXES: Mixes = ((), ())


@functools.lru_cache(maxsize=1024)
def hand_burns(rules: Cards, owned: tuple[str, ...]) -> HandBurns:
    """A hand's :data:`HandBurns`, composed of its plants' parts (built once per hand).

    The sets of plants with their inert plants' fixed burn come from
    :func:`layout`, the totals of their active plants from :func:`mixes`, both
    cached across hands, so a hand met for the first time costs a few look-ups
    rather than an enumeration of its burns. Tuples only, which the garbage
    collector stops tracking: the cache holds a thousand hands.
    """
    nk = len(rules.resources)
    table = plant_parts(rules)
    rows = list(map(table.__getitem__, owned))
    places = layout(tuple([row[0][0] if row[3] else None for row in rows]), nk)
    storage = card_hand(rules, owned) if _shared(rules, owned) else None
    masks = storage.masks if storage is not None else ()
    parts = [_NO_MIXES] * (1 << len(owned))
    for _, _, _, active in places:
        # not ``is _NO_MIXES``: the compiled build re-boxes a fixed-length tuple
        if active and not parts[active][1]:
            plants = tuple([owned[j] for j in range(len(owned)) if active >> j & 1])
            parts[active] = mixes(rules, plants, masks)
    return places, tuple(parts), storage, in_order(rules, owned)


def _shared(rules: Cards, owned: tuple[str, ...]) -> bool:
    """Whether a hybrid shares kinds with other plants: then the tokens left may not fit."""
    plants = rules.plants
    return any(plants[name].is_hybrid for name in owned)


def _slack(storage: Hand | None, held: tuple[int, ...]) -> tuple[list[int], bool]:
    """Each storage condition's room less the tokens held (RES-05), and whether all are >= 0."""
    if storage is None:
        return [], True
    spare = list(map(operator.sub, storage.caps, held))  # the single kinds come first
    for kinds, room in storage.joined:
        spare.append(room - sum(map(held.__getitem__, kinds)))
    return spare, min(spare) >= 0


def _limits(
    tests: tuple[tuple[int, int], ...], spare: list[int], fits: bool
) -> tuple[int, ...] | None:
    """Per touched condition, the tokens of its kinds a total must burn for the rest to fit.

    ``None`` when an untouched condition already fails: then nothing fits at once.
    """
    if not fits:
        touched = {c for c, _ in tests}
        if any(s < 0 for c, s in enumerate(spare) if c not in touched):
            return None
    return tuple([freed - spare[c] for c, freed in tests])


def runs(
    rules: Cards, owned: tuple[str, ...], held: tuple[int, ...]
) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Every (running plants, burn vector) that runs on ``held`` (BUR-02, RES-04, RES-08).

    In the order of legal(): sets of plants as :func:`subsets`, each set's
    burns sorted; plants in a Power's canonical order. A set's burns are its
    inert plants' fixed burn plus each total of its active plants
    (:func:`hand_burns`); a set whose tokens left do not fit with all plants
    running at once may still run in turn (:func:`runs_in_turn`).
    """
    places, parts, storage, ordered = hand_burns(rules, owned)
    spare, fits = _slack(storage, held)
    limits: dict[int, tuple[int, ...] | None] = {}
    ge, get = operator.ge, owned.__getitem__
    out = []
    for running, base, need, active in places:
        for i, n in need:
            if held[i] < n:
                break
        else:
            # named() written out: it runs for every set listed
            plants = tuple(map(get, running)) if ordered else named(rules, owned, running, False)
            if not active:
                if fits or _in_turn(rules, owned, plants, base, held):
                    out.append((plants, base))
                continue
            tests, totals = parts[active]
            for extra, more, sums in totals:
                for i, n in more:
                    if held[i] < base[i] + n:
                        break
                else:
                    use = tuple(map(operator.add, base, extra)) if need else extra
                    if active not in limits:
                        limits[active] = _limits(tests, spare, fits)
                    least = limits[active]
                    if (least is not None and all(map(ge, sums, least))) or _in_turn(
                        rules, owned, plants, use, held
                    ):
                        out.append((plants, use))
    return out


def _in_turn(
    rules: Cards,
    owned: tuple[str, ...],
    plants: tuple[str, ...],
    use: tuple[int, ...],
    held: tuple[int, ...],
) -> bool:
    """RES-08: the plants that fail all at once may run one after another (two or more)."""
    return len(plants) > 1 and runs_in_turn(rules, owned, plants, use, held)


def runs_with(
    rules: Cards,
    owned: tuple[str, ...],
    held: tuple[int, ...],
    plants: tuple[str, ...],
    use: tuple[int, ...],
) -> bool:
    """Whether ``(plants, use)`` is one of :func:`runs`, tested without listing the others.

    ``plants`` must be distinct plants of ``owned`` in a Power's canonical order.
    """
    if len(use) != len(held) or any(map(operator.gt, use, held)):
        return False
    places, parts, storage, _ = hand_burns(rules, owned)
    mask = 0
    for name in plants:
        mask |= 1 << owned.index(name)
    _, base, _, active = places[subset_index(len(owned))[mask]]
    spare, fits = _slack(storage, held)
    if not active:
        return use == base and (fits or _in_turn(rules, owned, plants, use, held))
    tests, totals = parts[active]
    extra = tuple(map(operator.sub, use, base))
    for total, _, sums in totals:
        if total == extra:
            least = _limits(tests, spare, fits)
            if least is not None and all(map(operator.ge, sums, least)):
                return True
            return _in_turn(rules, owned, plants, use, held)
    return False


@functools.lru_cache(maxsize=16)
def subset_index(n: int) -> dict[int, int]:
    """Where each set of n positions (bit mask) stands in :func:`subsets`."""
    return {mask: i for i, (mask, _) in enumerate(subsets(n))}


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


@functools.lru_cache(maxsize=1024)
def fuel_options(rules: Cards, plant: str, nk: int) -> tuple[tuple[int, ...], ...]:
    """The burn vectors one running plant may have: a hybrid's every split (RES-04)."""
    mask, burn = rules.plant_burns[plant]
    return tuple(hybrid_splits(mask, burn, nk)) if burn else ((0,) * nk,)


@functools.lru_cache(maxsize=1024)  # per hand; RES-08 asks again
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
    """Every (running plants, burn vector) of the hand that runs on ``held``, as :func:`runs`.

    The running plants are named, in a Power's canonical order.
    """
    return tuple(runs(rules, owned, held))


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

    Then the leftover tokens always fit (see :func:`mixes`): a set of
    plants runs exactly when the tokens held cover its need. Every set is
    named here, once per hand: naming only the sets that run, as they are
    listed, measured no faster (a hand is listed a few times).
    """
    burns = fixed_burns(rules)
    fixed = tuple(map(burns.__getitem__, owned))
    if None in fixed:
        return None
    ordered = in_order(rules, owned)
    return tuple((named(rules, owned, running, ordered), need) for running, need in shape(fixed))


def in_order(rules: Cards, owned: tuple[str, ...]) -> bool:
    """Whether a hand is held in a Power's canonical order (then a set's plants need no sort)."""
    key = label_keys(rules).__getitem__
    return len(owned) < 2 or list(owned) == sorted(owned, key=key)


def named(
    rules: Cards, owned: tuple[str, ...], running: tuple[int, ...], ordered: bool
) -> tuple[str, ...]:
    """The plants at positions ``running`` of ``owned``, in a Power's canonical order."""
    if ordered:
        return tuple(map(owned.__getitem__, running))
    return tuple(sorted(map(owned.__getitem__, running), key=label_keys(rules).__getitem__))


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
