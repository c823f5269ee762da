"""The 2-player fund (RULES.md section 9): example games, one rule at a time.

Positions come from the position builder (``pg.edit_position``) on a fund game
whose six starting houses stand; the fund is actor ``-1``, second in the
player order (``order == (0, -1, 1)``: seat 0 is the start player, seat 1 the
other). Numbers are RULES.md's: the 2-player Deluxe game ends at 18 cities
(SET-23) and starts Step 2 at 10; plant 8 is a hybrid burning 3 gas/oil,
plant 35 a hybrid burning 2, plant 10 burns 2 oil (SET-20).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

import powergrid as pg
from powergrid.catalog import register_module
from powergrid.engine.invariants import invariant_violations
from powergrid.engine.phases.order import determine_order
from powergrid.enums import Phase
from powergrid.errors import Reason
from powergrid.formats.text import show_lines
from powergrid.mechanics.market import largest_city_count
from powergrid.rules.fund import FUND, fund_module
from powergrid.state import GameState
from tests.module_parts import discount
from tests.scenario import R3, arrange, give, kinds, labels, play
from tests.test_cli import run

# A chain of directly connected cities of R3 (berlin-bremen-randstad-...).
CHAIN = ("berlin", "bremen", "randstad", "vlaanderen", "rhein_ruhr", "rhein_main")


def setup_game(map: str = "europe", seed: int = 0) -> GameState:
    """A fresh fund game in its setup phase; Europe on R3, North America on the seed's area."""
    regions = R3 if map == "europe" else None
    return pg.new_game(pg.GameConfig(players=2, map=map, regions=regions), seed=seed)


def place(state: GameState, cities: Sequence[str]) -> GameState:
    """The fund's starting houses, each placed by the seat on turn (FND-05)."""
    for city in cities:
        state = pg.apply(state, pg.PlaceFundHouse(player=_turn(state), city=city))
    return state


def _turn(state: GameState) -> int:
    seat = pg.current_player(state)
    assert seat is not None
    return seat


def fund_game(map: str = "europe", seed: int = 0) -> GameState:
    """A fund game in round 1's phase 2, its houses on CHAIN (Europe) or the first legal cities."""
    state = setup_game(map, seed)
    if map == "europe":
        return place(state, CHAIN)
    while state.phase is Phase.SETUP:
        state = pg.apply(state, pg.legal_actions(state)[0])
    return state


def with_fund(state: GameState, **fields: Any) -> GameState:
    """Set the fund's plants, tokens (``{"gas": 2}``), cities or supply houses."""
    fund = state.actor(FUND)
    kinds_held = zip(state.rules.resources, fund.resources, strict=True)
    spec: dict[str, Any] = {
        "actor": FUND,
        "name": fund.name,
        "plants": list(fund.plants),
        "resources": {k.value: n for k, n in kinds_held if n},
        "cities": list(fund.cities),
        "houses": fund.houses,
    }
    if "cities" in fields and "houses" not in fields:
        fields["houses"] = 16 - len(fields["cities"])
    spec.update(fields)
    return pg.edit_position(state, strict=False, actors=[spec])


def consistent(state: GameState) -> GameState:
    assert invariant_violations(state) == []
    return state


def fund_events(state: GameState, since: int = 0) -> list[pg.Event]:
    return [e for e in list(state.events)[since:] if e.kind.startswith("fund_")]


# --- FND-01, OQ-16, SET-25: which games play the fund ---------------------------------


def test_fnd_01_a_two_player_deluxe_game_plays_the_fund_unless_it_opts_out() -> None:
    """SET-25, FND-01: the resolved module list is what the config shows and stores."""
    for map_id in ("europe", "north_america"):
        assert pg.GameConfig(players=2, map=map_id).modules == ("fund",)
        assert pg.GameConfig(players=2, map=map_id, without={"fund"}).modules == ()
    assert pg.GameConfig(players=3).modules == ()
    assert pg.GameConfig(players=2, components="classic").modules == ()
    data = json.loads(pg.to_json(pg.GameConfig(players=2)))
    assert data["modules"] == ["fund"]
    opted_out = pg.new_game(pg.GameConfig(players=2, without={"fund"}), seed=1)
    assert opted_out.actors == ()
    assert opted_out.phase is Phase.AUCTION


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({"players": 3}, "for 2 players, not 3 (FND-01)"),
        ({"players": 4, "map": "north_america"}, "for 2 players, not 4 (FND-01)"),
        ({"players": 2, "components": "classic"}, "deluxe components, not classic (FND-01)"),
    ],
)
def test_fnd_01_oq_16_the_fund_is_refused_outside_two_player_deluxe(
    config: dict[str, Any], words: str
) -> None:
    """FND-01, OQ-16: the fund with classic components or another count names the rule."""
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(modules=("fund",), **config)
    assert words in str(info.value)
    assert info.value.field == "modules"


