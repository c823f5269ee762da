"""Building the game's deck of a customised-deck config, and checking the config (RULES.md 10).

- Variant M (CDK-01, CDK-05, CDK-10): the original deck without its plants
  17 and 18, every card labelled with ``o``, and the other deck, labelled with
  ``e`` (``"14o"``, ``"14e"``, as in EC-55), under the other deck's Step 3 card.
  The deck is *paired*: the inactive area keeps two cards of one number out of
  play together (CDK-03, CDK-09). A plus plant and the plain plant of its number
  are different numbers here (CDK-10, OQ-19).
- Variant P (CDK-11, CDK-14): the original deck and its plus plants, labels as
  given (``"46"`` and ``"46+"``); the rank puts a plus plant above its number.
- Free (CDK-20, CDK-21): one deck as given; cards sharing a number need a
  declared order (the :class:`~powergrid.Deck` refuses one without).

This is a helper of ``powergrid.rules.custom_deck``, not a rule module of its own.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs

from powergrid.catalog import load_map, regions_needed
from powergrid.data import load
from powergrid.deck import Deck, DeckChoice
from powergrid.errors import RulesConfigError
from powergrid.mechanics.network import cities_connected, connected_region_sets
from powergrid.plants import Plant
from powergrid.rules import HOUSES_PER_PLAYER

#: CDK-02: the numbers revealed at setup in Variant M; 1 and 2 always go to the market.
REVEALED = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 14})
SINGLES = frozenset({1, 2})
#: CDK-04: 8 plants form the market, the 9th lies face up on the deck.
MARKET_FROM_REVEAL = 9
#: CDK-01: the original plants that leave the game in Variant M.
LEFT_OUT = frozenset({17, 18})
SUFFIXES = ("o", "e")  # original, expansion (other) deck


def table_row(players: int) -> dict[str, Any]:
    """CDK-15: Variant P's player-count row (cities in play, Step 2, game end, removals)."""
    rows = load("tables.json")["customised_deck"]["player_count_table"]
    return dict(next(r for r in rows if r["players"] == players))


def key(card: Plant) -> tuple[int, bool]:
    """What pairs two cards in Variant M: the number, a plus plant apart (CDK-10)."""
    return (card.number, card.plus)


@functools.lru_cache(maxsize=32)
def game_deck(choice: DeckChoice) -> Deck:
    """The deck the game plays, built from the config's choice (module docstring)."""
    first = choice.decks[0]
    if choice.variant == "free":
        return first
    if choice.variant == "P":
        return _joined(choice.decks, name="+".join(d.name for d in choice.decks))
    original, other = choice.decks
    kept = [c for c in original.cards if c.plus or c.number not in LEFT_OUT]
    cards = [_suffixed(c, SUFFIXES[0]) for c in kept]
    cards += [_suffixed(c, SUFFIXES[1]) for c in other.cards]
    return Deck(
        name=f"M:{original.name}+{other.name}",
        cards=tuple(cards),
        step3=other.step3,  # CDK-05: the expansion's Step 3 card
        paired=True,
        source=f"Variant M of {original.name} and {other.name} (RULES.md CDK-01..CDK-10)",
    )


def _suffixed(card: Plant, suffix: str) -> Plant:
    return attrs.evolve(card, label=card.label + suffix)


def _joined(decks: Iterable[Deck], name: str) -> Deck:
    decks = tuple(decks)
    labels = Counter(c.label for d in decks for c in d.cards)
    twice = sorted(label for label, n in labels.items() if n > 1)
    if twice:
        raise RulesConfigError(
            f"the decks of variant P share the labels {', '.join(twice)}; the plus plants "
            "need labels of their own, e.g. '46+' (CDK-11)",
            field="deck.decks",
        )
    if len(decks) == 2 and not all(c.plus for c in decks[1].cards):
        raise RulesConfigError(
            f"variant P's second deck ({decks[1].name!r}) holds the plus plants only (CDK-11)",
            field="deck.decks[1]",
        )
    return Deck(
        name=name,
        cards=tuple(c for d in decks for c in d.cards),
        step3=decks[0].step3,
        order=tuple(g for d in decks for g in d.order),
        source=" + ".join(d.source or d.name for d in decks),
    )


