"""The Deluxe component set (RULES.md CON-01, SET-08, SET-20..SET-27, AUC-16..AUC-18,
RES-03, RES-04, STP-05, STP-07, BUR-04..BUR-07; EC-17, EC-19, EC-21, EC-23, EC-37,
EC-66; OQ-11, OQ-30).

Every expected number below is typed in from RULES.md, reference/tables.json
("deluxe") or the card-scan table of reference/DELUXE_CARDS_SOURCES.md; none is
read back from the engine's package data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.enums import Phase, Resource
from powergrid.state import GameState
from powergrid.testing import check_game, plant_places
from tests.scenario import (
    R3,
    arrange,
    finish_phase,
    give,
    held,
    kinds,
    labels,
    new,
    occupy,
    play,
)

A, B, C = 0, 1, 2
MAPS = ("europe", "north_america")
COUNTS = (2, 3, 4, 5, 6)
KINDS = ("coal", "gas", "oil", "uranium")  # CON-01: the Deluxe state-tuple order

# --- typed-in reference data -----------------------------------------------------------

# DELUXE_CARDS_SOURCES.md card-scan table: number -> (kind, accepts, burn, cities).
# Plant 04 is coal as printed (OQ-30), not the Dutch seed's oil.
COAL, GAS, OIL, URAN = {"coal"}, {"gas"}, {"oil"}, {"uranium"}
HYB: set[str] = {"gas", "oil"}
ECO: set[str] = set()
CARDS: dict[int, tuple[str, set[str], int, int]] = {
    3: ("coal", COAL, 2, 1),
    4: ("coal", COAL, 2, 1),
    5: ("gas", GAS, 2, 1),
    6: ("oil", OIL, 1, 1),
    7: ("coal", COAL, 1, 1),
    8: ("hybrid", HYB, 3, 2),
    9: ("coal", COAL, 3, 2),
    10: ("oil", OIL, 2, 2),
    11: ("eco", ECO, 0, 1),
    12: ("coal", COAL, 2, 2),
    13: ("uranium", URAN, 1, 2),
    14: ("gas", GAS, 1, 2),
    15: ("coal", COAL, 1, 2),
    16: ("gas", GAS, 2, 3),
    17: ("eco", ECO, 0, 2),
    18: ("oil", OIL, 2, 3),
    19: ("gas", GAS, 1, 3),
    20: ("coal", COAL, 3, 4),
    21: ("uranium", URAN, 1, 3),
    22: ("hybrid", HYB, 3, 5),
    23: ("oil", OIL, 2, 4),
    24: ("eco", ECO, 0, 3),
    25: ("coal", COAL, 2, 5),
    26: ("gas", GAS, 1, 4),
    27: ("coal", COAL, 1, 4),
    28: ("eco", ECO, 0, 3),
    29: ("coal", COAL, 2, 5),
    30: ("oil", OIL, 2, 5),
    31: ("eco", ECO, 0, 4),
    32: ("uranium", URAN, 2, 5),
    33: ("coal", COAL, 3, 6),
    34: ("gas", GAS, 3, 6),
    35: ("hybrid", HYB, 2, 5),
    36: ("eco", ECO, 0, 5),
    37: ("uranium", URAN, 2, 6),
    38: ("oil", OIL, 3, 6),
    39: ("gas", GAS, 2, 6),
    40: ("coal", COAL, 2, 6),
    42: ("oil", OIL, 2, 6),
    44: ("eco", ECO, 0, 6),
    46: ("gas", GAS, 2, 7),
    50: ("uranium", URAN, 2, 7),
}
DARK = frozenset(labels(*range(3, 16)))  # SET-21: plants 03-15 have a dark back

# SET-27: (price, slots) per track.
LAYOUT: dict[str, tuple[tuple[int, int], ...]] = {
    "coal": ((1, 4), (2, 4), (3, 4), (4, 3), (5, 3), (6, 3), (7, 2), (8, 2), (9, 2)),
    "gas": tuple((p, 3) for p in range(1, 9)),
    "oil": (*((p, 2) for p in range(1, 9)), (9, 4)),
    "uranium": (*((p, 1) for p in range(1, 7)), (7, 2), (8, 2), (9, 2)),
}
TOTALS = {"coal": 27, "gas": 24, "oil": 20, "uranium": 12}  # SET-08
# SET-27: the price spaces filled completely at setup, per map.
FILL: dict[str, dict[str, range]] = {
    "europe": {
        "coal": range(2, 10),
        "gas": range(3, 9),
        "oil": range(3, 10),
        "uranium": range(8, 10),
    },
    "north_america": {
        "coal": range(2, 10),
        "gas": range(3, 9),
        "oil": range(4, 10),
        "uranium": range(9, 10),
    },
}
INITIAL = {
    "europe": {"coal": 23, "gas": 18, "oil": 16, "uranium": 4},
    "north_america": {"coal": 23, "gas": 18, "oil": 14, "uranium": 2},
}

# SET-22 / BUR-05: tables.json deluxe.refill_table, as (coal, gas, oil, uranium) per Step.
Refill = dict[int, tuple[int, int, int, int]]
EU23: Refill = {1: (2, 2, 2, 1), 2: (6, 3, 2, 1), 3: (2, 5, 3, 2)}
NA23: Refill = {1: (2, 2, 3, 2), 2: (5, 2, 1, 1), 3: (2, 4, 3, 2)}
REFILL: dict[str, dict[int, Refill]] = {
    "europe": {
        2: EU23,
        3: EU23,
        4: {1: (3, 3, 3, 1), 2: (7, 4, 3, 2), 3: (4, 5, 4, 2)},
        5: {1: (3, 3, 4, 2), 2: (8, 5, 3, 3), 3: (4, 7, 5, 3)},
        6: {1: (5, 4, 4, 2), 2: (10, 6, 5, 3), 3: (5, 8, 6, 4)},
    },
    "north_america": {
        2: NA23,
        3: NA23,
        4: {1: (3, 3, 3, 2), 2: (6, 3, 2, 1), 3: (3, 5, 4, 2)},
        5: {1: (4, 3, 4, 3), 2: (7, 3, 2, 2), 3: (4, 6, 5, 3)},
        6: {1: (5, 4, 5, 3), 2: (8, 4, 3, 2), 3: (5, 7, 6, 4)},
    },
}

# SET-21 removals (dark, light); SET-23 Step 2 and game end; SET-25 max plants.
REMOVALS = {2: (1, 5), 3: (2, 6), 4: (1, 3), 5: (0, 0), 6: (0, 0)}
STEP2 = {2: 10, 3: 7, 4: 7, 5: 7, 6: 6}
GAME_END = {2: 18, 3: 17, 4: 17, 5: 15, 6: 14}
MARKET_SIZE = {"europe": 9, "north_america": 8}  # SET-21, SET-26


# --- helpers ---------------------------------------------------------------------------


def deluxe(
    players: int = 3,
    map: str = "europe",
    *,
    seed: int = 0,
    regions: Sequence[str] | None = None,
) -> GameState:
    """A fresh Deluxe game (the scenario helper defaults to classic)."""
    if regions is None and map == "europe" and players == 3:
        regions = R3
    return new(players, map=map, seed=seed, regions=regions, components="deluxe")


def shop(plants: Sequence[int], *, map: str = "europe", money: int = 500) -> GameState:
    """Deluxe phase 3 with A to buy, owning ``plants``, on the initial resource market."""
    state = arrange(deluxe(3, map), round=3, phase=Phase.RESOURCES, order=(A, B, C), done=(B, C))
    state = give(state, A, money=money, plants=plants)
    assert pg.current_player(state) == A
    return state


def buy(state: GameState, kind: str, count: int = 1) -> GameState:
    return pg.apply(state, pg.BuyResource(player=A, resource=Resource(kind), count=count))


def rejected(state: GameState, action: pg.Action) -> pg.Reason:
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, action)
    return err.value.reason


def area_cities(state: GameState) -> list[str]:
    area = state.rules.area
    return [area.board.cities[i] for i in area.cities]


def token_totals(state: GameState) -> dict[str, int]:
    out = {}
    for i, kind in enumerate(KINDS):
        # the fund holds fuel too (FND-15)
        on_plants = sum(p.resources[i] for p in state.players)
        on_plants += sum(a.resources[i] for a in state.actors)
        out[kind] = state.resources.market[i] + state.resources.supply[i] + on_plants
    return out


# --- SET-20, CON-01: plant data --------------------------------------------------------


@pytest.mark.parametrize("number", sorted(CARDS))
def test_plant_matches_printed_card(number: int) -> None:
    """SET-20, CON-01, RES-03, RES-04, OQ-11, OQ-30: each Deluxe plant equals its card scan.

    Capacity is twice the burn; hybrids accept gas and oil; plant 04 is coal.
    """
    kind, accepts, burn, cities = CARDS[number]
    plant = deluxe().rules.plant(number)
    assert plant.number == number
    assert plant.kind == kind
    assert {r.value for r in plant.accepts} == accepts
    assert plant.burn == burn
    assert plant.cities == cities
    assert plant.capacity == 2 * burn


def test_deluxe_deck_composition() -> None:
    """SET-20, CON-01, OQ-30: 42 plants 03-40, 42, 44, 46, 50; coal 12, gas 8, oil 7,
    uranium 5, hybrid 3 (08, 22, 35), eco 7; resources coal, gas, oil, uranium."""
    state = deluxe()
    plants = state.rules.components.deck.cards
    assert state.rules.ranked(p.label for p in plants) == labels(*range(3, 41), 42, 44, 46, 50)
    assert len(CARDS) == 42
    counts = Counter(p.kind for p in plants)
    assert counts == {"coal": 12, "gas": 8, "oil": 7, "uranium": 5, "hybrid": 3, "eco": 7}
    assert state.rules.ranked(p.label for p in plants if p.kind == "hybrid") == labels(8, 22, 35)
    assert tuple(r.value for r in state.rules.resources) == KINDS
    assert state.rules.plant(4).accepts == frozenset({Resource.COAL})


# --- RES-03, RES-04, EC-37: storage ----------------------------------------------------


@pytest.mark.parametrize("mix", [(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)])
def test_hybrid_35_stores_four_gas_or_oil(mix: tuple[int, int]) -> None:
    """RES-03, RES-04, RES-05, CON-01: hybrid 35 holds at most 4 gas and/or oil in any mix;
    a 5th token of either kind is rejected with NO_STORAGE; coal and uranium never fit."""
    gas, oil = mix
    state = shop((35,))
    if gas:
        state = buy(state, "gas", gas)
    if oil:
        state = buy(state, "oil", oil)
    assert held(state, A) == {k: n for k, n in (("gas", gas), ("oil", oil)) if n}
    for kind in KINDS:
        action = pg.BuyResource(player=A, resource=Resource(kind), count=1)
        assert rejected(state, action) is pg.Reason.NO_STORAGE


def test_hybrid_35_rejects_five_at_once() -> None:
    """RES-03, RES-04, RES-05: buying 5 gas (or 5 oil) onto an empty 35 is rejected."""
    state = shop((35,))
    for kind in ("gas", "oil"):
        action = pg.BuyResource(player=A, resource=Resource(kind), count=5)
        assert rejected(state, action) is pg.Reason.NO_STORAGE
    assert state.players[A].resources == (0, 0, 0, 0)


def test_eco_plant_31_stores_nothing() -> None:
    """EC-37, RES-03: A owns only eco plant 31; every resource purchase is rejected."""
    state = shop((31,))
    for kind in KINDS:
        action = pg.BuyResource(player=A, resource=Resource(kind), count=1)
        assert rejected(state, action) is pg.Reason.NO_STORAGE
    assert [a for a in pg.legal_actions(state) if isinstance(a, pg.BuyResource)] == []


def test_plant_04_stores_four_coal() -> None:
    """RES-03, OQ-30: plant 04 (printed card: 2 coal) holds at most 4 coal and no oil."""
    state = shop((4,))
    state = buy(state, "coal", 4)
    assert held(state, A) == {"coal": 4}
    assert rejected(state, pg.BuyResource(player=A, resource=Resource.COAL)) is (
        pg.Reason.NO_STORAGE
    )
    assert rejected(shop((4,)), pg.BuyResource(player=A, resource=Resource.OIL)) is (
        pg.Reason.NO_STORAGE
    )


# --- AUC-16..AUC-18, EC-17, EC-19, EC-66: plant limit ------------------------------------


def last_buyer(players: int = 3, components: str = "deluxe") -> GameState:
    """Phase 2 of round 3 on Europe: A is the last player (others done), 35 in the market."""
    if components == "deluxe":
        state = deluxe(players)
    else:
        state = new(players, map="europe", components=components)
    others = tuple(s for s in range(players) if s != A)
    return arrange(
        state,
        round=3,
        step=1,
        phase=Phase.AUCTION,
        order=(*others, A),
        done=others,
        actual=(21, 23, 26, 35),
        future=(36, 37, 38, 39, 40),
        deck=(42, 44, 46, 50),
        top=None,
    )


def test_ec17_hybrid_fourth_plant_takes_the_oil() -> None:
    """EC-17, AUC-17, AUC-18, RES-03, RES-04, SET-25: A owns 10 (3 oil), gas 14 (2 gas) and
    coal 03; buys hybrid 35 (4th plant) and discards 10 moving the 3 oil onto 35:
    35 then holds 3 oil with room for exactly 1 more gas or oil."""
    state = last_buyer()
    state = give(state, A, money=300, plants=(3, 10, 14), resources={"oil": 3, "gas": 2})
    supply_before = state.resources.supply
    market_before = state.resources.market
    state = play(state, pg.ChoosePlant(player=A, plant=35, bid=35))
    assert state.discarding == A  # limit 3 (SET-25), a 4th plant forces a discard
    assert state.players[A].plants == labels(3, 10, 14, 35)
    state = play(state, pg.DiscardPlant(player=A, plant=10, drop={}))
    assert state.players[A].plants == labels(3, 14, 35)
    assert held(state, A) == {"gas": 2, "oil": 3}
    assert state.players[A].money == 300 - 35
    assert "10" in state.market.removed
    assert state.resources.supply == supply_before  # nothing went to the supply
    # Phase 3: A buys first; only 1 more gas or oil fits (35: 3 of 4 used; 14 full).
    assert state.phase is Phase.RESOURCES
    state = arrange(state, order=(B, C, A), done=(B, C))
    assert pg.current_player(state) == A
    assert state.resources.market == market_before
    for kind in ("gas", "oil"):
        two = pg.BuyResource(player=A, resource=Resource(kind), count=2)
        assert rejected(state, two) is pg.Reason.NO_STORAGE
        one = buy(state, kind)
        assert held(one, A)[kind] == {"gas": 2, "oil": 3}[kind] + 1


def test_ec17_oil_dropped_goes_to_general_supply() -> None:
    """AUC-18, CON-10: oil not moved off a discarded plant goes to the general supply,
    never to the resource market."""
    state = last_buyer()
    state = give(state, A, money=300, plants=(3, 10, 14), resources={"oil": 3, "gas": 2})
    supply = dict(zip(KINDS, state.resources.supply, strict=True))
    market = kinds(state)
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=35, bid=35),
        pg.DiscardPlant(player=A, plant=10, drop={"oil": 3}),
    )
    assert held(state, A) == {"gas": 2}
    assert state.resources.supply[KINDS.index("oil")] == supply["oil"] + 3
    assert kinds(state) == market


def test_ec19_deluxe_may_discard_the_plant_just_bought() -> None:
    """EC-19, AUC-17, OQ-04: Deluxe, A with 3 plants buys 35 and discards 35 itself:
    allowed; A keeps his three old plants; the price stays paid; 35 leaves the game."""
    state = last_buyer()
    state = give(state, A, money=300, plants=(3, 5, 6))
    state = play(state, pg.ChoosePlant(player=A, plant=35, bid=35))
    options = {a.plant for a in pg.legal_actions(state) if isinstance(a, pg.DiscardPlant)}
    assert options == set(labels(3, 5, 6, 35))  # any one of his four plants
    state = play(state, pg.DiscardPlant(player=A, plant=35))
    assert state.players[A].plants == labels(3, 5, 6)
    assert state.players[A].money == 300 - 35
    assert "35" in state.market.removed
    assert state.discarding is None


def test_ec19_classic_contrast_new_plant_not_discardable() -> None:
    """EC-19, AUC-17: contrast, classic with 3 players rejects discarding the new plant."""
    state = last_buyer(3, "classic")
    state = give(state, A, money=300, plants=(3, 5, 6))
    state = play(state, pg.ChoosePlant(player=A, plant=35, bid=35))
    assert state.discarding == A
    assert rejected(state, pg.DiscardPlant(player=A, plant=35)) is pg.Reason.DISCARD_NEW_PLANT


@pytest.mark.parametrize("players", COUNTS)
def test_max_three_plants_every_count(players: int) -> None:
    """SET-25, AUC-16, AUC-17, EC-66: Deluxe limit 3 for every player count; with
    2 players a human with 3 plants buying a 4th must discard."""
    state = last_buyer(players)
    assert state.rules.max_plants == 3
    state = give(state, A, money=300, plants=(3, 5, 6))
    state = play(state, pg.ChoosePlant(player=A, plant=35, bid=35))
    assert state.discarding == A
    assert pg.current_player(state) == A
    assert all(isinstance(a, pg.DiscardPlant) for a in pg.legal_actions(state))
    assert rejected(state, pg.EndPurchase(player=A)) is pg.Reason.WRONG_PHASE
    state = play(state, pg.DiscardPlant(player=A, plant=3))
    assert state.players[A].plants == labels(5, 6, 35)


def test_ec66_classic_two_player_contrast() -> None:
    """EC-66, SET-12, AUC-16: contrast, classic 2 players keeps a 4th plant (limit 4)."""
    state = last_buyer(2, "classic")
    state = give(state, A, money=300, plants=(3, 5, 6))
    state = play(state, pg.ChoosePlant(player=A, plant=35, bid=35))
    assert state.discarding is None
    assert state.players[A].plants == labels(3, 5, 6, 35)


# --- SET-08, SET-22, SET-27: resource market -------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("map", MAPS)
def test_initial_resource_market(map: str, players: int) -> None:
    """SET-27, SET-22, SET-08: initial fill by map (Europe 23/18/16/4, North America
    23/18/14/2, the same for every player count); 27/24/20/12 = 83 tokens in all."""
    state = deluxe(players, map)
    assert kinds(state) == INITIAL[map]
    for kind, n in INITIAL[map].items():
        slots = sum(c for p, c in LAYOUT[kind] if p in FILL[map][kind])
        assert n == slots  # the typed-in tables agree with each other
    supply = dict(zip(KINDS, state.resources.supply, strict=True))
    assert supply == {k: TOTALS[k] - INITIAL[map][k] for k in KINDS}
    assert token_totals(state) == TOTALS
    assert sum(token_totals(state).values()) == 83


# Three storing plants per kind (capacities from the card table).
STORE = {"coal": (9, 20, 33), "gas": (34, 39, 46), "oil": (30, 38, 42), "uranium": (32, 37, 50)}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("map", MAPS)
def test_initial_market_prices(map: str, kind: str) -> None:
    """SET-27, RES-06: tokens bought one by one from the initial market cost the filled
    spaces cheapest first (coal 2 on both maps; oil Europe 3, North America 4; ...)."""
    state = shop(STORE[kind], map=map)
    filled = sorted(p for p, c in LAYOUT[kind] if p in FILL[map][kind] for _ in range(c))
    room = sum(2 * CARDS[n][2] for n in STORE[kind])
    for price in filled[:room]:
        money = state.players[A].money
        state = buy(state, kind)
        assert money - state.players[A].money == price
    assert kinds(state)[kind] == INITIAL[map][kind] - min(room, len(filled))


def test_cheapest_prices_named_in_rules() -> None:
    """SET-27, RES-06: cheapest coal 2 on both maps; cheapest oil Europe 3, North
    America 4; cheapest uranium Europe 8, North America 9; cheapest gas 3; 5 coal cost
    2+2+2+2+3 = 11."""
    expect = {
        "europe": {"coal": 2, "gas": 3, "oil": 3, "uranium": 8},
        "north_america": {"coal": 2, "gas": 3, "oil": 4, "uranium": 9},
    }
    for map in MAPS:
        for kind, price in expect[map].items():
            state = shop(STORE[kind], map=map, money=100)
            assert buy(state, kind).players[A].money == 100 - price
        state = shop(STORE["coal"], map=map, money=100)
        assert buy(state, "coal", 5).players[A].money == 100 - 11


# --- BUR-05, SET-22: refill -------------------------------------------------------------

BEFORE = {"coal": 5, "gas": 4, "oil": 3, "uranium": 1}


@pytest.mark.parametrize("step", [1, 2, 3])
@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("map", MAPS)
def test_refill_matches_card(map: str, players: int, step: int) -> None:
    """BUR-05, SET-22, BUR-08, OQ-11: the phase-5 refill adds the printed refill card's
    numbers for the map, player count and Step."""
    state = arrange(deluxe(players, map), round=4, step=step, phase=Phase.BUREAUCRACY, done=())
    state = arrange(state, market_tokens=BEFORE)
    state = finish_phase(state)
    assert state.phase is Phase.AUCTION
    assert state.round == 5
    added = REFILL[map][players][step]
    assert kinds(state) == {k: BEFORE[k] + n for k, n in zip(KINDS, added, strict=True)}
    assert token_totals(state) == TOTALS


def test_refill_capped_by_general_supply() -> None:
    """BUR-05, EC-65, SET-08: Europe 4 players Step 2 (card coal 7, gas 4, oil 3,
    uranium 2) with only 4 coal and 2 gas in the general supply: 4 coal and 2 gas are
    placed; the full oil track takes none; uranium gets its 2."""
    state = arrange(deluxe(4), round=6, step=2, phase=Phase.BUREAUCRACY, done=())
    state = give(state, A, plants=(9, 20, 33), resources={"coal": 18})
    state = give(state, B, plants=(34,), resources={"gas": 6})
    state = arrange(state, market_tokens={"coal": 5, "gas": 16, "oil": 20, "uranium": 0})
    supply = dict(zip(KINDS, state.resources.supply, strict=True))
    assert supply == {"coal": 4, "gas": 2, "oil": 0, "uranium": 12}
    state = finish_phase(state)
    assert state.phase is Phase.AUCTION
    assert kinds(state) == {"coal": 9, "gas": 18, "oil": 20, "uranium": 2}
    supply = dict(zip(KINDS, state.resources.supply, strict=True))
    assert supply == {"coal": 0, "gas": 0, "oil": 0, "uranium": 10}
    assert held(state, A) == {"coal": 18}
    assert held(state, B) == {"gas": 6}


# --- SET-21, SET-23, SET-25, SET-26: deck preparation and thresholds ----------------------


@pytest.mark.parametrize("map", MAPS)
def test_deck_preparation_many_seeds(map: str) -> None:
    """SET-21, SET-26, SET-20, CON-11: for 200 seeds x 2-6 players the market is drawn
    from dark plants only (North America 8, Europe 9: 4 actual + rest future, sorted),
    the top of the hidden deck is dark, the Step 3 card lies under the deck, the dark
    and light removals match the player count, and every plant is in exactly one place."""
    markets: set[tuple[str, ...]] = set()
    for players in COUNTS:
        dark_out, light_out = REMOVALS[players]
        for seed in range(200):
            state = deluxe(players, map, seed=seed)
            m = state.market
            assert len(m.actual) == 4
            assert len(m.plants) == MARKET_SIZE[map]
            assert list(m.plants) == list(state.rules.ranked(m.plants))
            assert set(m.plants) <= DARK
            assert m.top is None
            assert state.secret.deck[0] in DARK
            assert m.step3_in_deck
            assert not m.step3_in_market
            removed = state.secret.removed_unseen
            assert len(removed) == dark_out + light_out
            assert sum(1 for n in removed if n in DARK) == dark_out
            places = plant_places(state)
            assert set(places) == set(labels(*CARDS))
            assert set(places.values()) == {1}
            assert m.deck_size == len(state.secret.deck) == 42 - len(m.plants) - len(removed)
            markets.add(m.plants)
    assert len(markets) > 50  # random, not a fixed 03-10 market


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("map", MAPS)
def test_thresholds_by_player_count(map: str, players: int) -> None:
    """SET-23, SET-25, AUC-16, STP-01: Step 2 at 10/7/7/7/6 cities, game end at
    18/17/17/15/14, at most 3 plants, for 2-6 players on both maps."""
    rules = deluxe(players, map).rules
    assert rules.step2_cities == STEP2[players]
    assert rules.end_cities == GAME_END[players]
    assert rules.max_plants == 3


def builder(players: int, map: str, step: int, cities: int) -> GameState:
    """Phase 4, A to build, owning ``cities`` cities of the play area, rich."""
    state = arrange(
        deluxe(players, map),
        round=5,
        step=step,
        phase=Phase.BUILDING,
        order=tuple(range(players)),
        done=tuple(range(1, players)),
    )
    state = give(state, A, money=5000, cities=area_cities(state)[:cities])
    assert pg.current_player(state) == A
    return state


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("map", MAPS)
def test_step2_and_game_end_triggers(map: str, players: int) -> None:
    """STP-01, STP-02, SET-26, END-01, SET-23: building up to one below the Deluxe
    threshold changes nothing; the threshold city starts Step 2 (the market becomes
    4 + 4: Europe drops from 4 + 5 without a replacement, North America replaces) /
    triggers the game end."""
    step2 = STEP2[players]
    state = builder(players, map, 1, step2 - 2)
    free = area_cities(state)[step2 - 2 :]
    state = play(state, pg.Build(player=A, city=free[0]))
    assert state.step == 1
    assert len(state.market.plants) == MARKET_SIZE[map]
    state = play(state, pg.Build(player=A, city=free[1]))
    assert state.step == 2
    assert len(state.market.actual) == 4
    assert len(state.market.future) == 4
    end = GAME_END[players]
    state = builder(players, map, 2, end - 2)
    free = area_cities(state)[end - 2 :]
    state = play(state, pg.Build(player=A, city=free[0]))
    assert not state.end_triggered
    state = play(state, pg.Build(player=A, city=free[1]))
    assert state.end_triggered


# --- STP-05, STP-07, EC-21, EC-23: the Step 3 card --------------------------------------

TOKENS = {"coal": 10, "gas": 10, "oil": 10, "uranium": 5}


def step2_game(
    *,
    phase: Phase,
    actual: Sequence[int],
    future: Sequence[int],
    deck: Sequence[int],
    under_step3: Sequence[int],
    order: Sequence[int] = (A, B, C),
) -> GameState:
    """A Deluxe Europe 3-player game in Step 2 with a fully known plant market."""
    state = arrange(
        deluxe(3),
        round=5,
        step=2,
        phase=phase,
        order=order,
        done=(),
        actual=actual,
        future=future,
        deck=deck,
        top=None,
        step3_in_deck=True,
        under_step3=under_step3,
        market_tokens=TOKENS,
    )
    for seat in (A, B, C):
        state = give(state, seat, money=300)
    return state


def refilled(step_column: tuple[int, int, int, int]) -> dict[str, int]:
    return {k: TOKENS[k] + n for k, n in zip(KINDS, step_column, strict=True)}


def test_ec21_step3_card_in_phase2_deluxe() -> None:
    """EC-21, STP-05, STP-09, STP-11, BUR-05, SET-22: Europe Step 2, market
    13 15 17 20 | 22 25 27 30; A buys 15 and the draw is the Step 3 card: market
    13 17 20 22 | 25 27 30 S3, deck reshuffled; the Deluxe auction goes on: B buys 17
    and a replacement is drawn from the new deck; at phase-2 end 13 and S3 leave, no
    replacement: 6 plants, all actual; Step 3 from phase 3; 20 slots in this phase 4;
    the phase-5 refill uses the Step 3 column (Europe 3p: 2 coal, 5 gas, 3 oil, 2 uranium)."""
    under = (33, 36, 38)
    state = step2_game(
        phase=Phase.AUCTION,
        actual=(13, 15, 17, 20),
        future=(22, 25, 27, 30),
        deck=(),
        under_step3=under,
    )
    state = occupy(state, "berlin", (B, C))
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=15, bid=15),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
    )
    m = state.market
    assert state.players[A].plants == labels(15)
    assert m.actual == labels(13, 17, 20, 22)
    assert m.future == labels(25, 27, 30)
    assert m.step3_in_market
    assert not m.step3_in_deck
    assert m.under_step3 == ()
    assert state.rules.ranked(state.secret.deck) == labels(*under)
    assert m.deck_size == 3
    assert state.step == 2
    assert state.phase is Phase.AUCTION
    # The Deluxe auction continues as usual (no freeze).
    state = play(state, pg.ChoosePlant(player=B, plant=17, bid=17), pg.PassBid(player=C))
    m = state.market
    assert state.players[B].plants == labels(17)
    assert m.actual == labels(13, 20, 22, 25)  # 25 moved up from the future market
    assert len(m.future) == 3
    assert m.future[:2] == labels(27, 30)
    assert m.future[2] in labels(*under)
    drawn = m.future[2]
    assert m.deck_size == 2
    assert m.step3_in_market
    state = play(state, pg.PassAuction(player=C))
    # Phase-2 end: 13 and S3 removed, no replacement; Step 3 from phase 3.
    m = state.market
    assert state.phase is Phase.RESOURCES
    assert state.step == 3
    assert m.actual == state.rules.ranked((*labels(20, 22, 25, 27, 30), drawn))
    assert m.future == ()
    assert not m.step3_in_market
    assert not m.step3_in_deck
    assert "13" in m.removed
    assert m.deck_size == 2
    # Phase 4 of this round: the 20 slots are usable.
    state = finish_phase(state)
    assert state.phase is Phase.BUILDING
    assert state.build_step == 3
    state = play(state, pg.EndBuild(player=C), pg.EndBuild(player=B))
    assert pg.current_player(state) == A
    state = play(state, pg.Build(player=A, city="berlin"))
    assert state.players[A].money == 300 - 15 - 20
    state = play(state, pg.EndBuild(player=A))
    # Phase 5: the Step 3 column.
    assert state.phase is Phase.BUREAUCRACY
    state = finish_phase(state)
    assert kinds(state) == refilled(EU23[3])


def test_ec23_step3_card_in_phase4_deluxe() -> None:
    """EC-23, STP-07, BLD-12, STP-11, BUR-05: Europe Step 2; A reaches 12 cities, 10 and
    12 are too small and removed; the 2nd replacement is S3: at once the lowest plant
    (13) and S3 leave, no replacement, deck reshuffled; market 6 plants all actual;
    15 slots only for the rest of this phase 4; phase 5 refills with the Step 3 column;
    the 20 slots are usable from the next round."""
    under = (30, 33, 36)
    state = step2_game(
        phase=Phase.BUILDING,
        actual=(10, 12, 13, 14),
        future=(15, 16, 17, 18),
        deck=(25,),
        under_step3=under,
        order=(B, C, A),  # phase 4 runs A, C, B
    )
    cities = area_cities(state)
    shared = cities[0]
    state = give(state, A, cities=cities[:11])
    state = give(state, B, cities=(shared,))
    assert pg.current_player(state) == A
    assert state.build_step == 2
    state = play(state, pg.Build(player=A, city=cities[11]))
    m = state.market
    assert state.players[A].city_count == 12
    assert state.step == 3
    assert state.phase is Phase.BUILDING
    assert m.removed == labels(10, 12, 13)
    assert m.actual == labels(14, 15, 16, 17, 18, 25)
    assert m.future == ()
    assert not m.step3_in_market
    assert not m.step3_in_deck
    assert not state.step3_pending
    assert state.rules.ranked(state.secret.deck) == labels(*under)
    assert m.under_step3 == ()
    # Still only the 15 slots in this phase 4.
    state = play(state, pg.EndBuild(player=A))
    assert pg.current_player(state) == C
    assert rejected(state, pg.Build(player=C, city=shared)) is pg.Reason.CITY_FULL
    state = play(state, pg.EndBuild(player=C), pg.EndBuild(player=B))
    assert state.phase is Phase.BUREAUCRACY
    state = finish_phase(state)
    assert kinds(state) == refilled(EU23[3])
    assert len(state.market.actual) == 6
    assert state.market.future == ()
    # Next round: phase 4 allows the 20 slots.
    state = finish_phase(finish_phase(state))
    assert state.phase is Phase.BUILDING
    assert state.build_step == 3
    assert pg.current_player(state) == C
    money = state.players[C].money
    state = play(state, pg.Build(player=C, city=shared))
    assert state.players[C].money == money - 20


def test_ec67_step3_before_step2_europe() -> None:
    """EC-67, STP-10, STP-02, SET-26, STP-08, BUR-07: Europe Step 1 (4 + 5), the phase-5
    update pushes 33 under the Step 3 card, which is drawn: Step 2 removes 13 without a
    replacement, then Step 3 removes 15 and the card: 6 plants, next round in Step 3."""
    state = arrange(
        deluxe(3),
        round=5,
        step=1,
        phase=Phase.BUREAUCRACY,
        done=(),
        actual=(13, 15, 17, 20),
        future=(22, 25, 27, 30, 33),
        deck=(),
        top=None,
        step3_in_deck=True,
        under_step3=(36, 38),
    )
    state = finish_phase(state)
    m = state.market
    assert state.step == 3
    assert state.phase is Phase.AUCTION
    assert m.actual == labels(17, 20, 22, 25, 27, 30)
    assert m.future == ()
    assert m.removed == labels(13, 15)
    assert state.rules.ranked(state.secret.deck) == labels(33, 36, 38)


# --- whole games -----------------------------------------------------------------------


@settings(max_examples=10, deadline=None)
@given(
    players=st.integers(2, 6),
    map=st.sampled_from(MAPS),
    seed=st.integers(0, 2**32 - 1),
    policy_seed=st.integers(0, 2**16),
)
def test_random_deluxe_games_keep_invariants(
    players: int, map: str, seed: int, policy_seed: int
) -> None:
    """SET-08, CON-11, AUC-16, RES-05, BLD-05, BLD-06, BLD-12, CON-07, STP-05, STP-07:
    seeded random Deluxe games break no invariant; at the end 83 tokens (27/24/20/12)
    and 42 plants, each in exactly one place."""
    config = pg.GameConfig(players=players, map=map, components="deluxe")
    final = check_game(config, seed, policy_seed)
    assert final.phase is Phase.GAME_OVER
    assert token_totals(final) == TOTALS
    assert sum(token_totals(final).values()) == 83
    places = plant_places(final)
    assert set(places) == set(labels(*CARDS))
    assert sum(places.values()) == 42
