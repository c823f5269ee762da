"""Resource storage on plants: feasibility checks with hybrids (RES-03..RES-05, RES-08).

A player's tokens are held per kind, not per plant. Because a player may
redistribute at any time (RES-08), holdings are valid exactly when *some*
assignment of tokens to plants respects every plant's kinds and capacity. With
hybrids this is a small transportation problem; by Hall's theorem it is
feasible iff for every set S of kinds, the tokens of kinds in S fit into the
plants that accept at least one kind of S. With at most five kinds that is at
most 31 sums, and the room of every set is cached per plant combination.

Plants are given as ``(mask, capacity)`` pairs, ``mask`` holding one bit per kind
the plant accepts (in the game's kind order).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from powergrid.enums import Resource
from powergrid.plants import Plant

Slots = tuple[tuple[int, int], ...]


def accept_mask(plant: Plant, kinds: Sequence[Resource]) -> int:
    """Bit mask of the kinds (by position in ``kinds``) the plant accepts."""
    mask = 0
    for i, kind in enumerate(kinds):
        if kind in plant.accepts:
            mask |= 1 << i
    return mask


@functools.lru_cache(maxsize=8192)
def rooms(slots: Slots, nkinds: int) -> tuple[int, ...]:
    """Room of every set of kinds (indexed by mask): capacity of plants accepting any of it."""
    return tuple(
        sum(cap for pmask, cap in slots if pmask & subset) for subset in range(1 << nkinds)
    )


def _sums(values: Sequence[int]) -> list[int]:
    """Sum of ``values`` over every subset of positions, indexed by mask."""
    out = [0] * (1 << len(values))
    for mask in range(1, len(out)):
        low = mask & -mask
        out[mask] = out[mask ^ low] + values[low.bit_length() - 1]
    return out


@functools.lru_cache(maxsize=65536)
def fits(slots: Slots, holdings: tuple[int, ...]) -> bool:
    """Whether ``holdings`` (count per kind) fit on the plants ``slots`` (RES-05)."""
    if not any(holdings):
        return True
    room = rooms(slots, len(holdings))
    sums = _sums(holdings)
    return all(s <= r for s, r in zip(sums, room, strict=True))


@functools.lru_cache(maxsize=65536)
def free_room(slots: Slots, holdings: tuple[int, ...]) -> tuple[int, ...]:
    """Per kind, the most tokens of that kind that could be added and still fit (RES-05).

    Adding k tokens of one kind raises the sum of every set containing it by k,
    so k is the least slack over those sets.
    """
    room = rooms(slots, len(holdings))
    slack = [r - s for s, r in zip(_sums(holdings), room, strict=True)]
    return tuple(
        max(0, min(x for mask, x in enumerate(slack) if mask & (1 << kind)))
        for kind in range(len(holdings))
    )
