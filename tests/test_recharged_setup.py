"""Recharged setup: the edition, components, deck preparation and tables (RULES.md 13.1-13.3,
13.5, 13.10).

RCH-01..RCH-04, RCH-10..RCH-12, RCH-20, RCH-22, RCH-40, RCH-41, RCH-90 with EC-R13 and
EC-R14. The expected values are typed in from section 13 and the classic tables it
points to (SET-07, BUR-04, BUR-06, ``reference/plants_classic.json``); none is read
back from the package data.
"""

from __future__ import annotations

from collections import Counter

import pytest

import powergrid as pg
from powergrid.engine.phases import bureaucracy
from powergrid.enums import Phase, Resource
from powergrid.errors import Reason
from tests.recharged_parts import COUNTS, MAPS, RC_DE, RC_US, A, B, rc, reject
from tests.scenario import arrange, finish_phase, give, kinds, labels, play

KINDS = ("coal", "oil", "garbage", "uranium")
ALL_PLANTS = (*range(3, 41), 42, 44, 46, 50)
PLUG = frozenset(labels(*range(3, 16)))  # RCH-03: plug backs 03-15

# reference/plants_classic.json, typed in: number -> (kind, burn, cities) for a sample
# of cards across the deck (RCH-03 says all 42 equal the classic cards).
CLASSIC_CARDS = {
    3: ("oil", 2, 1),
    5: ("hybrid", 2, 1),
    6: ("garbage", 1, 1),
    11: ("uranium", 1, 2),
    13: ("eco", 0, 1),
    20: ("coal", 3, 5),
    29: ("hybrid", 1, 4),
    38: ("garbage", 3, 7),
    39: ("uranium", 1, 6),
    46: ("hybrid", 3, 7),
    50: ("fusion", 0, 6),
}

# 13.10: players -> (regions, removed plug, removed socket, Step 2, game end, max plants).
TABLE = {
    2: (3, 1, 5, 7, 18, 3),
    3: (3, 2, 6, 7, 17, 3),
    4: (4, 1, 3, 7, 17, 3),
    5: (5, 0, 0, 7, 15, 3),
    6: (5, 0, 0, 6, 14, 3),
}
# BUR-06 (RCH-40): players -> kind -> (Step 1, Step 2, Step 3).
REFILL = {
    2: {"coal": (3, 4, 3), "oil": (2, 2, 4), "garbage": (1, 2, 3), "uranium": (1, 1, 1)},
    3: {"coal": (4, 5, 3), "oil": (2, 3, 4), "garbage": (1, 2, 3), "uranium": (1, 1, 1)},
    4: {"coal": (5, 6, 4), "oil": (3, 4, 5), "garbage": (2, 3, 4), "uranium": (1, 2, 2)},
    5: {"coal": (5, 7, 5), "oil": (4, 5, 6), "garbage": (3, 3, 5), "uranium": (2, 3, 2)},
    6: {"coal": (7, 9, 6), "oil": (5, 6, 7), "garbage": (3, 5, 6), "uranium": (2, 3, 3)},
}
# BUR-04 (RCH-41): cities powered 0..20.
INCOME = (10, 22, 33, 44, 54, 64, 73, 82, 90, 98, 105, 112, 118, 124, 129, 134, 138, 142, 145)
INCOME_TAIL = (148, 150)


# --- RCH-01..RCH-04: the edition and its components --------------------------------------


@pytest.mark.parametrize("map", MAPS)
@pytest.mark.parametrize("players", COUNTS)
def test_rch_01_recharged_plays_2_to_6_on_its_boards(map: str, players: int) -> None:
    """RCH-01: components ``recharged`` on the Germany and USA Recharged boards, 2-6 players,
    with coal, oil, garbage and uranium."""
    s = rc(players, map, regions=None)
    assert s.rules.components.name == "recharged"
    assert tuple(k.value for k in s.rules.resources) == KINDS
    assert len(s.players) == players


