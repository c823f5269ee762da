"""The classic component set: coal, oil, garbage, uranium and the original deck (CON-01).

Data: the deck ``data/decks/classic.json`` and the ``classic`` part of ``data/tables.json``.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from powergrid.chance import RngState
from powergrid.data import load
from powergrid.deck import Deck
from powergrid.enums import Resource
from powergrid.errors import RulesConfigError
from powergrid.plants import Plant, card_label
from powergrid.rules import Components, DeckSetup
from powergrid.rules.base import nobody_bought_removal

if TYPE_CHECKING:
    from powergrid.rules.ruleset import Ruleset

RESOURCES = (Resource.COAL, Resource.OIL, Resource.GARBAGE, Resource.URANIUM)


def slot_prices(spaces: list[dict[str, Any]], kind: str) -> tuple[int, ...]:
    """Price of every token slot of one market track, cheapest first (SET-07)."""
    out: list[int] = []
    for space in sorted(spaces, key=lambda s: s["price"]):
        out.extend([int(space["price"])] * int(space["capacity"][kind]))
    return tuple(out)


def fill_count(prices: tuple[int, ...], filled: list[int]) -> int:
    """Tokens placed by an initial fill of whole spaces, checked to sit on top (SET-10).

    A track is always filled from its most expensive space down, so the filled
    spaces must be the most expensive ones; anything else is a data error.
    """
    count = sum(1 for p in prices if p in set(filled))
    if prices[len(prices) - count :] != tuple(p for p in prices if p in set(filled)):
        raise ValueError(f"initial fill {filled} is not the top of its track")
    return count


def income_table(rows: list[dict[str, Any]]) -> tuple[int, ...]:
    """BUR-04: Elektro paid by cities powered, indexed 0..20 (more than 20 pays the last)."""
    return tuple(int(r["income"]) for r in sorted(rows, key=lambda r: r["cities_powered"]))


@functools.cache
def shipped_deck(name: str) -> Deck:
    """A deck that ships with the package (``"classic"``, ``"deluxe"``), read from its file.

    The file is a Deck document (``data/decks``, written by ``to_json``); this
    reads package data the package wrote, so it builds the records directly
    rather than through the formats' decoder above this layer. The test
    ``test_shipped_decks_read_as_documents`` checks both readings agree.
    """
    doc = load(f"decks/{name}.json")
    if doc.get("type") != "Deck":
        raise TypeError(f"decks/{name}.json holds a {doc.get('type')}, not a Deck")
    cards = tuple(
        Plant(**{**card, "accepts": frozenset(Resource(k) for k in card["accepts"])})
        for card in doc["cards"]
    )
    fields = {k: doc[k] for k in ("name", "step3", "order", "paired", "source") if k in doc}
    return Deck(cards=cards, **fields)


def _tables() -> dict[str, Any]:
    return load("tables.json")["classic"]  # type: ignore[no-any-return]


def _prepare_deck(rules: Ruleset, rng: RngState) -> DeckSetup:
    """SET-11: market 3-6 | 7-10, 13 face up on top, n removed unseen, Step 3 at the bottom.

    The deck is the game's plant cards (``rules.plants``) less the fixed
    market and the top card; the number removed unseen comes from the game's
    player-count row (``rules.tables.row``, SET-12). The Step 1 market is filled
    afterwards by ordinary draws, so in a classic game with Europe's map rules
    (option ``map_rules``) the face-up 13 becomes the ninth plant of the 4 + 5
    market (SET-26).
    """
    setup = _tables()["deck_setup"]
    actual = tuple(map(card_label, setup["initial_current_market"]))
    future = tuple(map(card_label, setup["initial_future_market"]))
    top = card_label(setup["top_of_deck"])
    taken = {*actual, *future, top}
    missing = sorted(taken - set(rules.plants))
    if missing:
        raise RulesConfigError(
            f"the classic setup (SET-11) needs plants {', '.join(missing)}, which the deck "
            f"{rules.deck.name!r} lacks",
            field="components",
        )
    rest = rules.ranked(n for n in rules.plants if n not in taken)
    shuffled, rng = rng.shuffle(rest)
    removed = rules.tables.row.plants_removed
    if not isinstance(removed, int):
        raise RulesConfigError(
            f"the classic setup (SET-12) removes a number of plants, not {removed!r}",
            field="components",
        )
    return DeckSetup(
        actual=actual,
        future=future,
        top=top,
        deck=shuffled[removed:],
        removed_unseen=rules.ranked(shuffled[:removed]),
        rng=rng,
    )


MarketTables = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]


def market_tables(market: dict[str, Any]) -> MarketTables:
    """SET-07, SET-08, SET-10: a classic-layout market's slot prices, initial fill, totals.

    ``market`` is a ``resource_market`` part of ``tables.json`` (classic, Recharged):
    price spaces with a capacity per kind, the spaces filled at setup, the tokens.
    """
    prices = tuple(slot_prices(market["spaces"], k.value) for k in RESOURCES)
    fill = {row["resource"]: row["prices"] for row in market["initial_fill"]}
    initial = tuple(fill_count(prices[i], fill[k.value]) for i, k in enumerate(RESOURCES))
    totals = tuple(int(market["total_tokens"][k.value]) for k in RESOURCES)
    return prices, initial, totals


def _build() -> Components:
    t = _tables()
    prices, initial, totals = market_tables(t["resource_market"])
    refill: dict[int, tuple[tuple[int, int, int], ...]] = {}  # the same on every map
    for players in range(2, 7):
        rows = {r["resource"]: r for r in t["refill_table"] if r["players"] == players}
        refill[players] = tuple(
            (rows[k.value]["step1"], rows[k.value]["step2"], rows[k.value]["step3"])
            for k in RESOURCES
        )
    income = income_table(t["income_by_cities_powered"])
    return Components(
        name="classic",
        version="1",
        resources=RESOURCES,
        deck=shipped_deck("classic"),
        slot_prices=prices,
        totals=totals,
        initial_market=lambda _map: initial,
        refill=lambda _map, players: refill[players],
        income=income,
        starting_money=int(t["starting_money"]),
        setup_rows={row["players"]: row for row in t["setup_by_players"]},
        max_plants=int(t["max_plants_per_player"]),
        prepare_deck=_prepare_deck,
        may_discard_new_plant=False,  # AUC-17 classic: an old plant only
        step3_freezes_auction=True,  # STP-05 classic: no replacements after S3 shows
        step3_phase4_immediate=False,  # STP-07 classic: resolved at the end of phase 4
        hooks={"end_of_auction": nobody_bought_removal("AUC-20")},
    )


COMPONENTS = _build()
