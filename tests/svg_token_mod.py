"""A tiny test-only rule module that keeps a token on a market plant (issue 35).

``svg_token`` declares a :class:`~powergrid.module_state.StateSpec` whose
``marks`` name the field holding the plant its token lies on; it plays no rule.
A test puts the token with ``with_module``, and the drawing must show it on
that card without knowing the module. It lives outside the test file so that
pickles find the record's class by its module.
"""

from __future__ import annotations

import attrs

from powergrid.module_api import StateSpec
from powergrid.plants import Card
from powergrid.rules import RuleModule

MODULE_NAME = "svg_token"


@attrs.frozen
class Token:
    """The plant the token lies on, or ``None`` (beside the market)."""

    plant: Card | None = None


MODULE = RuleModule(
    name=MODULE_NAME,
    version="1",
    api=2,
    state=StateSpec(record=Token, marks=("plant",), keys={"plant": "bonus"}),
)
