"""MCTSBot: Monte Carlo search over states determinized for its seat, heuristic playouts.

For each decision the bot narrows the legal actions to a few candidates
(the heuristic bot's choice, one opening bid per plant, the minimum raise
and the pass, the cheapest cities, one token of each kind, the end of the
turn). Each iteration draws a state that agrees with everything its seat
knows (:func:`powergrid.determinize`, so it never reads the real deck),
picks a candidate by UCB1, and plays the game on with heuristic bots in
every seat to its end or to ``horizon`` more rounds. A playout scores 1 for
a win (``1/k`` for a win shared by ``k``) and, for a game cut short, the
seat's share of the leaders' powered cities; the bot plays the candidate
tried most. Decisions with one sensible answer (phase 5, discards, any rule
module's setup decision such as the fund's house or a start city) go to the
heuristic bot directly.

With an iteration budget (``iterations``) the bot is a pure function of
(seed, what its seat knows); with a time budget (``seconds``) it searches
as far as the clock allows, so its games depend on the machine.
"""

from __future__ import annotations

import math
import random
import time

import attrs

from powergrid.actions import Action, Bid, Build, DiscardPlant, EndBuild, PassBid, Power
from powergrid.bots.basic import _legal, distinct_choices
from powergrid.bots.heuristic import HeuristicBot
from powergrid.engine import queries
from powergrid.engine.determinize import determinize
from powergrid.engine.game import apply, current_player, outcome
from powergrid.enums import Phase
from powergrid.state import GameState

__all__ = ["MCTSBot"]

#: The exploration constant of UCB1 for values in [0, 1].
EXPLORATION = 0.7
#: The cheapest cities a build decision considers.
CITY_CANDIDATES = 3
#: Decisions a playout may take before it is scored as cut short.
PLAYOUT_LIMIT = 2000


@attrs.frozen
class MCTSBot:
    """Search with a budget over determinized states (see the module docstring).

    ``iterations`` playouts per decision (the default), or, when ``seconds``
    is given, as many as fit in that many seconds (at least one per
    candidate). ``horizon`` cuts playouts that many rounds ahead (``None``:
    play to the end). ``choose`` raises ``ValueError`` when the game is over.
    """

    seed: int = 0
    iterations: int = 200
    seconds: float | None = None
    horizon: int | None = None

    def choose(self, state: GameState) -> Action:
        """Return one legal action for the player to act in ``state``."""
        actions = _legal(state)
        seat = current_player(state)
        assert seat is not None  # _legal checked that the game runs
        rng = random.Random(f"mcts:{self.seed}:{state.round}:{len(state.events)}")
        guide = HeuristicBot(seed=rng.randrange(2**32))
        first = actions[0]
        if state.phase is Phase.SETUP or isinstance(first, Power | DiscardPlant):
            return guide.choose(state)
        candidates = _candidates(state, seat, actions, guide.choose(state))
        if len(candidates) == 1:
            return candidates[0]
        return self._search(state, seat, candidates, rng)

    def _search(
        self, state: GameState, seat: int, candidates: list[Action], rng: random.Random
    ) -> Action:
        """The candidate tried most after the budget's playouts (UCB1 at the root)."""
        visits = [0] * len(candidates)
        totals = [0.0] * len(candidates)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        n = 0
        while True:
            if deadline is None and n >= self.iterations:
                break
            if deadline is not None and n >= len(candidates) and time.perf_counter() > deadline:
                break
            pick = _ucb(visits, totals, n)
            world = determinize(state, seat, random.Random(rng.randrange(2**63)))
            value = self._playout(apply(world, candidates[pick]), seat, rng)
            visits[pick] += 1
            totals[pick] += value
            n += 1
        best = max(range(len(candidates)), key=lambda i: (visits[i], totals[i]))
        return candidates[best]

    def _playout(self, state: GameState, seat: int, rng: random.Random) -> float:
        """Play on with heuristic bots in every seat; the seat's score (see the module)."""
        bots = [HeuristicBot(seed=rng.randrange(2**32)) for _ in state.players]
        stop = None if self.horizon is None else state.round + self.horizon
        for _ in range(PLAYOUT_LIMIT):
            result = outcome(state)
            if result is not None:
                return 1 / len(result.winners) if seat in result.winners else 0.0
            if stop is not None and state.round >= stop:
                break
            actor = current_player(state)
            if actor is None or actor < 0:  # an automatic actor or chance: the engine plays
                break
            state = apply(state, bots[actor].choose(state))
        return _cut_short(state, seat)


def _ucb(visits: list[int], totals: list[float], n: int) -> int:
    """The candidate UCB1 picks: each untried one first, in order."""
    for i, v in enumerate(visits):
        if v == 0:
            return i
    log_n = math.log(n)
    return max(
        range(len(visits)),
        key=lambda i: totals[i] / visits[i] + EXPLORATION * math.sqrt(log_n / visits[i]),
    )


def _cut_short(state: GameState, seat: int) -> float:
    """A cut-short playout's score: the seat's powered capacity over the leaders' (in [0, 1])."""

    def reach(s: int) -> int:
        return queries.cities_powered(state, s, state.players[s].plants)

    best = max(reach(s) for s in range(len(state.players)))
    return 0.5 * reach(seat) / best if best else 0.0


def _candidates(
    state: GameState, seat: int, actions: tuple[Action, ...], guide: Action
) -> list[Action]:
    """The few actions the search compares: the guide's first, then the distinct choices."""
    out = [guide]
    builds = [a for a in actions if isinstance(a, Build)]
    if builds:
        cheap = sorted(builds, key=lambda a: (queries.build_cost(state, seat, a.city), a.city))
        pool: list[Action] = [
            *cheap[:CITY_CANDIDATES],
            *(a for a in actions if isinstance(a, EndBuild)),
        ]
    else:
        pool = list(distinct_choices(actions))
        if any(isinstance(a, Bid) for a in pool):
            pool = [a for a in pool if isinstance(a, Bid | PassBid)]
    for action in pool:
        if action not in out:
            out.append(action)
    return out
