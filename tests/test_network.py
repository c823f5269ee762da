"""Connection costs and play areas: BLD-04, BLD-07, BLD-11, SET-04 (golden routes).

Every expected cost below was worked out BY HAND from ``reference/map_europe.json``
and ``reference/map_north_america.json`` (the package copies are identical); the
comment beside each names the cheapest route and its sum, and the alternatives
that were checked and found dearer. Nothing here recomputes a shortest path.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

import powergrid as pg
from powergrid.catalog import load_map
from powergrid.enums import Phase
from powergrid.mechanics.network import INF, connected_region_sets, play_area
from powergrid.state import GameState
from tests.scenario import arrange, give, new, play

EU_ALL = (
    "alps_italy_hungary",
    "balkans_turkey",
    "british_isles_low_countries",
    "central",
    "eastern",
    "france_iberia",
    "scandinavia_baltic",
)
NA_ALL = ("mexico", "mideast", "midwest", "northeast", "northwest", "south", "west")

EU_NO_BRITISH = ("alps_italy_hungary", "central", "france_iberia")
EU_EAST = ("balkans_turkey", "central", "eastern")
NA_NORTH_WEST = ("midwest", "northwest", "west")
NA_SOUTH_WEST = ("mexico", "south", "west")
NA_SOUTH = ("mexico", "midwest", "south")
NA_EAST = ("mideast", "midwest", "northeast")

DATA = Path(__file__).resolve().parents[1] / "src" / "powergrid" / "data" / "maps"


def cost(map_id: str, regions: Sequence[str], a: str, b: str) -> int:
    area = play_area(map_id, tuple(regions))
    index = area.board.index
    return area.cost[index[a]][index[b]]


# --- golden routes, whole board --------------------------------------------------------------

EUROPE_FULL = [
    # berlin -6- bremen = 6 (berlin -10- rhein_main -9- bremen = 19)
    ("berlin", "bremen", 6),
    # rhein_ruhr -3- rhein_main -3- stuttgart = 6 (via paris 10 + 14 = 24)
    ("rhein_ruhr", "stuttgart", 6),
    # london -15- vlaanderen -6- rhein_main = 21
    # (via rhein_ruhr 15 + 4 + 3 = 22; via paris 16 + 7 + 6 = 29; via randstad 28)
    ("london", "rhein_main", 21),
    # paris -7- vlaanderen -10- bremen = 17
    # (paris -10- rhein_ruhr -3- rhein_main -9- bremen = 22; via randstad 7 + 4 + 8 = 19)
    ("paris", "bremen", 17),
    # glasgow -13- birmingham -4- london -15- vlaanderen -6- rhein_main -10- praha
    #   -11- warszawa = 59 (ties: ... vlaanderen -10- bremen -6- berlin -11- warszawa = 59;
    #   via katowice 48 + 8 + 5 = 61; via kobenhavn 54 + 25 = 79)
    ("glasgow", "warszawa", 59),
    # munchen -9- wien -5- budapest = 14 (munchen -6- praha -7- wien = 13 + 5 = 18)
    ("munchen", "budapest", 14),
    # oslo -13- stockholm -21- helsinki -11- st_petersburg -14- moskwa = 59
    # (oslo -17- kobenhavn -25- warszawa -10- minsk -14- moskwa = 66; via riga 72)
    ("oslo", "moskwa", 59),
    # athina -17- sofia -13- istanbul = 30 (athina -16- tirana -13- sofia = 29 > 17)
    ("athina", "istanbul", 30),
    # dublin -15- birmingham -4- london -16- paris = 35 (london -15- vlaanderen -7- = 22 > 16)
    ("dublin", "paris", 35),
    # napoli -18- beograd -12- bucuresti = 30 (napoli -25- tirana -13- sofia -9- = 47)
    ("napoli", "bucuresti", 30),
    # kharkiv -9- kyjiv -10- minsk -8- riga -7- tallinn = 34
    # (kharkiv -16- moskwa -14- st_petersburg -9- tallinn = 39)
    ("kharkiv", "tallinn", 34),
    # marseille -8- lyon -14- zurich = 22 (marseille -13- milano -11- zurich = 24)
    ("marseille", "zurich", 22),
    # lisboa -13- madrid -14- barcelona -11- marseille -13- milano -19- roma = 70
    # (tie: madrid -15- bordeaux -12- lyon -11- milano = 51 too; roma via napoli needs
    #  beograd, far dearer)
    ("lisboa", "roma", 70),
]

NORTH_AMERICA_FULL = [
    # new_york_n -0- new_york_s = 0 (BLD-11)
    ("new_york_n", "new_york_s", 0),
    # mexico_city_s -0- mexico_city_n = 0 (BLD-11)
    ("mexico_city_s", "mexico_city_n", 0),
    # boston -7- new_york_s -3- philadelphia = 10 (through the metropole half)
    ("boston", "philadelphia", 10),
    # washington -5- philadelphia -3- new_york_s -0- new_york_n = 8
    # (washington -7- pittsburgh -11- new_york_s = 18)
    ("washington", "new_york_n", 8),
    # chicago -10- columbus -6- pittsburgh -11- new_york_s -0- new_york_n = 27
    # (via pittsburgh -9- philadelphia -3- = 28; chicago -10- detroit -8- toronto -14- = 32)
    ("chicago", "new_york_n", 27),
    # san_antonio -10- monterrey -17- mexico_city_s -0- mexico_city_n = 27
    # (monterrey -16- guadalajara -10- mexico_city_s = 36)
    ("san_antonio", "mexico_city_n", 27),
    # seattle -5- portland -20- san_francisco -12- los_angeles = 37
    # (portland -22- salt_lake_city -14- las_vegas -8- los_angeles = 49)
    ("seattle", "los_angeles", 37),
    # miami -12- jacksonville -12- charlotte -12- washington -5- philadelphia -3-
    #   new_york_s -7- boston = 51 (jacksonville -10- atlanta -8- charlotte = 18 > 12)
    ("miami", "boston", 51),
    # denver -17- oklahoma_city -7- dallas_fort_worth = 24
    # (denver -12- albuquerque -9- juarez -19- dallas_fort_worth = 40)
    ("denver", "dallas_fort_worth", 24),
    # edmonton -15- regina -11- winnipeg -13- minneapolis = 39 (via calgary 5 + 14 = 19 > 15)
    ("edmonton", "minneapolis", 39),
    # quebec -5- montreal -3- ottawa -8- toronto = 16
    ("quebec", "toronto", 16),
    # guadalajara -16- monterrey -10- san_antonio -6- houston = 32
    ("guadalajara", "houston", 32),
    # los_angeles -25- albuquerque -18- oklahoma_city = 43
    # (los_angeles -8- las_vegas -25- denver -17- oklahoma_city = 50;
    #  los_angeles -3- san_diego -22- juarez -19- dallas_fort_worth -7- = 51)
    ("los_angeles", "oklahoma_city", 43),
]


@pytest.mark.parametrize(("a", "b", "expected"), EUROPE_FULL)
def test_golden_routes_europe_whole_board(a: str, b: str, expected: int) -> None:
    """BLD-04: cheapest connection cost between named cities, whole Europe board."""
    assert cost("europe", EU_ALL, a, b) == expected
    assert cost("europe", EU_ALL, b, a) == expected


@pytest.mark.parametrize(("a", "b", "expected"), NORTH_AMERICA_FULL)
def test_golden_routes_north_america_whole_board(a: str, b: str, expected: int) -> None:
    """BLD-04, BLD-10, BLD-11: cheapest connection cost on the whole North America
    board; a metropole's halves are joined at cost 0."""
    assert cost("north_america", NA_ALL, a, b) == expected
    assert cost("north_america", NA_ALL, b, a) == expected


