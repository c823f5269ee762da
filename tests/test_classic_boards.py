"""The classic USA and Germany boards: CON-02, SET-04, SET-12, BLD-04, BLD-05, BLD-07.

The numbers below were read BY HAND from ``reference/map_usa.json`` and
``reference/map_germany.json`` (the package copies are the same files, checked
below when ``../shared/reference/`` is present). Each golden route carries its
cheapest path and sum in a comment, with the dearer alternatives that were
checked; nothing here recomputes a shortest path. The classic components play
no special rules on either board (both modules have no hooks); the Deluxe
components have no refill card or initial market for them, so a Deluxe game
there is refused.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

import powergrid as pg
from powergrid import catalog
from powergrid.catalog import load_map, map_rule_module
from powergrid.cli.main import main
from powergrid.enums import Phase
from powergrid.mechanics.network import cities_connected, connected_region_sets, play_area
from powergrid.state import GameState
from powergrid.testing import check_game, playout
from tests.scenario import arrange, give, new, occupy, play

BOARDS = ("usa", "germany")
PACKAGE_MAPS = Path(__file__).resolve().parents[1] / "src" / "powergrid" / "data" / "maps"
REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"

# The reference files' ``counts``: 6 regions of 7 cities each.
COUNTS = {
    "usa": {"regions": 6, "cities": 42, "connections": 87, "within": 56, "between": 31},
    "germany": {"regions": 6, "cities": 42, "connections": 83, "within": 53, "between": 30},
}
# The three ordinary 0-cost connections of each board (not metropoles).
ZERO_COST = {
    "usa": {("cheyenne", "denver"), ("jacksonville", "savannah"), ("new_york", "philadelphia")},
    "germany": {("duisburg", "essen"), ("frankfurt_m", "wiesbaden"), ("halle", "leipzig")},
}
REGION_CITIES = {
    "usa": {
        "purple": {"seattle", "portland", "boise", "billings", "cheyenne", "denver", "omaha"},
        "cyan": {
            "san_francisco", "los_angeles", "san_diego", "las_vegas", "phoenix",
            "salt_lake_city", "santa_fe",
        },
        "red": {
            "kansas_city", "oklahoma_city", "dallas", "houston", "memphis", "new_orleans",
            "birmingham",
        },
        "yellow": {
            "fargo", "duluth", "minneapolis", "chicago", "st_louis", "cincinnati", "knoxville",
        },
        "brown": {
            "detroit", "buffalo", "pittsburgh", "boston", "new_york", "philadelphia",
            "washington",
        },
        "green": {"norfolk", "raleigh", "atlanta", "savannah", "jacksonville", "tampa", "miami"},
    },
    "germany": {
        "green": {
            "flensburg", "kiel", "hamburg", "cuxhaven", "wilhelmshaven", "bremen", "hannover",
        },
        "brown": {
            "lubeck", "rostock", "schwerin", "torgelow", "berlin", "magdeburg", "frankfurt_o",
        },
        "yellow": {"halle", "leipzig", "dresden", "erfurt", "fulda", "wurzburg", "nurnberg"},
        "red": {"osnabruck", "munster", "essen", "duisburg", "dusseldorf", "dortmund", "kassel"},
        "cyan": {"aachen", "koln", "trier", "wiesbaden", "frankfurt_m", "saarbrucken", "mannheim"},
        "purple": {
            "stuttgart", "freiburg", "konstanz", "augsburg", "munchen", "regensburg", "passau",
        },
    },
}  # fmt: skip
# SET-12 (classic): regions in the play area for 2..6 players.
REGIONS_NEEDED = {2: 3, 3: 3, 4: 4, 5: 5, 6: 5}


def raw(map_id: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((PACKAGE_MAPS / f"{map_id}.json").read_text("utf-8"))
    return data


def classic(players: int, map_id: str, **config: object) -> pg.GameConfig:
    return pg.GameConfig(players=players, map=map_id, components="classic", **config)


def cost(map_id: str, a: str, b: str, regions: Sequence[str] | None = None) -> int:
    board = load_map(map_id)
    area = play_area(map_id, tuple(board.regions if regions is None else regions))
    return area.cost[board.index[a]][board.index[b]]


# --- the data -----------------------------------------------------------------------------------


@pytest.mark.parametrize("map_id", BOARDS)
def test_package_board_is_the_reference_file(map_id: str) -> None:
    """The board file is the reference file copied unchanged (the same keys as Europe's)."""
    reference = REFERENCE / f"map_{map_id}.json"
    if not reference.exists():
        pytest.skip(f"{reference} is not here (outside the project's shared tree)")
    assert raw(map_id) == json.loads(reference.read_text("utf-8"))


@pytest.mark.parametrize("map_id", BOARDS)
def test_board_counts_equal_the_data(map_id: str) -> None:
    """CON-02: 6 regions of 7 cities; 87 (USA) or 83 (Germany) connections, three at 0."""
    board, data, want = load_map(map_id), raw(map_id), COUNTS[map_id]
    counts = data["counts"]
    assert isinstance(counts, dict)
    assert len(board.regions) == counts["regions"] == want["regions"]
    assert len(board.cities) == counts["cities"] == want["cities"]
    assert len(board.edges) == counts["connections"] == want["connections"]
    within = sum(board.city_region[a] == board.city_region[b] for a, b, _ in board.edges)
    assert within == counts["connections_within_region"] == want["within"]
    assert len(board.edges) - within == counts["connections_between_regions"] == want["between"]
    zero = {tuple(sorted((board.cities[a], board.cities[b]))) for a, b, c in board.edges if c == 0}
    assert zero == ZERO_COST[map_id]
    assert len(zero) == counts["zero_cost_connections"]
    assert data["metropoles"] == []  # no double cities on the classic boards


@pytest.mark.parametrize("map_id", BOARDS)
def test_every_region_has_its_seven_cities(map_id: str) -> None:
    """SET-04: each region holds the seven cities the data gives it, and no other."""
    board = load_map(map_id)
    held: dict[str, set[str]] = {r: set() for r in board.regions}
    for city, region in zip(board.cities, board.city_region, strict=True):
        held[region].add(city)
    assert held == REGION_CITIES[map_id]


@pytest.mark.parametrize("map_id", BOARDS)
def test_the_connection_graph_and_each_region_are_connected(map_id: str) -> None:
    """BLD-04, SET-04: every city reaches every other; so does each region on its own."""
    board = load_map(map_id)
    assert cities_connected(board, board.cities)
    for cities in REGION_CITIES[map_id].values():
        assert cities_connected(board, cities)


# --- play areas ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("map_id", "neighbours"),
    [
        (
            "usa",
            {
                "brown": {"green", "yellow"},
                "cyan": {"purple", "red"},
                "green": {"brown", "red", "yellow"},
                "purple": {"cyan", "red", "yellow"},
                "red": {"cyan", "green", "purple", "yellow"},
                "yellow": {"brown", "green", "purple", "red"},
            },
        ),
        (
            "germany",
            {
                "brown": {"green", "yellow"},
                "cyan": {"purple", "red", "yellow"},
                "green": {"brown", "red", "yellow"},
                "purple": {"cyan", "yellow"},
                "red": {"cyan", "green", "yellow"},
                "yellow": {"brown", "cyan", "green", "purple", "red"},
            },
        ),
    ],
)
def test_region_neighbours_match_the_data(map_id: str, neighbours: dict[str, set[str]]) -> None:
    """SET-04: region neighbours, read by hand from the data's ``region_adjacency``."""
    assert load_map(map_id).region_neighbours == neighbours