def test_set_25_records_saved_before_the_fund_replay_without_it() -> None:
    """A format-3 record of a 2-player Deluxe game, which names no modules, replays as it was."""
    state = pg.new_game(pg.GameConfig(players=2, without={"fund"}), seed=4)
    record = pg.GameRecord(config=state.config, seed=4, actions=pg.legal_actions(state)[:1])
    data = json.loads(pg.to_json(record))
    data["format"] = 3
    del data["config"]["modules"]
    del data["config"]["without"]  # formats 3 and 4 had no such field
    old = pg.from_json(json.dumps(data))
    assert old.config.modules == ()
    assert pg.replay(old).actors == ()
    data["format"] = 4  # the same document today means the default: the fund
    assert pg.from_json(json.dumps(data)).config.modules == ("fund",)


# --- FND-02..FND-05: setup ----------------------------------------------------------------


def test_fnd_02_fnd_03_the_fund_joins_second_in_order_with_16_houses() -> None:
    """FND-02/03, ORD-06: 16 houses, no money, position 2; the seats are 1 and 3."""
    for map_id in ("europe", "north_america"):
        state = setup_game(map_id, seed=5)
        fund = state.actor(FUND)
        assert (fund.name, fund.houses, fund.plants, fund.cities) == ("the fund", 16, (), ())
        assert state.order[1] == FUND
        assert sorted(state.order[::2]) == [0, 1]
        assert not hasattr(fund, "money")
        assert state.phase is Phase.SETUP


def test_fnd_04_the_play_area_has_three_connected_regions() -> None:
    """FND-04: 3 adjacent regions, on both maps."""
    for map_id in ("europe", "north_america"):
        for seed in range(4):
            state = setup_game(map_id, seed)
            board = state.rules.area.board
            assert len(state.regions) == 3
            assert board.regions_connected(state.regions)


def test_ec_52_fnd_05_placers_take_turns_start_1_other_2_start_2_other_1() -> None:
    """EC-52: the placers' sequence, then the remaining 10 houses form the supply."""
    state = setup_game()
    start, other = state.order[0], state.order[2]
    placers = []
    for city in CHAIN:
        placers.append(_turn(state))
        state = pg.apply(state, pg.PlaceFundHouse(player=_turn(state), city=city))
    assert placers == [start, other, other, start, start, other]
    fund = state.actor(FUND)
    assert fund.cities == CHAIN
    assert fund.houses == 10
    index = state.rules.area.board.index
    assert all(state.board.houses[index[c]] == (FUND,) for c in CHAIN)  # the 10 slots
    assert state.phase is Phase.AUCTION
    assert state.round == 1
    placed = [e for e in state.events if e.kind == "fund_house_placed"]
    assert [e.player for e in placed] == placers
    assert {e.values[1] for e in placed} == {10}
    consistent(state)


def test_ec_52_the_first_house_goes_anywhere_later_ones_next_to_a_fund_city() -> None:
    """EC-52, FND-05: any play-area city first; a city not directly connected is refused."""
    state = setup_game()
    first = pg.legal_actions(state)
    assert len(first) == 21
    assert all(isinstance(a, pg.PlaceFundHouse) for a in first)
    state = place(state, ["berlin"])
    cities = sorted(a.city for a in pg.legal_actions(state) if isinstance(a, pg.PlaceFundHouse))
    assert cities == ["bremen", "praha", "rhein_main"]
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.PlaceFundHouse(player=_turn(state), city="london"))
    assert info.value.reason is Reason.NOT_CONNECTED
    assert "London is not directly connected to a city with a fund house" in str(info.value)
    state = place(state, ["praha"])
    assert pg.PlaceFundHouse(player=_turn(state), city="wien") in pg.legal_actions(state)


