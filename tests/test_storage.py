"""Storage checks against the definition (RES-03..RES-05, RES-08, AUC-18).

The engine tests only the Hall conditions that bind (powergrid.mechanics.fuel_storage); these
tests compare that with the plain definition over every set of kinds: tokens
fit exactly when, for every set S of kinds, the tokens of S fit into the
plants accepting a kind of S, and the room for one more kind is the least
slack over the sets holding it.
"""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

import powergrid as pg
from powergrid.engine.phases import discard
from powergrid.mechanics import fuel_storage as storage

# Masks over up to five kinds: single kinds, the coal/oil hybrid (0b11), other pairs,
# and plants accepting nothing (ecological plants).
MASKS = st.sampled_from([0, 1, 2, 4, 8, 16, 3, 5, 6, 12, 7, 15, 9, 24])


def _room_of(slots: storage.Slots, subset: int) -> int:
    return sum(cap for mask, cap in slots if mask & subset)


def _held_in(holdings: tuple[int, ...], subset: int) -> int:
    return sum(h for k, h in enumerate(holdings) if subset & (1 << k))


def _fits_by_definition(slots: storage.Slots, holdings: tuple[int, ...]) -> bool:
    return all(_held_in(holdings, s) <= _room_of(slots, s) for s in range(1, 1 << len(holdings)))


def _free_by_definition(slots: storage.Slots, holdings: tuple[int, ...]) -> tuple[int, ...]:
    n = len(holdings)
    return tuple(
        max(
            0,
            min(
                _room_of(slots, s) - _held_in(holdings, s) for s in range(1, 1 << n) if s & (1 << k)
            ),
        )
        for k in range(n)
    )


@st.composite
def hands(draw: st.DrawFn) -> tuple[storage.Slots, tuple[int, ...]]:
    nkinds = draw(st.integers(3, 5))
    plant = st.tuples(MASKS.filter(lambda m: m < (1 << nkinds)), st.integers(0, 8))
    slots = tuple(draw(st.lists(plant, max_size=4)))
    holdings = tuple(draw(st.lists(st.integers(0, 7), min_size=nkinds, max_size=nkinds)))
    return slots, holdings


@given(hands())
def test_res05_fits_agrees_with_every_set_of_kinds(
    hand: tuple[storage.Slots, tuple[int, ...]],
) -> None:
    slots, holdings = hand
    assert storage.fits(slots, holdings) == _fits_by_definition(slots, holdings)


@given(hands())
def test_res05_free_room_agrees_with_every_set_of_kinds(
    hand: tuple[storage.Slots, tuple[int, ...]],
) -> None:
    slots, holdings = hand
    if _fits_by_definition(slots, holdings):
        assert storage.free_room(slots, holdings) == _free_by_definition(slots, holdings)


def test_res08_a_hybrid_shares_its_room_between_coal_and_oil() -> None:
    # Classic plants as (mask, capacity): coal plant 4 (2 coal, room 4), hybrid 5 (2 coal/oil,
    # room 4), oil plant 3 (2 oil, room 4); kinds coal, oil, garbage, uranium.
    slots = ((0b01, 4), (0b11, 4), (0b10, 4))
    # 6 coal use the coal plant and half the hybrid: 2 more coal or 2 more oil beyond
    # the oil plant's 4 still fit, nothing of the other kinds.
    assert storage.free_room(slots, (6, 0, 0, 0)) == (2, 6, 0, 0)
    assert storage.fits(slots, (6, 6, 0, 0))
    assert not storage.fits(slots, (7, 6, 0, 0))
    assert storage.conditions(slots, 4) == (
        ((0,), 8),
        ((1,), 8),
        ((2,), 0),
        ((3,), 0),
        ((0, 1), 12),
    )


_RULES = pg.new_game(pg.GameConfig(players=4, components="classic"), seed=1).rules


@st.composite
def discards(draw: st.DrawFn) -> tuple[tuple[str, ...], tuple[int, ...], str]:
    """A classic hand of four plants (one over the limit), tokens that fit, a plant to drop."""
    owned = _RULES.ranked(
        draw(st.lists(st.sampled_from(sorted(_RULES.plants)), min_size=4, max_size=4, unique=True))
    )
    slots = tuple(_RULES.plant_slots[n] for n in owned)
    held = tuple(draw(st.lists(st.integers(0, 6), min_size=4, max_size=4)))
    return (
        owned,
        held if _fits_by_definition(slots, held) else (0, 0, 0, 0),
        draw(st.sampled_from(owned)),
    )


@given(discards())
def test_auc18_drops_are_exactly_what_the_plant_could_hold_with_the_rest_fitting(
    case: tuple[tuple[str, ...], tuple[int, ...], str],
) -> None:
    owned, held, plant = case
    mask, cap = _RULES.plant_slots[plant]
    rest = tuple(_RULES.plant_slots[n] for n in owned if n != plant)
    expected = tuple(
        drop
        for drop in itertools.product(*(range(h + 1) for h in held))
        if sum(drop) <= cap
        and all(d == 0 or mask & (1 << k) for k, d in enumerate(drop))
        and _fits_by_definition(rest, tuple(h - d for h, d in zip(held, drop, strict=True)))
    )
    assert discard.drops(_RULES, owned, held, plant) == expected