@pytest.mark.parametrize(
    ("map_id", "size", "count"),
    [
        # USA: 9 region pairs; sum of C(deg, 2) over degrees 2, 2, 3, 3, 4, 4 = 20 paths
        # of two edges; 4 triangles (brown-green-yellow, cyan-purple-red, green-red-yellow,
        # purple-red-yellow), each counted 3 times: 20 - 2 * 4 = 12 connected triples.
        ("usa", 2, 9),
        ("usa", 3, 12),
        # No region is a cut vertex, so every one of the 6 sets of five is connected.
        ("usa", 5, 6),
        # Germany: 9 pairs; degrees 2, 3, 3, 2, 3, 5 give 1 + 3 + 3 + 1 + 3 + 10 = 21;
        # 4 triangles (brown-green-yellow, cyan-purple-yellow, cyan-red-yellow,
        # green-red-yellow): 21 - 8 = 13.
        ("germany", 2, 9),
        ("germany", 3, 13),
        ("germany", 5, 6),
    ],
)
def test_connected_region_sets(map_id: str, size: int, count: int) -> None:
    """SET-04: the number of connected play areas of each size equals the hand count."""
    assert len(connected_region_sets(map_id, size)) == count


@pytest.mark.parametrize("map_id", BOARDS)
@pytest.mark.parametrize("players", range(2, 7))
def test_the_play_area_has_the_set_12_regions(map_id: str, players: int) -> None:
    """SET-12, SET-04: 3, 3, 4, 5, 5 connected regions (21 to 35 cities) for 2-6 players."""
    state = pg.new_game(classic(players, map_id), seed=players)
    area = state.rules.area
    assert len(area.regions) == REGIONS_NEEDED[players]
    assert len(area.cities) == 7 * REGIONS_NEEDED[players]
    assert area.board.regions_connected(area.regions)