@pytest.mark.parametrize(
    ("city", "reason", "words"),
    [
        ("berlin", Reason.CITY_FULL, "Berlin already holds a fund house"),
        ("paris", Reason.OUTSIDE_PLAY_AREA, "Paris lies outside the play area"),
        ("atlantis", Reason.UNKNOWN_CITY, "There is no city 'atlantis' on Europe"),
    ],
)
def test_fnd_05_bad_starting_houses_are_refused_and_change_nothing(
    city: str, reason: Reason, words: str
) -> None:
    """FND-05: each refusal has a stable reason and a sentence; the state is untouched."""
    state = place(setup_game(), ["berlin"])
    before = pg.to_json(state)
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.PlaceFundHouse(player=_turn(state), city=city))
    assert info.value.reason is reason
    assert words in str(info.value)
    assert pg.to_json(state) == before


def test_fnd_05_setup_takes_turns_and_only_setup_actions() -> None:
    """Only the placer on turn acts; phase-2 actions wait until the six houses stand."""
    state = setup_game()
    other = state.order[2]
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.PlaceFundHouse(player=other, city="berlin"))
    assert info.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.PassAuction(player=_turn(state)))
    assert info.value.reason is Reason.WRONG_PHASE
    assert "not played in setup" in str(info.value)
    state = place(state, CHAIN)
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.PlaceFundHouse(player=_turn(state), city="praha"))
    assert info.value.reason is Reason.WRONG_PHASE


def test_place_fund_house_has_a_notation_and_a_json_form() -> None:
    """The setup action reads back from its notation and its JSON document."""
    action = pg.PlaceFundHouse(player=1, city="berlin")
    assert str(action) == "1:fund berlin"
    assert pg.parse_action("1:fund berlin") == action
    assert pg.from_json(pg.to_json(action)) == action
    state = setup_game()
    assert pg.parse_action("fund berlin", state) == pg.PlaceFundHouse(
        player=_turn(state), city="berlin"
    )
    with pytest.raises(pg.InvalidRecord):
        pg.parse_action("1:fund")


# --- ORD-06 ---------------------------------------------------------------------------------


def test_ec_54_ord_06_the_fund_stays_second_whatever_the_humans_hold() -> None:
    """EC-54: humans with 5 and 8 cities: the 8-city human, the fund, the 5-city human."""
    state = fund_game()
    cities = ("berlin", "praha", "wien", "zagreb", "budapest", "katowice", "munchen", "zurich")
    state = give(state, 0, cities=("london", "birmingham", "glasgow", "dublin", "milano"))
    state = give(state, 1, cities=cities)
    state = with_fund(
        state, cities=["roma", "napoli", "stuttgart", "randstad", "bremen", "vlaanderen"]
    )
    assert determine_order(state).order == (1, FUND, 0)
    state = give(state, 1, cities=cities[:4])  # now 5 against 4
    assert determine_order(state).order == (0, FUND, 1)


# --- phase 2: FND-10..FND-14 -----------------------------------------------------------------


def auction_position(map: str = "north_america", **market: Any) -> GameState:
    """Round 2's phase 2 of a fund game, nobody done but the fund, plants as given."""
    state = fund_game(map)
    return arrange(state, round=2, phase=Phase.AUCTION, order=(0, FUND, 1), done=[FUND], **market)


def test_fnd_10_only_the_humans_open_and_bid() -> None:
    """FND-10: the fund never opens or bids; every auction's bidders are the two seats."""
    state = fund_game("north_america", seed=2)
    while state.round == 1:
        assert pg.current_player(state) in (0, 1)
        assert all(a.player in (0, 1) for a in pg.legal_actions(state))
        if state.auction is not None:
            assert set(state.auction.active) <= {0, 1}
        state = pg.apply(state, pg.legal_actions(state)[0])


@pytest.mark.parametrize(
    ("drawn", "taken", "actual"), [(25, "13", (6, 9, 11, 15)), (10, "11", (6, 9, 10, 13))]
)
def test_ec_47_fnd_11_the_fund_takes_the_highest_actual_plant_after_the_first_purchase(
    drawn: int, taken: str, actual: tuple[int, ...]
) -> None:
    """EC-47: H1 opens 8, H2 wins it; after the replacement the fund takes the highest, free.

    (a) the drawn 25 goes to the future market, so the fund takes 13; (b) the
    drawn 10 is actual, so it takes 11. A replacement (30) follows each take;
    then H1 has the floor and, the last one left, buys at the minimum (AUC-14).
    """
    state = auction_position(
        actual=[6, 8, 9, 11], future=[13, 15, 18, 20], deck=[drawn, 30], discount=6
    )
    money = (state.players[0].money, state.players[1].money)
    state = play(
        state,
        pg.ChoosePlant(player=0, plant=8, bid=8),
        pg.Bid(player=1, amount=9),
        pg.PassBid(player=0),
    )
    assert state.actor(FUND).plants == (taken,)
    assert state.market.actual == labels(*actual)
    assert "30" in state.market.plants
    assert (state.players[0].money, state.players[1].money) == (money[0], money[1] - 9)  # FND-06
    tail = [(e.kind, e.values) for e in state.events][-4:]
    assert tail == [
        ("plant_bought", ("8", 9)),
        ("plant_drawn", (str(drawn),)),
        ("fund_took_plant", (taken,)),
        ("plant_drawn", ("30",)),
    ]
    assert pg.current_player(state) == 0
    opens = [a for a in pg.legal_actions(state) if isinstance(a, pg.ChoosePlant)]
    assert {(a.plant, a.bid) for a in opens} == {
        (p, 1 if p == "6" else int(p)) for p in state.market.actual
    }