@pytest.mark.parametrize("map", ["germany", "usa", "europe"])
def test_rch_01_rch_55_the_edition_refuses_other_boards(map: str) -> None:
    """RCH-01, RCH-55: the Recharged edition plays only on its own two boards."""
    with pytest.raises(pg.RulesConfigError):
        pg.new_game(pg.GameConfig(players=4, map=map, components="recharged"), seed=0)


def test_rch_01_hybrid_burns_any_mix_of_coal_and_oil() -> None:
    """RCH-01, BUR-02: hybrid 5 (2 fuel) runs on 1 coal + 1 oil, as in the classic game."""
    s = rc(4)
    s = arrange(s, round=2, phase=Phase.BUREAUCRACY, order=(A, B, 2, 3), done=())
    s = give(s, A, plants=(5,), resources={"coal": 1, "oil": 1}, cities=("essen",))
    mix = ((Resource.COAL, 1), (Resource.OIL, 1))
    after = play(s, pg.Power(player=A, plants=("5",), mix=mix))
    assert after.players[A].resources == (0, 0, 0, 0)
    assert after.players[A].money == s.players[A].money + 22


def test_rch_02_components() -> None:
    """RCH-02: 50 Elektro each; 24 coal, 24 oil, 24 garbage, 12 uranium; 42 plants 03-40,
    42, 44, 46, 50 plus the Step 3 card."""
    s = rc(4)
    assert all(p.money == 50 for p in s.players)
    totals = {
        k.value: s.resources.market[i] + s.resources.supply[i]
        for i, k in enumerate(s.rules.resources)
    }
    assert totals == {"coal": 24, "oil": 24, "garbage": 24, "uranium": 12}
    cards = s.rules.components.deck.cards
    assert sorted(c.number for c in cards) == list(ALL_PLANTS)
    assert s.market.step3_in_deck


def test_rch_02_twenty_two_houses() -> None:
    """RCH-02, BLD-09: each player has 22 houses: in Step 3 A, with 21 cities, builds a
    22nd and then has none left for a 23rd."""
    s = rc(4)
    s = arrange(s, round=9, step=3, step3_in_deck=False, phase=Phase.BUILDING)
    s = arrange(s, order=(B, 2, 3, A), done=())
    area = _area_cities(s)  # 28 cities in the 4 regions
    s = give(s, A, money=500, cities=area[:21])
    s = play(s, pg.Build(player=A, city=area[21]))
    assert s.players[A].city_count == 22
    reject(s, pg.Build(player=A, city=area[22]), Reason.NO_HOUSES_LEFT)


def _area_cities(state: pg.GameState) -> list[str]:
    area = state.rules.area
    return [area.board.cities[i] for i in area.cities]


def test_rch_03_plants_are_the_classic_cards_with_plug_and_socket_backs() -> None:
    """RCH-03: every Recharged card equals the classic card of its number (fuel, burn,
    cities); plants 03-15 have a plug back (13 cards), 16-50 a socket back (29)."""
    s = rc(4)
    classic = pg.new_game(pg.GameConfig(players=4, map="germany", components="classic"), seed=0)
    for card in s.rules.components.deck.cards:
        twin = classic.rules.plant(card.number)
        assert (card.kind, card.accepts, card.burn, card.cities) == (
            twin.kind,
            twin.accepts,
            twin.burn,
            twin.cities,
        )
    for number, (kind, burn, cities) in CLASSIC_CARDS.items():
        plant = s.rules.plant(number)
        assert (plant.kind, plant.burn, plant.cities) == (kind, burn, cities)
    backs = Counter(c.back for c in s.rules.components.deck.cards)
    assert backs == {"plug": 13, "socket": 29}
    assert {c.label for c in s.rules.components.deck.cards if c.back == "plug"} == PLUG


