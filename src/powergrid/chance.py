"""Seeded chance: every shuffle and random choice goes through RngState.

Each draw seeds ``random.Random`` with the string ``f"{seed}:{counter}"`` and then
advances the counter, so results are the same on every machine and Python run
(string seeds do not depend on ``PYTHONHASHSEED``). The engine never touches the
global ``random`` module.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

import attrs

T = TypeVar("T")


@attrs.frozen
class RngState:
    """The position in a seeded random stream: the seed and how many draws were made."""

    seed: int
    counter: int = 0

    def _next(self) -> tuple[random.Random, RngState]:
        gen = random.Random(f"{self.seed}:{self.counter}")
        return gen, RngState(self.seed, self.counter + 1)

    def shuffle(self, items: Sequence[T]) -> tuple[tuple[T, ...], RngState]:
        """Return ``items`` in a random order and the advanced RngState."""
        gen, nxt = self._next()
        out = list(items)
        gen.shuffle(out)
        return tuple(out), nxt

    def choice(self, items: Sequence[T]) -> tuple[T, RngState]:
        """Return one of ``items`` chosen uniformly and the advanced RngState."""
        gen, nxt = self._next()
        return items[gen.randrange(len(items))], nxt
