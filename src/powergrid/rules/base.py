"""The base game's default hooks (RULES.md sections 1-8).

Map and component modules replace these where their rules differ. The
record :data:`MODULE` defines every hook of :class:`powergrid.rules.hooks.Hooks`
(``Ruleset.base_hooks`` holds them, for the fast paths).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from powergrid.config import GameConfig
from powergrid.deck import Deck
from powergrid.errors import Reason
from powergrid.frozen import evolve
from powergrid.mechanics.chance_points import uniform_draws
from powergrid.mechanics.market import draw, market_shape, remove_lowest
from powergrid.rules import DeckSetup, RuleModule
from powergrid.rules.tables import ComponentTables
from powergrid.state import GameState

if TYPE_CHECKING:
    from powergrid.chance import RngState
    from powergrid.rules.ruleset import Ruleset


def min_bid(state: GameState, plant: str) -> int:
    """AUC-04: the opening bid is at least the plant's printed number (CON-08, CDK-14)."""
    return state.rules.plants[plant].number


def unchanged(state: GameState, *_: object) -> GameState:
    """A hook point the base game does nothing at."""
    return state


def nobody_bought_removal(rule: str) -> Callable[[GameState], GameState]:
    """A hook removing the lowest plant and drawing one if nobody bought (AUC-20, AUC-21)."""

    def end_of_auction(state: GameState) -> GameState:
        if state.bought:
            return state
        return draw(remove_lowest(state, f"nobody bought a plant, {rule}"))

    return end_of_auction


def seats_only(state: GameState, order: tuple[int, ...]) -> tuple[int, ...]:
    """ORD-01..ORD-03: the base game's order is the seats' (no automatic actors)."""
    return order


def component_deck(rules: Ruleset, rng: RngState) -> DeckSetup:
    """SET-11 / SET-21: the component set prepares the deck."""
    return rules.components.prepare_deck(rules, rng)


def no_setup_turn(state: GameState) -> int | None:
    """SET-01..SET-12: the base game's setup asks the players nothing."""
    return None


def no_violations(state: GameState) -> tuple[str, ...]:
    """The base game's consistent state is the core's (powergrid.engine.invariants)."""
    return ()


def no_refusal(state: GameState, seat: int, city: str) -> tuple[Reason, str] | None:
    """BLD-03..BLD-09: the core's checks are all the base game has."""
    return None


def table_amounts(state: GameState, amounts: tuple[int, ...]) -> tuple[int, ...]:
    """BUR-05, BUR-06: the refill table's numbers for the Step."""
    return amounts


def step2_replacement(state: GameState) -> bool:
    """STP-02: the Step 2 one-time removal draws a replacement."""
    return True


def keep_every_card(state: GameState, card: str, face_up: bool) -> tuple[GameState, bool]:
    """CON-13: every drawn card is resolved as drawn."""
    return state, True


def one_pile(state: GameState, rng: random.Random) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """CON-13, SET-11: the hidden cards drawn again as one shuffled pile (``resample_deck``).

    Before the Step 3 reshuffle the plants removed unseen are as hidden as the
    deck, so both are dealt from one pile; after it the deck holds only cards
    every player saw go under the Step 3 card (BUR-07), in an order nobody
    knows, and the removed ones stay out. The cards are sorted before the
    shuffle: their real order never shows through.
    """
    secret, rank = state.secret, state.rules.rank
    if not state.market.step3_in_deck:
        deck = sorted(secret.deck, key=rank.__getitem__)
        rng.shuffle(deck)
        return tuple(deck), secret.removed_unseen
    pool = sorted(secret.deck + secret.removed_unseen, key=rank.__getitem__)
    rng.shuffle(pool)
    size = len(secret.deck)
    return tuple(pool[:size]), tuple(sorted(pool[size:], key=rank.__getitem__))


def beside_the_game(state: GameState, plant: str, reason: str) -> GameState:
    """CON-11: a plant leaving play lies face up beside the game (``market.removed``)."""
    return evolve(state, market=evolve(state.market, removed=state.market.removed + (plant,)))


def printed_row(config: GameConfig, row: Mapping[str, Any]) -> Mapping[str, Any]:
    """SET-12 / SET-23: the component set's player-count row as printed."""
    return row


def printed_tables(config: GameConfig, tables: ComponentTables) -> ComponentTables:
    """The component set's tables as printed (SET-02, SET-07, BLD-05, BUR-04)."""
    return tables


def printed_deck(config: GameConfig, deck: Deck) -> Deck:
    """SET-11 / SET-21: the component set's own plant deck."""
    return deck


MODULE = RuleModule(
    name="base",
    version="1",
    hooks={
        "min_bid": min_bid,
        "market_shape": market_shape,
        "start_of_auction": unchanged,
        "after_market_entry": unchanged,
        "after_purchase": unchanged,
        "after_purchase_settled": unchanged,
        "after_pass": unchanged,
        "end_of_auction": unchanged,
        "step2_replacement": step2_replacement,
        "start_of_step2": unchanged,
        "draw_filter": keep_every_card,
        "draw_chances": uniform_draws,
        "resample_deck": one_pile,
        "leave_play": beside_the_game,
        "setup": unchanged,
        "prepare_deck": component_deck,
        "setup_turn": no_setup_turn,
        "after_build": unchanged,
        "build_refusal": no_refusal,
        "refill_amounts": table_amounts,
        "state_violations": no_violations,
        "player_order": seats_only,
        "actor_turn": unchanged,  # the base game has no automatic actors
        "setup_row": printed_row,
        "component_tables": printed_tables,
        "plant_deck": printed_deck,
    },
)
