"""The end of the game: final evaluation and ranking (END-01..END-05)."""

from __future__ import annotations

import attrs


@attrs.frozen
class Score:
    """One seat's final figures: cities powered (END-02), money and cities connected."""

    seat: int
    powered: int
    money: int
    cities: int

    @property
    def key(self) -> tuple[int, int, int]:
        """The END-03 ranking key (powered, then money, then cities)."""
        return (self.powered, self.money, self.cities)


@attrs.frozen
class Outcome:
    """How a finished game ended.

    ``winners`` holds every seat that shares first place (END-04: a tie on all
    three criteria is a shared win); ``winner`` is the single winner or ``None``
    when the win is shared. ``ranking`` lists seats best first; ``scores`` is
    indexed by seat. ``reason`` says why the game ended.
    """

    winner: int | None
    winners: tuple[int, ...]
    ranking: tuple[int, ...]
    scores: tuple[Score, ...]
    reason: str


def rank(scores: tuple[Score, ...], reason: str) -> Outcome:
    """END-03/04: order by powered, money, cities; equal keys share a place."""
    ranking = tuple(s.seat for s in sorted(scores, key=lambda s: s.key, reverse=True))
    best = scores[ranking[0]].key
    winners = tuple(sorted(s.seat for s in scores if s.key == best))
    return Outcome(
        winner=winners[0] if len(winners) == 1 else None,
        winners=winners,
        ranking=ranking,
        scores=scores,
        reason=reason,
    )
