"""The hook table: every point at which a rule module can change the game.

This is the one place that lists the hooks. :class:`Hooks` is the record of
the hooks in force in a game (``state.rules.hooks``): one typed field per
hook, whose metadata says when the engine calls it and the rule IDs it serves.
The table :data:`HOOKS` and the module authors' guide (``docs/modules.md``)
are generated from its fields.

Two kinds of hook:

- *state hooks* are called while a game is played, with the state;
- *composition hooks* (``setup_row``, ``component_tables``, ``plant_deck``) are
  called once, when the rules of a configuration are composed, with the config.

Hooks name plant cards by label (``"13"``, ``"46+"``; :mod:`powergrid.plants`),
and order them by the ruleset's rank, never by comparing labels.

The base module defines every hook (``powergrid.rules.base``). A later module
may replace a hook (``RuleModule.hooks``, a :class:`HookFunctions`) or wrap it
(``RuleModule.wraps``, a :class:`HookWraps`: a function that receives the
implementation in force and returns the new one). An extra module (one named
in ``GameConfig.modules``) may replace only the base game's default; to change
a hook that a component set or map module defines it must wrap it, so that it
cannot silently drop that rule (a third-party ``end_of_auction`` that replaced
North America's would lose AUC-33).

A fast path that skips a hook call asks whether the hook in force is the base
game's in one way only: ``rules.hooks.x is rules.base_hooks.x``
(:class:`powergrid.rules.ruleset.Ruleset`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict, TypeVar

import attrs

from powergrid.errors import RulesConfigError

if TYPE_CHECKING:
    import random

    from powergrid.actions import Reveal
    from powergrid.chance import RngState
    from powergrid.config import GameConfig
    from powergrid.deck import Deck
    from powergrid.errors import Reason
    from powergrid.rules import DeckSetup
    from powergrid.rules.ruleset import Ruleset
    from powergrid.rules.tables import ComponentTables
    from powergrid.state import GameState

__all__ = [
    "HOOKS",
    "BuildRefusal",
    "BuildStep",
    "DrawChances",
    "DrawFilter",
    "Hook",
    "HookFunctions",
    "HookWraps",
    "Hooks",
    "LeavePlay",
    "MarketShape",
    "MinBid",
    "PlantDeck",
    "PlantStep",
    "PlayerOrder",
    "PrepareDeck",
    "RefillAmounts",
    "ResampleDeck",
    "Row",
    "SeatPlantStep",
    "SeatStep",
    "SetupRow",
    "SetupTurn",
    "StateStep",
    "StateViolations",
    "Step2Replacement",
    "TablesChange",
    "Wrap",
    "checked_names",
    "table_markdown",
]

# The type of each hook, for a module author's annotations (a wrap of ``min_bid``
# is a ``Wrap[MinBid]``). Quoted: the engine's types import this module.
MinBid: TypeAlias = Callable[["GameState", str], int]
MarketShape: TypeAlias = Callable[["GameState"], tuple[int, int]]
StateStep: TypeAlias = Callable[["GameState"], "GameState"]
PlantStep: TypeAlias = Callable[["GameState", str], "GameState"]
SeatPlantStep: TypeAlias = Callable[["GameState", int, str], "GameState"]
SeatStep: TypeAlias = Callable[["GameState", int], "GameState"]
BuildStep: TypeAlias = Callable[["GameState", int, str], "GameState"]
Step2Replacement: TypeAlias = Callable[["GameState"], bool]
DrawFilter: TypeAlias = Callable[["GameState", str, bool], tuple["GameState", bool]]
DrawChances: TypeAlias = Callable[["GameState"], tuple[tuple["Reveal", Fraction], ...]]
#: The hidden deck and the plants removed unseen, drawn again: ``(deck, removed_unseen)``.
ResampleDeck: TypeAlias = Callable[
    ["GameState", "random.Random"], tuple[tuple[str, ...], tuple[str, ...]]
]
LeavePlay: TypeAlias = Callable[["GameState", str, str], "GameState"]
#: Why a seat may not build in a city, as (reason, sentence), or None: it may.
BuildRefusal: TypeAlias = Callable[["GameState", int, str], "tuple[Reason, str] | None"]
#: The tokens per kind a refill moves, before the supply and the track's room cap them.
RefillAmounts: TypeAlias = Callable[["GameState", tuple[int, ...]], tuple[int, ...]]
PrepareDeck: TypeAlias = Callable[["Ruleset", "RngState"], "DeckSetup"]
SetupTurn: TypeAlias = Callable[["GameState"], int | None]
PlayerOrder: TypeAlias = Callable[["GameState", tuple[int, ...]], tuple[int, ...]]
StateViolations: TypeAlias = Callable[["GameState"], tuple[str, ...]]
#: A player-count row (SET-12, SET-23): its keys are listed in
#: :data:`powergrid.rules.tables.ROW_KEYS`.
Row: TypeAlias = Mapping[str, Any]
SetupRow: TypeAlias = Callable[["GameConfig", Row], Row]
TablesChange: TypeAlias = Callable[["GameConfig", "ComponentTables"], "ComponentTables"]
PlantDeck: TypeAlias = Callable[["GameConfig", "Deck"], "Deck"]

_F = TypeVar("_F")
#: A wrap: receives the implementation in force and returns the new one.
Wrap: TypeAlias = Callable[[_F], _F]


@attrs.frozen
class Hook:
    """One row of the hook table, read from a :class:`Hooks` field.

    ``signature`` is the call and its result, ``moment`` says when the engine
    calls it, ``rules`` names the rule IDs it serves and ``composition`` marks a
    hook called once when the rules are composed rather than during play.
    """

    name: str
    signature: str
    moment: str
    rules: tuple[str, ...]
    composition: bool = False


def _doc(
    signature: str, moment: str, rules: tuple[str, ...], *, composition: bool = False
) -> dict[str, object]:
    """The metadata of one :class:`Hooks` field: its row of the table but the name."""
    return {"signature": signature, "moment": moment, "rules": rules, "composition": composition}


@attrs.frozen
class Hooks:
    """The hooks in force in a game: one typed field per hook (``state.rules.hooks``).

    Each field's metadata holds its row of the table (:data:`HOOKS`): when the
    engine calls it, its signature and the rule IDs it serves. The engine
    calls a hook by attribute (``rules.hooks.min_bid(state, plant)``); the
    record is composed from the modules' :class:`HookFunctions` and
    :class:`HookWraps` (:func:`powergrid.rules.ruleset.compose_hooks`).
    """

    min_bid: MinBid = attrs.field(
        metadata=_doc(
            "min_bid(state, plant) -> int",
            "whenever the lowest opening bid for an actual-market plant (a card label) is "
            "needed; the base game returns its printed number",
            ("AUC-04", "AUC-31"),
        )
    )
    market_shape: MarketShape = attrs.field(
        metadata=_doc(
            "market_shape(state) -> (actual, future)",
            "whenever the plant market is re-sorted",
            ("CON-07", "SET-26"),
        )
    )
    start_of_auction: StateStep = attrs.field(
        metadata=_doc(
            "start_of_auction(state) -> state",
            "when phase 2 begins, after the Step 3 market is filled (STP-09)",
            ("AUC-31",),
        )
    )
    after_market_entry: PlantStep = attrs.field(
        metadata=_doc(
            "after_market_entry(state, plant) -> state",
            "after a drawn plant entered the market",
            ("AUC-10", "AUC-32"),
        )
    )
    after_purchase: PlantStep = attrs.field(
        metadata=_doc(
            "after_purchase(state, plant) -> state",
            "when a bought plant left the market, before any discard or replacement draw",
            ("AUC-09", "AUC-19"),
        )
    )
    after_purchase_settled: SeatPlantStep = attrs.field(
        metadata=_doc(
            "after_purchase_settled(state, seat, plant) -> state",
            "after a purchase is settled: after the discard, the replacement draw and the re-sort",
            ("AUC-10", "AUC-19", "FND-11"),
        )
    )
    after_pass: SeatStep = attrs.field(
        metadata=_doc(
            "after_pass(state, seat) -> state",
            "after a player passed phase 2",
            ("AUC-12", "FND-11"),
        )
    )
    end_of_auction: StateStep = attrs.field(
        metadata=_doc(
            "end_of_auction(state) -> state",
            "when phase 2 ends, before a pending Step 3 is resolved",
            ("AUC-15", "AUC-20", "AUC-21", "AUC-33"),
        )
    )
    after_build: BuildStep = attrs.field(
        metadata=_doc(
            "after_build(state, seat, city) -> state",
            "after a player's house is placed in phase 4 and paid for, before the Step 2, "
            "game-end and too-small checks of that house",
            ("BLD-02", "FND-08"),
        )
    )
    build_refusal: BuildRefusal = attrs.field(
        metadata=_doc(
            "build_refusal(state, seat, city) -> (Reason, message) | None",
            "whenever phase 4 lists or checks a house of a seat in a city the core allows "
            "(legal_actions, apply): why a module's rule forbids it, with a stable reason "
            "and a sentence citing the rule, or None; the base game forbids nothing more",
            ("BLD-03", "RCH-13"),
        )
    )
    refill_amounts: RefillAmounts = attrs.field(
        metadata=_doc(
            "refill_amounts(state, amounts) -> amounts",
            "when phase 5 refills the resource market: the tokens per kind the refill table "
            "gives for the Step (in resource order), before the supply and the track's room "
            "cap them; the base game keeps the table's",
            ("BUR-05", "BUR-06", "RCH-42"),
        )
    )
    step2_replacement: Step2Replacement = attrs.field(
        metadata=_doc(
            "step2_replacement(state) -> bool",
            "when Step 2 begins: whether its removal draws a replacement",
            ("STP-02", "SET-26"),
        )
    )
    start_of_step2: StateStep = attrs.field(
        metadata=_doc(
            "start_of_step2(state) -> state",
            "when Step 2 has begun, after its removal and replacement",
            ("STP-02", "FND-08"),
        )
    )
    draw_filter: DrawFilter = attrs.field(
        metadata=_doc(
            "draw_filter(state, card, face_up) -> (state, keep)",
            "for every card drawn from the deck or the face-up top (face_up: it was the "
            "card lying face up on the deck), before it is resolved; keep=False sets it "
            "aside (the hook has put it somewhere) and draws again",
            ("CON-13", "CDK-09"),
        )
    )
    draw_chances: DrawChances = attrs.field(
        metadata=_doc(
            "draw_chances(state) -> ((Reveal, Fraction), ...)",
            "in a game with explicit chance, before each card is taken from the hidden "
            "deck: every card that may come next, with its probability (the deck "
            "preparation's shape decides them; the default treats the hidden cards as one "
            "shuffled pile)",
            ("CON-13", "SET-11", "SET-21"),
        )
    )
    resample_deck: ResampleDeck = attrs.field(
        metadata=_doc(
            "resample_deck(state, rng) -> (deck, removed_unseen)",
            "when powergrid.determinize draws a seat's hidden cards again: the hidden deck "
            "and the plants removed unseen, drawn with the random.Random rng alone from the "
            "cards the state hides, as the deck preparation's shape makes them likely (what "
            "draw_chances says card by card; the default shuffles them as one pile); never "
            "read their real order",
            ("CON-13", "SET-11", "SET-21"),
        )
    )
    leave_play: LeavePlay = attrs.field(
        metadata=_doc(
            "leave_play(state, plant, reason) -> state",
            "for every plant that leaves play (removed, too small, discarded); reason is "
            "'removed', 'too_small' or 'discarded'; the default puts it face up beside the "
            "game",
            ("CON-11", "AUC-17", "BLD-12", "CDK-08"),
        )
    )
    setup: StateStep = attrs.field(
        metadata=_doc(
            "setup(state) -> state",
            "once, when a game is set up: after deck preparation and the round-1 order, "
            "before the first phase 2 (a module adds its automatic actors here)",
            ("SET-05", "ORD-06", "FND-05"),
        )
    )
    prepare_deck: PrepareDeck = attrs.field(
        metadata=_doc(
            "prepare_deck(rules, rng) -> DeckSetup",
            "once, when a game is set up: the initial market, the face-up card, the hidden "
            "deck, the plants removed unseen (and the records it sets for modules' own "
            "state, DeckSetup.modules); the base game asks the component set (SET-11, SET-21)",
            ("SET-11", "SET-21", "CDK-02", "CDK-05", "CDK-12"),
        )
    )
    setup_turn: SetupTurn = attrs.field(
        metadata=_doc(
            "setup_turn(state) -> seat | None",
            "while the game is in its setup phase (Phase.SETUP, after the setup hook): the "
            "seat that must make the next setup decision, or None when setup is over and "
            "the first phase 2 begins; the base game asks none. The decisions are the "
            "modules' own actions of Phase.SETUP (RuleModule.actions)",
            ("SET-05", "FND-05"),
        )
    )
    player_order: PlayerOrder = attrs.field(
        metadata=_doc(
            "player_order(state, order) -> order",
            "whenever phase 1 (or round 1's re-order) has sorted the seats: where automatic "
            "actors stand in the order; the seats' sorted order comes in",
            ("ORD-01", "ORD-04", "ORD-06"),
        )
    )
    actor_turn: SeatStep = attrs.field(
        metadata=_doc(
            "actor_turn(state, actor) -> state",
            "when an automatic actor's place in the order comes up in phases 3 to 5 (it is "
            "marked done afterwards); actors take no turn in the auction",
            ("ORD-06", "FND-15"),
        )
    )
    state_violations: StateViolations = attrs.field(
        metadata=_doc(
            "state_violations(state) -> tuple[str, ...]",
            "whenever a state is checked for consistency (the JSON decoder, the position "
            "builder, the property tests), after the core's checks hold: the rules a module "
            "adds to a consistent state, as sentences; a module wraps it to add its own",
            ("CON-10", "FND-02", "FND-08"),
        )
    )
    setup_row: SetupRow = attrs.field(
        metadata=_doc(
            "setup_row(config, row) -> row",
            "once, when the rules are composed: the player-count row as a mapping (its "
            "keys are listed below the component tables); module API 1, kept working: "
            "its result becomes `tables.row`, which `component_tables` then receives",
            ("SET-12", "SET-23", "CDK-15"),
            composition=True,
        )
    )
    component_tables: TablesChange = attrs.field(
        metadata=_doc(
            "component_tables(config, tables) -> tables",
            "once, when the rules are composed, after setup_row: the component tables in "
            "force (a ComponentTables: resource prices and track, refill, income, house "
            "costs, starting money, the player-count row with the plant limit); return "
            "changed ones with attrs.evolve",
            ("SET-02", "SET-07", "SET-12", "RES-06", "BLD-05", "BUR-04", "AUC-16"),
            composition=True,
        )
    )
    plant_deck: PlantDeck = attrs.field(
        metadata=_doc(
            "plant_deck(config, deck) -> deck",
            "once, when the rules are composed: the game's plant deck (a Deck: cards with "
            "labels, the Step 3 card, the declared order of equal numbers)",
            ("SET-11", "CDK-14", "CDK-20", "CDK-21"),
            composition=True,
        )
    )


class HookFunctions(TypedDict, total=False):
    """What a module's ``hooks`` may replace: hook name to function (each checked by mypy).

    A plain dict literal is one: ``{"min_bid": my_min_bid}``.
    """

    min_bid: MinBid
    market_shape: MarketShape
    start_of_auction: StateStep
    after_market_entry: PlantStep
    after_purchase: PlantStep
    after_purchase_settled: SeatPlantStep
    after_pass: SeatStep
    end_of_auction: StateStep
    after_build: BuildStep
    build_refusal: BuildRefusal
    refill_amounts: RefillAmounts
    step2_replacement: Step2Replacement
    start_of_step2: StateStep
    draw_filter: DrawFilter
    draw_chances: DrawChances
    resample_deck: ResampleDeck
    leave_play: LeavePlay
    setup: StateStep
    prepare_deck: PrepareDeck
    setup_turn: SetupTurn
    player_order: PlayerOrder
    actor_turn: SeatStep
    state_violations: StateViolations
    setup_row: SetupRow
    component_tables: TablesChange
    plant_deck: PlantDeck


class HookWraps(TypedDict, total=False):
    """What a module's ``wraps`` may wrap: hook name to a ``Wrap`` of that hook's type."""

    min_bid: Wrap[MinBid]
    market_shape: Wrap[MarketShape]
    start_of_auction: Wrap[StateStep]
    after_market_entry: Wrap[PlantStep]
    after_purchase: Wrap[PlantStep]
    after_purchase_settled: Wrap[SeatPlantStep]
    after_pass: Wrap[SeatStep]
    end_of_auction: Wrap[StateStep]
    after_build: Wrap[BuildStep]
    build_refusal: Wrap[BuildRefusal]
    refill_amounts: Wrap[RefillAmounts]
    step2_replacement: Wrap[Step2Replacement]
    start_of_step2: Wrap[StateStep]
    draw_filter: Wrap[DrawFilter]
    draw_chances: Wrap[DrawChances]
    resample_deck: Wrap[ResampleDeck]
    leave_play: Wrap[LeavePlay]
    setup: Wrap[StateStep]
    prepare_deck: Wrap[PrepareDeck]
    setup_turn: Wrap[SetupTurn]
    player_order: Wrap[PlayerOrder]
    actor_turn: Wrap[SeatStep]
    state_violations: Wrap[StateViolations]
    setup_row: Wrap[SetupRow]
    component_tables: Wrap[TablesChange]
    plant_deck: Wrap[PlantDeck]


def _row(field: attrs.Attribute[object]) -> Hook:
    meta = field.metadata
    return Hook(field.name, meta["signature"], meta["moment"], meta["rules"], meta["composition"])


#: The hook table by name, in the order of the :class:`Hooks` fields.
HOOKS: Mapping[str, Hook] = {f.name: _row(f) for f in attrs.fields(Hooks)}


def checked_names(value: Mapping[str, object], kind: str) -> dict[str, Any]:
    """``value`` as a new dict, when every key names a hook and every value is callable.

    ``kind`` is the field it was given as (``"hooks"`` or ``"wraps"``). An
    unknown name raises :class:`~powergrid.RulesConfigError` naming it and the
    hooks there are; a value that is not a function raises ``TypeError``.
    """
    if not isinstance(value, Mapping):
        raise TypeError(f"{kind} takes a mapping from hook name to function, not {value!r}")
    for name, fn in value.items():
        if name not in HOOKS:
            raise RulesConfigError(
                f"{kind} names unknown hook {name!r}; the hooks are {', '.join(HOOKS)}",
                field=kind,
            )
        if not callable(fn):
            raise TypeError(f"{kind}[{name!r}] must be a function, not {fn!r}")
    return dict(value)


def table_markdown() -> str:
    """The hook table as a Markdown table (the module authors' guide includes it)."""
    lines = ["| hook | called | rules |", "|---|---|---|"]
    for hook in HOOKS.values():
        when = ("composition: " if hook.composition else "") + hook.moment
        lines.append(f"| `{hook.signature}` | {when} | {', '.join(hook.rules)} |")
    return "\n".join(lines) + "\n"