def test_fnd_11_the_first_players_pass_is_the_funds_moment_once_per_phase() -> None:
    """FND-11, OQ-15: H1 passes: the fund takes at once; H2's purchase later brings no take."""
    state = auction_position(actual=[6, 8, 9, 11], future=[13, 15, 18, 20], deck=[25, 30, 31])
    state = pg.apply(state, pg.PassAuction(player=0))
    assert state.actor(FUND).plants == ("11",)
    moments = ("fund_took_plant", "fund_passed")
    assert [e.kind for e in fund_events(state)][-1] == "fund_took_plant"
    state = pg.apply(state, pg.ChoosePlant(player=1, plant=6, bid=6))  # the last player buys
    assert state.phase is Phase.RESOURCES
    assert state.actor(FUND).plants == ("11",)
    assert sum(e.kind in moments for e in state.events if e.round == 2) == 1


def test_ec_48_fnd_12_with_three_plants_the_fund_trades_up_or_takes_nothing() -> None:
    """EC-48: owns 10, 20, 25 and 18 is highest: takes 18, removes 10; owns 20, 22, 25: 19 stays."""
    state = auction_position(actual=[13, 15, 17, 18], future=[19, 21, 23, 24], deck=[30, 31])
    state = with_fund(state, plants=[10, 20, 25], resources={"oil": 2})
    supply_oil = kinds(state)["oil"], state.resources.supply[2]
    after = pg.apply(state, pg.PassAuction(player=0))
    fund = after.actor(FUND)
    assert fund.plants == labels(18, 20, 25)
    assert "10" in after.market.removed
    assert "18" not in after.market.plants
    assert fund.resources[2] == 0
    assert after.resources.supply[2] == supply_oil[1] + 2
    dropped = [e for e in after.events if e.kind == "fund_dropped_plant"]
    assert dropped[-1].values[0] == "10"

    state = auction_position(actual=[13, 15, 17, 19], future=[21, 23, 24, 26], deck=[30, 31])
    state = with_fund(state, plants=[20, 22, 25])
    after = pg.apply(state, pg.PassAuction(player=0))
    assert after.actor(FUND).plants == labels(20, 22, 25)
    assert after.market.actual == labels(13, 15, 17, 19)
    assert "not higher than its lowest plant, 20 (FND-12)" in fund_events(after)[-1].text


def test_ec_51_fnd_14_europe_removes_the_lowest_only_when_nobody_and_no_fund_took() -> None:
    """EC-51: round 5, both pass, the fund (lowest 30) leaves 24: the lowest actual goes."""
    base = fund_game("europe")
    shape: dict[str, Any] = {"actual": [13, 17, 21, 24], "future": [25, 26, 27, 28, 29]}
    state = arrange(
        base, round=5, phase=Phase.AUCTION, order=(0, FUND, 1), done=[FUND], deck=[31, 32], **shape
    )
    state = with_fund(state, plants=[30, 33, 34])
    state = play(state, pg.PassAuction(player=0), pg.PassAuction(player=1))
    assert "13" in state.market.removed
    assert state.actor(FUND).plants == labels(30, 33, 34)
    assert state.phase is Phase.RESOURCES

    state = arrange(
        base, round=5, phase=Phase.AUCTION, order=(0, FUND, 1), done=[FUND], deck=[31, 32], **shape
    )
    state = with_fund(state, plants=[10, 33])  # the fund takes 24 at H1's pass
    state = play(state, pg.PassAuction(player=0), pg.PassAuction(player=1))
    assert state.actor(FUND).plants == labels(10, 24, 33)
    assert "13" not in state.market.removed
    assert "13" in state.market.actual


