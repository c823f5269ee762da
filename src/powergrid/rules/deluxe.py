"""The Deluxe component set: coal, gas, oil, uranium and the Deluxe deck (CON-01, SET-20..27).

Data: the deck ``data/decks/deluxe.json`` (read from scans of the printed cards) and the
``deluxe`` part of ``data/tables.json``. Several Deluxe values rest on code
sources only (market layout, initial fill, removals per player count, Step 2
thresholds, the 2-player Step 2 value and the 6-player game end): the docs'
data page says which.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from powergrid.actions import Reveal
from powergrid.catalog import component_maps
from powergrid.chance import RngState
from powergrid.data import load
from powergrid.enums import Resource
from powergrid.errors import RulesConfigError
from powergrid.mechanics.chance_points import Chances, uniform, uniform_draws
from powergrid.plants import LOW_BACKS
from powergrid.rules import Components, DeckSetup
from powergrid.rules.base import one_pile
from powergrid.rules.classic import fill_count, income_table, shipped_deck

if TYPE_CHECKING:
    from powergrid.rules.ruleset import Ruleset
    from powergrid.state import GameState

RESOURCES = (Resource.COAL, Resource.GAS, Resource.OIL, Resource.URANIUM)


def _tables() -> dict[str, Any]:
    return load("tables.json")["deluxe"]  # type: ignore[no-any-return]


def prepare_two_back_deck(rules: Ruleset, rng: RngState) -> DeckSetup:
    """SET-21: the market from dark plants, one dark plant face down on top.

    Shuffle the dark plants (03-15) and draw the Step 1 market (8; Europe 9,
    SET-26); set the next dark plant aside; remove dark and light plants
    unseen as the game's player-count row says (``rules.tables.row``); shuffle
    the rest together; the Step 3 card goes under the deck (implicit: it always
    lies under the hidden deck) and the set-aside dark plant on top. The deck
    is the game's plant deck (``rules.deck``); a card not printed with a dark
    back counts as light. Recharged deals its plug and socket plants the same
    way (RCH-20): its plug plants are the dark ones here (``LOW_BACKS``).
    """
    size = rules.market_size(1)
    removals = rules.tables.row.plants_removed
    if isinstance(removals, int):
        raise RulesConfigError(
            f"the Deluxe setup (SET-23) removes dark and light plants, not {removals!r}",
            field="components",
        )
    backs = {card.label: card.back for card in rules.deck.cards}
    dark, rng = rng.shuffle(rules.ranked(n for n in rules.plants if backs[n] in LOW_BACKS))
    light, rng = rng.shuffle(rules.ranked(n for n in rules.plants if backs[n] not in LOW_BACKS))
    market = rules.ranked(dark[:size])
    aside = dark[size]
    rest_dark = dark[size + 1 :]
    n_dark, n_light = removals_by_back(removals)
    removed = rest_dark[:n_dark] + light[:n_light]
    deck, rng = rng.shuffle(rest_dark[n_dark:] + light[n_light:])
    return DeckSetup(
        actual=market[:4],
        future=market[4:],
        top=None,
        deck=(aside, *deck),
        removed_unseen=rules.ranked(removed),
        rng=rng,
        dealt=rules.ranked(dark),
    )


def removals_by_back(removals: Mapping[str, int]) -> tuple[int, int]:
    """A player-count row's unseen removals as (low plants, high plants) (SET-23, RCH-20).

    The row names them by back: ``{"dark": n, "light": m}`` (Deluxe) or
    ``{"plug": n, "socket": m}`` (Recharged); ``LOW_BACKS`` says which is low.
    """
    low = sum(int(n) for back, n in removals.items() if back in LOW_BACKS)
    return low, sum(int(n) for back, n in removals.items() if back not in LOW_BACKS)


def two_back_draw_chances(state: GameState) -> Chances:
    """CON-13 on SET-21's deck: the set-aside dark plant first, then dark and light mixed.

    While the set-aside plant is on top (no hidden dark plant has been drawn),
    every hidden dark plant is equally likely. After it, the deck mixes the
    dark and light plants not removed: a hidden plant of a back with ``k``
    plants in the deck out of ``h`` hidden comes next with probability
    ``k / (h * deck size)``, since the setup removed a fixed number of each
    back. After the Step 3 reshuffle the deck is shuffled as one.
    """
    if not state.market.step3_in_deck:
        return uniform_draws(state)
    rules, secret = state.rules, state.secret
    backs = {card.label: card.back for card in rules.deck.cards}
    hidden = secret.deck + secret.removed_unseen
    dark = [c for c in hidden if backs[c] in LOW_BACKS]
    if _aside_on_top(rules, backs, len(dark)):
        return uniform("draw", rules.ranked(dark))
    out: list[tuple[Reveal, Fraction]] = []
    for pool in (dark, [c for c in hidden if backs[c] not in LOW_BACKS]):
        in_deck = sum(1 for c in secret.deck if c in pool)
        if in_deck:
            p = Fraction(in_deck, len(pool) * len(secret.deck))
            out.extend((Reveal(event="draw", outcome=c), p) for c in pool)
    rank = rules.rank
    return tuple(sorted(out, key=lambda rp: rank[rp[0].outcome]))


def _aside_on_top(rules: Ruleset, backs: Mapping[str, str | None], hidden_dark: int) -> bool:
    """SET-21: the set-aside dark plant is still on top (no hidden dark plant drawn yet)."""
    total_dark = sum(1 for n in rules.plants if backs[n] in LOW_BACKS)
    return hidden_dark == total_dark - rules.market_size(1)


def two_back_resample(
    state: GameState, rng: random.Random
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """SET-21, SET-23 for ``determinize``: the hidden cards dealt again as the setup deals them.

    Any hidden dark plant may be the set-aside one still on top; the setup
    removed a fixed number of each back unseen (as many as the state's
    removals hold), any of the hidden ones of that back; the rest lie in the
    deck in any order. After the Step 3 reshuffle the deck is one pile
    (``one_pile``). The cards are sorted before they are shuffled, so their
    real order never shows through.
    """
    if not state.market.step3_in_deck:
        return one_pile(state, rng)
    rules, secret = state.rules, state.secret
    backs = {card.label: card.back for card in rules.deck.cards}
    hidden = rules.ranked(secret.deck + secret.removed_unseen)
    dark = [c for c in hidden if backs[c] in LOW_BACKS]
    light = [c for c in hidden if backs[c] not in LOW_BACKS]
    on_top = _aside_on_top(rules, backs, len(dark))
    rng.shuffle(dark)
    rng.shuffle(light)
    top = [dark.pop()] if on_top else []
    n_dark = sum(1 for c in secret.removed_unseen if backs[c] in LOW_BACKS)
    n_light = len(secret.removed_unseen) - n_dark
    rest = dark[n_dark:] + light[n_light:]
    rng.shuffle(rest)
    return (*top, *rest), rules.ranked(dark[:n_dark] + light[:n_light])


def _span(text: str) -> list[int]:
    """Prices named by a fill like ``"2-9"`` or ``"9"``."""
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def _build() -> Components:
    """SET-22, SET-27: the Deluxe market layout, fill per map, refill cards and income card."""
    t = _tables()
    spaces = t["resource_market"]["spaces"]
    prices = tuple(
        tuple(p for s in spaces[k.value] for p in [int(s["price"])] * int(s["capacity"]))
        for k in RESOURCES
    )
    fills = t["resource_market"]["initial_fill_by_map"]
    table = t["refill_table"]
    maps = component_maps("deluxe")  # only maps with both a fill and a refill card
    if maps is None:
        raise ValueError("the Deluxe fill and refill tables must be printed per map")
    initial = {
        m: tuple(fill_count(prices[i], _span(fills[m][k.value])) for i, k in enumerate(RESOURCES))
        for m in maps
    }
    totals = tuple(int(t["resource_market"]["total_tokens"][k.value]) for k in RESOURCES)
    refill = {
        (m, int(n)): tuple(tuple(rows[k.value]) for k in RESOURCES)
        for m in maps
        for n, rows in table[m].items()
    }
    income = income_table(t["income_by_cities_powered"])
    return Components(
        name="deluxe",
        version="1",
        resources=RESOURCES,
        deck=shipped_deck("deluxe"),
        slot_prices=prices,
        totals=totals,
        initial_market=lambda map_id: initial[map_id],
        refill=lambda map_id, players: refill[map_id, players],
        income=income,
        starting_money=int(t["starting_money"]),
        setup_rows={row["players"]: row for row in t["setup_by_players"]},
        max_plants=int(t["max_plants_per_player"]),  # SET-25: 3 for every player count
        prepare_deck=prepare_two_back_deck,
        may_discard_new_plant=True,  # AUC-17 Deluxe: any of the four plants
        step3_freezes_auction=False,  # STP-05 Deluxe: the auction continues as usual
        step3_phase4_immediate=True,  # STP-07 Deluxe: resolved at once
        plays_map_rules=True,  # CON-02: the board's rules are Deluxe rules
        hooks={"draw_chances": two_back_draw_chances, "resample_deck": two_back_resample},
        maps=maps,
    )


COMPONENTS = _build()
