"""The customised plant deck (RULES.md section 10) as the rule module ``custom_deck``.

Seed 003 builds the deck of a classic game with "The New Power Plants" in one
of two ways; the config chooses one, and the decks, with
``GameConfig(deck=DeckChoice(variant, decks))``:

- **Variant M** (CDK-01..CDK-10): the original deck and the other deck mixed.
  At setup plants 1-8 and 14 of both are shuffled and revealed one at a time:
  the first card of a number goes to the **inactive area**, a later one to the
  initial market, plants 1 and 2 always to the market (CDK-03). The 8 lowest
  form the market and the 9th lies face up on the deck (CDK-04, OQ-18). The
  rest of both decks, shuffled, is the draw deck over the other deck's Step 3
  card (CDK-05). During the game every draw passes the filter of CDK-09: a card
  whose number is not in the inactive area goes there; while the **quota** of
  setup removals lasts (CDK-07: SET-12's count, no random removal at setup),
  a card whose number is there is removed from the game; otherwise it enters
  the market. The face-up card's first draw skips both (EC-68, OQ-20). Every
  plant that leaves play goes to the inactive area, not the box (CDK-08). The
  inactive area is open information (CDK-06): the module's own state,
  ``state.modules["custom_deck"]`` (an :class:`InactiveArea`: ``plants`` and
  ``quota``).
- **Variant P** (CDK-11..CDK-16): the original deck plus the plus plants, the
  classic setup (CDK-12) with CDK-15's player-count row for Step 2, the game
  end and the removals, no inactive area (CDK-13). A plus plant ranks directly
  above the plain plant of its number (CDK-14, the core's rank). The config may
  name the cities in play instead of regions (``cities``, CDK-16).
- **Free** (CDK-20, CDK-21): one deck played as given with the classic setup.

The cards of The New Power Plants are not public (``UNKNOWN_DECKS`` in
:mod:`powergrid.deck`): the library never invents them, so a caller supplies
every deck as data (the deck format).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.deck import Deck
from powergrid.errors import RulesConfigError
from powergrid.frozen import evolve
from powergrid.module_state import StateSpec, with_module
from powergrid.plants import Card
from powergrid.rules import DeckSetup, RuleModule
from powergrid.rules.custom_deck.build import (
    REVEALED,
    SINGLES,
    check,
    game_deck,
    key,
    table_row,
)
from powergrid.rules.hooks import DrawFilter, LeavePlay, StateViolations
from powergrid.rules.ruleset import Ruleset
from powergrid.state import GameState


@attrs.frozen
class InactiveArea:
    """The module's own state: the inactive area and the setup removals still due.

    ``plants`` lie in the inactive area in the order they went there, out of
    play for the game and open to everyone (CDK-06); ``quota`` counts the drawn
    cards still to be removed instead of the setup removals (CDK-07). Both stay
    empty outside variant M (CDK-13).
    """

    plants: tuple[Card, ...] = ()
    quota: int = 0


#: The inactive area: public, a place of plant cards, written ``inactive=`` and
#: ``quota=`` in position texts (the plant market's fields of JSON formats 1 to 4).
def _described(held: InactiveArea, rules: Ruleset) -> list[str]:
    out = ["inactive area (CDK-06): " + " ".join(rules.ranked(held.plants))] if held.plants else []
    return out + ([f"removals still due (CDK-07): {held.quota}"] if held.quota else [])


STATE = StateSpec(
    record=InactiveArea,
    areas={"plants": "the inactive area"},
    keys={"plants": "inactive", "quota": "quota"},
    describe=_described,
)


def area(state: GameState) -> InactiveArea:
    """The inactive area and quota of a game played with this module."""
    held: InactiveArea = state.modules[MODULE_NAME]
    return held


MODULE_NAME = "custom_deck"


def _variant(config: GameConfig) -> str:
    return config.deck.variant if config.deck is not None else "free"


def plant_deck(config: GameConfig, deck: Deck) -> Deck:
    """CDK-01, CDK-11, CDK-20: the game's deck, built from the config's choice."""
    return deck if config.deck is None else game_deck(config.deck)


def setup_row(config: GameConfig, row: Mapping[str, Any]) -> Mapping[str, Any]:
    """CDK-15 (variant P only, OQ-22): Step 2, game end and removals from the seed's table."""
    if _variant(config) != "P":
        return row
    table = table_row(config.players)
    return {
        **row,
        "step2_cities": table["step2_cities"],
        "step2_cities_seed": table["step2_cities"],
        "game_end_cities": table["game_end_cities"],
        "plants_removed": table["plants_removed"],
        "cities_used": table["cities_used"],
    }


