"""What the phase modules share: the next seat to act in a phase."""

from __future__ import annotations

from collections.abc import Iterable


def next_in(order: Iterable[int], done: frozenset[int]) -> int | None:
    """The first seat of ``order`` that is not done yet, or None.

    Phases 3 and 4 pass the player order reversed (CON-04, RES-01, BLD-01).
    """
    for seat in order:
        if seat not in done:
            return seat
    return None