def test_fnd_13_the_replacement_after_the_take_can_remove_the_discount_token() -> None:
    """FND-13, AUC-32: the fund takes 11; the replacement 5 is lower than the token plant 6."""
    state = auction_position(
        actual=[6, 8, 9, 11], future=[13, 15, 18, 20], deck=[5, 30], discount=6
    )
    state = pg.apply(state, pg.PassAuction(player=0))
    assert state.actor(FUND).plants == ("11",)
    assert state.market.actual == labels(5, 6, 8, 9)
    assert discount(state) is None
    assert any(e.kind == "discount_removed" for e in state.events)


def test_fnd_13_when_the_fund_takes_the_token_plant_auc_33_removes_nothing() -> None:
    """FND-13: a single actual plant under the token: the fund takes it; the token goes beside."""
    base = fund_game("north_america")
    state = arrange(
        base, round=9, step=3, phase=Phase.AUCTION, order=(0, FUND, 1), done=[FUND],
        actual=[30], future=[], deck=[], step3_in_deck=False, step3_in_market=False, discount=30,
    )  # fmt: skip
    consistent(state)
    state = play(state, pg.PassAuction(player=0), pg.PassAuction(player=1))
    assert state.actor(FUND).plants == ("30",)
    assert discount(state) is None
    assert state.market.removed == base.market.removed


# --- phase 3: FND-15..FND-17, RES-10 -----------------------------------------------------------


def resource_turn(
    plants: Sequence[int], market: dict[str, int], held: dict[str, int] | None = None
) -> GameState:
    """Phase 3, the fund holding ``plants``; seat 1 (position 3) ends, so the fund's turn runs."""
    state = fund_game()
    state = arrange(
        state, round=3, phase=Phase.RESOURCES, order=(0, FUND, 1), done=[], market_tokens=market
    )
    state = with_fund(state, plants=list(plants), resources=held or {})
    return pg.apply(state, pg.EndPurchase(player=1))


@pytest.mark.parametrize(
    ("market", "taken"),
    [
        ({"gas": 6, "oil": 6}, {"gas": 2, "oil": 1}),  # gas, oil, gas
        ({"gas": 0, "oil": 6}, {"oil": 3}),
        ({"gas": 1, "oil": 0}, {"gas": 1}),  # as many as possible
    ],
)
def test_ec_49_fnd_17_a_hybrid_alternates_starting_with_gas(
    market: dict[str, int], taken: dict[str, int]
) -> None:
    """EC-49, RES-10: the fund's hybrid 8 needs 3; what it takes depends on the market."""
    state = resource_turn([8], market)
    fund = state.actor(FUND)
    held = {k.value: n for k, n in zip(state.rules.resources, fund.resources, strict=True) if n}
    assert held == taken
    assert {k: market[k] - taken.get(k, 0) for k in market} == {k: kinds(state)[k] for k in market}
    assert pg.current_player(state) == 0  # the fund played between the humans (RES-01)


def test_ec_50_fnd_15_the_fund_never_stores_extra() -> None:
    """EC-50: hybrid 35 needs 2 and holds 1 oil: it takes exactly 1 gas."""
    state = resource_turn([35], {"gas": 6, "oil": 6}, held={"oil": 1})
    assert state.actor(FUND).resources == (0, 1, 1, 0)
    event = fund_events(state)[-1]
    assert event.kind == "fund_took_resources"
    assert "1 gas free (FND-15)" in event.text


def test_fnd_16_plants_take_in_ascending_order_from_the_cheapest_spaces() -> None:
    """FND-16, OQ-13: gas plant 5 (2 gas) first, then hybrid 8 (gas, oil, then oil: gas is gone)."""
    state = resource_turn([5, 8], {"gas": 3, "oil": 5, "coal": 10})
    assert state.actor(FUND).resources == (0, 3, 2, 0)
    assert kinds(state)["gas"] == 0
    assert kinds(state)["oil"] == 3
    # the fund took the tokens free: the humans' money is what it was
    assert all(p.money == 50 for p in state.players)


def test_fnd_15_plants_without_fuel_need_take_nothing() -> None:
    """FND-15: eco plant 11 burns nothing; the fund takes nothing and says so."""
    state = resource_turn([11], {"coal": 10})
    assert sum(state.actor(FUND).resources) == 0
    assert fund_events(state)[-1].text == "The fund needs no fuel (FND-15)."


# --- phase 4: FND-08, FND-09, BLD-05 ---------------------------------------------------------