# --- golden routes, restricted play areas -------------------------------------------------------

RESTRICTED = [
    # Without the British region: paris -14- stuttgart -3- rhein_main = 17
    # (whole board 13: paris -7- vlaanderen -6- rhein_main or paris -10- rhein_ruhr -3-)
    ("europe", EU_NO_BRITISH, "paris", "rhein_main", 17, 13),
    # paris -14- stuttgart -3- rhein_main -9- bremen = 26
    # (paris -14- munchen ... dearer: paris -14- stuttgart -5- munchen -6- praha -7- berlin
    #  -6- bremen = 38; whole board 17 through vlaanderen)
    ("europe", EU_NO_BRITISH, "paris", "bremen", 26, 17),
    # zurich -5- stuttgart -3- rhein_main -9- bremen = 17 on both
    ("europe", EU_NO_BRITISH, "zurich", "bremen", 17, 17),
    # Without the Alps region: katowice -5- warszawa -14- kyjiv -9- odessa -10- bucuresti
    #   -12- beograd = 50 (whole board: katowice -11- budapest -10- beograd = 21;
    #   warszawa -10- minsk -10- kyjiv = 20 > 14; bucuresti -9- sofia -11- beograd = 20 > 12)
    ("europe", EU_EAST, "katowice", "beograd", 50, 21),
    # Without Mexico: los_angeles -8- las_vegas -25- denver -17- oklahoma_city = 50
    # (las_vegas -14- salt_lake_city -14- denver = 36 > 33; whole board 43 via albuquerque)
    ("north_america", NA_NORTH_WEST, "los_angeles", "oklahoma_city", 50, 43),
    # Without the Midwest: denver -12- albuquerque -9- juarez -19- dallas_fort_worth = 40
    # (juarez -18- san_antonio -9- dallas_fort_worth = 27 > 19; whole board 24 via
    #  oklahoma_city)
    ("north_america", NA_SOUTH_WEST, "denver", "dallas_fort_worth", 40, 24),
    # dallas_fort_worth -9- san_antonio -10- monterrey -17- mexico_city_s -0- mexico_city_n
    #   = 36 (dallas_fort_worth -19- juarez -8- chihuahua -14- monterrey = 41 > 19)
    ("north_america", NA_SOUTH, "dallas_fort_worth", "mexico_city_n", 36, 36),
    # chicago -10- columbus -6- pittsburgh -11- new_york_s -0- new_york_n = 27 on both
    ("north_america", NA_EAST, "chicago", "new_york_n", 27, 27),
]


