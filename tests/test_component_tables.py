"""Component data a module can change (issue 32 item 3): ``ComponentTables`` and its hook.

A test-only module, defined here and registered for this process, wraps the
``component_tables`` composition hook: houses cost 12/17/22 instead of BLD-05's
10/15/20, every resource space costs 1 less than SET-07's track (RES-06), players
start with 60 Elektro instead of SET-02's 50, and the plant limit is 4 instead of
AUC-16's 3. The tests show every reader follows the tables (build costs, legal
Build actions, money after a build, prices, starting money, the limit) and that
whole seeded games with the module pass ``check_ruleset``. All games use the
classic components, 3 players, Europe.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import pytest

import powergrid as pg
from powergrid import catalog
from powergrid.config import GameConfig
from powergrid.engine.phases.building import build_cost
from powergrid.enums import Phase
from powergrid.rules import RuleModule
from powergrid.rules.hooks import HOOKS, TablesChange
from powergrid.rules.tables import (
    ROW_KEYS,
    ComponentTables,
    PlayerCountRow,
    table_markdown,
)
from powergrid.testing import check_ruleset
from tests.scenario import REGIONS, arrange, give, held, labels, new, occupy, play

DEAR_HOUSES = (12, 17, 22)  # BLD-05's 10/15/20, 2 Elektro dearer each


def cheaper_and_dearer(previous: TablesChange) -> TablesChange:
    """Wrap ``component_tables``: the changes of this file's module on the tables in force."""

    def component_tables(config: GameConfig, tables: ComponentTables) -> ComponentTables:
        tables = previous(config, tables)
        return attrs.evolve(
            tables,
            slot_prices=tuple(tuple(max(0, p - 1) for p in t) for t in tables.slot_prices),
            house_costs=DEAR_HOUSES,
            starting_money=60,
            row=attrs.evolve(tables.row, max_plants=4),
        )

    return component_tables


def richer_income(previous: TablesChange) -> TablesChange:
    """Wrap ``component_tables``: every income step pays 5 Elektro more (BUR-04)."""

    def component_tables(config: GameConfig, tables: ComponentTables) -> ComponentTables:
        tables = previous(config, tables)
        return attrs.evolve(tables, income=tuple(n + 5 for n in tables.income))

    return component_tables


def _legacy_row(config: GameConfig, row: Mapping[str, Any]) -> Mapping[str, Any]:
    """A module API 1 ``setup_row`` hook: a plain mapping with Step 2 at 5 cities."""
    return {**row, "step2_cities": 5}


def _bad_houses(config: GameConfig, tables: ComponentTables) -> ComponentTables:
    return attrs.evolve(tables, house_costs=(10, 15))  # type: ignore[arg-type]


MODULES = {
    "tables_test": RuleModule(
        name="tables_test", version="1", wraps={"component_tables": cheaper_and_dearer}
    ),
    "tables_test_income": RuleModule(
        name="tables_test_income", version="1", wraps={"component_tables": richer_income}
    ),
    "tables_test_legacy_row": RuleModule(
        name="tables_test_legacy_row", version="1", hooks={"setup_row": _legacy_row}
    ),
    "tables_test_bad": RuleModule(
        name="tables_test_bad", version="1", hooks={"component_tables": _bad_houses}
    ),
}
for _module in MODULES.values():
    if _module.name not in catalog.extra_module_names():
        catalog.register_module(_module)


def game(*modules: str, **config: Any) -> pg.GameState:
    """A fresh classic 3-player Europe game (phase 2 of round 1) with these modules."""
    return new(players=3, map="europe", regions=REGIONS[3], modules=modules, **config)


def building(state: pg.GameState, *, step: int = 1, money: int = 50) -> pg.GameState:
    """Phase 4 of round 2; seat 2 (last in order) builds first and owns Berlin."""
    s = arrange(state, round=2, step=step, phase=Phase.BUILDING, order=(0, 1, 2), done=())
    s = give(s, 2, money=money, cities=("berlin",))
    assert pg.current_player(s) == 2
    return s


def shop(state: pg.GameState, plants: tuple[int, ...]) -> pg.GameState:
    """Phase 3 of round 2; seat 2 (last in order) buys first with 50 Elektro."""
    s = arrange(state, round=2, phase=Phase.RESOURCES, order=(0, 1, 2), done=())
    s = give(s, 2, money=50, plants=plants)
    assert pg.current_player(s) == 2
    return s


# --- the record and the hook ----------------------------------------------------------------


