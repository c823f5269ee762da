"""Phase 4, building: BLD-01..BLD-12, CON-12, EC-28..EC-35 (classic components).

Connection costs are hand-derived from ``reference/map_europe.json`` and
``reference/map_north_america.json`` (route and sum in a comment next to each).
Seat 2 plays "A" and seat 1 "B": with player order 0, 1, 2 seat 2 is last, so it
builds first (BLD-01).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import powergrid as pg
from powergrid.enums import Phase
from powergrid.state import GameState
from tests.scenario import arrange, give, labels, new, occupy, play

EU_WEST = ("british_isles_low_countries", "central", "france_iberia")
EU_NO_BRITISH = ("alps_italy_hungary", "central", "france_iberia")
EU_FOUR = ("alps_italy_hungary", "british_isles_low_countries", "central", "france_iberia")
NA_EAST = ("mideast", "midwest", "northeast")
NA_MEXICO = ("mexico", "south", "west")


def site(
    regions: Sequence[str] = EU_WEST,
    *,
    map: str = "europe",
    step: int = 1,
    round: int = 2,
    money: int = 50,
    cities: Sequence[str] = (),
    players: int = 3,
) -> GameState:
    """Phase 4 of round ``round`` in Step ``step``; the last seat (A) is to build."""
    s = new(players=players, map=map, regions=regions)
    s = arrange(
        s, round=round, step=step, phase=Phase.BUILDING, order=tuple(range(players)), done=()
    )
    a = players - 1
    s = give(s, a, money=money, cities=cities)
    assert pg.current_player(s) == a
    assert s.build_step == step
    return s


def build(city: str, player: int = 2) -> pg.Build:
    return pg.Build(player=player, city=city)


def houses(state: GameState, city: str) -> tuple[int, ...]:
    return state.board.houses[state.rules.area.board.index[city]]


def paid(before: GameState, after: GameState, seat: int = 2) -> int:
    return before.players[seat].money - after.players[seat].money


def rejected(
    state: GameState, action: pg.Action, reason: pg.Reason, *fragments: str
) -> pg.IllegalAction:
    """Assert the action is refused with ``reason`` and a message holding
    ``fragments``, and that the input state is unchanged."""
    before = repr(state)
    players, board, market = state.players, state.board, state.market
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, action)
    err = info.value
    assert err.reason is reason
    for fragment in fragments:
        assert fragment in str(err), (fragment, str(err))
    assert repr(state) == before
    assert state.players == players
    assert state.board == board
    assert state.market == market
    assert action not in pg.legal_actions(state)
    assert not pg.is_legal(state, action)
    return err


# --- turns ---------------------------------------------------------------------------------------


def test_reverse_order_any_number_of_cities_then_bureaucracy() -> None:
    """BLD-01, BLD-08, CON-04, CON-06: player order 1, 2, 0 builds as 0, 2, 1; seat 0
    builds two cities in its one turn, seat 2 none; after the last EndBuild phase 5
    begins with the flags reset."""
    s = new(players=3, map="europe", regions=EU_WEST)
    s = arrange(s, round=2, phase=Phase.BUILDING, order=(1, 2, 0), done=())
    assert pg.current_player(s) == 0
    s = play(s, build("berlin", 0), build("bremen", 0))  # 10, then 10 + 6
    assert s.players[0].cities == ("berlin", "bremen")
    assert s.players[0].money == 50 - 10 - 16
    assert pg.current_player(s) == 0
    rejected(s, build("paris", 2), pg.Reason.NOT_YOUR_TURN, "player 0's turn", "not player 2")
    s = play(s, pg.EndBuild(player=0))
    assert pg.current_player(s) == 2
    s = play(s, pg.EndBuild(player=2))
    assert pg.current_player(s) == 1
    s = play(s, build("paris", 1), pg.EndBuild(player=1))
    assert s.phase is Phase.BUREAUCRACY
    assert s.done == frozenset()
    assert s.players[2].cities == ()
    assert s.players[1].cities == ("paris",)


def test_building_nothing_in_round_one_is_legal() -> None:
    """BLD-01, EC-35: a player may build no city at all, also in round 1."""
    s = site(round=1)
    assert pg.is_legal(s, pg.EndBuild(player=2))
    after = play(s, pg.EndBuild(player=2))
    assert after.players[2].cities == ()
    assert after.players[2].money == 50
    assert pg.current_player(after) == 1


# --- first city -----------------------------------------------------------------------------------


def test_first_city_pays_only_the_slot() -> None:
    """BLD-03, BLD-05: a first house anywhere in the play area costs 10 in Step 1,
    no connection cost, even in the far corner (Lisboa, Glasgow)."""
    for city in ("lisboa", "glasgow", "katowice"):
        s = site()
        after = play(s, build(city))
        assert paid(s, after) == 10
        assert after.players[2].cities == (city,)
        assert houses(after, city) == (2,)


def test_ec35_first_city_late() -> None:
    """EC-35, BLD-03: round 3, Step 1, A has no city while B and C have networks;
    A builds in a free city anywhere for 10, no connection cost."""
    s = site(round=3)
    s = give(s, 0, cities=("paris", "lyon"))
    s = give(s, 1, cities=("berlin", "bremen"))
    after = play(s, build("madrid"))
    assert paid(s, after) == 10
    assert after.players[2].cities == ("madrid",)


def test_first_city_may_not_be_occupied_in_step_one() -> None:
    """BLD-03, BLD-05, OQ-28: in Step 1 a first house may not go where another
    player has built; in Step 2 a first house may share a city and pays the 15 slot,
    still without connection cost."""
    s = occupy(site(), "berlin", (1,))
    rejected(s, build("berlin"), pg.Reason.CITY_FULL, "Berlin", "Step 1")
    s2 = occupy(site(step=2), "berlin", (1,))
    after = play(s2, build("berlin"))
    assert paid(s2, after) == 15
    assert houses(after, "berlin") == (1, 2)


# --- connection cost ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("owned", "target", "cost"),
    [
        # paris -7- vlaanderen -10- bremen = 17
        (("paris",), "bremen", 10 + 17),
        # berlin -6- bremen = 6
        (("berlin",), "bremen", 10 + 6),
        # rhein_ruhr -3- rhein_main -3- stuttgart = 6
        (("rhein_ruhr",), "stuttgart", 10 + 6),
        # glasgow -13- birmingham -4- london -16- paris = 33
        (("glasgow",), "paris", 10 + 33),
        # from the cheaper of two owned cities: lisboa -13- madrid = 13 (katowice is far)
        (("katowice", "lisboa"), "madrid", 10 + 13),
    ],
)
def test_connection_cost_is_cheapest_route_from_network(
    owned: tuple[str, ...], target: str, cost: int
) -> None:
    """BLD-04, BLD-05: slot 10 plus the cheapest route from any owned city."""
    s = site(cities=owned)
    after = play(s, build(target))
    assert paid(s, after) == cost
    assert after.players[2].cities == (*owned, target)


def test_ec29_route_through_a_city_one_may_not_build_in() -> None:
    """EC-29, BLD-04, BLD-07, BLD-05: Step 1, A owns Paris, B owns Vlaanderen (closed
    to A in Step 1). Paris -7- Vlaanderen -10- Bremen = 17 is the cheapest route;
    the cheapest avoiding Vlaanderen is paris -10- rhein_ruhr -3- rhein_main -9-
    bremen = 22. A pays 10 + 17 = 27, not 32."""
    s = occupy(site(cities=("paris",)), "vlaanderen", (1,))
    rejected(s, build("vlaanderen"), pg.Reason.CITY_FULL, "Vlaanderen", "Step 1")
    after = play(s, build("bremen"))
    assert paid(s, after) == 27


def test_ec29_route_through_a_full_city() -> None:
    """EC-29, BLD-07, BLD-05: Step 3, 4 players; Vlaanderen holds the houses of seats
    0, 1 and 2 (full for every Step). A (seat 3) owns Paris and still routes through
    it: paris -7- vlaanderen -10- bremen = 17, so Bremen costs 10 + 17 = 27."""
    s = site(EU_FOUR, players=4, step=3, cities=("paris",))
    s = occupy(s, "vlaanderen", (0, 1, 2))
    assert pg.current_player(s) == 3
    rejected(s, build("vlaanderen", 3), pg.Reason.CITY_FULL, "Vlaanderen", "Step 3")
    after = play(s, build("bremen", 3))
    assert paid(s, after, 3) == 27


def test_ec30_no_route_outside_the_play_area() -> None:
    """EC-30, BLD-07, SET-04: as EC-29 but Vlaanderen (British Isles & Low Countries)
    lies outside the play area France, Central, Alps. Cheapest in-area route
    paris -14- stuttgart -3- rhein_main -9- bremen = 26: A pays 10 + 26 = 36, not 27.
    Rhein-Main likewise costs 10 + 17 (paris -14- stuttgart -3- rhein_main), not
    10 + 13 (paris -7- vlaanderen -6- rhein_main)."""
    s = site(EU_NO_BRITISH, cities=("paris",))
    after = play(s, build("bremen"))
    assert paid(s, after) == 36
    after = play(s, build("rhein_main"))
    assert paid(s, after) == 27
    rejected(s, build("vlaanderen"), pg.Reason.OUTSIDE_PLAY_AREA, "Vlaanderen", "play area")


# --- several cities in one turn ----------------------------------------------------------------


def test_several_cities_each_measured_from_the_enlarged_network() -> None:
    """BLD-08, BLD-04, BLD-02, CON-12: A owns Paris and builds Vlaanderen
    (10 + 7), Randstad (10 + 4 from Vlaanderen, not 10 + 11 from Paris), Bremen
    (10 + 8 from Randstad): 17 + 14 + 18 = 49. The city count rises with each
    house. Bremen first would cost 10 + 17 = 27."""
    s = site(cities=("paris",), money=100)
    counts = []
    for city in ("vlaanderen", "randstad", "bremen"):
        s = play(s, build(city))
        counts.append(s.players[2].city_count)
    assert counts == [2, 3, 4]
    assert s.players[2].money == 100 - 49
    assert s.players[2].cities == ("paris", "vlaanderen", "randstad", "bremen")
    first = site(cities=("paris",), money=100)
    assert paid(first, play(first, build("bremen"))) == 27


# --- slots ---------------------------------------------------------------------------------------


def test_ec34_slot_prices_by_step() -> None:
    """EC-34, BLD-05: A owns Berlin. Step 1: Bremen with one house is closed.
    Step 2: Bremen with one house costs 15 + 6; with two houses it is closed.
    Step 3: the third house costs 20 + 6."""
    one = occupy(site(step=1, cities=("berlin",)), "bremen", (0,))
    rejected(one, build("bremen"), pg.Reason.CITY_FULL, "Bremen", "Step 1")

    one = occupy(site(step=2, cities=("berlin",)), "bremen", (0,))
    after = play(one, build("bremen"))
    assert paid(one, after) == 21
    assert houses(after, "bremen") == (0, 2)

    two = occupy(site(step=2, cities=("berlin",)), "bremen", (0, 1))
    rejected(two, build("bremen"), pg.Reason.CITY_FULL, "Bremen", "Step 2")

    two = occupy(site(step=3, cities=("berlin",)), "bremen", (0, 1))
    after = play(two, build("bremen"))
    assert paid(two, after) == 26
    assert houses(after, "bremen") == (0, 1, 2)


def test_free_city_in_step_three_costs_ten() -> None:
    """BLD-05: a new house always takes the cheapest free slot: 10 in an empty city,
    also in Step 3."""
    s = site(step=3, cities=("berlin",))
    assert paid(s, play(s, build("bremen"))) == 16


# --- one house per city --------------------------------------------------------------------------


@pytest.mark.parametrize("step", [1, 2, 3])
def test_second_house_in_the_same_city(step: int) -> None:
    """BLD-06: at most one house per player in a city, in every Step."""
    s = site(step=step, cities=("berlin",))
    rejected(s, build("berlin"), pg.Reason.ALREADY_IN_CITY, "player 2", "Berlin")


# --- North America metropoles -------------------------------------------------------------------


def test_ec31_metropole_halves_cost_zero_between() -> None:
    """EC-31, BLD-10, BLD-11, CON-12: A owns new_york_s and builds new_york_n for
    10 + 0; A now has 2 cities."""
    s = site(NA_EAST, map="north_america", cities=("new_york_s",))
    after = play(s, build("new_york_n"))
    assert paid(s, after) == 10
    assert after.players[2].city_count == 2
    assert houses(after, "new_york_n") == (2,)
    assert houses(after, "new_york_s") == (2,)


def test_ec32_metropole_halves_are_separate_cities() -> None:
    """EC-32, BLD-10, BLD-07, BLD-11: Step 1, B owns new_york_s (closed to A). A's
    network is Boston (boston -7- new_york_s, the map has no 8 neighbour). A builds
    new_york_n: legal, 10 + 7 + 0 = 17, passing through B's half."""
    s = occupy(site(NA_EAST, map="north_america", cities=("boston",)), "new_york_s", (1,))
    rejected(s, build("new_york_s"), pg.Reason.CITY_FULL, "New York S", "Step 1")
    after = play(s, build("new_york_n"))
    assert paid(s, after) == 17
    assert after.players[2].cities == ("boston", "new_york_n")