@pytest.mark.parametrize(("map_id", "regions", "a", "b", "inside", "whole"), RESTRICTED)
def test_golden_routes_restricted_play_area(
    map_id: str, regions: tuple[str, ...], a: str, b: str, inside: int, whole: int
) -> None:
    """BLD-07, SET-04, BLD-04, BLD-11: routes may not leave the play area, so a route
    that is cheaper through an excluded region costs more inside the area."""
    everything = EU_ALL if map_id == "europe" else NA_ALL
    assert cost(map_id, regions, a, b) == inside
    assert cost(map_id, regions, b, a) == inside
    assert cost(map_id, everything, a, b) == whole


# --- golden routes through a real Build ----------------------------------------------------------


def site(map_id: str, regions: Sequence[str], owned: str, money: int) -> GameState:
    s = new(players=3, map=map_id, regions=regions)
    s = arrange(s, round=3, step=1, phase=Phase.BUILDING, order=(0, 1, 2), done=())
    s = give(s, 2, money=money, cities=(owned,))
    assert pg.current_player(s) == 2
    return s


@pytest.mark.parametrize(
    ("map_id", "regions", "owned", "target", "charged"),
    [
        ("europe", EU_NO_BRITISH, "paris", "bremen", 10 + 26),
        ("europe", EU_NO_BRITISH, "paris", "rhein_main", 10 + 17),
        ("europe", EU_EAST, "katowice", "beograd", 10 + 50),
        ("europe", ("british_isles_low_countries", "central", "france_iberia"), "paris",
         "bremen", 10 + 17),
        ("europe", ("british_isles_low_countries", "central", "france_iberia"), "london",
         "rhein_main", 10 + 21),
        ("north_america", NA_NORTH_WEST, "los_angeles", "oklahoma_city", 10 + 50),
        ("north_america", NA_SOUTH_WEST, "denver", "dallas_fort_worth", 10 + 40),
        ("north_america", NA_SOUTH, "dallas_fort_worth", "mexico_city_n", 10 + 36),
        ("north_america", NA_EAST, "chicago", "new_york_n", 10 + 27),
        ("north_america", NA_EAST, "washington", "new_york_n", 10 + 8),
        ("north_america", NA_EAST, "quebec", "toronto", 10 + 16),
    ],
)  # fmt: skip
def test_build_charges_slot_plus_connection(
    map_id: str, regions: tuple[str, ...], owned: str, target: str, charged: int
) -> None:
    """BLD-04, BLD-05, BLD-07, BLD-11: a Build pays the 10 slot plus the hand-derived
    cheapest in-area connection cost, and no more."""
    s = site(map_id, regions, owned, money=charged)
    after = play(s, pg.Build(player=2, city=target))
    assert after.players[2].money == 0
    assert after.players[2].cities == (owned, target)
    poorer = site(map_id, regions, owned, money=charged - 1)
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(poorer, pg.Build(player=2, city=target))
    assert info.value.reason is pg.Reason.CANNOT_AFFORD
    assert f"= {charged} Elektro" in str(info.value)


# --- outside the play area ----------------------------------------------------------------------


def test_cities_outside_the_area_are_unreachable() -> None:
    """BLD-07, SET-04: without the British region, London and Vlaanderen cannot be
    reached from Paris (direct neighbours on the board), nor Paris from them."""
    area = play_area("europe", EU_NO_BRITISH)
    i = area.board.index
    for outside in ("london", "vlaanderen", "rhein_ruhr", "glasgow"):
        assert area.cost[i["paris"]][i[outside]] == INF
        assert area.cost[i[outside]][i["paris"]] == INF
        assert not area.contains(outside)
    assert area.contains("paris")
    assert not area.contains("atlantis")


