"""Rule modules: what a module is made of (DESIGN: Rule modules).

A game's rules are the ``base`` module, one component set, the board's map
module (in Deluxe games, or classic games that opt in, CON-02) and any extras,
composed in that order by :mod:`powergrid.ruleset`. Data (plants, tables, maps)
is loaded from package data; behaviour that differs between modules is a small
pure hook. A later module's hook replaces an earlier one of the same name; the
map comes after the component set so that a map rule overrides an edition
default (North America's discount token replaces the classic no-purchase
removal, AUC-20, in a classic game that opts in to the map rules).

This package holds the building blocks only and imports none of its modules,
so a rule module may import it without a cycle.

Hook points (each optional; the base game supplies the default):

``min_bid(state, plant) -> int``
    the lowest opening bid for an actual-market plant (AUC-04).
``market_shape(state) -> (actual, future)``
    how many plants form the actual and future market (CON-07).
``start_of_auction(state) -> state``
    runs when phase 2 begins, after STP-09.
``after_market_entry(state, plant) -> state``
    runs after a drawn plant entered the market (AUC-10).
``after_purchase(state, plant) -> state``
    runs when a plant left the actual market to a player, before any discard
    or replacement draw (AUC-10, AUC-19).
``end_of_auction(state) -> state``
    the end-of-phase-2 removals (AUC-15, AUC-20).
``step2_replacement(state) -> bool``
    whether the Step 2 one-time removal draws a replacement (STP-02).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from powergrid.enums import Resource
from powergrid.plants import Plant

if TYPE_CHECKING:
    from powergrid.chance import RngState
    from powergrid.config import GameConfig

HOOKS = (
    "min_bid",
    "market_shape",
    "start_of_auction",
    "after_market_entry",
    "after_purchase",
    "end_of_auction",
    "step2_replacement",
)


@attrs.frozen(eq=False)
class RuleModule:
    """A named, versioned bundle of data and hooks (see the module docstring for hooks).

    ``data`` holds plain settings a module contributes; the base game reads
    ``future_market_step1`` (plants in the future market during Step 1; 4 unless
    a map says otherwise, SET-26).
    """

    name: str
    version: str
    hooks: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)
    data: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen(eq=False)
class DeckSetup:
    """What deck preparation produced (SET-11): market, face-up top card, hidden deck."""

    actual: tuple[int, ...]
    future: tuple[int, ...]
    top: int | None
    deck: tuple[int, ...]
    removed_unseen: tuple[int, ...]
    rng: RngState


@attrs.frozen(eq=False)
class Components:
    """A component set: resources, plant deck, market, tables, and its edition rules.

    The three flags are the edition-specific readings of RULES.md: whether a
    player over the plant limit may discard the plant just bought (AUC-17),
    whether the market freezes after the Step 3 card shows in phase 2 (STP-05),
    and whether a Step 3 card drawn in phase 4 is resolved at once (STP-07).
    """

    name: str
    version: str
    resources: tuple[Resource, ...]
    plants: Mapping[int, Plant]
    slot_prices: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    initial_market: Callable[[str], tuple[int, ...]]
    refill: Callable[[str, int], tuple[tuple[int, int, int], ...]]
    income: tuple[int, ...]
    starting_money: int
    setup_rows: Mapping[int, Mapping[str, Any]]
    max_plants: int
    prepare_deck: Callable[[GameConfig, RngState, int], DeckSetup]
    may_discard_new_plant: bool
    step3_freezes_auction: bool
    step3_phase4_immediate: bool
    hooks: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)
    maps: frozenset[str] | None = None  # the maps it has tables for; None: any map


HOUSES_PER_PLAYER = 22  # SET-02, BLD-09
SLOT_COSTS = (10, 15, 20)  # BLD-05