def test_ec33_one_house_per_half() -> None:
    """EC-33, BLD-06, BLD-10: Step 3, A owns mexico_city_n: a second house there is
    refused; mexico_city_s is legal at 10 + 0, and then A owns both halves."""
    s = site(NA_MEXICO, map="north_america", step=3, cities=("mexico_city_n",))
    rejected(s, build("mexico_city_n"), pg.Reason.ALREADY_IN_CITY, "Mexico City N")
    after = play(s, build("mexico_city_s"))
    assert paid(s, after) == 10
    assert after.players[2].city_count == 2
    rejected(after, build("mexico_city_s"), pg.Reason.ALREADY_IN_CITY, "Mexico City S")


def test_metropole_half_has_its_own_slots() -> None:
    """BLD-10, BLD-05, BLD-11: Step 2, B owns mexico_city_s, C owns mexico_city_n.
    A (Guadalajara) builds mexico_city_s on its 15 slot: guadalajara -10-
    mexico_city_s = 10, so 15 + 10 = 25; then mexico_city_n on its 15 slot for
    15 + 0."""
    s = site(NA_MEXICO, map="north_america", step=2, cities=("guadalajara",), money=60)
    s = occupy(occupy(s, "mexico_city_s", (1,)), "mexico_city_n", (0,))
    after = play(s, build("mexico_city_s"))
    assert paid(s, after) == 25
    after2 = play(after, build("mexico_city_n"))
    assert paid(after, after2) == 15
    assert after2.players[2].city_count == 3