def test_play_area_membership_and_self_cost() -> None:
    """SET-04, BLD-07: 3 regions of 7 cities make a 21-city play area; inside it every
    city is reachable from every other at a finite cost, 0 to itself; the costs
    are symmetric; every city outside is at INF."""
    for map_id, regions in (("europe", EU_EAST), ("north_america", NA_EAST)):
        area = play_area(map_id, regions)
        assert len(area.cities) == 21
        inside = set(area.cities)
        n = len(area.board.cities)
        assert n == 49
        for a in range(n):
            for b in range(n):
                c = area.cost[a][b]
                if a in inside and b in inside:
                    assert c == (0 if a == b else area.cost[b][a])
                    assert 0 <= c < INF
                else:
                    assert c == INF


def test_metropole_halves_in_and_out_of_area() -> None:
    """BLD-10, BLD-11, SET-04: New York's halves both lie in the Northeast region;
    Mexico City's in Mexico. Without Mexico, Mexico City is unreachable."""
    area = play_area("north_america", NA_EAST)
    assert area.contains("new_york_n")
    assert area.contains("new_york_s")
    assert not area.contains("mexico_city_n")
    assert cost("north_america", NA_EAST, "new_york_s", "new_york_n") == 0
    assert cost("north_america", NA_EAST, "chicago", "mexico_city_s") == INF


# --- regions ------------------------------------------------------------------------------------


def test_region_adjacency_matches_hand_reading() -> None:
    """SET-04: region neighbours, read by hand from the connections that cross
    region borders."""
    eu = load_map("europe").region_neighbours
    assert eu["central"] == {
        "alps_italy_hungary",
        "british_isles_low_countries",
        "eastern",
        "france_iberia",
        "scandinavia_baltic",
    }
    assert eu["british_isles_low_countries"] == {"central", "france_iberia"}
    assert eu["balkans_turkey"] == {"alps_italy_hungary", "eastern"}
    na = load_map("north_america").region_neighbours
    assert na["northeast"] == {"mideast"}
    assert na["midwest"] == {"mexico", "mideast", "northwest", "south", "west"}
    assert na["northwest"] == {"midwest", "west"}


def _adjacency(map_id: str) -> dict[str, set[str]]:
    raw = json.loads((DATA / f"{map_id}.json").read_text(encoding="utf-8"))
    out: dict[str, set[str]] = {r["id"]: set() for r in raw["regions"]}
    for pair in raw["region_adjacency"]:
        out[pair["a"]].add(pair["b"])
        out[pair["b"]].add(pair["a"])
    return out


def _connected(adj: dict[str, set[str]], regions: Sequence[str]) -> bool:
    chosen = set(regions)
    seen = {regions[0]}
    todo = [regions[0]]
    while todo:
        for nb in adj[todo.pop()] & chosen:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == chosen


@pytest.mark.parametrize(
    ("map_id", "size", "count"),
    [
        # Europe: 11 region edges; sum of C(deg, 2) = 6+1+1+10+6+3+1 = 28 paths of two
        # edges, 5 triangles each counted 3 times: 28 - 2 * 5 = 18 connected triples.
        ("europe", 3, 18),
        ("europe", 2, 11),
        ("europe", 7, 1),
        # North America: 10 edges; sum of C(deg, 2) = 3+3+10+0+1+3+3 = 23, 4 triangles:
        # 23 - 8 = 15 connected triples.
        ("north_america", 3, 15),
        ("north_america", 2, 10),
        ("north_america", 7, 1),
    ],
)
def test_connected_region_sets(map_id: str, size: int, count: int) -> None:
    """SET-04: every offered play area is connected, and the count of connected sets
    matches the hand count."""
    sets = connected_region_sets(map_id, size)
    assert len(sets) == count
    assert len(set(sets)) == count
    adj = _adjacency(map_id)
    for regions in sets:
        assert len(regions) == size
        assert list(regions) == sorted(regions)
        assert _connected(adj, regions)


def test_specific_region_sets() -> None:
    """SET-04: British + Central + France is a valid area; British + Eastern +
    Balkans is not; in North America the Northeast needs the Mideast."""
    eu3 = connected_region_sets("europe", 3)
    assert ("british_isles_low_countries", "central", "france_iberia") in eu3
    assert ("balkans_turkey", "british_isles_low_countries", "eastern") not in eu3
    assert ("alps_italy_hungary", "central", "france_iberia") in eu3
    for regions in connected_region_sets("north_america", 3):
        if "northeast" in regions:
            assert "mideast" in regions
    assert ("mideast", "midwest", "northeast") in connected_region_sets("north_america", 3)
    assert ("mexico", "northeast", "south") not in connected_region_sets("north_america", 3)


def test_unconnected_play_area_is_refused() -> None:
    """SET-04: a game on unconnected regions cannot be configured."""
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(
            players=3,
            map="europe",
            regions=("balkans_turkey", "british_isles_low_countries", "eastern"),
        )
    assert info.value.field == "regions"
    assert "not connected" in str(info.value)
