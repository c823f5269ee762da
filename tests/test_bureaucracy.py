"""Phase 5 — bureaucracy (RULES.md section 6): powering, income, refill, market update.

All games use the classic components. Numbers (income table, refill table, plant
cards) are taken from RULES.md and the printed classic plants, never from the code.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.engine.invariants import invariant_violations
from powergrid.engine.phases.bureaucracy import best_powered, consumptions, options, supplied
from powergrid.enums import Phase
from powergrid.state import GameState
from tests.scenario import (
    CITIES_21,
    R3,
    REGIONS,
    arrange,
    give,
    held,
    kinds,
    labels,
    new,
    play,
)

# Three connected Europe regions (british isles, central, alps): 21 cities.

# BUR-04: income by cities powered, 0..20 (20 or more -> 150).
INCOME = (10, 22, 33, 44, 54, 64, 73, 82, 90, 98, 105, 112, 118, 124, 129, 134, 138, 142,
          145, 148, 150)  # fmt: skip

# BUR-06: classic refill (coal, oil, garbage, uranium) per player count and Step.
REFILL = {
    2: {1: (3, 2, 1, 1), 2: (4, 2, 2, 1), 3: (3, 4, 3, 1)},
    3: {1: (4, 2, 1, 1), 2: (5, 3, 2, 1), 3: (3, 4, 3, 1)},
    4: {1: (5, 3, 2, 1), 2: (6, 4, 3, 2), 3: (4, 5, 4, 2)},
    5: {1: (5, 4, 3, 2), 2: (7, 5, 3, 3), 3: (5, 6, 5, 2)},
    6: {1: (7, 5, 3, 2), 2: (9, 6, 5, 3), 3: (6, 7, 6, 3)},
}
KINDS = ("coal", "oil", "garbage", "uranium")


def phase5(
    players: int = 3,
    *,
    step: int = 2,
    order: Sequence[int] | None = None,
    done: Sequence[int] = (),
    actual: Sequence[int] = (13, 15, 16, 18),
    future: Sequence[int] = (20, 22, 25, 33),
    deck: Sequence[int] = (26, 27, 28, 30),
) -> GameState:
    """A classic game in phase 5 of round 4 with a fixed plant market and deck."""
    state = new(players, regions=REGIONS[players])
    return arrange(
        state,
        round=4,
        step=step,
        phase=Phase.BUREAUCRACY,
        order=tuple(range(players)) if order is None else order,
        done=done,
        actual=actual,
        future=future,
        deck=deck,
        top=None,
        step3_in_deck=step < 3,
    )


def event_kinds(state: GameState) -> list[str]:
    return [e.kind for e in state.events]


# --- BUR-01: player order -------------------------------------------------------------


def test_phase5_is_played_in_player_order() -> None:
    """BUR-01, CON-04: phase 5 goes 1, 2, ..., N in player order (here C, A, B)."""
    state = phase5(order=(2, 0, 1))
    assert pg.current_player(state) == 2
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Power(player=0))
    assert err.value.reason is pg.Reason.NOT_YOUR_TURN
    state = play(state, pg.Power(player=2))
    assert pg.current_player(state) == 0
    state = play(state, pg.Power(player=0))
    assert pg.current_player(state) == 1


def test_round1_reorder_phase5_starts_with_highest_plant() -> None:
    """EC-11, ORD-04, RES-01, BLD-01, BUR-01: random order B, C, A; B buys 4, C 7, A 10.

    After phase 2 the order is A (10), C (7), B (4): phases 3 and 4 start with B,
    phase 5 starts with A.
    """
    a, b, c = 0, 1, 2
    state = new(3, regions=R3)
    state = arrange(
        state,
        order=(b, c, a),
        actual=(4, 7, 10, 11),
        future=(12, 14, 15, 16),
        deck=(20, 21, 22, 23),
        top=None,
    )
    assert state.round == 1
    assert state.phase is Phase.AUCTION
    state = play(
        state,
        pg.ChoosePlant(player=b, plant=4, bid=4),
        pg.PassBid(player=c),
        pg.PassBid(player=a),
        pg.ChoosePlant(player=c, plant=7, bid=7),
        pg.PassBid(player=a),
        pg.ChoosePlant(player=a, plant=10, bid=10),
    )
    assert state.phase is Phase.RESOURCES
    assert state.order == (a, c, b)
    assert pg.current_player(state) == b
    state = play(state, *(pg.EndPurchase(player=s) for s in (b, c, a)))
    assert state.phase is Phase.BUILDING
    assert pg.current_player(state) == b
    state = play(state, *(pg.EndBuild(player=s) for s in (b, c, a)))
    assert state.phase is Phase.BUREAUCRACY
    assert pg.current_player(state) == a


# --- BUR-02 / BUR-03 / BUR-04: powering and income ----------------------------------------


def test_running_plant_burns_exactly_its_fuel_into_the_supply() -> None:
    """BUR-02, CON-10: plant 10 (2 coal -> 2) burns 2 of its 4 coal; they go to the supply."""
    state = arrange(phase5(done=(1, 2)), market_tokens={"coal": 10})
    state = give(state, 0, money=7, plants=[10], resources={"coal": 4}, cities=["bremen", "berlin"])
    assert state.resources.supply[0] == 24 - 10 - 4
    after = play(state, pg.Power(player=0, plants=(10,), mix={"coal": 2}))
    assert held(after, 0) == {"coal": 2}
    assert after.players[0].money == 7 + 33
    powered = [e for e in after.events if e.kind == "powered"]
    assert powered[-1].values == (2, 33)
    # The phase ended: supply 10 + 2 burned = 12, then the Step 2 refill moved 5 coal.
    assert kinds(after)["coal"] == 10 + 5
    assert after.resources.supply[0] == 12 - 5


def test_burned_fuel_goes_to_supply_not_market_mid_phase() -> None:
    """BUR-02, CON-10: before the refill, burned tokens sit in the general supply."""
    state = phase5(done=(2,))
    state = give(state, 0, plants=[10], resources={"coal": 2}, cities=["bremen", "berlin"])
    market_before = kinds(state)
    supply_before = state.resources.supply
    after = play(state, pg.Power(player=0, plants=(10,), mix={"coal": 2}))
    assert after.phase is Phase.BUREAUCRACY  # player 1 still to power
    assert kinds(after) == market_before
    assert after.resources.supply == (supply_before[0] + 2, *supply_before[1:])
    assert held(after, 0) == {}


def test_player_chooses_which_plants_run() -> None:
    """BUR-02: any subset may run; fuel of a plant that does not run stays on it."""
    state = phase5(done=(1, 2))
    state = give(
        state,
        0,
        money=0,
        plants=[4, 8],
        resources={"coal": 5},
        cities=["bremen", "berlin", "rhein_main"],
    )
    # Plant 4: 2 coal -> 1 city; plant 8: 3 coal -> 2 cities. Run only 8.
    after = play(state, pg.Power(player=0, plants=(8,), mix={"coal": 3}))
    assert held(after, 0) == {"coal": 2}
    assert after.players[0].money == 33


def test_eco_plant_runs_without_fuel() -> None:
    """BUR-02: plant 13 (ecological, 1 city) runs without any resource."""
    state = phase5(done=(1, 2))
    state = give(state, 0, money=5, plants=[13], cities=["bremen", "berlin"])
    after = play(state, pg.Power(player=0, plants=(13,)))
    assert after.players[0].money == 5 + 22


def test_powered_cities_capped_by_city_count() -> None:
    """EC-41, BUR-02, BUR-03, BUR-04: 5 cities, plants supplying 7 -> 5 powered, income 64."""
    state = phase5(done=(1, 2))
    # 20: 3 coal -> 5 cities; 10: 2 coal -> 2 cities.
    state = give(state, 0, money=0, plants=[10, 20], resources={"coal": 5}, cities=CITIES_21[:5])
    after = play(state, pg.Power(player=0, plants=(10, 20), mix={"coal": 5}))
    assert after.players[0].money == 64
    assert [e.values for e in after.events if e.kind == "powered"][-1] == (5, 64)


def test_running_nothing_pays_ten() -> None:
    """EC-41, BUR-03, BUR-04: running no plant powers 0 cities and pays 10."""
    state = phase5(done=(1, 2))
    state = give(state, 0, money=0, plants=[10, 20], resources={"coal": 5}, cities=CITIES_21[:5])
    after = play(state, pg.Power(player=0))
    assert after.players[0].money == 10
    assert held(after, 0) == {"coal": 5}


@pytest.mark.parametrize(("cities", "income"), [*enumerate(INCOME), (21, 150)])
def test_income_table(cities: int, income: int) -> None:
    """EC-41, BUR-03, BUR-04: the payment table 0->10 ... 20->150; 21 powered still 150."""
    state = phase5(done=(1, 2))
    # 36: 3 coal -> 7; 38: 3 garbage -> 7; 46: 3 coal/oil -> 7 (21 in all).
    state = give(
        state,
        0,
        money=0,
        plants=[36, 38, 46],
        resources={"coal": 3, "garbage": 3, "oil": 3},
        cities=CITIES_21[:cities],
    )
    action = pg.Power(player=0, plants=(36, 38, 46), mix={"coal": 3, "garbage": 3, "oil": 3})
    after = play(state, action)
    assert after.players[0].money == income


# --- Hybrids (RES-04 in phase 5) -------------------------------------------------------------


def test_hybrid_runs_on_a_coal_oil_mix() -> None:
    """BUR-02, RES-04, CON-01: hybrid 5 (2 coal/oil -> 1) runs on 1 coal + 1 oil."""
    state = phase5(done=(1, 2))
    state = give(state, 0, money=0, plants=[5], resources={"coal": 1, "oil": 1}, cities=["bremen"])
    after = play(state, pg.Power(player=0, plants=(5,), mix={"coal": 1, "oil": 1}))
    assert held(after, 0) == {}
    assert after.players[0].money == 22


def test_hybrid_mix_is_the_players_choice() -> None:
    """BUR-02, RES-04: hybrid 12 (2 coal/oil -> 2) holding 2 coal + 2 oil may burn 2 oil."""
    state = phase5(done=(2,))
    state = give(
        state, 0, plants=[12], resources={"coal": 2, "oil": 2}, cities=["bremen", "berlin"]
    )
    after = play(state, pg.Power(player=0, plants=(12,), mix={"oil": 2}))
    assert held(after, 0) == {"coal": 2}


def test_plants_run_in_turn_with_tokens_moved_in_between() -> None:
    """BUR-02, RES-04, RES-08: plants 10 (2 coal), 26 (2 oil), 29 (hybrid 1) on 3 coal + 6 oil.

    The six oil fill 26 (4) and 29 (2), so 29 holds no coal until 26 has run. Once 26
    burned 2 oil, 2 oil move onto 26 and a coal onto 29 (RES-08), and 29 burns it:
    the running 26 and 29 burn 2 oil + 1 coal. (A boardgamers.space game, USA round 8,
    log entry 323, has this move; docs: Conformance.)
    """
    state = phase5(done=(1, 2), deck=(27, 28, 30, 31))
    state = give(state, 0, plants=[10, 26, 29], resources={"coal": 3, "oil": 6}, cities=["bremen"])
    power = pg.Power(player=0, plants=(26, 29), mix={"coal": 1, "oil": 2})
    assert power in pg.legal_actions(state)
    after = play(state, power)
    assert held(after, 0) == {"coal": 2, "oil": 4}


def test_a_hybrid_alone_cannot_burn_what_it_has_no_room_for() -> None:
    """BUR-02, RES-08: the same hand cannot run 29 alone on coal: 26 keeps its 4 oil.

    With 26 idle, 6 oil need 26's 4 places and both of 29's, so no coal can lie on 29.
    """
    state = phase5(done=(1, 2), deck=(27, 28, 30, 31))
    state = give(state, 0, plants=[10, 26, 29], resources={"coal": 3, "oil": 6}, cities=["bremen"])
    alone = pg.Power(player=0, plants=(29,), mix={"coal": 1})
    assert alone not in pg.legal_actions(state)
    with pytest.raises(pg.IllegalAction):
        play(state, alone)
    assert pg.is_legal(state, pg.Power(player=0, plants=(29,), mix={"oil": 1}))


def test_hybrid_and_coal_plant_share_the_coal() -> None:
    """BUR-02, RES-04: plants 4 (2 coal) and 5 (hybrid) run together on 3 coal + 1 oil."""
    state = phase5(done=(1, 2))
    state = give(
        state,
        0,
        money=0,
        plants=[4, 5],
        resources={"coal": 3, "oil": 1},
        cities=["bremen", "berlin"],
    )
    after = play(state, pg.Power(player=0, plants=(4, 5), mix={"coal": 3, "oil": 1}))
    assert held(after, 0) == {}
    assert after.players[0].money == 33


# --- Illegal Power actions ----------------------------------------------------------------


def _rejects(state: GameState, action: pg.Power, reason: pg.Reason, *words: str) -> None:
    """The action raises IllegalAction(reason), the message names ``words``, state intact."""
    seat = action.player
    before_player = state.players[seat]
    before_res = state.resources
    before_events = len(state.events)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, action)
    assert err.value.reason is reason
    message = str(err.value)
    for word in words:
        assert word in message, message
    assert not pg.is_legal(state, action)
    assert state.players[seat] == before_player
    assert state.resources == before_res
    assert len(state.events) == before_events
    assert state.phase is Phase.BUREAUCRACY
    assert pg.current_player(state) == seat
    assert seat not in state.done


def test_powering_without_fuel_rejected() -> None:
    """BUR-02: plant 10 (2 coal) with no coal cannot run -> NOT_ENOUGH_FUEL."""
    state = phase5(done=(2,))
    state = give(state, 0, money=20, plants=[10], cities=["bremen", "berlin"])
    action = pg.Power(player=0, plants=(10,), mix={"coal": 2})
    _rejects(state, action, pg.Reason.NOT_ENOUGH_FUEL, "10", "fuel")
    # The same state still accepts a legal choice.
    assert play(state, pg.Power(player=0)).players[0].money == 30


def test_two_plants_cannot_burn_the_same_coal() -> None:
    """BUR-02: plants 4 and 10 need 4 coal; 2 coal run only one of them."""
    state = phase5(done=(2,))
    state = give(state, 0, plants=[4, 10], resources={"coal": 2}, cities=["bremen", "berlin"])
    action = pg.Power(player=0, plants=(4, 10), mix={"coal": 4})
    _rejects(state, action, pg.Reason.NOT_ENOUGH_FUEL, "4", "10")
    assert pg.is_legal(state, pg.Power(player=0, plants=(10,), mix={"coal": 2}))


def test_hybrid_lacking_the_chosen_oil_rejected() -> None:
    """BUR-02, RES-04: hybrid 5 holding 2 coal cannot burn 1 coal + 1 oil."""
    state = phase5(done=(2,))
    state = give(state, 0, plants=[5], resources={"coal": 2}, cities=["bremen"])
    action = pg.Power(player=0, plants=(5,), mix={"coal": 1, "oil": 1})
    _rejects(state, action, pg.Reason.NOT_ENOUGH_FUEL, "5")


@pytest.mark.parametrize(
    "mix",
    [
        {"coal": 1},  # partial run of plant 10
        {"coal": 3},  # more than the plant burns
        {"oil": 2},  # wrong kind for a coal plant
        {},  # no fuel named
    ],
)
def test_mix_not_matching_the_plants_rejected(mix: dict[str, int]) -> None:
    """BUR-02: a plant burns exactly its printed amount of its own kind -> BAD_POWER_MIX."""
    state = phase5(done=(2,))
    state = give(state, 0, plants=[10], resources={"coal": 4}, cities=["bremen", "berlin", "praha"])
    action = pg.Power(player=0, plants=(10,), mix=mix)
    _rejects(state, action, pg.Reason.BAD_POWER_MIX, "10")


def test_hybrid_mix_of_wrong_size_rejected() -> None:
    """BUR-02, RES-04: hybrid 5 burns exactly 2 tokens; 1 coal + 2 oil -> BAD_POWER_MIX."""
    state = phase5(done=(2,))
    state = give(state, 0, plants=[5], resources={"coal": 2, "oil": 2}, cities=["bremen"])
    action = pg.Power(player=0, plants=(5,), mix={"coal": 1, "oil": 2})
    _rejects(state, action, pg.Reason.BAD_POWER_MIX, "5")


def test_hybrid_cannot_burn_garbage() -> None:
    """BUR-02, CON-01: the classic hybrid burns coal and oil only -> BAD_POWER_MIX."""
    state = phase5(done=(2,))
    state = give(state, 0, plants=[5, 6], resources={"garbage": 2}, cities=["bremen"])
    action = pg.Power(player=0, plants=(5,), mix={"garbage": 2})
    _rejects(state, action, pg.Reason.BAD_POWER_MIX, "5")


def test_plant_runs_at_most_once() -> None:
    """BUR-02: naming plant 10 twice (4 coal for 4 cities) is rejected; after powering,
    the player is done and cannot power again in this phase 5."""
    state = phase5(done=(2,))
    state = give(state, 0, plants=[10], resources={"coal": 4}, cities=["bremen", "berlin", "praha"])
    twice = pg.Power(player=0, plants=(10, 10), mix={"coal": 4})
    with pytest.raises(pg.IllegalAction):
        pg.apply(state, twice)
    state = play(state, pg.Power(player=0, plants=(10,), mix={"coal": 2}))
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Power(player=0, plants=(10,), mix={"coal": 2}))
    assert err.value.reason is pg.Reason.NOT_YOUR_TURN


def test_plant_not_owned_rejected() -> None:
    """BUR-02: running plant 15, owned by nobody / another player -> NOT_OWN_PLANT."""
    state = phase5(done=(2,))
    state = give(state, 0, plants=[10], resources={"coal": 2}, cities=["bremen", "berlin"])
    state = give(state, 1, plants=[15], resources={"coal": 2}, cities=["praha"])
    action = pg.Power(player=0, plants=(15,), mix={"coal": 2})
    _rejects(state, action, pg.Reason.NOT_OWN_PLANT, "15")


# --- BUR-05 / BUR-06: refill ----------------------------------------------------------------


@pytest.mark.parametrize("step", [1, 2, 3])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_refill_table(players: int, step: int) -> None:
    """BUR-05, BUR-06, STP-11: refill by player count and Step (coal/oil/garbage/uranium)."""
    plants: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
        1: ((13, 15, 16, 18), (20, 22, 25, 33)),
        2: ((13, 15, 16, 18), (20, 22, 25, 33)),
        3: ((13, 15, 16, 18, 20, 22), ()),
    }
    actual, future = plants[step]
    state = phase5(
        players,
        step=step,
        done=range(players - 1),
        actual=actual,
        future=future,
        deck=(26, 27, 28),
    )
    state = arrange(state, market_tokens={"coal": 10, "oil": 10, "garbage": 10, "uranium": 5})
    after = play(state, pg.Power(player=players - 1))
    assert after.phase is Phase.AUCTION
    assert after.round == 5
    add = REFILL[players][step]
    assert kinds(after) == {
        "coal": 10 + add[0],
        "oil": 10 + add[1],
        "garbage": 10 + add[2],
        "uranium": 5 + add[3],
    }


def test_refill_capped_by_supply_on_most_expensive_spaces() -> None:
    """EC-65, BUR-05, BUR-06, RES-06: 4 players, Step 2: coal refill 6, supply only 4.

    10 coal on the market fill the spaces 8, 7, 6 and one token on 5. The 4 supply
    tokens go on the most expensive empty places: 2 on 5 and 2 on 4. Afterwards
    the cheapest coal costs 4: buying 3 costs 4 + 4 + 5 = 13.
    """
    state = phase5(4, step=2, done=(0, 1, 2))
    state = arrange(state, market_tokens={"coal": 10, "oil": 10, "garbage": 10, "uranium": 5})
    # 31 and 36 (3 coal each) hold 10 coal: 24 - 10 on the market - 10 held = 4 in supply.
    state = give(state, 0, plants=[31, 36], resources={"coal": 10}, cities=["bremen"])
    assert state.resources.supply[0] == 4
    after = play(state, pg.Power(player=3))
    assert kinds(after)["coal"] == 14  # 4 placed, not 6
    assert after.resources.supply[0] == 0
    assert kinds(after)["oil"] == 10 + 4  # oil is not capped (Step 2, 4 players: 4)
    refill = [e for e in after.events if e.kind == "market_refilled"][-1]
    assert refill.values == (4, 4, 3, 2)
    # Prove the positions by buying in phase 3 of the next round.
    buyer = arrange(after, phase=Phase.RESOURCES, order=(1, 2, 3, 0), done=(1, 2, 3))
    buyer = give(buyer, 0, money=20)
    bought = play(buyer, pg.BuyResource(player=0, resource="coal", count=2))
    assert bought.players[0].money == 20 - 8
    buyer = give(buyer, 0, plants=[31, 36, 42], resources={"coal": 10})
    bought = play(buyer, pg.BuyResource(player=0, resource="coal", count=3))
    assert bought.players[0].money == 20 - 13


def test_refill_onto_empty_track_starts_at_the_top() -> None:
    """BUR-05, BUR-06, RES-06: 3 players, Step 1: 4 coal onto an empty track -> 8, 8, 8, 7."""
    state = phase5(3, step=1, done=(0, 1))
    state = arrange(state, market_tokens={"coal": 0})
    after = play(state, pg.Power(player=2))
    assert kinds(after)["coal"] == 4
    buyer = arrange(after, phase=Phase.RESOURCES, order=(1, 2, 0), done=(1, 2))
    buyer = give(buyer, 0, money=40, plants=[31], resources={})
    assert play(buyer, pg.BuyResource(player=0, resource="coal", count=1)).players[0].money == 33
    assert play(buyer, pg.BuyResource(player=0, resource="coal", count=4)).players[0].money == 9


# --- BUR-07 / BUR-08: plant-market update ----------------------------------------------------


def test_market_update_step2_pushes_highest_under_step3_card() -> None:
    """EC-42, BUR-07: market `13 15 16 18 | 25 27 30 33`: 33 goes under the deck (below
    the Step 3 card), one plant (26) is drawn and sorted in."""
    state = phase5(
        step=2,
        done=(0, 1),
        actual=(13, 15, 16, 18),
        future=(25, 27, 30, 33),
        deck=(26, 40),
    )
    after = play(state, pg.Power(player=2))
    assert after.market.actual == labels(13, 15, 16, 18)
    assert after.market.future == labels(25, 26, 27, 30)
    assert after.market.under_step3 == labels(33)
    assert after.market.step3_in_deck
    assert after.market.deck_size == 1
    assert after.step == 2


def test_market_update_step1_drawn_low_plant_becomes_actual() -> None:
    """EC-42, BUR-07, AUC-10: Step 1: 33 goes under; the drawn 14 sorts into the actual market."""
    state = phase5(
        step=1,
        done=(0, 1),
        actual=(13, 15, 16, 18),
        future=(25, 27, 30, 33),
        deck=(14, 40),
    )
    after = play(state, pg.Power(player=2))
    assert after.market.actual == labels(13, 14, 15, 16)
    assert after.market.future == labels(18, 25, 27, 30)
    assert after.market.under_step3 == labels(33)


def test_market_update_step3_removes_lowest() -> None:
    """EC-43, BUR-07, STP-11: Step 3, 6 plants: lowest (20) removed from the game, one drawn."""
    state = phase5(
        step=3,
        done=(0, 1),
        actual=(20, 22, 25, 27, 30, 33),
        future=(),
        deck=(36, 40),
    )
    after = play(state, pg.Power(player=2))
    assert after.market.actual == labels(22, 25, 27, 30, 33, 36)
    assert after.market.future == ()
    assert "20" in after.market.removed
    assert after.market.under_step3 == ()


def test_phase5_sub_order_power_refill_update() -> None:
    """BUR-08: all players power and get income, then the refill, then the plant update."""
    state = phase5(step=2, done=())
    state = play(state, pg.Power(player=0), pg.Power(player=1), pg.Power(player=2))
    names = event_kinds(state)
    last_power = max(i for i, k in enumerate(names) if k == "powered")
    refill = names.index("market_refilled")
    under = names.index("plant_under_deck")
    drawn = max(i for i, k in enumerate(names) if k == "plant_drawn")
    assert last_power < refill < under < drawn
    assert state.phase is Phase.AUCTION
    assert state.round == 5


# Classic plants that burn fuel, the hybrids 5, 12, 21, 29 and 46 among them (RES-04);
# none lies in the market or the deck of the position below.
FUELLED = (3, 4, 5, 6, 8, 10, 11, 12, 14, 21, 26, 29, 31, 32, 46)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plants=st.lists(st.sampled_from(FUELLED), min_size=1, max_size=3, unique=True),
    data=st.data(),
)
def test_legal_powers_are_exactly_the_powers_that_apply(
    plants: list[int], data: st.DataObject
) -> None:
    """BUR-02, RES-04, RES-08: legal_actions lists a Power exactly when apply accepts it.

    Each plant is given tokens of its own kinds, at most twice its burn (RES-03), so the
    holdings always fit; hybrids get mixes.
    """
    state = phase5(done=(1, 2), deck=(27, 28, 30, 34))
    tokens = dict.fromkeys(KINDS, 0)
    for label in labels(*plants):
        mask, cap = state.rules.plant_slots[label]
        # Full plants most often: a burn that needs tokens moved (RES-08) needs full ones.
        for _ in range(data.draw(st.one_of(st.just(cap), st.integers(0, cap)))):
            kinds = [k for i, k in enumerate(KINDS) if mask >> i & 1]
            tokens[data.draw(st.sampled_from(kinds))] += 1
    state = give(state, 0, plants=plants, resources=tokens, cities=["bremen"])
    assert not invariant_violations(state)
    legal = set(pg.legal_actions(state))
    names = labels(*plants)
    for r in range(len(names) + 1):
        for running in itertools.combinations(names, r):
            for use in consumptions(state, running):
                mix = {k: n for k, n in zip(KINDS, use, strict=True) if n}
                power = pg.Power(player=0, plants=running, mix=mix)
                assert (power in legal) == pg.is_legal(state, power), power


def _fuelled(plants: list[int], data: st.DataObject, cities: Sequence[str]) -> GameState:
    """Seat 0 in phase 5 with ``plants``, each holding up to its capacity of its own kinds."""
    state = phase5(done=(1, 2), deck=(27, 28, 30, 34))
    tokens = dict.fromkeys(KINDS, 0)
    for label in labels(*plants):
        mask, cap = state.rules.plant_slots[label]
        kinds = [k for i, k in enumerate(KINDS) if mask >> i & 1]
        for _ in range(data.draw(st.integers(0, cap)) if kinds else 0):
            tokens[data.draw(st.sampled_from(kinds))] += 1
    return give(state, 0, plants=plants, resources=tokens, cities=cities)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plants=st.lists(st.sampled_from((*FUELLED, 37, 44)), max_size=3, unique=True),
    data=st.data(),
)
def test_legal_powers_are_the_options_in_order_and_each_burns_its_mix(
    plants: list[int], data: st.DataObject
) -> None:
    """BUR-02, BUR-03: legal_actions lists options() as Powers, fewest plants first.

    Hands with and without hybrids (eco plants 37 and 44 among them) take
    different paths through phase 5; both list the same Powers in the same
    order, and playing one burns exactly its mix.
    """
    state = _fuelled(plants, data, cities=["bremen"])
    legal = pg.legal_actions(state)
    expected = [
        pg.Power(player=0, plants=running, mix=dict(zip(KINDS, use, strict=True)))
        for running, use in options(state, 0)
    ]
    assert list(legal) == expected
    powers = [a for a in legal if isinstance(a, pg.Power)]
    assert [len(a.plants) for a in powers] == sorted(len(a.plants) for a in powers)
    before = held(state, 0)
    for action in powers:
        after = held(pg.apply(state, action), 0)
        burned = {k: before.get(k, 0) - after.get(k, 0) for k in KINDS}
        assert {k: n for k, n in burned.items() if n} == {k.value: n for k, n in action.mix}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plants=st.lists(st.sampled_from((*FUELLED, 37, 44)), max_size=3, unique=True),
    cities=st.integers(1, 21),
    data=st.data(),
)
def test_best_powered_is_the_best_option_with_or_without_hybrids(
    plants: list[int], cities: int, data: st.DataObject
) -> None:
    """END-02, BUR-03: the cities a hand can power at the end are its best option's.

    Hands without hybrids take their own path (from the fixed burns); both
    must give the most cities any option supplies, capped by the city count.
    """
    state = _fuelled(plants, data, cities=CITIES_21[:cities])
    best = max((supplied(state, 0, running) for running, _ in options(state, 0)), default=0)
    assert best_powered(state, 0) == best


def _placeable(
    caps: list[tuple[frozenset[int], int]], held: list[int], carry: dict[int, list[int]]
) -> bool:
    """Whether ``held`` tokens can lie on the plants, plant j carrying at least ``carry[j]``.

    A brute force over every placement (RES-03, RES-04), independent of storage.py.
    """

    def place(p: int, left: list[int]) -> bool:
        if p == len(caps):
            return not any(left)
        kinds, cap = caps[p]
        need = carry.get(p, [0] * len(left))
        options = [
            range(need[k], left[k] + 1) if k in kinds else range(0, 1) for k in range(len(left))
        ]
        for counts in itertools.product(*options):
            fits = sum(counts) <= cap and all(c >= n for c, n in zip(counts, need, strict=True))
            if fits and place(p + 1, [h - c for h, c in zip(left, counts, strict=True)]):
                return True
        return False

    return place(0, list(held))


HYBRIDS = (5, 12, 21, 29, 46)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hybrid=st.sampled_from(HYBRIDS),
    others=st.lists(
        st.sampled_from([n for n in FUELLED if n not in HYBRIDS]),
        min_size=1,
        max_size=2,
        unique=True,
    ),
    data=st.data(),
)
def test_a_power_is_legal_when_tokens_can_be_moved_so_each_plant_runs_in_turn(
    hybrid: int, others: list[int], data: st.DataObject
) -> None:
    """BUR-02, RES-08: a burn is legal exactly when some order of the running plants and
    some split of the mix let each plant, when it runs, carry its share with every other
    token placed on the plants; checked by placing tokens one by one, not by storage.py."""
    plants = [hybrid, *others]  # a hybrid shares kinds: where moving tokens matters
    state = phase5(done=(1, 2), deck=(27, 28, 30, 34))
    rules = state.rules
    names = labels(*plants)
    tokens = dict.fromkeys(KINDS, 0)
    caps = []
    for label in names:
        mask, cap = rules.plant_slots[label]
        kinds = [i for i in range(len(KINDS)) if mask >> i & 1]
        caps.append((frozenset(kinds), cap))
        for _ in range(data.draw(st.one_of(st.just(cap), st.integers(0, cap)))):
            tokens[KINDS[data.draw(st.sampled_from(kinds))]] += 1
    state = give(state, 0, plants=plants, resources=tokens, cities=["bremen"])
    held = [tokens[k] for k in KINDS]
    for r in range(1, len(names) + 1):
        for running in itertools.combinations(range(len(names)), r):
            possible = _burns_in_turn(caps, held, running)
            for use in consumptions(state, tuple(names[j] for j in running)):
                mix = {k: n for k, n in zip(KINDS, use, strict=True) if n}
                power = pg.Power(player=0, plants=[names[j] for j in running], mix=mix)
                assert pg.is_legal(state, power) == (use in possible), power


def _burns_in_turn(
    caps: list[tuple[frozenset[int], int]], held: list[int], running: tuple[int, ...]
) -> set[tuple[int, ...]]:
    """The total burns of the ``running`` plants that some order and split make possible."""
    burns = []
    for j in running:
        allowed, room = caps[j]
        burns.append(
            [
                [sum(1 for x in combo if x == k) for k in range(len(KINDS))]
                for combo in itertools.combinations_with_replacement(sorted(allowed), room // 2)
            ]
        )
    possible = set()
    for split in itertools.product(*burns):
        use = tuple(map(sum, zip(*split, strict=True)))
        for turn in itertools.permutations(range(len(running))):
            left = list(held)
            for t in turn:
                if not _placeable(caps, left, {running[t]: split[t]}):
                    break
                left = [h - b for h, b in zip(left, split[t], strict=True)]
            else:
                possible.add(use)
    return possible
