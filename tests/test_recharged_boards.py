"""The Recharged boards and their rules: building, the German phase-out, the USA coal storage.

RCH-42, RCH-43, RCH-50, RCH-51, RCH-55 with EC-R07, EC-R08 and EC-R15 (RULES.md
13.5-13.6). Connection costs are the numbers of RCH-55 and EC-R15; refill numbers
are BUR-06's 4-player row (RCH-40).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import powergrid as pg
from powergrid.enums import Phase, Resource
from powergrid.state import GameState
from tests.recharged_parts import (
    DE_4,
    RC_DE,
    RC_US,
    A,
    B,
    C,
    D,
    auction,
    buy_alone,
    events_of,
    rc,
    reject,
)
from tests.scenario import arrange, finish_phase, give, kinds, new, occupy, pass_rest, play

US_4 = ("yellow", "green", "red", "brown")  # holds Knoxville (yellow) and Raleigh (green)
COAL = Resource.COAL


def edge_costs(state: GameState, a: str, b: str) -> list[int]:
    """The costs of every direct connection between cities ``a`` and ``b`` on the board."""
    board = state.rules.area.board
    i, j = board.index[a], board.index[b]
    return [cost for x, y, cost in board.edges if {x, y} == {i, j}]


def site(
    state: GameState, *, step: int = 1, round: int = 3, cities: Sequence[str] = ()
) -> GameState:
    """Phase 4 with A (last in player order) to build first, 100 Elektro, owning ``cities``."""
    s = arrange(state, round=round, step=step, phase=Phase.BUILDING, order=(B, C, D, A), done=())
    s = give(s, A, money=100, cities=cities)
    assert pg.current_player(s) == A
    return s


def paid(before: GameState, after: GameState, seat: int = A) -> int:
    return before.players[seat].money - after.players[seat].money


# --- RCH-55, EC-R15: the boards --------------------------------------------------------------


def test_ec_r15_rch_55_essen_costs_15_on_recharged_germany_14_on_classic() -> None:
    """EC-R15, RCH-55: Step 1, A owns Dortmund, Munster, Osnabruck; building Essen costs
    15 (10 + Essen-Dortmund 5) on RC-DE and 14 on the classic Germany board."""
    network = ("dortmund", "munster", "osnabruck")
    s = site(rc(4), cities=network)
    assert paid(s, play(s, pg.Build(player=A, city="essen"))) == 15
    classic = site(new(4, map="germany", regions=DE_4), cities=network)
    assert paid(classic, play(classic, pg.Build(player=A, city="essen"))) == 14


def test_ec_r15_rch_55_usa_knoxville_raleigh_11() -> None:
    """EC-R15, RCH-55: on RC-US Knoxville-Raleigh costs 11, so Raleigh costs A (owning
    Knoxville) 10 + 11 = 21; Boise-Cheyenne does not exist."""
    s = site(rc(4, RC_US, regions=US_4), cities=("knoxville",))
    assert paid(s, play(s, pg.Build(player=A, city="raleigh"))) == 21
    assert edge_costs(s, "boise", "cheyenne") == []


def test_rch_55_germany_board_changes() -> None:
    """RCH-55: Torgelow is Stralsund, Wiesbaden is Mainz; Essen-Dortmund 5,
    Mannheim-Saarbrucken 16; 42 cities, 83 connections, 6 regions of 7 cities."""
    s = rc(6, regions=None)
    board = s.rules.area.board
    assert "stralsund" in board.index
    assert "mainz" in board.index
    assert "torgelow" not in board.index
    assert "wiesbaden" not in board.index
    assert edge_costs(s, "essen", "dortmund") == [5]
    assert edge_costs(s, "mannheim", "saarbrucken") == [16]
    assert len(board.cities) == 42
    assert len(board.edges) == 83
    sizes = [
        sum(1 for c in board.cities if board.city_region[board.index[c]] == r)
        for r in board.regions
    ]
    assert sizes == [7] * 6


def test_rch_55_usa_board_changes() -> None:
    """RCH-55: Boise-Cheyenne (24) and Cincinnati-Raleigh (15) are gone, Knoxville-Raleigh
    (11) is new, Omaha-Chicago 12, Houston-Santa Fe 20; 42 cities, 86 connections."""
    s = rc(6, RC_US, regions=None)
    board = s.rules.area.board
    assert edge_costs(s, "boise", "cheyenne") == []
    assert edge_costs(s, "cincinnati", "raleigh") == []
    assert edge_costs(s, "knoxville", "raleigh") == [11]
    assert edge_costs(s, "omaha", "chicago") == [12]
    assert edge_costs(s, "houston", "santa_fe") == [20]
    assert len(board.cities) == 42
    assert len(board.edges) == 86


# --- RCH-50, RCH-51: slots and the first house ------------------------------------------------


@pytest.mark.parametrize(("step", "houses", "price"), [(1, 0, 10), (2, 1, 15), (3, 2, 20)])
def test_rch_50_slot_prices_by_step(step: int, houses: int, price: int) -> None:
    """RCH-50, BLD-05: the slot costs 10, 15, 20 for the first, second, third house of a
    city, by Step; A's first house (no connection cost) in Koln shows it."""
    s = site(rc(4), step=step)
    s = occupy(s, "koln", (B, C)[:houses])
    assert paid(s, play(s, pg.Build(player=A, city="koln"))) == price


