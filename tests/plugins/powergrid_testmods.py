"""Rule modules from outside the powergrid package, found through its entry points.

This folder is a tiny distribution (``powergrid_testmods-1.0.dist-info`` holds
its metadata and ``powergrid.rules`` entry points); a test puts the folder on
``sys.path`` and the modules become available by name, with no edit to
powergrid. Each module exercises one part of the module interface:

- ``bargain`` wraps ``min_bid``: every opening bid is one Elektro lower, never
  below 1, and the rule it wraps still decides first (North America's token
  plant still opens at 1, AUC-31).
- ``audit`` wraps ``draw_filter`` and ``leave_play`` to log every card that
  enters through a draw and every plant that leaves play, so a test can check
  that each passes the one entrance and the one exit.
- ``classic_only``, ``needs_bargain``: declared needs (component set, players,
  another module) that a config must meet.
- ``greedy_removal`` replaces ``end_of_auction`` without wrapping it, which
  composition refuses where a component set or map defines that hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from powergrid.rules import RuleModule
from powergrid.state import GameState

Hook = Callable[..., Any]


def cheaper_openings(previous: Hook) -> Hook:
    """One Elektro off every opening bid, after the rule in force (min 1)."""

    def min_bid(state: GameState, plant: int) -> int:
        return max(1, int(previous(state, plant)) - 1)

    return min_bid


def audited_draws(previous: Hook) -> Hook:
    """Log each drawn card, then let the filter in force decide."""

    def draw_filter(state: GameState, card: int) -> tuple[GameState, bool]:
        state = state.log("audit_drawn", f"Card {card} is drawn.", None, card)
        return previous(state, card)  # type: ignore[no-any-return]

    return draw_filter


REASONS = ("removed", "too_small", "discarded")


def audited_exits(previous: Hook) -> Hook:
    """Log each plant leaving play with its reason, then let the exit in force place it."""

    def leave_play(state: GameState, plant: int, reason: str) -> GameState:
        state = state.log("audit_left", f"Plant {plant} leaves ({reason}).", None, plant)
        state = state.log("audit_reason", reason, None, REASONS.index(reason))
        return previous(state, plant, reason)  # type: ignore[no-any-return]

    return leave_play


def greedy_end_of_auction(state: GameState) -> GameState:
    """Replaces end_of_auction outright (and so would drop AUC-20, AUC-21 or AUC-33)."""
    return state


BARGAIN = RuleModule(name="bargain", version="1.0", wraps={"min_bid": cheaper_openings})
AUDIT = RuleModule(
    name="audit",
    version="1.0",
    wraps={"draw_filter": audited_draws, "leave_play": audited_exits},
)
CLASSIC_ONLY = RuleModule(
    name="classic_only",
    version="1.0",
    components={"classic"},
    players={3, 4},
    rule="TEST-01",
)
NEEDS_BARGAIN = RuleModule(name="needs_bargain", version="1.0", requires=("bargain",))
GREEDY_REMOVAL = RuleModule(
    name="greedy_removal", version="1.0", hooks={"end_of_auction": greedy_end_of_auction}
)