def build_position(step: int = 1, **fund: Any) -> GameState:
    """Phase 4 of round 3, seat 1 (position 3) to build first, each with 50 Elektro."""
    state = fund_game()
    state = arrange(state, round=3, step=step, phase=Phase.BUILDING, order=(0, FUND, 1), done=[])
    return with_fund(state, **fund) if fund else state


def test_fnd_08_a_house_in_an_empty_city_gets_a_fund_house_on_its_15_slot() -> None:
    """FND-08, OQ-12: Step 1: seat 1 builds in London; the fund answers on the 15 slot."""
    state = build_position()
    state = pg.apply(state, pg.Build(player=1, city="london"))
    i = state.rules.area.board.index["london"]
    assert state.board.houses[i] == (1, FUND)
    fund = state.actor(FUND)
    assert fund.houses == 9
    assert fund.cities[-1] == "london"
    event = fund_events(state)[-1]
    assert (event.kind, event.values) == ("fund_house_placed", (i, 15))
    assert (
        event.text == "The fund places a house on London's 15 slot (FND-08); 9 left in its supply."
    )
    assert state.players[1].money == 40  # the human pays 10; the fund pays nothing (FND-06)
    consistent(state)


def test_ec_53_fnd_09_fund_houses_block_slots_and_routes_pass_through_them() -> None:
    """EC-53: Step 1 a fund city is full; Step 3 its 20 slot is open beside a 15-slot fund house.

    FND-09: routes pass through fund cities: from London to Stuttgart the
    cheapest route runs through Vlaanderen and Rhein-Main, 15 + 6 + 3 = 24.
    """
    state = give(build_position(), 1, cities=["london"])
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.Build(player=1, city="berlin"))
    assert info.value.reason is Reason.CITY_FULL
    state = pg.apply(state, pg.Build(player=1, city="stuttgart"))
    assert state.players[1].money == 50 - 10 - 24

    state = build_position(step=3, cities=[*CHAIN, "london"])
    state = give(state, 0, cities=["london"])
    state = give(state, 1, cities=["birmingham"])
    state = pg.edit_position(state, strict=False, houses={"london": [0, FUND]})
    london = state.rules.area.board.index["london"]
    state = pg.apply(state, pg.Build(player=1, city="london"))
    assert state.board.houses[london] == (0, FUND, 1)
    assert state.players[1].money == 50 - 20 - 4


def test_fnd_08_a_fund_city_opens_its_15_slot_in_step_2_without_a_fund_answer() -> None:
    """FND-08, BLD-05: Step 2, berlin holds the fund's 10-slot house: a human pays 15; no reply."""
    state = build_position(step=2)
    state = give(state, 1, cities=["praha"])
    supply = state.actor(FUND).houses
    state = pg.apply(state, pg.Build(player=1, city="berlin"))
    berlin = state.rules.area.board.index["berlin"]
    assert state.board.houses[berlin] == (FUND, 1)
    assert state.actor(FUND).houses == supply
    assert state.players[1].money == 50 - 15 - 7


def test_fnd_08_a_city_the_other_human_holds_adds_no_fund_house() -> None:
    """FND-08: Step 2, seat 0 holds London alone: seat 1 builds there and the fund stays put."""
    state = build_position(step=2)
    state = give(state, 0, cities=["london"])
    state = with_fund(state, cities=list(CHAIN))  # London without the fund's answer
    state = arrange(state, done=[])
    supply = state.actor(FUND).houses
    state = give(state, 1, cities=["birmingham"])
    state = pg.apply(state, pg.Build(player=1, city="london"))
    london = state.rules.area.board.index["london"]
    assert state.board.houses[london] == (0, 1)
    assert state.actor(FUND).houses == supply


def test_fnd_08_after_ten_answers_new_cities_stay_open() -> None:
    """FND-08: with its supply used up the fund places nothing; London keeps its 15 slot."""
    ten = [
        "glasgow",
        "dublin",
        "birmingham",
        "praha",
        "wien",
        "zagreb",
        "budapest",
        "katowice",
        "munchen",
        "zurich",
    ]
    state = build_position(cities=[*CHAIN, *ten], houses=0)
    state = pg.apply(state, pg.Build(player=1, city="london"))
    london = state.rules.area.board.index["london"]
    assert state.board.houses[london] == (1,)
    assert not [e for e in fund_events(state) if e.kind == "fund_house_placed" and e.round == 3]