def test_rch_04_unchanged_classic_rules() -> None:
    """RCH-04: the classic market layout (SET-07: coal, oil, garbage 1-8 x 3; uranium
    1-8, 10, 12, 14, 16), round-1 must-buy (AUC-13) and the classic end-of-phase order."""
    s = rc(4)
    three_each = tuple(p for p in range(1, 9) for _ in range(3))
    assert s.rules.tables.slot_prices == (
        three_each,
        three_each,
        three_each,
        (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16),
    )
    first = pg.current_player(s)
    assert first is not None
    reject(s, pg.PassAuction(player=first), Reason.PASS_FORBIDDEN_FIRST_ROUND)


# --- RCH-10, RCH-11, EC-R14: the initial resource market -----------------------------------


@pytest.mark.parametrize("map", MAPS)
def test_ec_r14_rch_10_rch_11_initial_market(map: str) -> None:
    """EC-R14, RCH-10, RCH-11: coal 24 on 1-8 (the whole coal supply, general supply
    empty on both boards), oil 18 on 3-8, garbage 9 on 6-8 (15 in the supply), uranium 2
    on 14 and 16. The cheapest garbage costs 6, the cheapest oil 3, the cheapest uranium 14."""
    s = rc(4, map)
    assert kinds(s) == {"coal": 24, "oil": 18, "garbage": 9, "uranium": 2}
    supply = dict(zip(KINDS, s.resources.supply, strict=True))
    assert supply == {"coal": 0, "oil": 6, "garbage": 15, "uranium": 10}
    s = arrange(s, round=2, phase=Phase.RESOURCES, order=(B, 2, 3, A), done=(B, 2, 3))
    s = give(s, A, plants=(6, 3, 11), money=50)
    for kind, price in (("garbage", 6), ("oil", 3), ("uranium", 14)):
        after = play(s, pg.BuyResource(player=A, resource=Resource(kind), count=1))
        assert s.players[A].money - after.players[A].money == price, kind


# --- RCH-20, EC-R13, RCH-22, RCH-90: deck preparation -----------------------------------------


@pytest.mark.parametrize("seed", [0, 7, 21])
@pytest.mark.parametrize("players", COUNTS)
def test_ec_r13_rch_20_setup_removals(players: int, seed: int) -> None:
    """EC-R13, RCH-20, RCH-90: a market of 8 plug plants (the 4 lowest actual), a plug plant
    face down on top of the deck, plug / socket removed unseen 2p 1/5, 3p 2/6, 4p 1/3,
    5-6p 0/0, the Step 3 card under the deck: 4 players leave 42 - 8 - 4 = 30 cards."""
    _, plug_out, socket_out, *_ = TABLE[players]
    s = rc(players, RC_US, seed=seed)
    market = s.market.plants
    assert len(market) == 8
    assert set(market) <= PLUG
    assert s.market.actual == tuple(sorted(market, key=int))[:4]
    assert s.market.top is None  # face down: no face-up 13 as in SET-11
    assert s.secret.deck[0] in PLUG
    removed = s.secret.removed_unseen
    assert len([c for c in removed if c in PLUG]) == plug_out
    assert len([c for c in removed if c not in PLUG]) == socket_out
    assert len(s.secret.deck) == 42 - 8 - plug_out - socket_out
    if players == 4:
        assert len(s.secret.deck) == 30
    assert s.market.step3_in_deck
    # every plug plant left after the market and the top card is shuffled into the deck
    assert len([c for c in s.secret.deck if c in PLUG]) == 13 - 8 - plug_out


def test_rch_20_the_initial_market_is_random() -> None:
    """RCH-20: the market is 8 of the 13 plug plants, not always 03-10 (SET-11)."""
    markets = {rc(4, seed=seed).market.plants for seed in range(12)}
    assert len(markets) > 1
    assert markets != {labels(*range(3, 11))}