def test_an_unconnected_play_area_is_refused() -> None:
    """SET-04: on both boards brown borders only green and yellow, so it needs one of them."""
    assert classic(3, "usa", regions=("brown", "green", "yellow")).regions
    for map_id in BOARDS:
        with pytest.raises(pg.RulesConfigError) as info:
            classic(3, map_id, regions=("brown", "cyan", "purple"))
        assert info.value.field == "regions"
        assert "not connected" in str(info.value)


# --- connection costs ---------------------------------------------------------------------------

GOLDEN = [
    # Adjacent: seattle -3- portland = 3 (seattle -12- boise -13- portland = 25)
    ("usa", "seattle", "portland", 3),
    # Two hops: boston -3- new_york -0- philadelphia = 3 (boston's only connection is
    # new_york; new_york -8- buffalo leads nowhere cheaper)
    ("usa", "boston", "philadelphia", 3),
    # Two hops: billings -9- cheyenne -0- denver = 9 (denver's other links: santa_fe 13,
    # kansas_city 16, salt_lake_city 21; billings -12- boise -24- cheyenne is dearer)
    ("usa", "billings", "denver", 9),
    # miami -4- tampa -4- jacksonville -0- savannah -7- atlanta = 15
    # (jacksonville -9- birmingham -3- atlanta = 20; savannah -7- raleigh -7- = 22)
    ("usa", "miami", "atlanta", 15),
    # Adjacent: dortmund -2- munster = 2 (dortmund -4- essen -6- munster = 10)
    ("germany", "dortmund", "munster", 2),
    # Two hops: duisburg -0- essen -2- dusseldorf = 2 (duisburg's only link is essen)
    ("germany", "duisburg", "dusseldorf", 2),
    # Two hops: flensburg -4- kiel -4- lubeck = 8 (kiel -8- hamburg -6- lubeck = 14)
    ("germany", "flensburg", "lubeck", 8),
    # aachen -9- dusseldorf -2- essen -6- munster = 17, tie with aachen -9- dusseldorf
    # -2- essen -4- dortmund -2- munster = 17 (aachen -7- koln -10- dortmund -2- = 19;
    # aachen -7- koln -4- dusseldorf = 11 > 9)
    ("germany", "aachen", "munster", 17),
]


@pytest.mark.parametrize(("map_id", "a", "b", "expected"), GOLDEN)
def test_golden_routes_whole_board(map_id: str, a: str, b: str, expected: int) -> None:
    """BLD-04: the cheapest connection cost between named cities, whole board, both ways."""
    assert cost(map_id, a, b) == expected
    assert cost(map_id, b, a) == expected


