"""Agents: an action codec, an observation encoder and PettingZoo / Gymnasium environments.

Install the extra first: ``pip install "powergrid-rules[rl]"`` adds numpy,
gymnasium, pettingzoo and open_spiel. ``import powergrid`` never imports this package,
so the core keeps ``attrs`` as its only dependency. The codec, the encoder
and the rewards need numpy alone: an agent that brings its own loop (an
OpenSpiel game, a batched trainer) imports them without gymnasium and
pettingzoo. The environments load when first named, and need both. Importing
this package registers the Gymnasium environment ``powergrid/PowerGrid-v0``
when gymnasium is installed; importing ``powergrid.rl.openspiel`` registers
the OpenSpiel game ``python_powergrid``.

- :class:`ActionCodec`: a fixed-size integer action space and its mask.
- :class:`ObservationEncoder`: a fixed-size float32 observation in [0, 1],
  from what one seat may know.
- :func:`env` / :func:`raw_env`: a PettingZoo AEC environment, every seat an agent.
- :class:`PowerGridEnv`: a Gymnasium environment for one learner's seat.
- :func:`rank_utility`: the zero-sum reward of a finished game.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from powergrid.rl.extra import require

require("numpy")

from powergrid.rl.codec import RAISES, ActionCodec, Block  # noqa: E402  (after the check)
from powergrid.rl.observation import ObservationEncoder  # noqa: E402
from powergrid.rl.rewards import rank_utility  # noqa: E402

if TYPE_CHECKING:
    from powergrid.rl.aec import NAME, PowerGridAEC, env, raw_env
    from powergrid.rl.gym_env import ENV_ID, PowerGridEnv

#: The environments' names and the module that holds each; loaded when first named.
_ENVIRONMENTS = {
    "ENV_ID": "gym_env",
    "PowerGridEnv": "gym_env",
    "NAME": "aec",
    "PowerGridAEC": "aec",
    "env": "aec",
    "raw_env": "aec",
}


def __getattr__(name: str) -> Any:
    module = _ENVIRONMENTS.get(name)
    if module is None:
        raise AttributeError(f"module 'powergrid.rl' has no attribute {name!r}")
    require("gymnasium", "pettingzoo")
    value = getattr(importlib.import_module(f"powergrid.rl.{module}"), name)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def _register() -> None:
    """Register ``powergrid/PowerGrid-v0`` with Gymnasium, if it is installed (lazily loaded)."""
    try:
        import gymnasium
    except ImportError:
        return
    env_id = "powergrid/PowerGrid-v0"  # gym_env.ENV_ID, without importing it
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point="powergrid.rl.gym_env:PowerGridEnv")


_register()

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