def prepare_deck(rules: Ruleset, rng: RngState) -> DeckSetup:
    """Variant M's reveal (CDK-02..CDK-05, CDK-07); the classic setup otherwise (CDK-12)."""
    if _variant(rules.config) != "M":
        return rules.components.prepare_deck(rules, rng)
    revealed = [c.label for c in rules.deck.cards if not c.plus and c.number in REVEALED]
    order, rng = rng.shuffle(rules.ranked(revealed))
    market, inactive = reveal(rules, order)
    n_actual = 4
    shown = {*market, *inactive}
    rest, rng = rng.shuffle(rules.ranked(c.label for c in rules.deck.cards if c.label not in shown))
    return DeckSetup(
        actual=tuple(market[:n_actual]),
        future=tuple(market[n_actual:8]),
        top=market[8],
        deck=rest,
        removed_unseen=(),
        rng=rng,
        modules={
            MODULE_NAME: InactiveArea(
                plants=tuple(inactive),  # in reveal order: the order they were laid out
                quota=_removals(rules),  # CDK-07: removals in the game
            )
        },
    )


def _removals(rules: Ruleset) -> int:
    """SET-12's count of the game's row, as the tables in force give it (classic: a number)."""
    removed = rules.tables.row.plants_removed
    if not isinstance(removed, int):
        raise RulesConfigError(
            "a customised deck needs a classic player-count row, whose plants_removed is a "
            f"number, not {dict(removed)} (CDK-07)",
            field="modules",
        )
    return removed


def reveal(rules: Ruleset, order: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """CDK-03: the initial market (by rank) and the inactive area (as laid out) of a reveal.

    The first card of a number goes to the inactive area, a later one to the
    market; plants 1 and 2 always to the market. A plus plant and the plain
    plant of its number never pair (CDK-10).
    """
    inactive: list[str] = []
    market: list[str] = []
    for label in order:
        card = rules.plant(label)
        pairs = any(key(rules.plant(i)) == key(card) for i in inactive)
        (market if card.number in SINGLES or pairs else inactive).append(label)
    return rules.ranked(market), tuple(inactive)


def filtered_draws(previous: DrawFilter) -> DrawFilter:
    """CDK-09 in variant M, after the filter in force; other variants keep every card."""

    def draw_filter(state: GameState, card: str, face_up: bool) -> tuple[GameState, bool]:
        state, keep = previous(state, card, face_up)
        if not keep or face_up or _variant(state.config) != "M":
            return state, keep  # EC-68: the face-up card's first draw is exempt
        plant = state.rules.plant(card)
        m, held = state.market, area(state)
        if plant.number not in SINGLES and all(
            key(state.rules.plant(c)) != key(plant) for c in held.plants
        ):
            state = with_module(
                state, MODULE_NAME, attrs.evolve(held, plants=held.plants + (card,))
            )
            return state.log(
                "plant_inactive",
                f"Plant {card} goes to the inactive area: no plant of its number is there "
                "(CDK-09).",
                None,
                card,
            ), False
        if held.quota > 0:
            state = evolve(
                state,
                market=evolve(m, removed=m.removed + (card,)),
                modules=state.modules.replaced(
                    MODULE_NAME, attrs.evolve(held, quota=held.quota - 1)
                ),
            )
            return state.log(
                "plant_removed",
                f"Plant {card} is removed from the game ({held.quota - 1} setup removals left, "
                "CDK-07).",
                None,
                card,
            ), False
        return state, True

    return draw_filter


def inactive_exit(previous: LeavePlay) -> LeavePlay:
    """CDK-08 in variant M: every plant leaving play goes to the inactive area."""

    def leave_play(state: GameState, plant: str, reason: str) -> GameState:
        if _variant(state.config) != "M":
            return previous(state, plant, reason)
        held = area(state)
        state = with_module(state, MODULE_NAME, attrs.evolve(held, plants=held.plants + (plant,)))
        return state.log(
            "plant_inactive", f"Plant {plant} goes to the inactive area (CDK-08).", None, plant
        )

    return leave_play


def _inactive_violations(previous: StateViolations) -> StateViolations:
    """The inactive area only exists in variant M (CDK-13)."""

    def state_violations(state: GameState) -> tuple[str, ...]:
        out = tuple(previous(state))
        held = area(state)
        if _variant(state.config) != "M" and (held.plants or held.quota):
            out += ("only variant M has an inactive area and a removal quota (CDK-13)",)
        return out

    return state_violations


MODULE = RuleModule(
    name=MODULE_NAME,
    version="1",
    hooks={"plant_deck": plant_deck, "setup_row": setup_row, "prepare_deck": prepare_deck},
    wraps={
        "draw_filter": filtered_draws,
        "leave_play": inactive_exit,
        "state_violations": _inactive_violations,
    },
    components={"classic"},
    rule="CDK-01",
    reads={"deck", "cities"},
    check_config=check,
    state=STATE,
    plant_events={"plant_inactive"},
    notable_events={"plant_inactive"},
)
