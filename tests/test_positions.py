"""Positions: RULES.md section-11 edge cases built in a few lines each, and what is refused.

Every position here comes from the public builder (``pg.build_position``),
which derives the deck, the supply and the board and refuses a position that
breaks the rules of a consistent state.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.engine.invariants import invariant_violations
from powergrid.engine.phases.order import player_order
from powergrid.testing import all_configs, config_label, configs, positions, seeds
from tests.scenario import CITIES_21, R3, labels

CLASSIC3 = pg.GameConfig(players=3, map="europe", components="classic")


def classic(players: int = 3, **parts: Any) -> pg.GameState:
    """A classic Europe position on the three regions of ``R3`` (21 cities)."""
    cfg = pg.GameConfig(players=players, map="europe", components="classic")
    regions = [*R3, "france_iberia"] if players > 3 else R3
    return pg.build_position(cfg, seed=1, area=regions, **parts)


def events_after(before: pg.GameState, after: pg.GameState) -> list[pg.Event]:
    return list(after.events.as_tuple()[len(before.events) :])


def test_ec_09_classic_nobody_buys_removes_the_lowest_plant_auc_20() -> None:
    """EC-09, AUC-20: round 4, everybody passes: the lowest plant leaves, one is drawn."""
    state = classic(round=4, order=[0, 1, 2], actual=[6, 7, 8, 9], future=[10, 11, 12, 14])
    for seat in (0, 1, 2):
        state = pg.apply(state, pg.PassAuction(player=seat))
    assert state.market.removed == labels(6)
    assert len(state.market.plants) == 8


def test_ec_16_a_bid_above_the_bidders_money_is_refused_auc_07() -> None:
    """EC-16, AUC-07: C holds 20 Elektro; a bid of 21 is refused and changes nothing."""
    state = classic(
        round=2,
        order=[1, 2, 0],
        seats={2: {"money": 20}},
        actual=[10, 11, 12, 14],
        future=[15, 16, 17, 18],
        auction={"plant": 10, "bid": 12, "high_bidder": 1, "auctioneer": 1, "active": [2, 0, 1]},
    )
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Bid(player=2, amount=21))
    assert err.value.reason is pg.Reason.BID_ABOVE_MONEY
    assert pg.apply(state, pg.Bid(player=2, amount=20)).auction.bid == 20  # type: ignore[union-attr]


def test_ec_41_powering_is_capped_by_cities_bur_03_bur_04() -> None:
    """EC-41, BUR-02..04: 5 cities, plants for 7: 5 powered, income 64; none: income 10."""
    state = classic(
        round=5,
        phase="bureaucracy",
        order=[0, 1, 2],
        seats={0: {"plants": [27, 33], "cities": CITIES_21[:5]}},
        actual=[14, 15, 16, 17],
        future=[18, 19, 20, 21],
    )
    full = pg.apply(state, pg.Power(player=0, plants=[27, 33]))
    assert full.players[0].money - state.players[0].money == 64
    idle = pg.apply(state, pg.Power(player=0))
    assert idle.players[0].money - state.players[0].money == 10


def test_ec_62_a_city_tie_goes_to_the_higher_plant_ord_02() -> None:
    """EC-62, ORD-01/02: A and B both have 6 cities; B's 31 beats A's 25: B first."""
    state = classic(
        round=6,
        seats={
            0: {"plants": [25], "cities": CITIES_21[:6]},
            1: {"plants": [31], "cities": CITIES_21[6:12]},
            2: {"plants": [13], "cities": CITIES_21[12:14]},
        },
        actual=[15, 16, 17, 18],
        future=[19, 20, 21, 22],
    )
    assert player_order(state) == (1, 0, 2)


def most_coal(state: pg.GameState) -> int:
    """The largest coal purchase among the legal actions."""
    return max(
        a.count
        for a in pg.legal_actions(state)
        if isinstance(a, pg.BuyResource) and a.resource is pg.Resource.COAL
    )


def test_ec_36_a_hybrid_shares_its_room_res_04_res_05() -> None:
    """EC-36, RES-03..05: plants 4 and 5 hold at most 8 coal; with 3 oil at most 5."""
    state = classic(
        round=3,
        phase="resources",
        order=[1, 2, 0],
        seats={0: {"plants": [4, 5]}},
        actual=[6, 7, 8, 9],
        future=[10, 11, 12, 13],
    )
    assert state.resources.market[0] >= 8
    assert pg.current_player(state) == 0
    assert most_coal(state) == 8
    oily = pg.edit_position(state, seats={0: {"resources": {"oil": 3}}})
    assert most_coal(oily) == 5
    with pytest.raises(pg.IllegalAction):
        pg.apply(oily, pg.BuyResource(player=0, resource="coal", count=6))


def test_ec_38_an_empty_track_sells_nothing_res_07() -> None:
    """EC-38, RES-07: with the oil track empty, oil cannot be bought from the supply."""
    state = classic(
        round=3,
        phase="resources",
        order=[1, 2, 0],
        seats={0: {"plants": [3]}},
        market_tokens={"coal": 24, "oil": 0, "garbage": 6, "uranium": 2},
        actual=[4, 5, 6, 7],
        future=[8, 9, 10, 13],
    )
    assert state.resources.supply[1] == 24  # every oil token lies in the supply
    with pytest.raises(pg.IllegalAction):
        pg.apply(state, pg.BuyResource(player=0, resource="oil", count=1))


def test_ec_35_a_first_city_late_costs_only_its_slot_bld_03() -> None:
    """EC-35, BLD-03: round 3, A has no city: any free city costs 10, no connection."""
    state = classic(
        round=3,
        phase="building",
        order=[1, 2, 0],
        seats={1: {"cities": ["bremen"]}, 2: {"cities": ["berlin"]}},
    )
    assert pg.current_player(state) == 0
    after = pg.apply(state, pg.Build(player=0, city="napoli"))
    (built,) = [e for e in events_after(state, after) if e.kind == "house_built"]
    assert built.values[-1] == 10


def test_ec_34_slot_prices_by_step_bld_05() -> None:
    """EC-34, BLD-05: Step 2: the second house costs 15, a third is refused; Step 3: 20."""
    two = classic(
        round=8,
        step=2,
        phase="building",
        order=[1, 2, 0],
        seats={1: {"cities": CITIES_21[:7]}, 2: {"cities": ["bremen", "berlin"]}},
        actual=[14, 15, 16, 17],
        future=[18, 19, 20, 21],
    )
    after = pg.apply(two, pg.Build(player=0, city="stuttgart"))  # a house of seat 1 there
    assert [e.values[-1] for e in events_after(two, after) if e.kind == "house_built"] == [15]
    with pytest.raises(pg.IllegalAction):
        pg.apply(two, pg.Build(player=0, city="bremen"))  # seats 1 and 2 there: closed
    three = pg.edit_position(two, step=3, step3="out", actual=[20, 21, 22, 23, 24, 25], future=[])
    after = pg.apply(three, pg.Build(player=0, city="bremen"))
    assert [e.values[-1] for e in events_after(three, after) if e.kind == "house_built"] == [20]


def test_ec_42_the_highest_future_plant_goes_under_the_deck_bur_07() -> None:
    """EC-42, BUR-07: Steps 1-2: 33, the highest future plant, goes under the deck."""
    state = classic(
        round=9,
        step=2,
        phase="bureaucracy",
        order=[0, 1, 2],
        done=[0, 1],
        seats={0: {"cities": CITIES_21[:7]}},
        actual=[15, 17, 20, 22],
        future=[25, 27, 30, 33],
    )
    after = pg.apply(state, pg.Power(player=2))
    assert "33" in after.market.under_step3
    assert "33" not in after.market.plants


def test_ec_43_step_3_removes_the_lowest_plant_bur_07_stp_11() -> None:
    """EC-43, BUR-07, STP-11: in Step 3 the lowest plant leaves and the market keeps 6."""
    state = classic(
        round=12,
        step=3,
        step3="out",
        phase="bureaucracy",
        order=[0, 1, 2],
        done=[0, 1],
        seats={0: {"cities": CITIES_21[:8]}},
        actual=[20, 22, 25, 27, 30, 33],
        future=[],
    )
    after = pg.apply(state, pg.Power(player=2))
    assert after.market.removed[-1] == "20"
    assert len(after.market.plants) == 6


def test_ec_65_a_refill_is_limited_by_the_supply_bur_06() -> None:
    """EC-65, BUR-05/06: 4 players, Step 2: coal refill 6, only 4 in the supply: 4 placed."""
    state = classic(
        4,
        round=9,
        step=2,
        phase="bureaucracy",
        order=[0, 1, 2, 3],
        done=[0, 1, 2],
        seats={0: {"plants": [4, 20], "resources": {"coal": 8}, "cities": CITIES_21[:7]}},
        market_tokens={"coal": 12, "oil": 18, "garbage": 6, "uranium": 2},
        actual=[15, 17, 21, 22],
        future=[25, 27, 30, 33],
    )
    assert state.resources.supply[0] == 4
    after = pg.apply(state, pg.Power(player=3))
    assert after.resources.market[0] == 16
    assert after.resources.supply[0] == 0


def test_ec_04_the_token_plant_opens_at_1_auc_31() -> None:
    """EC-04, AUC-31: North America, token on 12: it opens at 1; 0 is refused."""
    cfg = pg.GameConfig(players=3, map="north_america")
    state = pg.build_position(
        cfg,
        seed=2,
        round=3,
        order=[0, 1, 2],
        actual=[12, 13, 14, 15],
        future=[16, 17, 18, 19],
        discount=12,
    )
    assert dict(pg.public_view(state).min_bids)["12"] == 1
    with pytest.raises(pg.IllegalAction):
        pg.apply(state, pg.ChoosePlant(player=0, plant=12, bid=0))
    state = pg.apply(state, pg.ChoosePlant(player=0, plant=12, bid=1))
    state = pg.apply(pg.apply(state, pg.PassBid(player=1)), pg.PassBid(player=2))
    assert state.players[0].plants == ("12",)


# --- what the builder refuses -----------------------------------------------------------


@pytest.mark.parametrize(
    ("parts", "path"),
    [
        ({"seats": {0: {"plants": [13]}}, "actual": [13, 14, 15, 16]}, "seats.0.plants"),
        ({"seats": {5: {"money": 3}}}, "seats.5"),
        ({"seats": {0: {"cities": ["atlantis"]}}}, "seats.0.cities[0]"),
        ({"seats": {0: {"resources": {"gas": 1}}}}, "seats.0.resources.gas"),
        ({"actual": [3, "x"]}, "actual[1]"),
        ({"actual": [99]}, "actual[0]"),
        ({"phase": "lunch"}, "phase"),
        ({"round": 0}, "round"),
        ({"deck_size": 99}, "deck_size"),
        ({"market_tokens": {"coal": 30}}, "market_tokens"),
        ({"colour": "red"}, "colour"),
        ({"area": ["central"]}, "area"),
    ],
)
def test_a_malformed_or_contradictory_position_names_the_part(
    parts: dict[str, Any], path: str
) -> None:
    """Each bad part raises InvalidRecord with its path; nothing else escapes."""
    with pytest.raises(pg.InvalidRecord) as err:
        pg.build_position(CLASSIC3, seed=1, **parts)
    assert err.value.path == path


@pytest.mark.parametrize(
    ("parts", "why"),
    [
        ({"round": 3, "end_triggered": True}, "game end is triggered exactly"),
        ({"step": 3, "actual": [13, 14, 15, 16, 17, 18], "future": []}, "Step 3 card is out"),
        ({"seats": {0: {"money": 10**6}}}, "more than 10000 Elektro"),
        ({"round": 10**20}, "round must be 1 to 1000"),
        (
            {
                "auction": {
                    "plant": 3,
                    "bid": 10**9,
                    "high_bidder": 0,
                    "auctioneer": 0,
                    "active": [1, 0],
                }
            },
            "at a bid its high bidder can pay",
        ),
        (
            {
                "auction": {
                    "plant": 3,
                    "bid": 5,
                    "high_bidder": 0,
                    "auctioneer": 0,
                    "active": [1, 1, 0],
                }
            },
            "among distinct seats",
        ),
        (
            {
                "seats": {0: {"cities": CITIES_21[:8]}},
                "actual": [13, 14, 15, 16],
                "future": [17, 18, 19, 20],
            },
            "Step 2 has begun",
        ),
    ],
)
def test_an_impossible_position_is_refused_with_its_reason(parts: dict[str, Any], why: str) -> None:
    """The mutations that once decoded into corrupt states are refused by the one definition."""
    with pytest.raises(pg.InvalidRecord, match=why) as err:
        pg.build_position(CLASSIC3, seed=1, area=R3, **parts)
    assert err.value.path == "position"


def test_an_empty_description_is_the_seeded_set_up() -> None:
    """With no parts the builder gives the seeded set-up itself (events aside)."""
    for seed in range(3):
        built = pg.build_position(CLASSIC3, seed=seed)
        fresh = pg.new_game(CLASSIC3, seed=seed)
        assert built == pg.state.evolve(fresh, events=built.events)
        assert len(built.events) == 0


# --- the position text -------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(config=configs(), seed=seeds(), moves=st.integers(0, 600))
def test_the_position_text_round_trips_every_state(
    config: pg.GameConfig, seed: int, moves: int
) -> None:
    """Every state of a seeded game reads back from its text with hidden parts, events aside."""
    state = pg.new_game(config, seed=seed)
    rnd = random.Random(seed)
    for n in range(moves):
        if n % 50 == 0 or pg.current_player(state) is None:
            back = pg.parse_position(pg.position_text(state, hidden=True))
            assert back == pg.state.evolve(state, events=back.events)
        if pg.current_player(state) is None:
            break
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))


@settings(max_examples=15, deadline=None)
@given(position=positions())
def test_drawn_positions_are_consistent_and_play_on(position: pg.GameState) -> None:
    """A position the strategy draws keeps its public text, secrets aside, and plays on."""
    assert invariant_violations(position) == []
    text = pg.position_text(position)
    assert "hidden=" not in text
    assert pg.position_text(pg.parse_position(text, seed=7)) == text
    if pg.current_player(position) is not None:
        pg.apply(position, pg.legal_actions(position)[0])


def test_the_public_text_holds_no_secret() -> None:
    """Two states that differ only in their secret give one public text (and one view)."""
    state = pg.new_game(CLASSIC3, seed=4)
    other = pg.parse_position(pg.position_text(state), seed=99)
    assert other.secret != state.secret
    assert pg.position_text(other) == pg.position_text(state)
    assert "hidden=" in pg.position_text(state, hidden=True)


def test_a_position_text_names_its_bad_field() -> None:
    """Bad syntax raises InvalidRecord with the field's name."""
    good = pg.position_text(pg.new_game(CLASSIC3, seed=4))
    for bad, path in (
        (good.replace("round=1", "round=x"), "round"),
        (good + " colour=red", "colour"),
        (good + " round=2", "round"),
        (good.replace("game=classic/europe/3", "game=classic/europe"), "game"),
        (good.replace("seat0=50/-/-/-", "seat0=50/-/-"), "seat0"),
    ):
        with pytest.raises(pg.InvalidRecord) as err:
            pg.parse_position(bad)
        assert err.value.path == path


@pytest.mark.parametrize("config", all_configs(), ids=config_label)
def test_the_position_text_round_trips_whole_games_of_every_configuration(
    config: pg.GameConfig,
) -> None:
    """A whole seeded game of each configuration, every 23rd state and the last."""
    state = pg.new_game(config, seed=3)
    rnd = random.Random(3)
    for n in range(20_000):
        over = pg.current_player(state) is None
        if n % 23 == 0 or over:
            back = pg.parse_position(pg.position_text(state, hidden=True))
            assert back == pg.state.evolve(state, events=back.events)
        if over:
            return
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
