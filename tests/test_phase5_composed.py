"""Phase 5 composed from plant parts (issue 34 item 2): the same Powers as a brute force.

``powergrid.mechanics.burning.runs`` composes a hand's burns from per-plant parts
(inert plants' fixed burns, hybrids' totals) instead of enumerating a table per
hand. These tests hold it to two references written here:

* the rule text (BUR-02, RES-03, RES-04, RES-08): a set of plants runs on a
  total burn when some split of the hybrids' mixes and some order of the
  plants let each plant, when it runs, carry its own burn while every other
  token held lies on some plant; tried by placing tokens one by one;
* the definition phase 5 used before the composition (per-hand candidates, each
  tested all at once against the rooms the running plants keep, then in turn),
  copied here, for holdings that need not fit (a position built by hand).
"""

from __future__ import annotations

import functools
import itertools
import operator
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.mechanics import burning
from powergrid.mechanics.fuel_storage import fits_conditions
from powergrid.plants import label_key
from powergrid.rules.custom_deck.samples import sample_config
from powergrid.rules.ruleset import Cards

CONFIGS = {
    "classic": pg.GameConfig(players=3, components="classic"),
    "deluxe": pg.GameConfig(players=3, components="deluxe"),
    "custom-M": sample_config("M", 3, map="europe"),
}


@functools.cache
def cards(name: str) -> Cards:
    """The card set of a game of one of :data:`CONFIGS`."""
    return pg.new_game(CONFIGS[name]).rules.cards


def _kinds(rules: Cards, label: str) -> list[int]:
    mask, _ = rules.plant_slots[label]
    return [k for k in range(len(rules.resources)) if mask >> k & 1]


def _burn(rules: Cards, label: str) -> int:
    return rules.plant_burns[label][1]


def _placeable(
    rules: Cards, hand: list[str], tokens: list[int], carry: dict[int, tuple[int, ...]]
) -> bool:
    """RES-03/RES-04: ``tokens`` lie on the plants of ``hand``, plant j holding at least carry[j].

    A brute force over every placement, plant by plant.
    """

    def place(j: int, left: list[int]) -> bool:
        if j == len(hand):
            return not any(left)
        kinds = _kinds(rules, hand[j])
        cap = rules.plant_slots[hand[j]][1]
        need = carry.get(j, (0,) * len(left))
        ranges = [
            range(need[k], left[k] + 1) if k in kinds else range(need[k], need[k] + 1)
            for k in range(len(left))
        ]
        for counts in itertools.product(*ranges):
            rest = [h - c for h, c in zip(left, counts, strict=True)]
            if sum(counts) <= cap and place(j + 1, rest):
                return True
        return False

    return place(0, list(tokens))


def _splits(rules: Cards, label: str) -> list[tuple[int, ...]]:
    """RES-04: what one running plant may burn: its burn of its kinds, any mix for a hybrid."""
    nk, kinds, burn = len(rules.resources), _kinds(rules, label), _burn(rules, label)
    out = set()
    for combo in itertools.combinations_with_replacement(kinds, burn):
        out.add(tuple(combo.count(k) for k in range(nk)))
    return sorted(out) if burn else [(0,) * nk]


def rule_text_runs(
    rules: Cards, hand: list[str], held: list[int]
) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """The (plants, burn) a player may choose, from the rule text alone, in legal order.

    BUR-02: any set of plants, fewest first (then in hand order), each burning
    its printed amount; a set's distinct totals in increasing order. RES-08: the
    plants run one after another, each carrying its share when it runs, every
    other token held lying on some plant (a plant that ran has its room back).
    """
    key = burning.label_keys(rules).__getitem__
    out = []
    for r in range(len(hand) + 1):
        for running in itertools.combinations(range(len(hand)), r):
            possible = set()
            for split in itertools.product(*(_splits(rules, hand[j]) for j in running)):
                use = tuple(map(sum, zip(*split, strict=True))) if split else (0,) * len(held)
                if use in possible or any(map(operator.gt, use, held)):
                    continue
                for turn in itertools.permutations(range(len(running))) if running else [()]:
                    left = list(held)
                    for t in turn:
                        if not _placeable(rules, hand, left, {running[t]: split[t]}):
                            break
                        left = [h - b for h, b in zip(left, split[t], strict=True)]
                    else:
                        if running or _placeable(rules, hand, left, {}):
                            possible.add(use)
                            break
            names = tuple(sorted((hand[j] for j in running), key=key))
            out += [(names, use) for use in sorted(possible)]
    return out