def test_the_printed_tables_are_the_component_sets() -> None:
    """SET-02, SET-07, SET-08, SET-10, SET-12, BLD-05, BUR-04, AUC-16: the base tables."""
    tables = game().rules.tables
    assert tables.house_costs == (10, 15, 20)
    assert tables.starting_money == 50
    assert tables.slot_prices[0] == tuple(p for p in range(1, 9) for _ in range(3))
    assert tables.slot_prices[3] == (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16)
    assert tables.totals == (24, 24, 24, 12)
    assert tables.initial_market == (24, 18, 6, 2)
    assert tables.income[:3] == (10, 22, 33)
    assert tables.income[-1] == 150
    assert tables.row == PlayerCountRow(
        players=3, regions=3, plants_removed=8, step2_cities=7, game_end_cities=17, max_plants=3
    )
    rules = game().rules
    assert (rules.step2_cities, rules.end_cities, rules.max_plants) == (7, 17, 3)


def test_the_hook_is_in_the_generated_table_and_every_table_is_documented() -> None:
    """Item 3: the hook table lists component_tables; every field has a meaning and rules."""
    assert HOOKS["component_tables"].composition
    text = table_markdown()
    for record, prefix in ((ComponentTables, ""), (PlayerCountRow, "row.")):
        for field in attrs.fields(record):
            assert field.metadata["meaning"]
            assert field.metadata["rules"]
            assert f"| `{prefix}{field.name}` |" in text
    assert set(ROW_KEYS) >= {f.name for f in attrs.fields(PlayerCountRow)}


def test_the_module_changes_the_composed_tables() -> None:
    """Item 3: rules.tables and the ruleset's limit are the module's."""
    rules = game("tables_test").rules
    assert rules.tables.house_costs == DEAR_HOUSES
    assert rules.tables.starting_money == 60
    assert rules.tables.row.max_plants == rules.max_plants == 4
    assert rules.tables.slot_prices[0][:4] == (0, 0, 0, 1)
    assert rules.refill_rows() == game().rules.refill_rows()  # BUR-06, unchanged


# --- (a) houses cost 12/17/22 --------------------------------------------------------------


def test_dearer_houses_change_build_costs_bld_04_bld_05() -> None:
    """BLD-04, BLD-05: Bremen is 6 from Berlin: 12 + 6 = 18 in an empty city (10 + 6 plain);
    with one house in Step 2, 17 + 6 = 23; with two in Step 3, 22 + 6 = 28."""
    plain = building(game())
    dear = building(game("tables_test"))
    assert build_cost(plain, 2, "bremen") == 16
    assert build_cost(dear, 2, "bremen") == 18
    view = pg.view(dear, 2)
    assert dict(view.build_costs)["bremen"] == 18
    assert dict(pg.public_view(dear).slot_costs)["bremen"] == 12
    two = occupy(building(game("tables_test"), step=2), "bremen", (0,))
    assert build_cost(two, 2, "bremen") == 23
    three = occupy(building(game("tables_test"), step=3), "bremen", (0, 1))
    assert build_cost(three, 2, "bremen") == 28


def test_dearer_houses_decide_the_legal_builds_and_the_money_paid_bld_05() -> None:
    """BLD-05, BLD-04: with 17 Elektro, Bremen (6 from Berlin) is legal at 10 + 6 = 16,
    not at 12 + 6 = 18; with 18 it is, and the build leaves 0."""
    plain = building(game(), money=17)
    dear = building(game("tables_test"), money=17)
    bremen = pg.Build(player=2, city="bremen")
    assert bremen in pg.legal_actions(plain)
    assert bremen not in pg.legal_actions(dear)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(dear, bremen)
    assert err.value.reason is pg.Reason.CANNOT_AFFORD
    assert "12 + 6 = 18" in str(err.value)
    rich = building(game("tables_test"), money=18)
    assert bremen in pg.legal_actions(rich)
    assert play(rich, bremen).players[2].money == 0
    assert play(plain, bremen).players[2].money == 1


