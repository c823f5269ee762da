"""Agents: an action codec, an observation encoder and PettingZoo / Gymnasium environments.

Install the extra first: ``pip install "powergrid[rl]"`` adds numpy,
gymnasium and pettingzoo. ``import powergrid`` never imports this package,
so the core keeps ``attrs`` as its only dependency.
"""

from __future__ import annotations

from powergrid.rl.codec import RAISES, ActionCodec, Block

__all__ = ["RAISES", "ActionCodec", "Block"]
