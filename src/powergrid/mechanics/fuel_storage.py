"""Resource storage on plants: feasibility checks with hybrids (RES-03..RES-05, RES-08).

A player's tokens are held per kind, not per plant. Because a player may
redistribute at any time (RES-08), holdings are valid exactly when *some*
assignment of tokens to plants respects every plant's kinds and capacity. With
hybrids this is a small transportation problem; by Hall's theorem it is
feasible iff for every set S of kinds, the tokens of kinds in S fit into the
plants that accept at least one kind of S. Only the sets that no plant split
into parts bind (:func:`binding_sets`): one per kind without hybrids, plus the
sets a hybrid joins; their rooms are cached per plant combination.

Plants are given as ``(mask, capacity)`` pairs, ``mask`` holding one bit per kind
the plant accepts (in the game's kind order).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING

from powergrid.enums import Resource
from powergrid.plants import Plant

if TYPE_CHECKING:
    from powergrid.rules.ruleset import Cards, Ruleset

Slots = tuple[tuple[int, int], ...]


def plant_slots(rules: Ruleset | Cards, owned: tuple[str, ...]) -> Slots:
    """The ``(mask, capacity)`` of each owned plant."""
    return tuple(rules.plant_slots[n] for n in owned)


def accept_mask(plant: Plant, kinds: Sequence[Resource]) -> int:
    """Bit mask of the kinds (by position in ``kinds``) the plant accepts."""
    mask = 0
    for i, kind in enumerate(kinds):
        if kind in plant.accepts:
            mask |= 1 << i
    return mask


#: One Hall condition: the kind positions of a set of kinds, and their room.
Condition = tuple[tuple[int, ...], int]


@functools.lru_cache(maxsize=1024)
def binding_sets(masks: frozenset[int], nkinds: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The sets of kinds whose Hall condition binds, for plants accepting ``masks``.

    A set of kinds splits into two parts that no plant joins (no plant accepts
    a kind of both) exactly when its room is the sum of the parts' rooms, and
    then its condition adds nothing to theirs. Which sets split depends only on
    the masks of the plants with room, not on the capacities, so this is
    cached per mask set (a handful per game). Every single kind binds.
    """
    out = []
    for subset in range(1, 1 << nkinds):
        part = (subset - 1) & subset
        while part:  # every split of subset into part and subset ^ part
            rest = subset ^ part
            if not any(m & part and m & rest for m in masks):
                break
            part = (part - 1) & subset
        else:
            out.append((subset, tuple(i for i in range(nkinds) if subset & (1 << i))))
    out.sort(key=lambda c: len(c[1]))
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def conditions(slots: Slots, nkinds: int) -> tuple[Condition, ...]:
    """The Hall conditions that bind for these plants, smallest sets first.

    Without hybrids that is one condition per kind, which is what makes the
    checks below cheap. Cached per plant combination (a hand changes rarely).
    """
    masks = frozenset(m for m, cap in slots if cap > 0 and m)
    return tuple(
        (kinds, sum(cap for m, cap in slots if m & subset))
        for subset, kinds in binding_sets(masks, nkinds)
    )


def fits_conditions(conds: tuple[Condition, ...], holdings: tuple[int, ...]) -> bool:
    """Whether ``holdings`` meet every condition of :func:`conditions`."""
    for kinds, room in conds:
        if len(kinds) == 1:
            if holdings[kinds[0]] > room:
                return False
        elif sum(holdings[k] for k in kinds) > room:
            return False
    return True


def fits(slots: Slots, holdings: tuple[int, ...]) -> bool:
    """Whether ``holdings`` (count per kind) fit on the plants ``slots`` (RES-05)."""
    return _hand_of(slots, len(holdings)).fits(holdings)


def free_room(slots: Slots, holdings: tuple[int, ...]) -> tuple[int, ...]:
    """Per kind, the most tokens of that kind that could be added and still fit (RES-05).

    Adding k tokens of one kind raises the sum of every set containing it by k,
    so k is the least slack over those sets. ``holdings`` must fit (the binding
    conditions then hold every other set's slack at or above theirs).
    """
    return _hand_of(slots, len(holdings)).room(holdings)


class Hand:
    """The storage of one hand of plants, precomputed for :func:`free_room` and :func:`fits`.

    ``caps`` is each kind's own room (its single-kind condition), ``joined``
    the conditions of the sets of kinds a hybrid joins (empty without
    hybrids: then a kind's room is its cap less its tokens), ``conds`` all
    of :func:`conditions` and ``masks`` their kinds as bit masks. Built by
    :func:`hand`, shared, never changed.
    """

    __slots__ = ("caps", "conds", "joined", "masks")

    def __init__(self, conds: tuple[Condition, ...], nkinds: int) -> None:
        # conditions() puts the single kinds first, in kind order: every one binds.
        self.caps = tuple(room for _, room in conds[:nkinds])
        self.joined = conds[nkinds:]
        self.conds = conds
        self.masks = tuple(sum(1 << k for k in kinds) for kinds, _ in conds)

    def room(self, holdings: tuple[int, ...]) -> tuple[int, ...]:
        """What :func:`free_room` gives for these plants and ``holdings``."""
        if not self.joined:
            return tuple(c - h if c > h else 0 for c, h in zip(self.caps, holdings, strict=True))
        room = list(map(operator.sub, self.caps, holdings))
        for kinds, cap in self.joined:
            slack = cap - sum(holdings[k] for k in kinds)
            for k in kinds:
                if slack < room[k]:
                    room[k] = slack
        return tuple(r if r > 0 else 0 for r in room)

    def fits(self, holdings: tuple[int, ...]) -> bool:
        """What :func:`fits` gives for these plants and ``holdings``."""
        if any(map(operator.gt, holdings, self.caps)):
            return False
        get = holdings.__getitem__
        return not self.joined or all(sum(map(get, kinds)) <= cap for kinds, cap in self.joined)


def hand(rules: Ruleset, owned: tuple[str, ...]) -> Hand:
    """The :class:`Hand` of the plants ``owned`` (card labels) in a game of ``rules``.

    Cached per card set (:class:`powergrid.rules.ruleset.Cards`, shared by every
    play area of a config and hashed by identity) and hand, which costs one
    small tuple hash per look-up where the slots would cost a nested one.
    """
    return card_hand(rules.cards, owned)


@functools.lru_cache(maxsize=2048)
def card_hand(cards: Cards, owned: tuple[str, ...]) -> Hand:
    """:func:`hand` from the card set itself (what phase 5 holds)."""
    return _hand_of(plant_slots(cards, owned), len(cards.resources))


@functools.lru_cache(maxsize=4096)
def _hand_of(slots: Slots, nkinds: int) -> Hand:
    """The :class:`Hand` of these plants, shared by every ruleset that gives them these slots."""
    return Hand(conditions(slots, nkinds), nkinds)
