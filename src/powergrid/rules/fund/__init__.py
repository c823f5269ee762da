"""The 2-player fund (RULES.md section 9): a neutral third party played inside ``apply``.

Two humans play the Deluxe game against a fund that blocks cities and takes
the best plant and its fuel for free (FND-01). It is the automatic actor
:data:`FUND` (id ``-1``, "the fund"): it stands second in the player order
(FND-03, ORD-06), never bids, never pays or earns (FND-02, FND-06), and its
houses and cities never count for Step 2, the too-small rule, the game end or
the ranking (FND-07, OQ-14, END-06): those counts are the seats' alone in the
core.

Where each rule lives:

- setup (FND-03..FND-05): the ``setup`` hook puts the fund in the order; the
  players then place its six starting houses with :class:`PlaceFundHouse`,
  the module's own action (``PLACE_FUND_HOUSE``), in the setup phase
  (``powergrid.rules.fund.setup``);
- phase 2 (FND-10..FND-14), phase 3 (FND-15..FND-17, RES-10) and phase 5
  (FND-18): ``powergrid.rules.fund.turns``;
- phase 4 (FND-08, OQ-12): the build policy, :func:`on_fifteen_slot` by
  default. Another reading of the fund's houses is plugged in by building the
  module with another policy, ``fund_module(name="fund_eager",
  build_policy=...)``, and registering or installing it under its own name.

Rules of section 9 that the Deluxe 2-player game already plays, with no code
here: the 3 regions (FND-04) and the deck preparation's 1 dark and 5 light
removals (FND-19) are the 2-player row of the Deluxe tables; fund houses
occupy slots and routes pass through them like any other house (FND-09,
BLD-05, BLD-07); the 18-city game end, the round-1 must-buy and the
last-player rule are the humans' (FND-20, AUC-13, AUC-14), because the fund
is done from the start of every phase 2.

The fund's numbers (16 houses, 6 starting houses, the placers' sequence, its
3-plant limit) are package data, ``data/fund.json``.

The Recharged Trust (RCH-84, RCH-85) is the same third party with other
readings, a :class:`~powergrid.rules.fund.variant.FundVariant`:
``fund_module(variant=RECHARGED_TRUST)`` is the module ``trust``
(``powergrid.rules.trust``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import attrs

from powergrid.config import GameConfig
from powergrid.enums import Phase
from powergrid.frozen import evolve
from powergrid.rules import ModuleAction, RuleModule
from powergrid.rules.fund.setup import (
    FUND,
    PlaceFundHouse,
    fund_actions,
    fund_houses,
    fund_placer,
    fund_violations,
    join_game,
    place_fund_house,
    stand_second,
)
from powergrid.rules.fund.turns import fund_take_on_pass, fund_take_on_purchase, fund_turn
from powergrid.rules.fund.variant import (
    DELUXE_FUND,
    RECHARGED_TRUST,
    TRUST_REFILL_AS_THREE,
    FundVariant,
    opening,
)
from powergrid.rules.hooks import HookWraps, TablesChange
from powergrid.rules.ruleset import components_for
from powergrid.rules.tables import ComponentTables
from powergrid.state import GameState

__all__ = [
    "FUND",
    "MODULE",
    "PLACE_FUND_HOUSE",
    "DELUXE_FUND",
    "RECHARGED_TRUST",
    "TRUST_REFILL_AS_THREE",
    "BuildPolicy",
    "FundVariant",
    "PlaceFundHouse",
    "fund_module",
    "on_fifteen_slot",
]

#: The fund's setup decision (FND-05), declared as the module's action: the
#: seat on turn in the setup phase (``setup_turn``) names a city, ``fund berlin``.
PLACE_FUND_HOUSE = ModuleAction(
    cls=PlaceFundHouse,
    verb="fund",
    phases={Phase.SETUP},
    legal=fund_actions,
    apply=place_fund_house,
    instances=fund_houses,
)

#: The type of a phase-4 build policy, ``policy(state, seat, city) -> state``.
BuildPolicy = Callable[[GameState, int, str], GameState]


def on_fifteen_slot(state: GameState, seat: int, city: str) -> GameState:
    """FND-08 (OQ-12): a human's house in an empty city gets a free fund house on its 15 slot.

    Only while the fund has houses in its supply; never on a 20 slot, and
    never in a city that held a house before this build (another human's, or
    the fund's own). The fund never builds on its own turn.
    """
    board = state.rules.area.board
    i = board.index[city]
    if state.board.houses[i] != (seat,):
        return state
    fund = state.actor(FUND)
    if fund.houses <= 0:
        return state
    houses = state.board.houses
    placed = evolve(state.board, houses=houses[:i] + ((seat, FUND),) + houses[i + 1 :])
    fund = evolve(fund, cities=fund.cities + (city,), houses=fund.houses - 1)
    state = evolve(state, board=placed).with_actor(fund)
    return state.log(
        "fund_house_placed",
        f"{opening(fund.name)} places a house on {board.city_names[i]}'s 15 slot (FND-08); "
        f"{fund.houses} left in its supply.",
        FUND,
        i,
        15,
    )


def fund_module(
    *,
    name: str | None = None,
    version: str = "1",
    build_policy: BuildPolicy = on_fifteen_slot,
    variant: FundVariant = DELUXE_FUND,
) -> RuleModule:
    """The fund (or the Trust) as a rule module, with a phase-4 build policy (FND-08, OQ-12).

    ``variant`` says which third party it is:
    :data:`~powergrid.rules.fund.variant.DELUXE_FUND` (section 9, the default) or
    :data:`~powergrid.rules.fund.variant.RECHARGED_TRUST` (RCH-85); the module's
    name is the variant's unless ``name`` is given. ``build_policy(state, seat, city)``
    runs after every human house in phase 4 (the core's ``after_build`` hook)
    and returns the state with whatever the fund does in answer; the default
    is :func:`on_fifteen_slot`. A module built with another policy needs its
    own ``name`` to be registered (:func:`powergrid.catalog.register_module`)
    or installed.
    """
    hooks = {
        "setup": functools.partial(join_game, variant=variant),
        "setup_turn": fund_placer,
        "player_order": stand_second,
        "after_pass": functools.partial(fund_take_on_pass, variant=variant),
        "after_purchase_settled": functools.partial(fund_take_on_purchase, variant=variant),
        "actor_turn": functools.partial(fund_turn, variant=variant),
        "after_build": build_policy,
    }
    wraps: HookWraps = {"state_violations": fund_violations}
    if variant.refill_option is not None:  # a wrap: the board may change the tables too
        wraps["component_tables"] = functools.partial(refill_option, variant=variant)
    return RuleModule(
        name=variant.module if name is None else name,
        version=version,
        hooks=hooks,  # type: ignore[arg-type]
        wraps=wraps,
        components=variant.components,
        players={2},
        rule=variant.rule,
        actions=(PLACE_FUND_HOUSE,),
        notable_events={"fund_house_placed", "fund_took_plant", "fund_dropped_plant"},
    )


def refill_option(previous: TablesChange, variant: FundVariant = RECHARGED_TRUST) -> TablesChange:
    """OQ-R04: with the variant's option the market refills by its ``refill_players`` row.

    Wraps ``component_tables``. Without the option the game's own row stands
    (the Trust: the 2-player column, RCH-85 i). The row is the component
    set's, for the game's map.
    """

    def component_tables(config: GameConfig, tables: ComponentTables) -> ComponentTables:
        tables = previous(config, tables)
        if variant.refill_option not in config.options:
            return tables
        refill = components_for(config.components).refill(config.map, variant.refill_players)
        return attrs.evolve(tables, refill=refill)

    return component_tables


#: The fund of RULES.md section 9 with the default phase-4 reading (FND-08).
MODULE = fund_module()
