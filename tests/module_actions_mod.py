"""A tiny test-only rule module with an action of its own (issue 32 item 2).

``subsidy_test`` adds :class:`ClaimSubsidy`: once per game, the seat on turn
in phase 3 may take a subsidy of 5 or 10 Elektro from the bank, next to the
phase's own actions. Its notation is ``<seat>:subsidy <amount>`` (the default
parser: the words fill the fields after ``player``). A claim is remembered in
the event log (``subsidy_claimed``), so the module needs no state of its own.
It lives outside the test file so that pickles find the class by its module.
"""

from __future__ import annotations

import attrs

from powergrid.actions import whole_number
from powergrid.enums import Phase
from powergrid.errors import IllegalAction, Reason
from powergrid.rules import ModuleAction, RuleModule
from powergrid.rules.ruleset import Ruleset
from powergrid.state import GameState, evolve

#: The subsidies one may claim, in Elektro.
AMOUNTS = (5, 10)


@attrs.frozen(kw_only=True)
class ClaimSubsidy:
    """Take a once-per-game subsidy of ``amount`` Elektro from the bank (phase 3)."""

    player: int = attrs.field(validator=whole_number)
    amount: int = attrs.field(validator=whole_number)

    def __str__(self) -> str:
        return f"{self.player}:subsidy {self.amount}"


def claimed(state: GameState, seat: int) -> bool:
    """Whether ``seat`` has claimed its subsidy in this game."""
    return any(e.kind == "subsidy_claimed" and e.player == seat for e in state.events)


def legal(state: GameState, seat: int) -> tuple[ClaimSubsidy, ...]:
    """Both subsidies while the seat has claimed none."""
    if claimed(state, seat):
        return ()
    return tuple(ClaimSubsidy(player=seat, amount=a) for a in AMOUNTS)


def claim(state: GameState, action: ClaimSubsidy) -> GameState:
    """Pay the subsidy; a second claim or another amount is refused."""
    if action.amount not in AMOUNTS:
        raise IllegalAction(
            f"A subsidy is 5 or 10 Elektro, not {action.amount}", reason=Reason.MODULE_RULE
        )
    if claimed(state, action.player):
        raise IllegalAction("Each player claims a subsidy once per game", reason=Reason.MODULE_RULE)
    player = state.player(action.player)
    state = evolve(
        state, players=state.replaced(evolve(player, money=player.money + action.amount))
    )
    return state.log(
        "subsidy_claimed",
        f"Seat {action.player} claims a subsidy of {action.amount} Elektro.",
        action.player,
        action.amount,
    )


def instances(rules: Ruleset) -> tuple[ClaimSubsidy, ...]:
    """Every claim, of seat 0."""
    return tuple(ClaimSubsidy(player=0, amount=a) for a in AMOUNTS)


CLAIM = ModuleAction(
    cls=ClaimSubsidy,
    verb="subsidy",
    phases={Phase.RESOURCES},
    legal=legal,
    apply=claim,
    instances=instances,
)

MODULE = RuleModule(name="subsidy_test", version="1", actions=(CLAIM,))
