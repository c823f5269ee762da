"""Play areas: SET-04, SET-12, SET-23, BLD-07 (and BLD-04, BLD-10, BLD-11 on the way).

Region adjacency and every connection cost below were read BY HAND from
``/work/shared/reference/map_europe.json`` and ``map_north_america.json``; each
golden route carries its cheapest path and sum in a comment, with the dearer
alternatives that were checked. Nothing here recomputes a shortest path. The
golden routes are new ones, not those of tests/test_network.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.enums import Phase
from powergrid.mechanics.network import play_area
from powergrid.state import GameState
from powergrid.testing import playout
from tests.module_parts import discount
from tests.scenario import arrange, give, new, play, variant

MAPS = ("europe", "north_america")
COMPONENTS = ("classic", "deluxe")
# The random games also cover the classic opt-in to the map rules (OQ-31).
VARIANTS = ("classic", "classic+map_rules", "deluxe")
# SET-12 / SET-23: regions in the play area for 2..6 players.
REGIONS_NEEDED = {2: 3, 3: 3, 4: 4, 5: 5, 6: 5}

# Region adjacency read from the connections that cross region borders.
EU_ADJ = {
    "british_isles_low_countries": {"central", "france_iberia"},
    "central": {
        "british_isles_low_countries",
        "france_iberia",
        "alps_italy_hungary",
        "eastern",
        "scandinavia_baltic",
    },
    "france_iberia": {"british_isles_low_countries", "central", "alps_italy_hungary"},
    "alps_italy_hungary": {"central", "france_iberia", "balkans_turkey", "eastern"},
    "balkans_turkey": {"alps_italy_hungary", "eastern"},
    "eastern": {"central", "alps_italy_hungary", "balkans_turkey", "scandinavia_baltic"},
    "scandinavia_baltic": {"central", "eastern"},
}
NA_ADJ = {
    "northwest": {"west", "midwest"},
    "west": {"northwest", "mexico", "midwest"},
    "mexico": {"west", "south", "midwest"},
    "south": {"mexico", "midwest", "mideast"},
    "midwest": {"northwest", "west", "mexico", "south", "mideast"},
    "mideast": {"midwest", "south", "northeast"},
    "northeast": {"mideast"},
}
ADJ = {"europe": EU_ADJ, "north_america": NA_ADJ}

# Europe play areas (3 regions).
E_WEST = ("british_isles_low_countries", "central", "france_iberia")
E_SOUTH_WEST = ("alps_italy_hungary", "central", "france_iberia")
E_NORTH_EAST = ("central", "eastern", "scandinavia_baltic")
E_SOUTH_EAST = ("alps_italy_hungary", "balkans_turkey", "eastern")
E_EAST = ("balkans_turkey", "central", "eastern")
E_NO_CENTRAL = ("alps_italy_hungary", "british_isles_low_countries", "france_iberia")
# North America play areas (3 regions).
N_EAST = ("mideast", "midwest", "northeast")
N_SOUTH_WEST = ("mexico", "south", "west")
N_EAST_COAST = ("mideast", "northeast", "south")
N_SOUTH = ("mexico", "midwest", "south")
N_NORTH_WEST = ("midwest", "northwest", "west")


def connected(adj: dict[str, set[str]], regions: Sequence[str]) -> bool:
    chosen = set(regions)
    start = next(iter(chosen))
    seen = {start}
    todo = [start]
    while todo:
        for nb in adj[todo.pop()] & chosen:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == chosen


def test_hand_read_adjacency_is_symmetric_set_04() -> None:
    """SET-04: the hand-read region graphs are symmetric, with 11 (Europe) and 10
    (North America) region borders, and every play area used here is connected."""
    for adj, edges in ((EU_ADJ, 11), (NA_ADJ, 10)):
        for region, nbs in adj.items():
            for nb in nbs:
                assert region in adj[nb]
        assert sum(len(n) for n in adj.values()) == 2 * edges
    for regions in (E_WEST, E_SOUTH_WEST, E_NORTH_EAST, E_SOUTH_EAST, E_EAST, E_NO_CENTRAL):
        assert connected(EU_ADJ, regions)
    for regions in (N_EAST, N_SOUTH_WEST, N_EAST_COAST, N_SOUTH, N_NORTH_WEST):
        assert connected(NA_ADJ, regions)


# --- GameConfig.regions validation --------------------------------------------------------


def config_error(**kwargs: object) -> pg.RulesConfigError:
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(**kwargs)  # type: ignore[arg-type]
    assert err.value.field == "regions"
    return err.value


def wrong_sized(map_id: str, size: int) -> tuple[str, ...]:
    """A connected set of ``size`` regions, grown by hand-read adjacency."""
    adj = ADJ[map_id]
    chosen = ["central" if map_id == "europe" else "midwest"]
    while len(chosen) < size:
        chosen.append(sorted(set().union(*(adj[r] for r in chosen)) - set(chosen))[0])
    assert connected(adj, chosen)
    return tuple(chosen)


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("delta", [-1, 1])
@pytest.mark.parametrize("components", COMPONENTS)
def test_wrong_region_count_set_04_set_12_set_23(
    map_id: str, players: int, delta: int, components: str
) -> None:
    """SET-04, SET-12, SET-23: 3/3/4/5/5 regions for 2..6 players; one fewer or one
    more (connected) is refused on field "regions", naming the count and listing
    every valid region of the map."""
    need = REGIONS_NEEDED[players]
    regions = wrong_sized(map_id, need + delta)
    err = config_error(players=players, map=map_id, components=components, regions=regions)
    msg = str(err)
    assert f"{need} regions" in msg
    assert f"not {need + delta}" in msg
    for region in ADJ[map_id]:
        assert region in msg


@pytest.mark.parametrize(
    ("map_id", "regions", "bad"),
    [
        ("europe", ("central", "eastern", "atlantis"), "atlantis"),
        ("europe", ("central", "eastern", "Central"), "Central"),
        ("europe", ("central", "eastern", "midwest"), "midwest"),
        ("north_america", ("midwest", "mideast", "central"), "central"),
        ("north_america", ("midwest", "mideast", "north_east"), "north_east"),
    ],
)
def test_unknown_region_lists_valid_names_set_04(
    map_id: str, regions: tuple[str, ...], bad: str
) -> None:
    """SET-04, CON-02: a region not on the chosen board (a typo, a capitalised
    display name, a region of the other map) is refused on field "regions"; the
    message names it and lists every valid region of that map."""
    err = config_error(players=3, map=map_id, regions=regions)
    msg = str(err)
    assert repr(bad) in msg
    for region in ADJ[map_id]:
        assert region in msg


@pytest.mark.parametrize(
    ("map_id", "players", "regions"),
    [
        ("europe", 3, ("central", "central", "eastern")),
        ("europe", 4, ("central", "eastern", "eastern", "scandinavia_baltic")),
        ("north_america", 3, ("midwest", "midwest", "midwest")),
        ("north_america", 5, ("midwest", "south", "mexico", "west", "south")),
    ],
)
def test_duplicate_region_refused_set_04(
    map_id: str, players: int, regions: tuple[str, ...]
) -> None:
    """SET-04: a region named twice does not make a play area of the right size."""
    err = config_error(players=players, map=map_id, regions=regions)
    assert "twice" in str(err)


@pytest.mark.parametrize(
    ("map_id", "players", "regions"),
    [
        # British borders only Central and France.
        ("europe", 3, ("british_isles_low_countries", "eastern", "balkans_turkey")),
        # Scandinavia and Balkans each touch Eastern, but British is cut off.
        ("europe", 4, ("scandinavia_baltic", "eastern", "balkans_turkey", "france_iberia")),
        # Northeast borders only the Mideast.
        ("north_america", 3, ("northeast", "south", "mexico")),
        ("north_america", 4, ("northeast", "northwest", "west", "midwest")),
        ("north_america", 5, ("northeast", "northwest", "west", "midwest", "mexico")),
    ],
)
def test_disconnected_regions_refused_set_04(
    map_id: str, players: int, regions: tuple[str, ...]
) -> None:
    """SET-04: the play area must be connected as a region graph."""
    assert not connected(ADJ[map_id], regions)
    err = config_error(players=players, map=map_id, regions=regions)
    assert "not connected" in str(err)


# --- regions chosen by the seed -----------------------------------------------------------


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("components", COMPONENTS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seeded_play_area_is_connected_and_sized_set_04_set_12_set_23(
    map_id: str, components: str, players: int
) -> None:
    """SET-04, SET-12, SET-23: without explicit regions the seed chooses 3/3/4/5/5
    distinct, connected regions of the chosen map; the area holds 7 cities per
    region and only those."""
    cfg = pg.GameConfig(players=players, map=map_id, components=components)
    for seed in range(6):
        s = pg.new_game(cfg, seed=seed)
        regions = s.regions
        assert len(regions) == REGIONS_NEEDED[players]
        assert len(set(regions)) == len(regions)
        assert set(regions) <= set(ADJ[map_id])
        assert connected(ADJ[map_id], regions)
        area = s.rules.area
        assert len(area.cities) == 7 * len(regions)
        for i in area.cities:
            assert area.board.city_region[i] in regions


# --- building outside the play area -------------------------------------------------------


def site(
    map_id: str,
    regions: Sequence[str],
    owned: Sequence[str],
    money: int,
    components: str = "deluxe",
) -> GameState:
    """Phase 4 of round 3, Step 1, 3 players; seat 2 (last in order) builds first."""
    s = new(3, map=map_id, regions=regions, components=components)
    s = arrange(s, round=3, step=1, phase=Phase.BUILDING, order=(0, 1, 2), done=())
    s = give(s, 2, money=money, cities=owned)
    assert pg.current_player(s) == 2
    return s


@pytest.mark.parametrize("components", COMPONENTS)
@pytest.mark.parametrize(
    ("map_id", "regions", "owned", "city", "name"),
    [
        ("europe", E_NO_CENTRAL, (), "berlin", "Berlin"),  # a first city outside
        ("europe", E_NO_CENTRAL, ("zurich",), "stuttgart", "Stuttgart"),  # zurich -5-
        ("europe", E_WEST, ("paris",), "zurich", "Zürich"),  # paris -14-
        ("north_america", N_EAST, ("charlotte",), "atlanta", "Atlanta"),  # charlotte -8-
        ("north_america", N_EAST_COAST, ("chicago",), "mexico_city_n", "Mexico City N"),
        ("north_america", N_NORTH_WEST, (), "mexico_city_s", "Mexico City S"),
        ("north_america", N_SOUTH, ("atlanta",), "nashville", "Nashville"),  # atlanta -9-
        ("north_america", N_SOUTH_WEST, ("guadalajara",), "new_york_n", "New York N"),
    ],
)
def test_city_outside_the_play_area_cannot_be_built_set_04_bld_07(
    components: str,
    map_id: str,
    regions: tuple[str, ...],
    owned: tuple[str, ...],
    city: str,
    name: str,
) -> None:
    """SET-04, BLD-07, BLD-10: a city outside the play area (also a direct neighbour of
    the player's network, also a metropole half) is refused with OUTSIDE_PLAY_AREA,
    naming the city; the state is unchanged and no legal action builds there."""
    s = site(map_id, regions, owned, money=200, components=components)
    before = repr(s)
    action = pg.Build(player=2, city=city)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(s, action)
    assert err.value.reason is pg.Reason.OUTSIDE_PLAY_AREA
    assert name in str(err.value)
    assert "outside the play area" in str(err.value)
    assert repr(s) == before
    legal = {a.city for a in pg.legal_actions(s) if isinstance(a, pg.Build)}
    assert city not in legal
    area = s.rules.area
    assert legal <= {area.board.cities[i] for i in area.cities}


# --- golden routes through a real Build ---------------------------------------------------

EU_ALL = tuple(EU_ADJ)
NA_ALL = tuple(NA_ADJ)

# (regions, owned, target, cheapest in-area connection, cheapest on the whole board)
EUROPE_ROUTES = [
    # london -16- paris -14- zurich = 30. (london -15- vlaanderen -7- paris = 22 > 16;
    # lyon route 16 + 11 + 14 = 41.) Whole board 29 through Central: london -15-
    # vlaanderen -6- rhein_main -3- stuttgart -5- zurich.
    (E_NO_CENTRAL, "london", "zurich", 30, 29),
    # glasgow -13- birmingham -4- london -16- paris -11- lyon -11- milano -17- zagreb -8-
    # wien = 80 (paris -14- zurich -11- milano = 58 > 55; lyon -8- marseille -13- milano
    # = 65; milano -17- zagreb -7- budapest -5- wien = 29 > 25). Whole board 53: glasgow
    # ... london (17) -15- vlaanderen -6- rhein_main (38) -6- munchen (44) -9- wien
    # (rhein_main -10- praha -7- wien = 55).
    (E_NO_CENTRAL, "glasgow", "wien", 80, 53),
    # randstad -4- vlaanderen -7- paris -11- lyon -8- marseille = 30 (paris -12- bordeaux
    # -12- marseille = 35; via Central zurich -14- lyon = 32 to lyon only).
    (E_NO_CENTRAL, "randstad", "marseille", 30, 30),
    # lyon -14- zurich -5- stuttgart -3- rhein_main -10- berlin = 32 (lyon -11- paris -14-
    # stuttgart = 25 > 19; stuttgart -5- munchen -6- praha -7- berlin = 18 > 13;
    # rhein_main -9- bremen -6- berlin = 15 > 10). Whole board: lyon -11- paris -7-
    # vlaanderen -10- bremen -6- berlin = 34, also 34 via rhein_ruhr: 32.
    (E_SOUTH_WEST, "lyon", "berlin", 32, 32),
    # milano -11- zurich -8- munchen -6- praha -8- katowice = 33, tied with milano -17-
    # zagreb -8- wien -8- katowice = 33 (zagreb -7- budapest -11- katowice = 35).
    (E_SOUTH_WEST, "milano", "katowice", 33, 33),
    # oslo -17- kobenhavn -25- warszawa = 42 (kobenhavn -15- berlin -11- warszawa = 43;
    # kobenhavn -12- bremen -6- berlin -11- = 46; via helsinki and riga = 70).
    (E_NORTH_EAST, "oslo", "warszawa", 42, 42),
    # bremen -6- berlin -11- warszawa -10- minsk -14- moskwa = 41 (warszawa -12- riga -18-
    # moskwa = 47; riga -13- st_petersburg -14- moskwa = 56; kyjiv -9- kharkiv -16- = 56).
    (E_NORTH_EAST, "bremen", "moskwa", 41, 41),
    # wien -5- budapest -21- kyjiv -14- warszawa = 40 (budapest -16- bucuresti -10- odessa
    # -9- kyjiv = 35 > 21; kyjiv -10- minsk -10- warszawa = 20 > 14). Whole board 13:
    # wien -8- katowice -5- warszawa (Central).
    (E_SOUTH_EAST, "wien", "warszawa", 40, 13),
    # zagreb -7- budapest -21- kyjiv -9- kharkiv = 37 (zagreb -9- beograd -12- bucuresti
    # -10- odessa -13- kharkiv = 44; budapest -25- odessa = 32 -13- = 45).
    (E_SOUTH_EAST, "zagreb", "kharkiv", 37, 37),
    # berlin -11- warszawa -14- kyjiv -9- odessa -10- bucuresti -13- istanbul = 57 (the
    # Balkans are entered only from bucuresti here; bucuresti -9- sofia -13- istanbul =
    # 22 > 13). Whole board 48 through the Alps: berlin -7- praha -7- wien -5- budapest
    # -16- bucuresti -13- istanbul.
    (E_EAST, "berlin", "istanbul", 57, 48),
    # dublin -15- birmingham -4- london -15- vlaanderen -6- rhein_main -6- munchen = 46
    # (dublin -17- glasgow -13- birmingham = 30 > 15; rhein_main -3- stuttgart -5-
    # munchen = 8 > 6; london -16- paris -14- stuttgart = 30 > 24).
    (E_WEST, "dublin", "munchen", 46, 46),
    # marseille -8- lyon -11- paris -10- rhein_ruhr -3- rhein_main -6- munchen = 38, tied
    # with paris -14- stuttgart -5- munchen. Whole board 30 through the Alps: marseille
    # -8- lyon -14- zurich -8- munchen.
    (E_WEST, "marseille", "munchen", 38, 30),
]

NORTH_AMERICA_ROUTES = [
    # atlanta -8- charlotte -12- washington -5- philadelphia -3- new_york_s -0- new_york_n
    # = 28 (atlanta -9- nashville -22- washington = 31 > 20; washington -7- pittsburgh
    # -11- new_york_s = 18 > 8).
    (N_EAST_COAST, "atlanta", "new_york_n", 28, 28),
    # miami -12- jacksonville -12- charlotte -12- washington -7- pittsburgh -11- toronto
    # = 54 (philadelphia -3- new_york_s -14- toronto = 58; columbus -7- detroit -8-
    # toronto = 63).
    (N_EAST_COAST, "miami", "toronto", 54, 54),
    # new_orleans -16- atlanta -9- nashville = 25. Whole board 21 through the Midwest:
    # new_orleans -14- memphis -7- nashville.
    (N_EAST_COAST, "new_orleans", "nashville", 25, 21),
    # houston -12- new_orleans -16- atlanta -9- nashville -15- columbus = 52 (charlotte
    # -12- washington -12- columbus = 60). Whole board 45: houston -8- dallas_fort_worth
    # -15- memphis -7- nashville -15- columbus (nashville -9- indianapolis -7- = 46).
    (N_EAST_COAST, "houston", "columbus", 52, 45),
    # st_louis -8- indianapolis -7- columbus -6- pittsburgh -11- new_york_s -7- boston =
    # 39, through the metropole half (pittsburgh -9- philadelphia -3- new_york_s = 33 >
    # 32; st_louis -9- chicago -10- detroit -8- toronto -8- ottawa -3- montreal -9-
    # boston = 47).
    (N_EAST, "st_louis", "boston", 39, 39),
    # memphis -9- st_louis -9- chicago -10- detroit -8- toronto -8- ottawa -3- montreal =
    # 47 (memphis -7- nashville -15- columbus -7- detroit = 29 > 28; memphis -7- nashville
    # -22- washington -5- philadelphia -3- new_york_s -12- montreal = 49).
    (N_EAST, "memphis", "montreal", 47, 47),
    # quebec -5- montreal -12- new_york_s -3- philadelphia -5- washington = 25 (montreal
    # -3- ottawa -13- new_york_s = 21 > 17; ottawa -8- toronto -11- pittsburgh -7- = 34).
    (N_EAST, "quebec", "washington", 25, 25),
    # guadalajara -23- chihuahua -8- juarez -22- san_diego -3- los_angeles = 56
    # (guadalajara -16- monterrey -14- chihuahua = 30 > 23; juarez -9- albuquerque -25-
    # los_angeles = 65).
    (N_SOUTH_WEST, "guadalajara", "los_angeles", 56, 56),
    # mexico_city_n -0- mexico_city_s -17- monterrey -10- san_antonio -6- houston -12-
    # new_orleans = 45, through the other metropole half (san_antonio -9- dallas_fort_worth
    # -16- new_orleans = 52; mexico_city_s -10- guadalajara -16- monterrey = 26 > 17).
    (N_SOUTH_WEST, "mexico_city_n", "new_orleans", 45, 45),
    # salt_lake_city -14- denver -12- albuquerque -9- juarez -18- san_antonio = 53
    # (salt_lake_city -14- las_vegas -18- albuquerque = 32 > 26; juarez -19-
    # dallas_fort_worth -9- san_antonio = 63). Whole board 47 through the Midwest:
    # salt_lake_city -14- denver -17- oklahoma_city -7- dallas_fort_worth -9- san_antonio.
    (N_SOUTH_WEST, "salt_lake_city", "san_antonio", 53, 47),
    # seattle -4- vancouver -28- regina -11- winnipeg -13- minneapolis -10- milwaukee -3-
    # chicago = 69 (vancouver -16- calgary -14- regina = 34 > 32; seattle -5- portland
    # -22- salt_lake_city -14- denver -19- kansas_city -16- chicago = 76).
    (N_NORTH_WEST, "seattle", "chicago", 69, 69),
    # atlanta -12- memphis -9- st_louis -9- chicago = 30. Whole board 24 through the
    # Mideast: atlanta -9- nashville -9- indianapolis -6- chicago.
    (N_SOUTH, "atlanta", "chicago", 30, 24),
    # mexico_city_n -0- mexico_city_s -17- monterrey -10- san_antonio -9- dallas_fort_worth
    # -7- oklahoma_city -10- kansas_city = 53 (dallas_fort_worth -15- memphis -14-
    # kansas_city = 65; monterrey -14- chihuahua -8- juarez -9- albuquerque -18-
    # oklahoma_city = 66).
    (N_SOUTH, "mexico_city_n", "kansas_city", 53, 53),
]

ROUTES = [("europe", *r) for r in EUROPE_ROUTES] + [
    ("north_america", *r) for r in NORTH_AMERICA_ROUTES
]


def test_enough_golden_routes_bld_07() -> None:
    """BLD-07, BLD-04: at least ten hand-derived routes per map, several of them
    dearer inside the play area than on the whole board, and North America routes
    through a metropole."""
    assert len(EUROPE_ROUTES) >= 10
    assert len(NORTH_AMERICA_ROUTES) >= 10
    assert sum(inside > whole for _, _, _, inside, whole in EUROPE_ROUTES) >= 4
    assert sum(inside > whole for _, _, _, inside, whole in NORTH_AMERICA_ROUTES) >= 4


@pytest.mark.parametrize("components", COMPONENTS)
@pytest.mark.parametrize(("map_id", "regions", "owned", "target", "inside", "whole"), ROUTES)
def test_golden_route_charged_by_a_real_build_bld_04_bld_07(
    components: str,
    map_id: str,
    regions: tuple[str, ...],
    owned: str,
    target: str,
    inside: int,
    whole: int,
) -> None:
    """BLD-04, BLD-05, BLD-07, BLD-10, BLD-11, SET-04, EC-30: a Build from a one-city network
    pays exactly 10 + the cheapest connection that stays inside the play area; one
    Elektro less is refused. The whole-board cost (cheaper when the best route leaves
    the area) is never charged."""
    charged = 10 + inside
    s = site(map_id, regions, (owned,), money=charged, components=components)
    after = play(s, pg.Build(player=2, city=target))
    assert after.players[2].money == 0
    assert after.players[2].cities == (owned, target)
    poorer = site(map_id, regions, (owned,), money=charged - 1, components=components)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(poorer, pg.Build(player=2, city=target))
    assert err.value.reason is pg.Reason.CANNOT_AFFORD
    assert f"10 + {inside} = {charged}" in str(err.value)
    everything = EU_ALL if map_id == "europe" else NA_ALL
    board = play_area(map_id, tuple(sorted(everything)))
    i, j = board.board.index[owned], board.board.index[target]
    assert board.cost[i][j] == whole


# --- property: seeded random games --------------------------------------------------------


@settings(max_examples=12, deadline=None)
@example(map_id="north_america", components="classic", players=3, seed=1, policy_seed=2)
@example(map_id="north_america", components="classic+map_rules", players=3, seed=1, policy_seed=2)
@given(
    map_id=st.sampled_from(MAPS),
    components=st.sampled_from(VARIANTS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    policy_seed=st.integers(0, 2**32 - 1),
)
def test_random_games_keep_token_houses_and_area_rules(
    map_id: str, components: str, players: int, seed: int, policy_seed: int
) -> None:
    """AUC-30, AUC-31, AUC-32, AUC-35, SET-24, CON-02, OQ-31, BLD-06, BLD-07, SET-04: along
    seeded random games the discount token lies only on the lowest actual plant during
    phase 2 (and there at the start of every North America phase 2 that plays the map
    rules: Deluxe, or classic with ``map_rules``), beside the market outside phase 2,
    always on Europe and always in a plain classic game; no player has two houses in one
    city; every house stands in the play area."""
    cfg = pg.GameConfig(players=players, map=map_id, **variant(components))
    last: GameState | None = None
    for state, _action in playout(cfg, seed, policy_seed):
        last = state
        _check(state)
    assert last is not None


def _check(state: GameState) -> None:
    m = state.market
    token = discount(state)
    cfg = state.config
    map_rules = cfg.components == "deluxe" or "map_rules" in cfg.options
    if cfg.map == "europe" or not map_rules or state.phase is not Phase.AUCTION:
        assert token is None
    else:
        if token is not None:
            assert m.actual[:1] == (token,)
        fresh = not state.done and not state.bought and state.auction is None
        if fresh and state.discarding is None and m.actual:
            assert token == m.actual[0]
    area = state.rules.area
    for i, seats in enumerate(state.board.houses):
        assert len(seats) == len(set(seats))
        if seats:
            assert area.in_area[i]
    for p in state.players:
        assert len(p.cities) == len(set(p.cities))
        assert all(area.contains(c) for c in p.cities)
