"""The North America map module: the discount token (CON-02, AUC-30..AUC-35).

The board comes from ``data/maps/north_america.json``: 7 regions of 7 cities,
99 connections. The metropoles New York and Mexico City are board data, so
they are part of every game on this map: each is two cities joined by a
connection of cost 0 (BLD-10, BLD-11), each half its own city with its own
slots, so a player may hold both halves but never two houses in one half
(BLD-06), and routes cross between the halves for free.

The discount token is a Deluxe rule; a classic game plays it only with the
``map_rules`` option (OQ-31, ``powergrid.rules.ruleset``). It is the module's own
state (:class:`DiscountToken`, ``state.modules["north_america"]``), a mark on a
market plant: when its plant leaves the market (bought, AUC-35, or removed)
the core lifts the token with it (:mod:`powergrid.module_state`). The token's
rules are shared with the Recharged edition (:mod:`powergrid.rules.discount_token`);
North America plays the Deluxe reading of a lower plant drawn (AUC-32). In a classic
game with ``map_rules`` the token also replaces the classic no-purchase
removal (AUC-20): if nobody buys, the lowest plant carries the token and is
removed once, by AUC-33, never twice (EC-08, AUC-22).
"""

from __future__ import annotations

from powergrid.rules import RuleModule
from powergrid.rules.discount_token import STATE, DiscountToken, DiscountTokenRules

__all__ = [
    "MODULE",
    "MODULE_NAME",
    "STATE",
    "DiscountToken",
    "lower_plant_entered",
    "min_bid",
    "place_token",
    "token_plant",
    "unsold_token_plant",
]

MODULE_NAME = "north_america"

TOKEN = DiscountTokenRules(MODULE_NAME)
token_plant = TOKEN.token_plant
place_token = TOKEN.place_token
min_bid = TOKEN.min_bid
lower_plant_entered = TOKEN.lower_plant_entered
unsold_token_plant = TOKEN.unsold_token_plant

MODULE = RuleModule(
    name=MODULE_NAME,
    version="1",
    hooks={
        "start_of_auction": place_token,
        "min_bid": min_bid,
        "after_market_entry": lower_plant_entered,
        "end_of_auction": unsold_token_plant,
    },
    wraps={"state_violations": TOKEN.violations},
    state=STATE,
    plant_events={"discount_placed", "discount_removed"},
)
