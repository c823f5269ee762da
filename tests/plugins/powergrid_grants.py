"""A rule module a third party could have written: state, an action and dearer houses.

This distribution is not part of powergrid and edits nothing in it: it uses only the
module API (``powergrid.module_api``, ``powergrid.rules``, ``powergrid.rules.hooks``), as
the guide "Writing rule modules" shows. It is a made-up variant for the tests, not a
rule of any edition:

- **Grants.** Once per game, the seat on turn in phase 3 may claim a grant of
  :data:`GRANT` Elektro from the bank instead of, or before, buying resources. Who has
  claimed is the module's own state (:class:`Grants`), public to everyone, written
  ``granted=0,2`` in position texts.
- **Dearer houses.** Houses cost 12, 17 and 22 Elektro on their first, second and
  third slots (the component tables), so every build costs 2 more than BLD-05's.
"""

from __future__ import annotations

import attrs

from powergrid.config import GameConfig
from powergrid.enums import Phase
from powergrid.errors import Reason
from powergrid.module_api import StateSpec, illegal, name, with_module
from powergrid.rules import ModuleAction, RuleModule
from powergrid.rules.hooks import TablesChange
from powergrid.rules.ruleset import Ruleset
from powergrid.rules.tables import ComponentTables
from powergrid.state import GameState, evolve

#: The grant, in Elektro.
GRANT = 10
#: The house costs of the variant, per slot (BLD-05 has 10, 15, 20).
HOUSE_COSTS = (12, 17, 22)
MODULE_NAME = "grants"


@attrs.frozen
class Grants:
    """The seats that have claimed their grant (at most once each)."""

    claimed: frozenset[int] = frozenset()


@attrs.frozen(kw_only=True)
class ClaimGrant:
    """Take the once-per-game grant from the bank (phase 3, the seat on turn)."""

    player: int

    def __str__(self) -> str:
        return f"{self.player}:grant"


def grants(state: GameState) -> Grants:
    """The module's own record in a game that plays it."""
    record: Grants = state.modules[MODULE_NAME]
    return record


def legal(state: GameState, seat: int) -> tuple[ClaimGrant, ...]:
    """The claim, while the seat on turn has not claimed yet."""
    return () if seat in grants(state).claimed else (ClaimGrant(player=seat),)


def claim(state: GameState, action: ClaimGrant) -> GameState:
    """Pay the grant and remember the claim; a second claim is refused."""
    seat = action.player
    if seat in grants(state).claimed:
        illegal(f"{name(state, seat)} has claimed the grant already", Reason.MODULE_RULE, action)
    player = state.players[seat]
    paid = evolve(player, money=player.money + GRANT)
    state = evolve(state, players=state.players[:seat] + (paid,) + state.players[seat + 1 :])
    state = with_module(state, MODULE_NAME, Grants(grants(state).claimed | {seat}))
    text = f"{name(state, seat)} claims a grant of {GRANT} Elektro."
    return state.log("grant_claimed", text, seat, GRANT)


def every_claim(rules: Ruleset) -> tuple[ClaimGrant, ...]:
    """The one claim there is (of seat 0: the codec fills in the seat)."""
    return (ClaimGrant(player=0),)


def dearer_houses(previous: TablesChange) -> TablesChange:
    """Houses cost 12, 17, 22: after the tables in force."""

    def component_tables(config: GameConfig, tables: ComponentTables) -> ComponentTables:
        return attrs.evolve(previous(config, tables), house_costs=HOUSE_COSTS)

    return component_tables


MODULE = RuleModule(
    name=MODULE_NAME,
    version="1.0",
    api=2,
    state=StateSpec(record=Grants, keys={"claimed": "granted"}),
    actions=(
        ModuleAction(
            cls=ClaimGrant,
            verb="grant",
            phases={Phase.RESOURCES},
            legal=legal,
            apply=claim,
            instances=every_claim,
        ),
    ),
    wraps={"component_tables": dearer_houses},
)
