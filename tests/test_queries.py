"""The queries frontends use (issue 33 item 3): bids, prices, build costs, income, names.

Numbers come from RULES.md (AUC-04, AUC-31, SET-07, RES-06, BLD-03..BLD-05, BUR-04) and
the Germany board of ``reference/map_germany.json`` (Aachen-Koln costs 7).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import powergrid as pg
from powergrid.engine import queries
from powergrid.enums import Resource
from tests.module_parts import discount

GERMANY = pg.GameConfig(players=3, map="germany", components="classic")
CLASSIC_EUROPE = pg.GameConfig(players=3, map="europe", components="classic")


def _building() -> pg.GameState:
    return pg.build_position(
        GERMANY,
        seed=3,
        area=["red", "cyan", "purple"],
        round=3,
        step=1,
        phase="building",
        order=[0, 1, 2],
    )


def test_min_bid_is_the_plant_number() -> None:
    """AUC-04: a plant opens at its number."""
    state = pg.build_position(
        CLASSIC_EUROPE, seed=1, actual=[14, 16, 17, 18], future=[19, 21, 22, 23]
    )
    assert queries.min_bid(state, "14") == 14
    assert queries.min_bid(state, "18") == 18


def test_min_bid_follows_the_north_american_discount_token() -> None:
    """AUC-31: the plant under the token opens at 1 (the map module's hook, in force)."""
    state = pg.new_game(pg.GameConfig(players=3, map="north_america"), seed=4)
    plant = discount(state)
    assert plant is not None
    assert queries.min_bid(state, plant) == 1
    other = next(p for p in state.market.actual if p != plant)
    assert queries.min_bid(state, other) == state.rules.plants[other].number


def test_resource_price_sums_the_cheapest_tokens() -> None:
    """RES-06: k tokens cost the k cheapest spaces of the track (SET-07: 3 per price 1..8)."""
    state = pg.build_position(CLASSIC_EUROPE, seed=1, market_tokens={"coal": 5})
    # Five coal fill the dearest spaces: 7, 7, 8, 8, 8.
    assert queries.resource_price(state, Resource.COAL, 1) == 7
    assert queries.resource_price(state, "coal", 3) == 22
    assert queries.resource_price(state, "coal", 5) == 38
    assert queries.resource_price(state, "coal", 0) == 0


def test_resource_price_refuses_what_the_market_cannot_sell() -> None:
    """RES-07: nothing beyond the market's tokens; a kind of the other set is no kind here."""
    state = pg.build_position(CLASSIC_EUROPE, seed=1, market_tokens={"coal": 5})
    with pytest.raises(ValueError, match="the market holds 5"):
        queries.resource_price(state, "coal", 6)
    with pytest.raises(ValueError, match="gas is not a resource of this game"):
        queries.resource_price(state, "gas", 1)


def test_build_cost_first_city_is_the_slot_only() -> None:
    """BLD-03: a seat without cities pays only the slot (10 in an empty city, BLD-05)."""
    state = _building()
    assert queries.build_cost(state, 0, "koln") == 10


def test_build_cost_adds_the_connection() -> None:
    """BLD-04: slot plus the cheapest connection; Aachen-Koln is 7 on the Germany board."""
    state = pg.edit_position(
        _building(), seats={0: {"cities": ["aachen"]}, 1: {"cities": ["koln"]}}
    )
    # Koln's first slot is taken by seat 1, so seat 0 would pay the second (15) in Step 2;
    # in Step 1 only one house fits (BLD-05), and the cost is still defined: 15 + 7.
    assert queries.build_cost(state, 0, "koln") == 15 + 7
    assert queries.build_cost(state, 2, "aachen") == 15


def test_build_cost_refuses_a_city_outside_the_game() -> None:
    state = _building()
    with pytest.raises(ValueError, match="not a city of the play area"):
        queries.build_cost(state, 0, "atlantis")
    with pytest.raises(ValueError, match="seat 3 is not in this 3-player game"):
        queries.build_cost(state, 3, "koln")


def test_income_follows_the_payment_table() -> None:
    """BUR-04: 0 -> 10, 6 -> 73, 20 or more -> 150."""
    state = pg.new_game(CLASSIC_EUROPE, seed=1)
    assert [queries.income(state, n) for n in (0, 6, 20, 25)] == [10, 73, 150, 150]
    with pytest.raises(ValueError, match="cannot power -1 cities"):
        queries.income(state, -1)


def test_phase_title_names_the_phase_and_the_end() -> None:
    """CON-03: the phases by their titles; a finished game is over."""
    state = pg.new_game(CLASSIC_EUROPE, seed=1)
    assert queries.phase_title(state) == "phase 2 (auction)"
    assert queries.phase_title(_building()) == "phase 4 (building)"


def test_name_of_uses_the_configured_names() -> None:
    named = pg.new_game(pg.GameConfig(players=3, map="europe", names=("Ada", "Bo", "Cy")), seed=1)
    assert [named.name_of(s) for s in range(3)] == ["Ada", "Bo", "Cy"]
    assert pg.new_game(CLASSIC_EUROPE, seed=1).name_of(2) == "player 2"
    assert named.name_of(pg.CHANCE) == "chance"


FRONTENDS = ("bots", "rl", "cli", "arena", "interop", "formats/text.py")


def test_frontends_use_the_queries_not_the_phases() -> None:
    """Item 3: bots, the RL adapters, the terminal and the importers import no phase module."""
    root = Path(pg.__file__).parent
    offenders = []
    for entry in FRONTENDS:
        for path in (
            sorted((root / entry).rglob("*.py")) if (root / entry).is_dir() else [root / entry]
        ):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    ("powergrid.engine.phases", "powergrid.mechanics.chance_points")
                ):
                    offenders.append(f"{path.relative_to(root)}: {node.module}")
    assert offenders == []


