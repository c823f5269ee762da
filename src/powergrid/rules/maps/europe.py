"""The Europe map module: the 4 + 5 market of Step 1 and the no-purchase rule (CON-02).

The board comes from ``data/maps/europe.json``: 7 regions of 7 cities, 99
connections, no metropoles. These map rules are Deluxe rules; a classic game
plays them only with the ``map_rules`` option (OQ-31, ``powergrid.rules.ruleset``).

- SET-26: in Step 1 the future market holds 5 plants (4 + 5). The Deluxe deck
  draws 9 dark plants for it (SET-21). With the classic deck (``map_rules``),
  SET-11's fixed market 3-10 is filled to 9 by an ordinary first draw, which is
  the face-up plant 13: the market starts 3 4 5 6 | 7 8 9 10 13 (our reading;
  the classic rules know no 4 + 5 market).
- STP-02 / SET-26: when Step 2 begins the lowest plant is removed without a
  replacement, so the market goes from 4 + 5 to 4 + 4.
- AUC-21: if nobody bought a plant in phase 2, the lowest plant is removed and
  a replacement drawn (the same as the classic AUC-20).
"""

from __future__ import annotations

from powergrid.rules import RuleModule
from powergrid.rules.base import nobody_bought_removal
from powergrid.state import GameState


def no_step2_replacement(state: GameState) -> bool:
    """SET-26: Europe's Step 2 removal draws no replacement (4 + 5 becomes 4 + 4)."""
    return False


MODULE = RuleModule(
    name="europe",
    version="1",
    hooks={
        "step2_replacement": no_step2_replacement,
        "end_of_auction": nobody_bought_removal("AUC-21"),
    },
    data={"future_market_step1": 5},
)