def test_rch_51_first_house_in_an_empty_city_in_a_later_round() -> None:
    """RCH-51, OQ-R11: in round 4 (Step 1) A, without a network, starts in an empty city
    anywhere for 10; a city B occupies is closed to A in Step 1; in Step 2 A may start
    in B's city for 15 (the classic OQ-28 reading)."""
    s = site(rc(4), round=4)
    s = give(s, B, cities=("koln", "aachen"))
    after = play(s, pg.Build(player=A, city="kiel"))
    assert paid(s, after) == 10
    assert after.players[A].cities == ("kiel",)
    reject(s, pg.Build(player=A, city="koln"), pg.Reason.CITY_FULL, "Step 1")
    s2 = give(site(rc(4), round=4, step=2), B, cities=("koln", "aachen"))
    assert paid(s2, play(s2, pg.Build(player=A, city="koln"))) == 15


# --- RCH-42, EC-R08: the German nuclear phase-out -------------------------------------------


def _uranium_refilled(state: GameState, since: int) -> list[int]:
    """The uranium each refill since event ``since`` added (the 4th value)."""
    return [int(e.values[3]) for e in events_of(state, "market_refilled", since)]


def test_ec_r08_a_rch_42_buying_39_ends_the_uranium_refill() -> None:
    """EC-R08 (a), RCH-42: RC-DE, round 6, A buys 39. Phase 5 of round 6 and of round 7
    refill no uranium (4 players, Step 1 would add 1); the uranium still on the market
    (14, 16) stays buyable: B buys one for 14."""
    s = auction(
        round=6,
        actual=(16, 22, 31, 39),
        future=(40, 42, 44, 46),
        deck=(20, 21, 23, 24, 25, 26),
        discount=16,
    )
    mark = len(s.events)
    s = buy_alone(s, A, 39, 39)
    assert events_of(s, "nuclear_phase_out", mark)
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    s = give(s, B, plants=(11,))
    while pg.current_player(s) != B:
        s = play(s, pg.EndPurchase(player=pg.current_player(s)))  # type: ignore[arg-type]
    bought = play(s, pg.BuyResource(player=B, resource=Resource.URANIUM, count=1))
    assert s.players[B].money - bought.players[B].money == 14
    uranium = kinds(bought)["uranium"]
    s = finish_phase(finish_phase(finish_phase(bought)))  # phases 3, 4, 5
    assert s.round == 7
    assert kinds(s)["uranium"] == uranium
    s = finish_phase(finish_phase(finish_phase(finish_phase(s))))  # round 7, phases 2-5
    assert s.round == 8
    assert s.step == 1
    assert _uranium_refilled(s, mark) == [0, 0]
    assert kinds(s)["uranium"] == uranium


