"""Phase 5: powering cities, income, refill and the market update (BUR-01..BUR-09)."""

from __future__ import annotations

import functools
import itertools
import operator

from powergrid import market
from powergrid.actions import Action, Amounts, Power, trusted
from powergrid.enums import Resource
from powergrid.errors import Reason
from powergrid.phases.common import illegal, name, next_in
from powergrid.plants import label_key
from powergrid.ruleset import Cards
from powergrid.state import GameState, evolve
from powergrid.storage import Condition, binding_sets, fits_conditions

ACTIONS = (Power,)


def current(state: GameState) -> int | None:
    """BUR-01: player order."""
    return next_in(state.order, state.done)


def _hybrid_splits(mask: int, burn: int, nkinds: int) -> list[tuple[int, ...]]:
    kinds = [i for i in range(nkinds) if mask & (1 << i)]
    out = []
    for combo in itertools.combinations_with_replacement(kinds, burn):
        vec = [0] * nkinds
        for k in combo:
            vec[k] += 1
        out.append(tuple(vec))
    return out


def consumptions(state: GameState, plants: tuple[str, ...]) -> frozenset[tuple[int, ...]]:
    """Every total burn vector the running ``plants`` can have (hybrids: any mix)."""
    rules, nk = state.rules.cards, len(state.rules.resources)
    totals: tuple[tuple[int, ...], ...] = ((0,) * nk,)
    for plant in plants:
        totals = _add_options(totals, _fuel_options(rules, plant, nk))
    return frozenset(totals)


def can_burn(state: GameState, seat: int, plants: tuple[str, ...], use: tuple[int, ...]) -> bool:
    """Whether ``plants`` can run burning ``use`` from the player's tokens (BUR-02).

    ``use`` must come from :func:`consumptions` (an exact split among the running
    plants). Each plant must carry its share when it runs, the other tokens
    stored elsewhere; plants may run one after another with tokens moved in
    between (RES-08; see storage.py).
    """
    p = state.players[seat]
    return (plants, use) in _options(state.rules.cards, p.plants, p.resources)


def options(state: GameState, seat: int) -> tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]:
    """Every (running plants, burn vector) the player can choose, stable order.

    The running plants of each option are in the canonical order of a
    :class:`~powergrid.Power` action (:func:`powergrid.plants.label_key`).
    """
    p = state.players[seat]
    return _options(state.rules.cards, p.plants, p.resources)


#: A burn's nonzero (kind position, count) pairs: the tokens it needs.
Need = tuple[tuple[int, int], ...]
#: One way to run plants: the plants (canonical order), the burn vector, its
#: need, and the storage conditions the leftover tokens must meet when a hybrid
#: shares kinds (``None`` without hybrids).
Candidate = tuple[tuple[str, ...], tuple[int, ...], Need, tuple[Condition, ...] | None]


@functools.lru_cache(maxsize=4096)
def _candidates(rules: Cards, owned: tuple[str, ...], nk: int) -> tuple[Candidate, ...]:
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
        uses[mask] = _add_options(uses[mask & (mask - 1)], _fuel_options(rules, owned[low], nk))
    # Without hybrids every kind has its own plants, and burning a running plant's
    # share frees exactly the room it used, so the leftover always fits: skip the check.
    shared = any(rules.plants[name].is_hybrid for name in owned)
    rooms = _mask_rooms(rules, owned, nk) if shared else None
    key = _label_keys(rules).__getitem__
    canonical = list(owned) == sorted(owned, key=key)
    get = owned.__getitem__
    out: list[Candidate] = []
    for mask, running in _subsets(n):
        names = tuple(map(get, running))
        plants = names if canonical or len(names) < 2 else tuple(sorted(names, key=key))
        room = None if rooms is None else rooms[mask]
        for use in uses[mask]:
            out.append((plants, use, _need(use), room))
    return tuple(out)