def test_rch_22_setup_removals_are_not_replaced() -> None:
    """RCH-22: no inactive area or quota (section 10) makes up for the setup removals: a
    4-player game keeps exactly its 4 unseen removals, and a phase 2 where everyone
    passes takes one card off the deck (the replacement of the unsold token plant,
    RCH-33) and no more."""
    s = rc(4, seed=5)
    assert "custom_deck" not in s.modules
    unseen = s.secret.removed_unseen
    assert len(unseen) == 4
    s = arrange(s, round=2, order=(A, B, 2, 3), done=())
    s = arrange(s, discount=s.market.actual[0])
    deck = len(s.secret.deck)
    s = finish_phase(s)
    assert s.phase is Phase.RESOURCES
    assert s.secret.removed_unseen == unseen
    assert len(s.secret.deck) == deck - 1
    assert len(s.market.removed) == 1


@pytest.mark.parametrize("players", COUNTS)
def test_rch_90_player_count_table(players: int) -> None:
    """RCH-90, RCH-70, RCH-80, RCH-37, OQ-R03: regions 3/3/4/5/5, Step 2 at 7/7/7/7/6, game
    end at 18/17/17/15/14, 3 plants; the option ``two_player_boardgamers`` plays 10 / 21 / 4
    with 2 players and changes nothing with more."""
    regions, _, _, step2, end, plants = TABLE[players]
    s = rc(players, RC_US, regions=None)
    assert len(s.regions) == regions
    assert (s.rules.step2_cities, s.rules.end_cities, s.rules.max_plants) == (step2, end, plants)
    other = rc(players, RC_US, regions=None, options={"two_player_boardgamers"})
    expected = (10, 21, 4) if players == 2 else (step2, end, plants)
    assert (other.rules.step2_cities, other.rules.end_cities, other.rules.max_plants) == expected


# --- RCH-12, RCH-40, RCH-41: refill and income ---------------------------------------------


@pytest.mark.parametrize("step", [1, 2, 3])
@pytest.mark.parametrize("players", COUNTS)
def test_rch_40_rch_12_refill_is_the_classic_table_on_both_boards(players: int, step: int) -> None:
    """RCH-40, RCH-12, BUR-06: the refill on an empty market adds the classic table's tokens
    for the player count and Step, the same on Germany and USA."""
    expected = tuple(REFILL[players][k][step - 1] for k in KINDS)
    for map in MAPS:
        s = rc(players, map, regions=None)
        s = arrange(s, step=step, step3_in_deck=step == 1, phase=Phase.BUREAUCRACY)
        s = arrange(s, market_tokens={k: 0 for k in KINDS})
        after = bureaucracy.refill(s)
        added = tuple(
            a - b for a, b in zip(after.resources.market, s.resources.market, strict=True)
        )
        assert added == expected, map


def test_rch_41_income_is_the_classic_payment_table() -> None:
    """RCH-41, BUR-04: 0 -> 10, 1 -> 22 ... 18 -> 145, 19 -> 148, 20 or more -> 150."""
    table = rc(4).rules.tables.income
    assert tuple(table[:19]) == INCOME
    assert tuple(table[19:21]) == INCOME_TAIL
    assert table[-1] == 150


def test_rch_41_powering_three_cities_earns_44() -> None:
    """RCH-41: A runs 20 (3 coal, 5 cities) with 3 cities built: powers 3, earns 44."""
    s = rc(4, RC_US)
    s = arrange(s, round=3, phase=Phase.BUREAUCRACY, order=(A, B, 2, 3), done=())
    s = give(s, A, plants=(20,), resources={"coal": 3}, cities=("boise", "cheyenne", "denver"))
    after = play(s, pg.Power(player=A, plants=("20",), mix=((Resource.COAL, 3),)))
    assert after.players[A].money - s.players[A].money == 44


@pytest.mark.parametrize("map", [RC_DE, RC_US])
def test_rch_02_starting_money_50(map: str) -> None:
    """RCH-02, SET-02: each player starts with 50 Elektro."""
    assert [p.money for p in rc(3, map).players] == [50, 50, 50]