def test_cities_powered_is_capped_by_the_cities_owned() -> None:
    """BUR-03: plants 13 (1 city) and 20 (5 cities) power at most the 2 cities owned."""
    state = pg.edit_position(
        _building(), seats={0: {"plants": [13, 20], "cities": ["aachen", "koln"]}}
    )
    assert queries.cities_powered(state, 0, ("13",)) == 1
    assert queries.cities_powered(state, 0, ("13", "20")) == 2
    with pytest.raises(ValueError, match="player 0 owns no plant 25"):
        queries.cities_powered(state, 0, ("25",))


def test_the_prompt_menu_shows_prices_cities_and_income() -> None:
    """Buy lines cost the k cheapest tokens (RES-06); Power lines power and earn (BUR-03/04)."""
    from powergrid.cli.human_view import menu

    state = pg.build_position(
        CLASSIC_EUROPE,
        seed=1,
        area=["british_isles_low_countries", "central", "alps_italy_hungary"],
        round=3,
        step=1,
        phase="bureaucracy",
        order=[0, 1, 2],
        seats={0: {"plants": [13, 20], "resources": {"coal": 3}, "cities": ["berlin", "praha"]}},
    )
    notes = {entry.text: entry.note for entry in menu(state, 0)}
    # 13 is eco (1 city); 20 burns 3 coal for 5 cities; 2 cities owned (BUR-03); BUR-04 pays
    # 10 for none, 22 for one, 33 for two.
    assert notes["power none"] == "powers 0 cities, earns 10"
    assert notes["power 13"] == "powers 1 city, earns 22"
    assert notes["power 20 coal=3"] == "powers 2 cities, earns 33"
    assert notes["power 13,20 coal=3"] == "powers 2 cities, earns 33"


def test_show_lists_the_step_2_and_end_counts_and_the_income_table() -> None:
    """STP-01 / END-01 with 4 players: Step 2 at 7 cities, the end at 17; BUR-04's table."""
    from powergrid.formats.text import show_lines

    lines = show_lines(pg.new_game(pg.GameConfig(players=4, map="europe"), seed=1))
    assert "Step 2 at 7 cities, the game ends at 17 (a player's cities)" in lines
    income = next(line for line in lines if line.startswith("Income by cities powered: "))
    assert income.split(": ", 1)[1].split()[:3] == ["0:10", "1:22", "2:33"]
    assert income.endswith(" 20:150")
