"""Agents: an action codec, an observation encoder and PettingZoo / Gymnasium environments.

Install the extra first: ``pip install "powergrid-rules[rl]"`` adds numpy,
gymnasium and pettingzoo. ``import powergrid`` never imports this package,
so the core keeps ``attrs`` as its only dependency. Importing this package
registers the Gymnasium environment ``powergrid/PowerGrid-v0``.

- :class:`ActionCodec`: a fixed-size integer action space and its mask.
- :class:`ObservationEncoder`: a fixed-size float32 observation in [0, 1],
  from what one seat may know.
- :func:`env` / :func:`raw_env`: a PettingZoo AEC environment, every seat an agent.
- :class:`PowerGridEnv`: a Gymnasium environment for one learner's seat.
- :func:`rank_utility`: the zero-sum reward of a finished game.
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401  (checked here so the message names the extra, not a deep import)
    import pettingzoo  # noqa: F401
except ImportError as _missing:
    raise ModuleNotFoundError(
        "powergrid.rl needs the rl extra, which adds numpy, gymnasium and pettingzoo "
        f'({_missing.name or _missing} is missing): pip install "powergrid-rules[rl]"',
        name=_missing.name,
    ) from _missing

from powergrid.rl.aec import NAME, PowerGridAEC, env, raw_env
from powergrid.rl.codec import RAISES, ActionCodec, Block
from powergrid.rl.gym_env import ENV_ID, PowerGridEnv
from powergrid.rl.observation import ObservationEncoder
from powergrid.rl.rewards import rank_utility

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="powergrid.rl.gym_env:PowerGridEnv")

__all__ = [
    "ENV_ID",
    "NAME",
    "RAISES",
    "ActionCodec",
    "Block",
    "ObservationEncoder",
    "PowerGridAEC",
    "PowerGridEnv",
    "env",
    "rank_utility",
    "raw_env",
]