def _held_that_fits(rules: Cards, hand: list[str], rnd: random.Random) -> list[int]:
    """Tokens laid plant by plant within each plant's kinds and capacity (RES-03, RES-04)."""
    held = [0] * len(rules.resources)
    for label in hand:
        kinds = _kinds(rules, label)
        cap = rules.plant_slots[label][1]
        for _ in range(rnd.choice([cap, rnd.randint(0, cap)]) if kinds else 0):
            held[rnd.choice(kinds)] += 1
    return held


def _hand(rules: Cards, data: st.DataObject, size: tuple[int, int]) -> list[str]:
    """A hand with at least one hybrid, in rank order as a player holds it."""
    labels = sorted(rules.plants, key=burning.label_keys(rules).__getitem__)
    hybrids = [n for n in labels if rules.plants[n].is_hybrid]
    first = data.draw(st.sampled_from(hybrids))
    others = data.draw(
        st.lists(
            st.sampled_from([n for n in labels if n != first]),
            min_size=size[0] - 1,
            max_size=size[1] - 1,
            unique=True,
        )
    )
    return sorted([first, *others], key=burning.label_keys(rules).__getitem__)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(CONFIGS)), data=st.data(), seed=st.integers(0, 2**32))
def test_composed_runs_are_the_rule_texts(name: str, data: st.DataObject, seed: int) -> None:
    """BUR-02, RES-03, RES-04, RES-08 (issue 34 item 2): runs() lists exactly the brute force's
    choices, in the same order, for hands with hybrids (two at times) and tokens that fit."""
    rules = cards(name)
    hand = _hand(rules, data, (1, 3))
    held = _held_that_fits(rules, hand, random.Random(seed))
    expected = rule_text_runs(rules, hand, held)
    assert burning.runs(rules, tuple(hand), tuple(held)) == expected
    for plants, use in expected:
        assert burning.runs_with(rules, tuple(hand), tuple(held), plants, use)


# The definition phase 5 used before the composition (per-hand candidates), kept
# as the reference for holdings of every kind.


def _old_candidates(
    rules: Cards, owned: tuple[str, ...], nk: int
) -> list[tuple[tuple[str, ...], tuple[int, ...], list[tuple[tuple[int, ...], int]] | None]]:
    shared = any(rules.plants[n].is_hybrid for n in owned)
    rooms = burning.residual_rooms(rules, owned, nk)
    key = burning.label_keys(rules).__getitem__
    out = []
    for _, running in burning.subsets(len(owned)):
        uses: tuple[tuple[int, ...], ...] = ((0,) * nk,)
        for j in running:
            uses = burning.add_options(uses, burning.fuel_options(rules, owned[j], nk))
        room = None
        if shared:
            room = [
                (kinds, full - sum(f for i, f in members if i in running))
                for kinds, full, members in rooms
            ]
        names = tuple(sorted((owned[j] for j in running), key=key))
        out += [(names, use, room) for use in uses]
    return out


def old_runs(
    rules: Cards, owned: tuple[str, ...], held: tuple[int, ...]
) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    """Phase 5's choices as listed before issue 34: every candidate, tested one by one."""
    out = []
    for plants, use, room in _old_candidates(rules, owned, len(held)):
        if any(map(operator.gt, use, held)):
            continue
        left = tuple(map(operator.sub, held, use))
        if (
            room is None
            or fits_conditions(tuple(room), left)
            or (len(plants) > 1 and burning.runs_in_turn(rules, owned, plants, use, held))
        ):
            out.append((plants, use))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(CONFIGS)),
    data=st.data(),
    held=st.lists(st.integers(0, 7), min_size=4, max_size=4),
)
def test_composed_runs_are_the_old_candidates_for_any_tokens(
    name: str, data: st.DataObject, held: list[int]
) -> None:
    """Issue 34 item 2: the same choices as before for any holdings, even ones that do not fit
    (positions built by hand), and runs_with agrees with the list on every candidate burn."""
    rules = cards(name)
    owned = tuple(_hand(rules, data, (1, 4)))
    tokens = tuple(held[: len(rules.resources)])
    listed = burning.runs(rules, owned, tokens)
    assert listed == old_runs(rules, owned, tokens)
    for plants, use, _ in _old_candidates(rules, owned, len(tokens)):
        assert burning.runs_with(rules, owned, tokens, plants, use) == ((plants, use) in listed)


