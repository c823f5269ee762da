"""The Recharged edition: the classic components with Deluxe's setup and the token (RCH-01..90).

*Power Grid Recharged* (2F-Spiele / Rio Grande Games) plays the classic
resources, plants and income on its own double-sided Germany / USA board
(the maps ``germany_recharged`` and ``usa_recharged``, RCH-55). RULES.md
section 13 has its rules, from graded secondary sources (there is no seed);
every reading of an open question (OQ-R01..OQ-R15) is listed on the docs'
rules page. What this edition changes against the classic game:

- the deck (``data/decks/recharged.json``): the classic cards with plug
  (03-15) and socket (16-50) backs, prepared as Deluxe prepares its own
  (RCH-20): a random market of 8 plug plants, one plug plant face down on top,
  plug and socket plants removed unseen by the player-count row (13.10);
- the initial market with garbage on 6-8 (RCH-10), the tables of 13.10 (the
  2-player row is OQ-R03's recommendation, 7 / 18 / 3; the option
  ``two_player_boardgamers`` plays boardgamers.space's 10 / 21 / 4) and the
  3-plant limit for every player count (RCH-37), the new plant never scrapped
  (RCH-38);
- the discount token on both boards, with RCH-32's reading of a lower plant
  drawn (:mod:`powergrid.rules.discount_token`), and no "nobody buys" removal
  (RCH-34);
- Step 2 checked once after phase 4 (RCH-71), the Step 3 card in phase 2 as in
  Deluxe (RCH-39), and no too-small rule (RCH-36) unless the config names the
  option ``too_small_rule`` (OQ-R01).

What stays classic is played by the classic code, with this edition's tables:
22 houses and 50 Elektro a player and the classic tokens (RCH-02), the rules
RCH-04 lists, one refill card for both boards (RCH-12), no inactive area or
quota for the removals (RCH-22), phase 5 in BUR-08's order (RCH-44), the slots
and costs of BLD-05 (RCH-50), the Step 2 and game-end thresholds of the 13.10
rows (RCH-70, RCH-80), and the Step 3 card drawn in phase 5 and the empty
deck as STP-08 and STP-12 (RCH-74, RCH-75).

The first house in a later round follows the classic reading (OQ-R11, OQ-28):
in Step 1 a city holds one house, so the empty city RCH-51 asks for is the
only one there is. The 2-player game is played against the Trust, the module
``trust`` (RCH-84), a default a config may leave out (``without``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from powergrid.catalog import component_maps
from powergrid.config import GameConfig
from powergrid.data import load
from powergrid.rules import Components
from powergrid.rules.classic import RESOURCES, income_table, market_tables, shipped_deck
from powergrid.rules.deluxe import (
    prepare_two_back_deck,
    two_back_draw_chances,
    two_back_resample,
)
from powergrid.rules.discount_token import STATE, DiscountTokenRules

NAME = "recharged"
#: The option that plays boardgamers.space's 2-player values (OQ-R03).
TWO_PLAYER_BOARDGAMERS = "two_player_boardgamers"
#: The row keys that option reads in place of the recommended ones.
_BOARDGAMERS_KEYS = ("step2_cities", "game_end_cities", "max_plants")

TOKEN = DiscountTokenRules(NAME)


def _tables() -> dict[str, Any]:
    return load("tables.json")[NAME]  # type: ignore[no-any-return]


def two_player_row(config: GameConfig, row: Mapping[str, Any]) -> Mapping[str, Any]:
    """OQ-R03: the 2-player row as recommended (7 / 18 / 3), or boardgamers.space's with the option.

    The option reads the row's ``*_boardgamers`` values (10 / 21 / 4, RCH-BG),
    which only the 2-player row has.
    """
    if TWO_PLAYER_BOARDGAMERS not in config.options:
        return row
    changed = dict(row)
    for key in _BOARDGAMERS_KEYS:
        changed[key] = row.get(f"{key}_boardgamers", row[key])
    return changed


def _build() -> Components:
    """RCH-10, RCH-40, RCH-41, 13.10: the classic market and income, Recharged fill and rows."""
    t = _tables()
    prices, initial, totals = market_tables(t["resource_market"])
    maps = component_maps(NAME)
    if maps is None:
        raise ValueError("the Recharged refill table names its boards")
    table = t["refill_table"]
    refill = {
        (m, int(n)): tuple(tuple(rows[k.value]) for k in RESOURCES)
        for m in maps
        for n, rows in table[m].items()
    }
    return Components(
        name=NAME,
        version="1",
        resources=RESOURCES,
        deck=shipped_deck(NAME),
        slot_prices=prices,
        totals=totals,
        initial_market=lambda _map: initial,
        refill=lambda map_id, players: refill[map_id, players],
        income=income_table(t["income_by_cities_powered"]),
        starting_money=int(t["starting_money"]),
        setup_rows={row["players"]: row for row in t["setup_by_players"]},
        max_plants=int(t["max_plants_per_player"]),  # RCH-37
        prepare_deck=prepare_two_back_deck,  # RCH-20: SET-21 with plug / socket backs
        may_discard_new_plant=False,  # RCH-38: an old plant only
        step3_freezes_auction=False,  # RCH-39: the auction goes on, as in Deluxe
        step3_phase4_immediate=False,  # RCH-72: STP-07 as written (only with BLD-12 on)
        hooks={
            "draw_chances": two_back_draw_chances,
            "resample_deck": two_back_resample,
            "setup_row": two_player_row,
            "start_of_auction": TOKEN.place_token,  # RCH-30
            "min_bid": TOKEN.min_bid,  # RCH-30, RCH-35
            "draw_filter": TOKEN.box_lower_drawn,  # RCH-32
            "end_of_auction": TOKEN.unsold_token_plant,  # RCH-33; no AUC-20 (RCH-34)
        },
        wraps={"state_violations": TOKEN.violations},
        state=STATE,
        plant_events={"discount_placed", "discount_removed"},
        maps=maps,
        step2_after_building=True,  # RCH-71
        shows_top_back=True,  # RCH-21
        too_small_rule=False,  # RCH-36, OQ-R01
        plays_map_rules=True,  # RCH-42, RCH-43 are the edition's board rules
    )


COMPONENTS = _build()