def building(owned: str, money: int) -> GameState:
    """3 players on USA (brown, green, yellow), Step 1 building, player 2 owning ``owned``."""
    s = new(players=3, map="usa", regions=("brown", "green", "yellow"))
    s = arrange(s, round=3, step=1, phase=Phase.BUILDING, order=(0, 1, 2), done=())
    s = give(s, 2, money=money, cities=(owned,))
    assert pg.current_player(s) == 2
    return s


def test_a_zero_cost_connection_joins_two_separate_cities() -> None:
    """BLD-04, BLD-05, BLD-07: New York and Philadelphia are two cities, not a metropole.

    With player 1 in New York (its only Step 1 slot taken), player 2 in Boston still
    builds in Philadelphia for 10 + 3 (boston -3- new_york -0- philadelphia), routing
    through the occupied city; 12 Elektro are one too few.
    """
    s = occupy(building("boston", money=13), "new_york", (1,))
    after = play(s, pg.Build(player=2, city="philadelphia"))
    assert after.players[2].money == 0
    assert after.players[2].cities == ("boston", "philadelphia")
    poorer = occupy(building("boston", money=12), "new_york", (1,))
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(poorer, pg.Build(player=2, city="philadelphia"))
    assert info.value.reason is pg.Reason.CANNOT_AFFORD


# --- playing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("map_id", BOARDS)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_seeded_games_end_keeping_every_invariant(map_id: str, players: int) -> None:
    """CON-02: classic games on the board end with an outcome, every invariant kept."""
    final = check_game(classic(players, map_id), seed=10 + players, policy_seed=players)
    result = pg.outcome(final)
    assert result is not None
    assert sorted(result.ranking) == list(range(players))


@pytest.mark.parametrize("map_id", BOARDS)
def test_the_board_module_plays_no_rules(map_id: str) -> None:
    """CON-02, OQ-31: the module has no hooks, so ``map_rules`` changes nothing but the
    module list: the same seeds play the same actions to the same outcome."""
    module = map_rule_module(map_id)
    assert (module.name, dict(module.hooks), dict(module.wraps), dict(module.data)) == (
        map_id,
        {},
        {},
        {},
    )
    plain, opted = classic(3, map_id), classic(3, map_id, options={"map_rules"})
    assert [m.name for m in pg.new_game(plain).rules.modules] == ["base", "classic"]
    assert [m.name for m in pg.new_game(opted).rules.modules] == ["base", "classic", map_id]
    with_rules = [a for _, a in playout(opted, 4, 4)]
    assert [a for _, a in playout(plain, 4, 4)] == with_rules


@pytest.mark.parametrize("map_id", BOARDS)
def test_deluxe_is_refused_on_the_classic_boards(map_id: str) -> None:
    """CON-02, SET-22, SET-27: the Deluxe refill cards and initial fill exist only for
    Europe and North America (``tables.json``), so the default components are refused
    in one line naming ``components``; the classic tables are the same on every map."""
    deluxe = catalog.tables("deluxe")
    assert catalog.per_map_keys(deluxe["refill_table"]) == frozenset({"europe", "north_america"})
    fills = deluxe["resource_market"]["initial_fill_by_map"]
    assert catalog.per_map_keys(fills) == frozenset({"europe", "north_america"})
    assert catalog.component_maps("deluxe") == frozenset({"europe", "north_america"})
    assert catalog.component_maps("classic") is None
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(players=4, map=map_id)
    assert info.value.field == "components"
    assert f"map {map_id!r}" in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("map_id", "name"), [("usa", "USA"), ("germany", "Germany")])
def test_the_command_line_plays_the_board(
    map_id: str, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ``play`` command takes the board with the classic components; Deluxe exits 2."""
    assert main(["play", "--map", map_id, "--components", "classic", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"4 players on {name} (" in out
    assert "Winner" in out
    assert main(["play", "--map", map_id, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: --components:")
