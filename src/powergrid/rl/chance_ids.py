"""Stable integer ids for the chance outcomes of one configuration: :class:`ChanceIds`.

Search libraries such as OpenSpiel number a chance node's outcomes, and an
algorithm that learns or tabulates per outcome needs the same outcome to keep
its number in every game of a configuration. The ids here are an index into a
fixed enumeration per chance event (:data:`powergrid.actions.CHANCE_EVENTS`):

- ``draw``: the card's deck rank;
- ``order``: the rank of the permutation of the seats, lexicographic (``0,1,2`` is 0);
- ``area`` and ``market``: the place of the outcome in the library's list of that
  event's outcomes, which is the same in every game of the configuration (areas
  sorted; markets the combinations of the dealt pile in rank order).

>>> import powergrid as pg
>>> from powergrid.rl.chance_ids import ChanceIds
>>> config = pg.GameConfig(players=3, map="usa", components="classic", options={"explicit_chance"})
>>> ids = ChanceIds(pg.new_game(config, seed=0))
>>> ids.size, ids.id(pg.Reveal(event="order", outcome="2,1,0")), ids.reveal("draw", 0).outcome
(42, 5, '3')
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction

from powergrid.actions import Reveal
from powergrid.engine.game import apply, chance_outcomes
from powergrid.state import GameState

#: A chance event's outcomes and their exact probabilities (:func:`powergrid.chance_outcomes`).
Chances = tuple[tuple[Reveal, Fraction], ...]


class ChanceIds:
    """Stable integer ids of one configuration's chance outcomes, per event.

    ``outcomes[event][i]`` is the outcome with id ``i``; ``size`` is one past
    the largest id of any event (OpenSpiel's ``max_chance_outcomes``).
    """

    def __init__(self, start: GameState) -> None:
        rules = start.rules
        n = start.config.players
        found: dict[str, tuple[str, ...]] = {
            "draw": tuple(sorted(rules.rank, key=rules.rank.__getitem__)),
            "order": tuple(",".join(map(str, p)) for p in itertools.permutations(range(n))),
        }
        # The setup's other events (area, market) list the same outcomes in every game of
        # the configuration: walk them once, taking the first outcome each time.
        state = start
        while state.chance is not None and state.chance.action is None:
            chances = chance_outcomes(state)
            event = chances[0][0].event
            if event != "order":
                found[event] = tuple(r.outcome for r, _ in chances)
            state = apply(state, chances[0][0])
        self.outcomes: Mapping[str, tuple[str, ...]] = found
        self._ids = {e: {o: i for i, o in enumerate(os)} for e, os in found.items()}
        self.size: int = max(len(os) for os in found.values())

    def id(self, reveal: Reveal) -> int:
        """The id of ``reveal``; ValueError for an outcome outside the enumeration."""
        try:
            return self._ids[reveal.event][reveal.outcome]
        except KeyError:
            raise ValueError(f"{reveal} has no chance outcome id in this configuration") from None

    def reveal(self, event: str, index: int) -> Reveal:
        """The outcome of ``event`` with id ``index``."""
        return Reveal(event=event, outcome=self.outcomes[event][index])

    def pairs(self, chances: Chances) -> list[tuple[int, float]]:
        """``chances`` as (id, probability) pairs sorted by id, as OpenSpiel wants them."""
        return sorted((self.id(r), float(p)) for r, p in chances)