def test_fnd_08_the_fund_never_builds_on_its_own_turn() -> None:
    """FND-08: both humans build nothing; the fund's place in phase 4 passes with no house."""
    state = build_position()
    before = state.actor(FUND)
    state = play(state, pg.EndBuild(player=1), pg.EndBuild(player=0))
    assert state.phase is Phase.BUREAUCRACY
    assert state.actor(FUND).cities == before.cities


# --- FND-07, OQ-14, END-06: the fund's houses never count ---------------------------------------


def test_ec_27_fnd_07_fund_houses_never_start_step_2() -> None:
    """EC-27: humans 9 and 4, fund 6 then 10: no Step 2; the humans' 10th city starts it.

    The threshold is 10 (SET-23); it is compared with the largest human
    count, never with the fund's or a sum.
    """
    nine = ("praha", "wien", "zagreb", "budapest", "katowice", "munchen", "zurich", "stuttgart")
    four = ("glasgow", "dublin", "birmingham", "london")
    state = build_position()
    state = give(state, 0, cities=(*nine, "milano"))
    state = give(state, 1, cities=four, money=100)
    assert state.rules.step2_cities == 10
    assert largest_city_count(state) == 9
    state = pg.apply(state, pg.Build(player=1, city="roma"))  # the fund answers: 7 cities
    assert state.actor(FUND).city_count == 7
    assert state.step == 1
    shared = ["glasgow", "dublin", "birmingham"]
    state = with_fund(state, cities=[*CHAIN, "roma", *shared])
    state = pg.edit_position(state, strict=False, houses={c: [1, FUND] for c in shared})
    state = pg.apply(state, pg.EndBuild(player=1))
    assert state.actor(FUND).city_count == 10
    assert state.step == 1
    assert largest_city_count(state) == 9
    state = pg.apply(state, pg.Build(player=0, city="napoli"))
    assert state.step == 2


def test_oq_14_a_plant_is_too_small_only_for_the_humans_count() -> None:
    """OQ-14, BLD-12: the fund holds 6 cities, the humans none: plant 3..6 stay in the market."""
    state = fund_game()
    assert state.actor(FUND).city_count == 6
    assert "3" in state.market.actual
    assert largest_city_count(state) == 0


def test_end_06_fnd_20_the_fund_is_never_ranked_and_the_game_ends_at_18() -> None:
    """END-06, FND-20: game end at 18 human cities; the fund appears in no ranking."""
    state = fund_game("north_america", seed=3)
    assert state.rules.end_cities == 18
    from powergrid.bots import GreedyBot

    bot = GreedyBot(seed=1)
    while pg.outcome(state) is None:
        state = pg.apply(state, bot.choose(state))
    result = pg.outcome(state)
    assert result is not None
    assert set(result.winners) <= {0, 1}
    assert {s.seat for s in result.scores} == {0, 1}
    assert max(p.city_count for p in state.players) >= 18


# --- phase 5: FND-18; limits: EC-66, FND-19, FND-20 ------------------------------------------


def test_fnd_18_the_fund_runs_what_it_can_earns_nothing_and_returns_its_fuel() -> None:
    """FND-18: hybrid 8 fuelled, plant 10 short of oil: 8 runs; every token goes to the supply."""
    state = fund_game()
    state = arrange(state, round=3, phase=Phase.BUREAUCRACY, order=(0, FUND, 1), done=[])
    state = with_fund(state, plants=[8, 10], resources={"gas": 2, "oil": 2})
    supply = state.resources.supply
    state = pg.apply(state, pg.Power(player=0))
    assert pg.current_player(state) == 1  # the fund played its place, between the humans
    assert state.resources.supply == (supply[0], supply[1] + 2, supply[2] + 2, supply[3])
    event = [e for e in state.events if e.kind == "fund_ran_plants"][-1]
    assert event.values == ("8",)
    assert "earns nothing" in event.text
    assert state.actor(FUND).resources == (0, 0, 0, 0)


def test_ec_66_a_human_with_three_plants_must_discard_a_fourth() -> None:
    """EC-66, SET-25: the fund game's plant limit is 3 for the humans (no 2-player exception)."""
    state = auction_position(actual=[13, 15, 17, 18], future=[19, 21, 23, 24], deck=[30, 31])
    state = give(state, 0, plants=[3, 4, 5])
    state = play(state, pg.ChoosePlant(player=0, plant=13, bid=13), pg.PassBid(player=1))
    assert state.discarding == 0
    assert state.rules.max_plants == 3