def reveal_yield(deck: Deck) -> int:
    """How many plants Variant M's reveal puts in the initial market (CDK-03).

    Deterministic whatever the shuffle: plants 1 and 2 always go, and of the
    copies of any other revealed number all but the first.
    """
    counts = Counter(key(c) for c in deck.cards if not c.plus and c.number in REVEALED)
    return sum(n if number in SINGLES else n - 1 for (number, _), n in counts.items())


def check(config: Any) -> None:
    """The custom_deck module's check of a whole config (``RuleModule.check_config``)."""
    choice = config.deck
    if choice is None:
        raise RulesConfigError(
            "the custom_deck module needs a deck: GameConfig(deck={'variant': 'M', 'decks': "
            "[...]}) (RULES.md section 10)",
            field="deck",
        )
    if "explicit_chance" in config.options and choice.variant == "M":
        raise RulesConfigError(
            "explicit chance cannot yet resolve variant M's reveal, whose order decides the "
            "inactive area (CDK-03); play it with seeded chance",
            field="options",
        )
    deck = game_deck(choice)
    if choice.variant == "M" and reveal_yield(deck) != MARKET_FROM_REVEAL:
        raise RulesConfigError(
            f"variant M's reveal of plants 1-8 and 14 yields {reveal_yield(deck)} market plants, "
            f"not {MARKET_FROM_REVEAL} (8 for the market, 1 face up on the deck, CDK-04): the "
            "original deck needs plants 3-8 and 14, the other deck 1-8 and 14",
            field="deck.decks",
        )
    if choice.variant == "P":
        _check_end_in_reach(config)
    if config.cities is not None:
        _check_cities(config, choice)
    elif choice.variant == "P":
        _check_reachable_end(config)


def _check_end_in_reach(config: Any) -> None:
    """OQ-21: the seed's 2-player row ends at 24 cities, but a player has 22 houses (BLD-09)."""
    end = int(table_row(config.players)["game_end_cities"])
    if end > HOUSES_PER_PLAYER:
        raise RulesConfigError(
            f"variant P's table ends a {config.players}-player game at {end} cities (CDK-15), "
            f"but a player has only {HOUSES_PER_PLAYER} houses (BLD-09), so the game could "
            "never end; the seed's row is doubtful (OQ-21) and this library will not guess "
            "another value",
            field="players",
        )


def _check_reachable_end(config: Any) -> None:
    """OQ-21: the 2-player row ends at 24 cities, more than 3 regions hold: name the cities."""
    board = load_map(config.map)
    end = int(table_row(config.players)["game_end_cities"])
    areas = (
        [tuple(config.regions)]
        if config.regions is not None
        else connected_region_sets(config.map, regions_needed(config.components, config.players))
    )
    smallest = min(sum(board.city_region.count(r) for r in area) for area in areas)
    if smallest < end:
        raise RulesConfigError(
            f"variant P ends a {config.players}-player game at {end} cities (CDK-15, OQ-21), "
            f"but a play area of regions may hold only {smallest}: choose the "
            f"{table_row(config.players)['cities_used']} cities in play instead (cities=..., "
            "CDK-16)",
            field="cities",
        )


def _check_cities(config: Any, choice: DeckChoice) -> None:
    """CDK-16: exactly the table's number of connected cities of the map (variant P)."""
    if choice.variant != "P":
        raise RulesConfigError(
            "cities in play come with variant P's table (CDK-15, CDK-16)", field="cities"
        )
    board = load_map(config.map)
    unknown = [c for c in config.cities if c not in board.index]
    if unknown:
        raise RulesConfigError(f"unknown city {unknown[0]!r} on {board.name}", field="cities")
    if len(set(config.cities)) != len(config.cities):
        raise RulesConfigError("a city is named twice", field="cities")
    need = int(table_row(config.players)["cities_used"])
    if len(config.cities) != need:
        raise RulesConfigError(
            f"{config.players} players play in {need} cities, not {len(config.cities)} "
            "(CDK-15, CDK-16)",
            field="cities",
        )
    if not cities_connected(board, config.cities):
        raise RulesConfigError(
            "the cities in play must form one connected set (CDK-16)", field="cities"
        )
