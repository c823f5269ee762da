"""Resource storage on plants: feasibility checks with hybrids (RES-03..RES-05, RES-08).

A player's tokens are held per kind, not per plant. Because a player may
redistribute at any time (RES-08), holdings are valid exactly when *some*
assignment of tokens to plants respects every plant's kinds and capacity. With
hybrids this is a small transportation problem; by Hall's theorem it is
feasible iff for every set S of kinds, the tokens of kinds in S fit into the
plants that accept at least one kind of S. With at most five kinds that is at
most 31 sums, far cheaper than a flow search.
"""

from __future__ import annotations

from collections.abc import Sequence

from powergrid.enums import Resource
from powergrid.plants import Plant


def accept_mask(plant: Plant, kinds: Sequence[Resource]) -> int:
    """Bit mask of the kinds (by position in ``kinds``) the plant accepts."""
    mask = 0
    for i, kind in enumerate(kinds):
        if kind in plant.accepts:
            mask |= 1 << i
    return mask


def _subset_sums(values: Sequence[int], mask: int) -> int:
    total = 0
    i = 0
    while mask:
        if mask & 1:
            total += values[i]
        mask >>= 1
        i += 1
    return total


def _room(plants: Sequence[tuple[int, int]], subset: int) -> int:
    return sum(cap for pmask, cap in plants if pmask & subset)


def fits(slots: Sequence[tuple[int, int]], holdings: Sequence[int]) -> bool:
    """Whether ``holdings`` (count per kind) fit on plants given as (mask, capacity).

    Implements RES-05's legality test via Hall's condition.
    """
    used = 0
    for i, n in enumerate(holdings):
        if n:
            used |= 1 << i
    if not used:
        return True
    sub = used
    while sub:
        if _subset_sums(holdings, sub) > _room(slots, sub):
            return False
        sub = (sub - 1) & used
    return True


def max_addable(slots: Sequence[tuple[int, int]], holdings: Sequence[int], kind: int) -> int:
    """Largest k such that holdings plus k tokens of ``kind`` still fit (RES-05)."""
    nkinds = len(holdings)
    bit = 1 << kind
    best: int | None = None
    for sub in range(1, 1 << nkinds):
        if not sub & bit:
            continue
        # Only subsets of kinds actually held (plus ``kind``) can bind.
        if any(sub & (1 << i) and not holdings[i] and i != kind for i in range(nkinds)):
            continue
        slack = _room(slots, sub) - _subset_sums(holdings, sub)
        if best is None or slack < best:
            best = slack
    return max(0, best or 0)


def exact_split(burns: Sequence[tuple[int, int]], consumption: Sequence[int]) -> bool:
    """Whether ``consumption`` can be burned exactly by running plants (mask, burn).

    Every running plant burns exactly its printed amount in kinds it accepts
    (BUR-02): totals must match and Hall's condition must hold.
    """
    if sum(consumption) != sum(b for _, b in burns):
        return False
    used = 0
    for i, n in enumerate(consumption):
        if n:
            used |= 1 << i
    sub = used
    while sub:
        if _subset_sums(consumption, sub) > _room(burns, sub):
            return False
        sub = (sub - 1) & used
    return True
