"""Starting a game: :func:`new_game`, from a config and a seed.

Kept out of the compiled build (``hatch_build.py``) on purpose: a compiled function
refuses an argument of the wrong type with mypyc's own ``TypeError`` before its
body runs, and a seed that is not an ``int`` must raise
:class:`~powergrid.RulesConfigError` naming the field, in both builds.
"""

from __future__ import annotations

from powergrid.config import GameConfig
from powergrid.engine.game import explicit_setup, setup
from powergrid.mechanics import chance_points
from powergrid.mechanics.seeds import game_seed
from powergrid.state import GameState


def new_game(config: GameConfig | None = None, *, seed: int = 0) -> GameState:
    """Set up a game (SET-01..SET-12) and return its first decision point.

    The seed decides the play area when ``config.regions`` is ``None``, the deck
    order, the plants removed unseen and the round-1 player order (SET-05). The
    same config and seed always give the same state. With the
    ``explicit_chance`` option the caller decides what players see instead, and
    the state returned may be a chance point (:mod:`powergrid.mechanics.chance_points`).

    Any ``int`` is a seed. One of magnitude below ``2**2048`` is kept whole (the
    state's random stream holds it, and JSON and position texts store it);
    a larger one is reduced first (:func:`powergrid.mechanics.seeds.game_seed`), so every
    state returned reads back from :func:`powergrid.to_json`. A seed that is not
    an ``int`` (``True``, ``1.5``, ``"7"``) raises :class:`~powergrid.RulesConfigError`
    with ``field == "seed"``.
    """
    cfg = config if config is not None else GameConfig()
    seed = game_seed(seed)
    if chance_points.OPTION not in cfg.options:
        return setup(cfg, seed, None)
    return explicit_setup(cfg, seed, ())