def test_a_hand_whose_tokens_do_not_fit_runs_nothing_at_once() -> None:
    """RES-05, BUR-02: holdings over the hand's room (only a hand-built position has them)
    fail every burn that leaves them over it, the empty Power included, as before."""
    rules = cards("classic")
    hybrid = next(n for n in rules.plants if rules.plants[n].is_hybrid)
    mask, cap = rules.plant_slots[hybrid]
    kind = (mask & -mask).bit_length() - 1
    held = tuple(cap + 1 if k == kind else 0 for k in range(len(rules.resources)))
    listed = burning.runs(rules, (hybrid,), held)
    assert ((), (0,) * len(held)) not in listed
    assert listed == old_runs(rules, (hybrid,), held)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_inert_plants_burn_exactly_the_room_they_free(name: str) -> None:
    """RES-03 (issue 34 item 2): a plant is inert, taking no part in the storage test, only
    when it burns its one kind and frees that much room, or burns and stores nothing."""
    rules = cards(name)
    for label, (options, mask, freed, inert) in burning.plant_parts(rules).items():
        cap = rules.plant_slots[label][1]
        burn = _burn(rules, label)
        one_kind = bool(mask) and not mask & (mask - 1)
        expected = (one_kind and burn == cap - cap // 2) or (not mask and not burn and not cap)
        assert inert == expected, label
        assert freed == cap - cap // 2
        assert sorted(options) == _splits(rules, label)


def test_the_composition_names_plants_in_a_powers_order() -> None:
    """Issue 34 item 2: a hand held out of rank order still lists its Powers' plants sorted."""
    rules = cards("classic")
    labels = sorted(rules.plants, key=label_key)
    hybrid = next(n for n in labels if rules.plants[n].is_hybrid)
    other = next(n for n in reversed(labels) if rules.plant_slots[n][1])
    owned = (other, hybrid)  # reversed: the higher plant first
    held = (9, 9, 9, 9)
    listed = burning.runs(rules, owned, held)
    assert listed == old_runs(rules, owned, held)
    assert all(list(plants) == sorted(plants, key=label_key) for plants, _ in listed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(CONFIGS)),
    data=st.data(),
    held=st.lists(st.integers(0, 7), min_size=4, max_size=4),
)
def test_a_hand_of_fixed_burns_lists_the_sets_whose_need_is_held(
    name: str, data: st.DataObject, held: list[int]
) -> None:
    """BUR-02 (issue 34 item 2): without a hybrid, the sets whose need is held (plain_hand)
    are the composed listing's, in the same order and named alike, even for a hand held
    out of rank order; each set's need is its burn."""
    rules = cards(name)
    fixed = [n for n in rules.plants if burning.fixed_burns(rules)[n] is not None]
    owned = tuple(data.draw(st.lists(st.sampled_from(fixed), max_size=4, unique=True)))
    tokens = tuple(held[: len(rules.resources)])
    plain = burning.plain_hand(rules, owned)
    assert plain is not None
    listed = [(plants, need) for plants, need in plain if all(tokens[i] >= n for i, n in need)]
    expected = burning.runs(rules, owned, tokens)
    assert [plants for plants, _ in listed] == [plants for plants, _ in expected]
    assert [need for _, need in listed] == [burning.need_of(use) for _, use in expected]
    assert [plants for plants, _ in expected] == [p for p, _ in old_runs(rules, owned, tokens)]