# --- too-small plants ----------------------------------------------------------------------------


def test_ec28_too_small_cascade() -> None:
    """EC-28, BLD-12, BLD-02, CON-12: Step 2, 4 players, A (seat 3) has 7 cities
    (the British region), market 8 9 10 12 | 13 15 18 20, deck 6 11 4 14 16 ...
    A builds Paris (10 + 7 from Vlaanderen), Rhein-Main (10 + 3 from Rhein-Ruhr)
    and Stuttgart (10 + 3). After the 8th house 8 goes and the drawn 6 goes too,
    11 stays; after the 9th 9 goes, 4 goes, 14 stays; after the 10th 10 goes, 16
    stays. Every market plant ends above 10."""
    british = ("glasgow", "dublin", "birmingham", "london", "randstad", "vlaanderen", "rhein_ruhr")
    s = new(players=4, map="europe", regions=EU_FOUR)
    s = arrange(
        s,
        round=5,
        step=2,
        phase=Phase.BUILDING,
        order=(0, 1, 2, 3),
        done=(),
        actual=(8, 9, 10, 12),
        future=(13, 15, 18, 20),
        top=None,
        deck=(6, 11, 4, 14, 16, 17, 19, 21, 22),
    )
    s = give(s, 3, money=100, cities=british)
    assert s.market.removed == ()
    assert pg.current_player(s) == 3

    s = play(s, build("paris", 3))
    assert s.players[3].city_count == 8
    assert s.market.actual == labels(9, 10, 11, 12)
    assert s.market.future == labels(13, 15, 18, 20)
    assert s.market.removed == labels(8, 6)

    s = play(s, build("rhein_main", 3))
    assert s.players[3].city_count == 9
    assert s.market.actual == labels(10, 11, 12, 13)
    assert s.market.future == labels(14, 15, 18, 20)
    assert s.market.removed == labels(8, 6, 9, 4)

    s = play(s, build("stuttgart", 3))
    assert s.players[3].city_count == 10
    assert s.market.actual == labels(11, 12, 13, 14)
    assert s.market.future == labels(15, 16, 18, 20)
    assert s.market.removed == labels(8, 6, 9, 4, 10)
    assert s.players[3].money == 100 - 17 - 13 - 13
    assert min(s.rules.number(p) for p in s.market.actual) > 10


