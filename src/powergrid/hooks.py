"""The hook table: every point at which a rule module can change the game.

This is the one place that lists the hooks: their name, when the engine calls
them, their arguments and result, and the rule IDs they serve. The module
authors' guide (``docs/modules.md``) is generated from it.

Two kinds of hook:

- *state hooks* are called while a game is played, with the state;
- *composition hooks* (``setup_row``, ``plant_deck``) are called once, when the
  rules of a configuration are composed, with the config.

Hooks name plant cards by label (``"13"``, ``"46+"``; :mod:`powergrid.plants`),
and order them by the ruleset's rank, never by comparing labels.

The base module defines every hook (``powergrid.rules.base``). A later module
may replace a hook (``RuleModule.hooks``) or wrap it (``RuleModule.wraps``: a
function that receives the implementation in force and returns the new one).
An extra module (one named in ``GameConfig.modules``) may replace only the
base game's default; to change a hook that a component set or map module
defines it must wrap it, so that it cannot silently drop that rule (a
third-party ``end_of_auction`` that replaced North America's would lose
AUC-33).
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs


@attrs.frozen
class Hook:
    """One row of the hook table.

    ``signature`` is the call and its result, ``moment`` says when the engine
    calls it, ``rules`` names the rule IDs it serves and ``composition`` marks a
    hook called once when the rules are composed rather than during play.
    """

    name: str
    signature: str
    moment: str
    rules: tuple[str, ...]
    composition: bool = False


_ROWS = (
    Hook(
        "min_bid",
        "min_bid(state, plant) -> int",
        "whenever the lowest opening bid for an actual-market plant (a card label) is "
        "needed; the base game returns its printed number",
        ("AUC-04", "AUC-31"),
    ),
    Hook(
        "market_shape",
        "market_shape(state) -> (actual, future)",
        "whenever the plant market is re-sorted",
        ("CON-07", "SET-26"),
    ),
    Hook(
        "start_of_auction",
        "start_of_auction(state) -> state",
        "when phase 2 begins, after the Step 3 market is filled (STP-09)",
        ("AUC-31",),
    ),
    Hook(
        "after_market_entry",
        "after_market_entry(state, plant) -> state",
        "after a drawn plant entered the market",
        ("AUC-10", "AUC-32"),
    ),
    Hook(
        "after_purchase",
        "after_purchase(state, plant) -> state",
        "when a bought plant left the market, before any discard or replacement draw",
        ("AUC-09", "AUC-19"),
    ),
    Hook(
        "after_purchase_settled",
        "after_purchase_settled(state, seat, plant) -> state",
        "after a purchase is settled: after the discard, the replacement draw and the re-sort",
        ("AUC-10", "AUC-19", "FND-11"),
    ),
    Hook(
        "after_pass",
        "after_pass(state, seat) -> state",
        "after a player passed phase 2",
        ("AUC-12", "FND-11"),
    ),
    Hook(
        "end_of_auction",
        "end_of_auction(state) -> state",
        "when phase 2 ends, before a pending Step 3 is resolved",
        ("AUC-15", "AUC-20", "AUC-21", "AUC-33"),
    ),
    Hook(
        "after_build",
        "after_build(state, seat, city) -> state",
        "after a player's house is placed in phase 4 and paid for, before the Step 2, "
        "game-end and too-small checks of that house",
        ("BLD-02", "FND-08"),
    ),
    Hook(
        "step2_replacement",
        "step2_replacement(state) -> bool",
        "when Step 2 begins: whether its removal draws a replacement",
        ("STP-02", "SET-26"),
    ),
    Hook(
        "start_of_step2",
        "start_of_step2(state) -> state",
        "when Step 2 has begun, after its removal and replacement",
        ("STP-02", "FND-08"),
    ),
    Hook(
        "draw_filter",
        "draw_filter(state, card, face_up) -> (state, keep)",
        "for every card drawn from the deck or the face-up top (face_up: it was the "
        "card lying face up on the deck), before it is resolved; keep=False sets it aside "
        "(the hook has put it somewhere) and draws again",
        ("CON-13", "CDK-09"),
    ),
    Hook(
        "draw_chances",
        "draw_chances(state) -> ((Reveal, Fraction), ...)",
        "in a game with explicit chance, before each card is taken from the hidden deck: "
        "every card that may come next, with its probability (the deck preparation's "
        "shape decides them; the default treats the hidden cards as one shuffled pile)",
        ("CON-13", "SET-11", "SET-21"),
    ),
    Hook(
        "leave_play",
        "leave_play(state, plant, reason) -> state",
        "for every plant that leaves play (removed, too small, discarded); reason is "
        "'removed', 'too_small' or 'discarded'; the default puts it face up beside the game",
        ("CON-11", "AUC-17", "BLD-12", "CDK-08"),
    ),
    Hook(
        "setup",
        "setup(state) -> state",
        "once, when a game is set up: after deck preparation and the round-1 order, before "
        "the first phase 2 (a module adds its automatic actors here)",
        ("SET-05", "ORD-06", "FND-05"),
    ),
    Hook(
        "prepare_deck",
        "prepare_deck(rules, rng) -> DeckSetup",
        "once, when a game is set up: the initial market, the face-up card, the hidden "
        "deck, the plants removed unseen (and a module's inactive area and removal quota); "
        "the base game asks the component set (SET-11, SET-21)",
        ("SET-11", "SET-21", "CDK-02", "CDK-05", "CDK-12"),
    ),
    Hook(
        "setup_turn",
        "setup_turn(state) -> seat | None",
        "while the game is in its setup phase (Phase.SETUP, after the setup hook): the seat "
        "that must make the next setup decision, or None when setup is over and the first "
        "phase 2 begins; the base game asks none",
        ("SET-05", "FND-05"),
    ),
    Hook(
        "setup_actions",
        "setup_actions(state, seat) -> tuple[Action, ...]",
        "whenever the legal setup decisions of the seat on turn are needed (legal_actions), "
        "in a stable order",
        ("FND-05",),
    ),
    Hook(
        "setup_apply",
        "setup_apply(state, action) -> state",
        "when the seat on turn plays a setup action (the engine checked phase and turn); it "
        "raises IllegalAction with a stable reason when the rules forbid it",
        ("FND-05",),
    ),
    Hook(
        "player_order",
        "player_order(state, order) -> order",
        "whenever phase 1 (or round 1's re-order) has sorted the seats: where automatic "
        "actors stand in the order; the seats' sorted order comes in",
        ("ORD-01", "ORD-04", "ORD-06"),
    ),
    Hook(
        "actor_turn",
        "actor_turn(state, actor) -> state",
        "when an automatic actor's place in the order comes up in phases 3 to 5 (it is "
        "marked done afterwards); actors take no turn in the auction",
        ("ORD-06", "FND-15"),
    ),
    Hook(
        "state_violations",
        "state_violations(state) -> tuple[str, ...]",
        "whenever a state is checked for consistency (the JSON decoder, the position "
        "builder, the property tests), after the core's checks hold: the rules a module "
        "adds to a consistent state, as sentences; a module wraps it to add its own",
        ("CON-10", "FND-02", "FND-08"),
    ),
    Hook(
        "setup_row",
        "setup_row(config, row) -> row",
        "once, when the rules are composed: the player-count row (regions, plants removed, "
        "Step 2 and game-end thresholds, plant limit)",
        ("SET-12", "SET-23", "CDK-15"),
        composition=True,
    ),
    Hook(
        "plant_deck",
        "plant_deck(config, deck) -> deck",
        "once, when the rules are composed: the game's plant deck (a Deck: cards with "
        "labels, the Step 3 card, the declared order of equal numbers)",
        ("SET-11", "CDK-14", "CDK-20", "CDK-21"),
        composition=True,
    ),
)

#: The hook table by name, in the order above.
HOOKS: Mapping[str, Hook] = {row.name: row for row in _ROWS}


def table_markdown() -> str:
    """The hook table as a Markdown table (the module authors' guide includes it)."""
    lines = ["| hook | called | rules |", "|---|---|---|"]
    for hook in HOOKS.values():
        when = ("composition: " if hook.composition else "") + hook.moment
        lines.append(f"| `{hook.signature}` | {when} | {', '.join(hook.rules)} |")
    return "\n".join(lines) + "\n"