def _mask_rooms(rules: Cards, owned: tuple[str, ...], nk: int) -> list[tuple[Condition, ...]]:
    """Per set of running plants (by bit mask): the conditions the leftover tokens must meet."""
    # A set's rooms are those of the set without its lowest plant, less what that plant frees.
    rooms = _residual_rooms(rules, owned, nk)
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
def _subsets(n: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The sets of n positions as (bit mask, positions), fewest first, then in order."""
    return tuple(
        (sum(1 << j for j in combo), combo)
        for r in range(n + 1)
        for combo in itertools.combinations(range(n), r)
    )


@functools.lru_cache(maxsize=4096)
def _add_options(
    totals: tuple[tuple[int, ...], ...], plant: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...]:
    """The distinct sums of a total and one of a plant's burn vectors, sorted."""
    if len(totals) == 1 and len(plant) == 1:
        return (tuple(map(operator.add, totals[0], plant[0])),)
    return tuple(sorted({tuple(map(operator.add, t, v)) for t in totals for v in plant}))


@functools.lru_cache(maxsize=4096)
def _need(use: tuple[int, ...]) -> Need:
    """The nonzero (kind, count) pairs of a burn vector."""
    return tuple((i, u) for i, u in enumerate(use) if u)


@functools.lru_cache(maxsize=1024)
def _fuel_options(rules: Cards, plant: str, nk: int) -> tuple[tuple[int, ...], ...]:
    """The burn vectors one running plant may have: a hybrid's every split (RES-04)."""
    mask, burn = rules.plant_burns[plant]
    return tuple(_hybrid_splits(mask, burn, nk)) if burn else ((0,) * nk,)


@functools.lru_cache(maxsize=1024)  # per hand, like the candidates; RES-08 asks again
def _residual_rooms(
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
def _label_keys(rules: Cards) -> dict[str, tuple[int, bool, str]]:
    """The canonical sort key of every card of a game (label_key parses a label)."""
    return {label: label_key(label) for label in rules.plants}


def _options(
    rules: Cards, owned: tuple[str, ...], held: tuple[int, ...]
) -> tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]:
    return tuple(
        (c[0], c[1])
        for c in _candidates(rules, owned, len(held))
        if _playable(rules, owned, c, held)
    )


def _playable(
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
    return len(candidate[0]) > 1 and _runs_in_turn(rules, owned, candidate[0], use, held)


@functools.lru_cache(maxsize=4096)
def _runs_in_turn(
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
    all plants running at once (in :func:`_playable`) failed.
    """
    if any(h < u for h, u in zip(held, use, strict=True)):
        return False
    nk = len(held)
    rooms = _residual_rooms(rules, owned, nk)
    at = {n: j for j, n in enumerate(owned)}
    # Each running plant's conditions while it carries its burn: its room less that burn.
    carrying = {
        at[n]: tuple(
            (kinds, full - sum(f for i, f in members if i == at[n]))
            for kinds, full, members in rooms
        )
        for n in plants
    }
    shares = [[(at[n], b) for b in _fuel_options(rules, n, nk)] for n in plants]
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


def supplied(state: GameState, seat: int, plants: tuple[str, ...]) -> int:
    """BUR-03: cities powered = min(supply of running plants, city count)."""
    total = sum(state.rules.plant(n).cities for n in plants)
    return min(total, state.players[seat].city_count)


def best_powered(state: GameState, seat: int) -> int:
    """END-02: the most cities the player can power with what the plants hold."""
    return max((supplied(state, seat, plants) for plants, _ in options(state, seat)), default=0)


def legal(state: GameState) -> tuple[Action, ...]:
    """Every legal Power action of the player to act, fewest plants first."""
    seat = current(state)
    if seat is None:
        return ()
    p = state.players[seat]
    held, rules, owned = p.resources, state.rules.cards, p.plants
    plain = _plain_hand(rules, owned)
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
    """legal() for a hand with a hybrid: its candidates that run on the tokens held."""
    kinds = rules.resources
    out = []
    for c in _candidates(rules, owned, len(kinds)):
        for i, n in c[2]:  # tokens short, the commonest failure, tested before the call
            if held[i] < n:
                break
        else:
            if _playable(rules, owned, c, held):
                out.append(_power(kinds, seat, c[0], c[1]))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _fixed_burns(rules: Cards) -> dict[str, tuple[int, int] | None]:
    """Each card's burn as (kind position, count); ``None`` for a hybrid or a kind not in play."""
    out: dict[str, tuple[int, int] | None] = {}
    for label, plant in rules.plants.items():
        mask, burn = rules.plant_burns[label]
        fixed = not plant.is_hybrid and (not burn or (mask and not mask & (mask - 1)))
        out[label] = (max(mask.bit_length() - 1, 0), burn) if fixed else None
    return out


@functools.lru_cache(maxsize=4096)
def _plain_hand(
    rules: Cards, owned: tuple[str, ...]
) -> tuple[tuple[tuple[str, ...], Need], ...] | None:
    """A hand's (running plants, need) in legal()'s order when every burn is fixed, else ``None``.

    Then the leftover tokens always fit (see :func:`_candidates`): a set of
    plants runs exactly when the tokens held cover its need.
    """
    burns = _fixed_burns(rules)
    fixed = tuple(map(burns.__getitem__, owned))
    if None in fixed:
        return None
    key = _label_keys(rules).__getitem__
    canonical = len(owned) < 2 or list(owned) == sorted(owned, key=key)
    get = owned.__getitem__
    out = []
    for running, need in _shape(fixed):
        names = tuple(map(get, running))
        out.append((names if canonical else tuple(sorted(names, key=key)), need))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def _shape(fixed: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], Need], ...]:
    """Per set of plants with these fixed burns, in :func:`_subsets` order: positions and need.

    Cached per burns, which recur across hands far more than the hands do.
    """
    out = []
    for _, running in _subsets(len(fixed)):
        total: dict[int, int] = {}
        for j in running:
            kind, burn = fixed[j]
            if burn:
                total[kind] = total.get(kind, 0) + burn
        out.append((running, tuple(sorted(total.items()))))
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def _plain_power(
    rules: Cards, seat: int, plants: tuple[str, ...]
) -> tuple[Power, tuple[int, ...], int]:
    """The Power running ``plants`` (canonical order, fixed burns), its burn vector and supply."""
    burns, cards, kinds = _fixed_burns(rules), rules.plants, rules.resources
    use, supply = [0] * len(kinds), 0
    for n in plants:
        kind, burn = burns[n]  # type: ignore[misc]  # only plants with a fixed burn come here
        use[kind] += burn
        supply += cards[n].cities
    vector = tuple(use)
    # Built here, not by _power: this cache already holds it, once per seat and plants.
    power = trusted(Power, player=seat, plants=plants, mix=_mix(kinds, vector))
    return power, vector, supply


@functools.lru_cache(maxsize=8192)
def _power(
    kinds: tuple[Resource, ...], seat: int, plants: tuple[str, ...], use: tuple[int, ...]
) -> Power:
    """The Power running ``plants`` (canonical order) on ``use``; the same recur across hands."""
    return trusted(Power, player=seat, plants=plants, mix=_mix(kinds, use))


@functools.lru_cache(maxsize=4096)
def _candidate_index(
    rules: Cards, owned: tuple[str, ...], nk: int
) -> dict[tuple[tuple[str, ...], tuple[int, ...]], Candidate]:
    """The hand's candidates by (running plants, burn vector), to look a played Power up."""
    return {(c[0], c[1]): c for c in _candidates(rules, owned, nk)}


@functools.lru_cache(maxsize=4096)
def _mix(kinds: tuple[Resource, ...], use: tuple[int, ...]) -> Amounts:
    """A burn vector as a Power's mix: (kind, count) pairs, kinds sorted, no zeros."""
    return tuple(sorted((k, n) for k, n in zip(kinds, use, strict=True) if n))


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
        if _plain_hand(cards, owned) is not None:
            power, use, supply = _plain_power(cards, seat, plants)
            if (power is action or power == action) and all(map(operator.le, use, p.resources)):
                return _power_up(state, action, use, supply)
        else:
            vector = _vector(cards.resources, action.mix)
            index = _candidate_index(cards, owned, len(p.resources))
            candidate = None if vector is None else index.get((plants, vector))
            if candidate is not None and _playable(cards, owned, candidate, p.resources):
                return _power_up(state, action, candidate[1])
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
        illegal(f"{name(state, seat)} owns no plant {missing[0]}", Reason.NOT_OWN_PLANT, action)
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
            f"{name(state, seat)} does not hold the fuel to run plants "
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
    table = rules.components.income
    income = table[min(powered, len(table) - 1)]
    res = state.resources
    if any(use):
        p = evolve(p, money=p.money + income, resources=tuple(map(operator.sub, p.resources, use)))
        res = evolve(res, supply=tuple(map(operator.add, res.supply, use)))
    else:  # nothing burned (no plant run, or eco plants only): the tokens stay as they are
        p = evolve(p, money=p.money + income)
    text = f"{name(state, seat)} powers {powered} cities and earns {income}."
    return evolve(
        state,
        players=state.replaced(p),
        resources=res,
        done=state.done | {seat},
        events=state.noted("powered", text, seat, powered, income),
    )


def _describe(action: Power) -> str:
    return ", ".join(f"{n} {k.value}" for k, n in action.mix) or "no fuel"


def refill(state: GameState) -> GameState:
    """BUR-05: refill each track from the supply by the table, capped by supply and room."""
    rules = state.rules
    column = state.step - 1
    res = state.resources
    mkt, sup, added = [], [], []
    for row, on_market, in_supply, track in zip(
        rules.refill_rows(), res.market, res.supply, rules.components.slot_prices, strict=True
    ):
        n = min(row[column], in_supply, len(track) - on_market)
        mkt.append(on_market + n)
        sup.append(in_supply - n)
        added.append(n)
    names = _kind_names(rules.resources)
    text = ", ".join(f"{n} {kind}" for n, kind in zip(added, names, strict=True))
    return evolve(
        state,
        resources=evolve(res, market=tuple(mkt), supply=tuple(sup)),
        events=state.noted("market_refilled", f"Resource market refilled: {text}.", None, *added),
    )


@functools.lru_cache(maxsize=16)
def _kind_names(kinds: tuple[Resource, ...]) -> tuple[str, ...]:
    """The kinds' names (``Enum.value`` is a Python-level property, slow on 3.11)."""
    return tuple(kind.value for kind in kinds)


def end_of_phase(state: GameState) -> GameState:
    """BUR-08: after everyone powered, refill then update the plant market."""
    return market.market_update(refill(state))
