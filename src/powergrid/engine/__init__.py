"""The engine: :func:`new_game`, :func:`legal_actions`, :func:`apply` and the phases.

:mod:`powergrid.engine.game` dispatches a decision to its phase
(:mod:`powergrid.engine.phases`), :mod:`~powergrid.engine.invariants` is the one
definition of a consistent state, :mod:`~powergrid.engine.views` strips what a
seat may not see and :mod:`~powergrid.engine.queries` answers what a frontend
asks (a minimum bid, a price, a build cost) without reaching into a phase.

The names of :mod:`powergrid.engine.game` stay reachable here
(``from powergrid.engine import apply``), loaded on first use so that importing
a phase does not import the whole engine.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    from powergrid.engine import game

    try:
        return getattr(game, name)
    except AttributeError:
        raise AttributeError(f"module 'powergrid.engine' has no attribute {name!r}") from None