# --- (b) resources cost 1 less ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "count", "cost", "plants"),
    [
        ("coal", 3, 0, (20, 31)),  # SET-10: 3 coal on space 1, now free
        ("coal", 4, 1, (20, 31)),  # 0+0+0+1 (1+1+1+2 plain)
        ("coal", 7, 5, (20, 31)),  # 0+0+0+1+1+1+2 (12 plain)
        ("oil", 4, 9, (7, 32)),  # 2+2+2+3 (13 plain)
        ("garbage", 4, 25, (30, 38)),  # 6+6+6+7 (29 plain)
        ("uranium", 2, 28, (11, 17)),  # 13+15 (14+16 plain)
    ],
)
def test_cheaper_resources_res_06(
    kind: str, count: int, cost: int, plants: tuple[int, ...]
) -> None:
    """RES-06, SET-07, SET-10: k units cost the k cheapest spaces, each 1 less than printed."""
    s = shop(game("tables_test"), plants)
    after = play(s, pg.BuyResource(player=2, resource=kind, count=count))
    assert after.players[2].money == 50 - cost
    assert held(after, 2) == {kind: count}


def test_cheaper_resources_in_the_views_and_the_legal_counts_res_06() -> None:
    """RES-06: the next price shown is 1 less; with 0 Elektro the 3 free coal are buyable."""
    s = shop(game("tables_test"), (20, 31))
    prices = dict(pg.public_view(s).prices)
    assert prices == {
        pg.Resource.COAL: 0,
        pg.Resource.OIL: 2,
        pg.Resource.GARBAGE: 6,
        pg.Resource.URANIUM: 13,
    }
    broke = give(s, 2, money=0)
    coal = [
        a.count
        for a in pg.legal_actions(broke)
        if isinstance(a, pg.BuyResource) and a.resource is pg.Resource.COAL
    ]
    assert max(coal) == 3


# --- (c) starting money, plant limit, income ---------------------------------------------


def test_starting_money_set_02() -> None:
    """SET-02: every player starts with the tables' 60 Elektro (50 printed)."""
    assert {p.money for p in game().players} == {50}
    assert {p.money for p in game("tables_test").players} == {60}


def test_a_fourth_plant_is_kept_under_a_limit_of_four_auc_16() -> None:
    """AUC-16, AUC-17: with the limit at 4, A (3 plants) buys a 4th and keeps all of them;
    the plain game asks for a discard."""
    for modules, discard in (((), 0), (("tables_test",), None)):
        s = arrange(game(*modules), round=2, phase=Phase.AUCTION, order=(0, 1, 2), done=(1, 2))
        s = give(s, 0, money=50, plants=(8, 10, 16))
        chosen = s.market.actual[0]
        after = pg.apply(s, pg.ChoosePlant(player=0, plant=chosen, bid=s.rules.number(chosen)))
        assert after.discarding == discard
        assert len(after.players[0].plants) == 4
        assert set(labels(8, 10, 16, chosen)) == set(after.players[0].plants)


def test_income_follows_the_tables_bur_03_bur_04() -> None:
    """BUR-03, BUR-04: powering 0 cities pays the table's first entry, 10 + 5 here."""
    s = arrange(
        game("tables_test_income"), round=2, phase=Phase.BUREAUCRACY, order=(0, 1, 2), done=()
    )
    seat = pg.current_player(s)
    assert seat is not None
    money = s.players[seat].money
    after = play(s, pg.Power(player=seat, plants=(), mix=()))
    assert after.players[seat].money == money + 15


# --- composition ---------------------------------------------------------------------------


def test_setup_row_of_module_api_1_still_works_and_feeds_the_tables() -> None:
    """SET-12, STP-01: a setup_row hook returning a plain mapping changes Step 2 (5, not 7),
    which rules.step2_cities and tables.row then hold; a later module sees it."""
    rules = game("tables_test_legacy_row", "tables_test").rules
    assert rules.setup_row["step2_cities"] == 5
    assert rules.tables.row.step2_cities == rules.step2_cities == 5
    assert rules.tables.house_costs == DEAR_HOUSES


def test_modules_chain_their_table_changes() -> None:
    """Item 3: two wrapping modules both apply, in composition order."""
    rules = game("tables_test", "tables_test_income").rules
    assert rules.tables.house_costs == DEAR_HOUSES
    assert rules.tables.income[0] == 15


def test_malformed_tables_are_refused_naming_the_table() -> None:
    """Item 3: a module returning two house costs is refused when the game is composed."""
    with pytest.raises(pg.RulesConfigError) as err:
        game("tables_test_bad")
    assert err.value.field == "modules"
    assert "house_costs" in str(err.value)
    assert "tables_test_bad" in str(err.value)


def test_seeded_games_with_the_module_pass_check_ruleset() -> None:
    """Item 3: whole seeded games with changed tables keep every invariant and round trip."""
    check_ruleset(GameConfig(players=3, components="classic", modules=("tables_test",)), games=3)
    check_ruleset(GameConfig(players=4, modules=("tables_test", "tables_test_income")), games=2)