# --- bad input -----------------------------------------------------------------------------------


def test_city_outside_the_play_area() -> None:
    """BLD-07, SET-04: Wien (Alps region) is not in the play area British, Central,
    France: no first house there and no house from a neighbouring network."""
    rejected(site(), build("wien"), pg.Reason.OUTSIDE_PLAY_AREA, "Wien", "outside the play area")
    s = site(cities=("munchen",))  # munchen -9- wien on the full map
    rejected(s, build("wien"), pg.Reason.OUTSIDE_PLAY_AREA, "Wien")


@pytest.mark.parametrize("city", ["atlantis", "new_york_n", "Berlin"])
def test_unknown_city(city: str) -> None:
    """BLD-03, CON-02: a city id not on the Europe board (a North America id, a
    display name instead of an id) is refused."""
    rejected(site(), build(city), pg.Reason.UNKNOWN_CITY, repr(city), "Europe")


@pytest.mark.parametrize("city", ["", "rhein main", " berlin"])
def test_malformed_city_id_is_not_an_action(city: str) -> None:
    """BLD-03: a city id is one word; an empty or spaced id cannot even be built."""
    with pytest.raises(ValueError, match="city id without spaces"):
        pg.Build(player=2, city=city)


def test_unaffordable_city() -> None:
    """BLD-04, CON-09: Bremen from Paris costs 10 + 17 = 27: refused with 26 Elektro,
    bought with exactly 27 (leaving 0)."""
    s = site(cities=("paris",), money=26)
    rejected(s, build("bremen"), pg.Reason.CANNOT_AFFORD, "10 + 17 = 27", "has 26")
    after = play(site(cities=("paris",), money=27), build("bremen"))
    assert after.players[2].money == 0


