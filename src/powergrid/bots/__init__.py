"""Built-in players, weakest first: random, greedy, heuristic and search (:class:`MCTSBot`).

A bot is a frozen record with a ``seed`` and a method ``choose(state)`` that
returns one of :func:`powergrid.legal_actions` for the player to act. Bots are
pure functions of (bot seed, state): the randomness of a decision comes from
``random.Random(f"{seed}:{state.round}:{len(state.events)}")``, so replaying a
game with the same bots and seeds gives the same game.

>>> import powergrid as pg
>>> from powergrid.bots import GreedyBot, HeuristicBot
>>> state = pg.new_game(pg.GameConfig(players=3), seed=1)
>>> GreedyBot(seed=1).choose(state) in pg.legal_actions(state)
True
>>> HeuristicBot(seed=1).choose(state) in pg.legal_actions(state)
True

:data:`BOTS` names each bot as the arena and the command line's ``--bots`` do.
"""

from __future__ import annotations

from powergrid.bots.basic import GreedyBot, RandomBot, distinct_choices
from powergrid.bots.heuristic import HeuristicBot, Weights
from powergrid.bots.mcts import MCTSBot

__all__ = [
    "BOTS",
    "GreedyBot",
    "HeuristicBot",
    "MCTSBot",
    "RandomBot",
    "Weights",
    "distinct_choices",
]

#: The built-in bots by the name the arena, the environments and ``--bots`` use.
BOTS: dict[str, type[RandomBot] | type[GreedyBot] | type[HeuristicBot] | type[MCTSBot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "mcts": MCTSBot,
}
