"""Rewards for learners: the zero-sum rank utility of a finished game.

>>> import powergrid as pg
>>> from powergrid.rl import rank_utility
>>> from powergrid.outcome import Score, rank
>>> result = rank(tuple(Score(s, p, 10, 5) for s, p in enumerate((6, 9, 6))), "end")
>>> rank_utility(result)
(-0.5, 1.0, -0.5)
"""

from __future__ import annotations

from powergrid.outcome import Outcome


def rank_utility(result: Outcome) -> tuple[float, ...]:
    """Each seat's utility ``1 - 2 * place / (n - 1)``: +1 first, -1 last, summing to 0.

    ``place`` counts from 0 for the winner; seats that tie on every END-03
    criterion (END-04) share the mean of the places they cover, so a shared
    win gives each winner the same utility and the sum stays exactly 0.
    Indexed by seat.
    """
    n = len(result.scores)
    if n < 2:
        raise ValueError("a rank utility needs at least two seats")
    places = [0.0] * n
    i = 0
    ranking = result.ranking
    while i < n:
        key = result.scores[ranking[i]].key
        j = i
        while j < n and result.scores[ranking[j]].key == key:
            j += 1
        for seat in ranking[i:j]:
            places[seat] = (i + j - 1) / 2
        i = j
    return tuple(1 - 2 * place / (n - 1) for place in places)