def test_ec_r08_b_rch_42_39_removed_unbought_keeps_the_refill() -> None:
    """EC-R08 (b), RCH-42, RCH-33: RC-DE, Step 3, token on 39 in `39 40 42 44 46 50`,
    everyone passes: 39 leaves the game unbought, and phase 5 still refills uranium
    (4 players, Step 3: 2)."""
    s = auction(
        round=9,
        step=3,
        actual=(39, 40, 42, 44, 46, 50),
        future=(),
        deck=(),
        discount=39,
        step3_in_deck=False,
    )
    mark = len(s.events)
    s = pass_rest(s)
    assert "39" in s.market.removed
    assert not events_of(s, "nuclear_phase_out", mark)
    s = finish_phase(finish_phase(finish_phase(s)))
    assert _uranium_refilled(s, mark) == [2]


def test_rch_42_usa_has_no_phase_out() -> None:
    """RCH-42: the phase-out is the Germany board's: on RC-US buying 39 changes nothing."""
    s = auction(
        map=RC_US,
        round=6,
        actual=(16, 22, 31, 39),
        future=(40, 42, 44, 46),
        deck=(20, 21, 23, 24),
        discount=16,
    )
    mark = len(s.events)
    s = finish_phase(finish_phase(finish_phase(finish_phase(buy_alone(s, A, 39, 39)))))
    assert _uranium_refilled(s, mark) == [1]


# --- RCH-43, EC-R07: the USA coal storage ------------------------------------------------------


def _storage_scene(map: str) -> GameState:
    """Phase 3, market coal 0, 5 coal in the supply, the other 19 on C's and D's plants.

    Player order B, A, C, D: phase 3 runs D, C, A, B; C and D are done, A is to buy
    with 40 Elektro and plant 10 (room for 4 coal); B holds plant 4 (room for 4).
    """
    s = rc(4, map, regions=US_4 if map == RC_US else None)
    s = arrange(s, round=4, phase=Phase.RESOURCES, order=(B, A, C, D), done=(C, D))
    s = arrange(s, market_tokens={"coal": 19})
    s = give(s, C, plants=(20, 31), resources={"coal": 12})
    s = give(s, D, plants=(36, 42), resources={"coal": 7})
    s = arrange(s, market_tokens={"coal": 0})
    s = give(s, A, money=40, plants=(10,))
    s = give(s, B, money=50, plants=(4,))
    assert s.resources.supply[0] == 5
    assert pg.current_player(s) == A
    return s


def test_ec_r07_rch_43_usa_coal_storage() -> None:
    """EC-R07, RCH-43, RCH-11, RES-05: RC-US, market coal 0, storage 5. A (room for 4 coal,
    40 Elektro) buys 4 at 8 each (32); B then finds 1 token and cannot buy 2. In phase 5
    A burns 2 coal, which go to the storage, and the coal refill (5 with 4 players,
    Step 1) takes the 2 tokens the storage holds."""
    s = _storage_scene(RC_US)
    s = play(s, pg.BuyResource(player=A, resource=COAL, count=4), pg.EndPurchase(player=A))
    assert s.players[A].money == 8
    assert s.resources.supply[0] == 1
    assert pg.current_player(s) == B
    reject(s, pg.BuyResource(player=B, resource=COAL, count=2), pg.Reason.MARKET_SHORT, "1 more")
    s = play(s, pg.BuyResource(player=B, resource=COAL, count=1))
    assert s.players[B].money == 42
    assert s.resources.supply[0] == 0
    s = finish_phase(finish_phase(s))  # phases 3 and 4
    assert s.step == 1
    assert s.phase is Phase.BUREAUCRACY
    s = give(s, A, cities=("knoxville", "raleigh"))
    while s.phase is Phase.BUREAUCRACY:
        who = pg.current_player(s)
        assert who is not None
        if who == A:
            s = play(s, pg.Power(player=A, plants=("10",), mix=((COAL, 2),)))
        else:
            s = play(s, pg.Power(player=who))
    assert kinds(s)["coal"] == 2
    assert s.resources.supply[0] == 0


def test_ec_r07_rch_43_germany_has_no_coal_storage() -> None:
    """EC-R07, RCH-43: on RC-DE the same position allows no coal purchase."""
    s = _storage_scene(RC_DE)
    reject(s, pg.BuyResource(player=A, resource=COAL, count=1), pg.Reason.MARKET_SHORT)
