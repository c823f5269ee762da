"""The built-in rule modules' own state, read as tests of the rules need it.

North America's discount token and a customised deck's inactive area and quota
are module state (``state.modules``, powergrid.module_state); a game that does
not play the module has none, read here as the token beside the market, an
empty area and no quota.
"""

from __future__ import annotations

from typing import Any


def discount(state: Any) -> str | None:
    """The plant under the discount token (AUC-31), or ``None``."""
    token = state.modules.get("north_america")
    return None if token is None else token.plant


def inactive(state: Any) -> tuple[str, ...]:
    """The customised deck's inactive area, in the order its cards went there (CDK-06)."""
    held = state.modules.get("custom_deck")
    return () if held is None else held.plants


def quota(state: Any) -> int:
    """The customised deck's removals still due (CDK-07)."""
    held = state.modules.get("custom_deck")
    return 0 if held is None else held.quota