def test_fnd_19_deck_preparation_removes_one_dark_and_five_light_plants() -> None:
    """FND-19, SET-21: the 2-player removals apply to the fund game."""
    for seed in range(3):
        state = setup_game(seed=seed)
        backs = sorted(str(state.rules.plant(c).back) for c in state.secret.removed_unseen)
        assert backs == ["dark"] + ["light"] * 5


def test_fnd_20_round_1_must_buy_and_the_last_player_rule_are_the_humans() -> None:
    """FND-20, AUC-13, AUC-14: no pass in round 1; after H1's purchase H2 buys at the minimum."""
    state = fund_game()
    assert all(not isinstance(a, pg.PassAuction) for a in pg.legal_actions(state))
    first = _turn(state)
    state = play(state, pg.ChoosePlant(player=first, plant=3, bid=3), pg.PassBid(player=1 - first))
    last = pg.legal_actions(state)
    assert all(isinstance(a, pg.ChoosePlant) for a in last)
    assert all(a.bid == state.rules.number(a.plant) for a in last if isinstance(a, pg.ChoosePlant))


# --- views, the CLI text, bots, the builder, the policy hook ---------------------------------


def test_views_and_the_cli_show_the_fund() -> None:
    """Views carry the fund's plants, fuel, houses and supply; the text output shows them."""
    state = resource_turn([8], {"gas": 6, "oil": 6})
    for seat in (0, 1):
        (fund,) = pg.view(state, seat).public.actors
        assert fund == state.actor(FUND)
    text = "\n".join(show_lines(state))
    assert "the fund (automatic): 6 cities, 10 houses in its supply" in text
    assert "2 gas, 1 oil" in text


def test_both_bots_play_the_setup_and_a_whole_fund_game() -> None:
    """The built-in bots place the fund's houses and finish fund games on both maps."""
    from powergrid.bots import GreedyBot, RandomBot

    for map_id in ("europe", "north_america"):
        state = setup_game(map_id, seed=7)
        bots = (GreedyBot(seed=2), RandomBot(seed=3))
        while pg.outcome(state) is None:
            seat = _turn(state)
            state = pg.apply(state, bots[seat].choose(state))
        assert state.actor(FUND).city_count >= 6


def test_the_position_builder_and_text_place_the_funds_holdings() -> None:
    """Issue 9's builder: the fund's plants, fuel and houses; the text reads back."""
    state = build_position(plants=[13, 22], resources={"gas": 2, "uranium": 1})
    state = pg.edit_position(state)  # strict: a consistent position
    text = pg.position_text(state, hidden=True)
    assert "actor-1=the%20fund/13,22/gas:2,uranium:1/" in text
    assert text.split("actor-1=")[1].split()[0].endswith("/10")
    again = pg.parse_position(text)
    assert again.actor(FUND) == state.actor(FUND)
    assert again.board == state.board
    seventeen = {"actor": FUND, "name": "the fund", "cities": list(CHAIN), "houses": 11}
    with pytest.raises(pg.InvalidRecord) as info:
        pg.edit_position(state, actors=[seventeen])
    assert "16 houses" in str(info.value)


def test_the_phase_4_reading_is_a_policy_hook() -> None:
    """OQ-12: another reading plugs in as a module built with another build policy."""
    quiet = fund_module(name="fund_never_answers", build_policy=lambda state, seat, city: state)
    register_module(quiet)
    # it replaces the default fund: leaving that out is its own choice (issue 32 item 8)
    config = pg.GameConfig(players=2, regions=R3, modules=("fund_never_answers",), without="fund")
    state = pg.new_game(config)
    state = place(state, CHAIN)
    state = arrange(state, round=3, phase=Phase.BUILDING, order=(0, FUND, 1), done=[])
    state = pg.apply(state, pg.Build(player=1, city="london"))
    assert state.board.houses[state.rules.area.board.index["london"]] == (1,)
    with pytest.raises(pg.RulesConfigError):
        pg.GameConfig(players=3, modules=("fund_never_answers",))


def test_the_command_line_plays_a_fund_game_and_shows_the_fund() -> None:
    """``python -m powergrid play --players 2`` plays the fund; the round summaries show it."""
    proc = run("play", "--players", "2", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "order: player 1, the fund, player 0" in out
    assert "the fund                plants 8            cities 9 (7 houses in its supply)" in out
    assert "player 0 puts a fund house on Oslo's 10 slot (FND-05, house 1 of 6)." in out
    assert "* The fund takes plant 8 free (FND-11)." in out
    assert "Winner: player 0" in out