def test_unaffordable_first_city() -> None:
    """BLD-03, CON-09: with 9 Elektro even a first city (10) is refused."""
    rejected(site(money=9), build("paris"), pg.Reason.CANNOT_AFFORD, "10 + 0 = 10", "has 9")


def test_no_houses_left() -> None:
    """BLD-09: a player whose 22 houses are all on the board cannot build."""
    cities = (
        "glasgow", "dublin", "birmingham", "london", "randstad", "vlaanderen", "rhein_ruhr",
        "paris", "bordeaux", "lyon", "marseille", "barcelona", "madrid", "lisboa",
        "bremen", "berlin", "rhein_main", "stuttgart", "munchen", "praha", "katowice",
        "zurich",
    )  # fmt: skip
    assert len(set(cities)) == 22
    s = site(EU_FOUR, players=4, step=2, money=200, cities=cities)
    rejected(s, build("milano", 3), pg.Reason.NO_HOUSES_LEFT, "player 3", "no houses left")
    assert pg.legal_actions(s) == (pg.EndBuild(player=3),)
    one_left = give(s, 3, cities=cities[:21])
    after = play(one_left, build("zurich", 3))  # zurich -5- stuttgart: 10 + 5
    assert paid(one_left, after, 3) == 15
    assert after.players[3].city_count == 22


def test_legal_builds_are_exactly_the_affordable_open_cities() -> None:
    """BLD-04, BLD-05, BLD-06: A owns Paris with 20 Elektro in Step 1 (British,
    Central, France). Within 10 of Paris: Vlaanderen (7) and Rhein-Ruhr (10); next
    are Lyon (11), Randstad (7 + 4 = 11), Bordeaux (12). With Vlaanderen taken by B
    only Rhein-Ruhr is left."""
    s = site(cities=("paris",), money=20)
    builds = {a.city for a in pg.legal_actions(s) if isinstance(a, pg.Build)}
    assert builds == {"vlaanderen", "rhein_ruhr"}
    s = occupy(s, "vlaanderen", (1,))
    builds = {a.city for a in pg.legal_actions(s) if isinstance(a, pg.Build)}
    assert builds == {"rhein_ruhr"}
    assert pg.legal_actions(s)[-1] == pg.EndBuild(player=2)


def test_legal_first_builds_are_every_free_city_of_the_area() -> None:
    """BLD-03, BLD-05, BLD-07: with no city and 10 Elektro, A may start in any of the
    21 cities of the 3-region area except the one B occupies (Step 1)."""
    s = occupy(site(money=10), "london", (1,))
    builds = {a.city for a in pg.legal_actions(s) if isinstance(a, pg.Build)}
    area = s.rules.area
    expected = {area.board.cities[i] for i in area.cities} - {"london"}
    assert len(expected) == 20
    assert builds == expected
    assert "wien" not in builds
