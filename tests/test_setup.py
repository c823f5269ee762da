"""Setup and configuration: CON-01/02/05/08/09/11, SET-01..SET-12, SET-26, AUC-31, EC-61,
OQ-31, errors.

Numbers come from RULES.md (sections 0, 1 and EC-61), not from the engine's data. A
classic game plays the classic setup on either board (CON-02, OQ-31): EC-61's market
3 4 5 6 | 7 8 9 10 with 13 face up on the deck and no discount token. Only with the
``map_rules`` option does classic Europe start with the 4 + 5 market of SET-26 (13 is
its ninth plant) and classic North America with the discount token (AUC-31).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

import powergrid as pg
from powergrid.enums import Phase, Resource
from powergrid.errors import Reason
from powergrid.state import GameState
from tests.module_parts import discount
from tests.scenario import arrange, give, kinds, labels, new, play

MAPS = ("europe", "north_america")

# SET-11: the classic deck is 42 plants 03-40, 42, 44, 46, 50 (plus the Step 3 card).
CLASSIC_DECK = frozenset(labels(*range(3, 41), 42, 44, 46, 50))

# SET-12 (classic): players -> (regions, removed, Step 2, game end, max plants).
TABLE = {
    2: (3, 8, 10, 21, 4),
    3: (3, 8, 7, 17, 3),
    4: (4, 4, 7, 17, 3),
    5: (5, 0, 7, 15, 3),
    6: (5, 0, 6, 14, 3),
}
# SET-12: the seed's simplified thresholds option: Step 2 at 7 and at most 3 plants.
SEED_TABLE = {n: (7, 3) for n in range(2, 7)}

EUROPE_REGIONS = (
    "british_isles_low_countries",
    "france_iberia",
    "central",
    "alps_italy_hungary",
    "scandinavia_baltic",
    "eastern",
    "balkans_turkey",
)


def _map_json(map_id: str) -> dict[str, Any]:
    ref = resources.files("powergrid.data").joinpath(f"maps/{map_id}.json")
    data: dict[str, Any] = json.loads(ref.read_text(encoding="utf-8"))
    return data


def _region_graph(map_id: str) -> dict[str, set[str]]:
    """Region adjacency derived independently from the board's city connections."""
    raw = _map_json(map_id)
    region_of = {c["id"]: c["region"] for c in raw["cities"]}
    graph: dict[str, set[str]] = {r["id"]: set() for r in raw["regions"]}
    for e in raw["connections"]:
        ra, rb = region_of[e["a"]], region_of[e["b"]]
        if ra != rb:
            graph[ra].add(rb)
            graph[rb].add(ra)
    return graph


def _connected(graph: dict[str, set[str]], regions: tuple[str, ...]) -> bool:
    chosen = set(regions)
    start = regions[0]
    seen = {start}
    todo = [start]
    while todo:
        for nb in graph[todo.pop()]:
            if nb in chosen and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == chosen


def _area_cities(state: GameState) -> list[str]:
    area = state.rules.area
    return [area.board.cities[i] for i in area.cities]


def _outside_cities(state: GameState) -> list[str]:
    raw = _map_json(state.config.map)
    return [c["id"] for c in raw["cities"] if c["region"] not in state.regions]


def _all_plant_locations(state: GameState) -> list[str]:
    m = state.market
    out = [*m.actual, *m.future, *m.under_step3, *m.removed]
    if m.top is not None:
        out.append(m.top)
    out += [*state.secret.deck, *state.secret.removed_unseen]
    for p in state.players:
        out += p.plants
    return out


# --- GameConfig errors (SET-01, SET-04, SET-12) -------------------------------------------


@pytest.mark.parametrize("players", [1, 7, 0, -2, "4", 4.0, True])
def test_bad_player_count_names_players_field_set_01(players: Any) -> None:
    """SET-01: only 2 to 6 players (as an int); anything else names the ``players`` field."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=players)
    assert err.value.field == "players"


@pytest.mark.parametrize("players", [1, 7])
def test_bad_player_count_message_says_2_to_6_set_01(players: int) -> None:
    """SET-01: the message tells the player the allowed range and the rejected count."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=players)
    msg = str(err.value)
    assert "2" in msg
    assert "6" in msg
    assert str(players) in msg


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_accepted_set_01(players: int) -> None:
    """SET-01: every count from 2 to 6 sets up a game with that many seats."""
    state = pg.new_game(pg.GameConfig(players=players), seed=3)
    assert len(state.players) == players


def test_unknown_map_names_map_field_con_02() -> None:
    """CON-02: only the installed boards exist; the error names the unknown one and the
    choices."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(map="atlantis")
    assert err.value.field == "map"
    assert "'atlantis'" in str(err.value)
    assert "europe, germany, germany_recharged, north_america, usa, usa_recharged" in str(err.value)


def test_default_components_are_deluxe_con_01() -> None:
    """CON-01: without ``components`` a game uses the Deluxe set; classic must be asked for."""
    assert pg.GameConfig().components == "deluxe"
    assert pg.GameConfig(components="classic").components == "classic"
    state = pg.new_game(pg.GameConfig(players=3), seed=1)
    assert state.config.components == "deluxe"
    assert Resource.GAS in state.rules.resources
    assert Resource.GARBAGE not in state.rules.resources


@pytest.mark.parametrize("map_id", MAPS)
def test_deluxe_components_available_con_01(map_id: str) -> None:
    """CON-01, CON-02: the deluxe set plays on either map with coal, gas, oil and uranium."""
    state = pg.new_game(pg.GameConfig(components="deluxe", map=map_id), seed=1)
    assert state.rules.resources == (
        Resource.COAL,
        Resource.GAS,
        Resource.OIL,
        Resource.URANIUM,
    )
    assert state.phase is Phase.AUCTION
    assert len(state.players) == 4


def test_unknown_components_name_components_field_con_01() -> None:
    """CON-01: a component set other than classic/deluxe is rejected."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(components="recharged")
    assert err.value.field == "components"
    assert "recharged" in str(err.value)


def test_unknown_module_names_modules_field() -> None:
    """SET-01 (config): an unknown rule module is rejected, naming the ``modules`` field."""
    bad: dict[str, Any] = {"modules": ("fund",)}
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(**bad)
    assert err.value.field == "modules"
    assert "fund" in str(err.value)


def test_unknown_option_names_options_field_set_12() -> None:
    """SET-12: only documented options (seed_thresholds, map_rules) exist; others are
    rejected."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(options={"seed_treshold"})
    assert err.value.field == "options"
    assert "seed_treshold" in str(err.value)
    assert "seed_thresholds" in str(err.value)


@pytest.mark.parametrize("names", [("Ann", "Bob"), ("Ann", "Bob", "Cy", "Di")])
def test_names_of_wrong_length_name_names_field(names: tuple[str, ...]) -> None:
    """SET-01 (config): display names need one entry per seat."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=3, names=names)
    assert err.value.field == "names"
    assert str(len(names)) in str(err.value)


def test_names_of_right_length_are_used_in_messages() -> None:
    """SET-01 (config): names given one per seat are accepted and shown in messages."""
    state = pg.new_game(pg.GameConfig(players=3, names=("Ann", "Bob", "Cy")), seed=1)
    who = pg.current_player(state)
    assert who is not None
    wrong = (who + 1) % 3
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.PassAuction(player=wrong))
    assert ("Ann", "Bob", "Cy")[who] in str(err.value)


def test_unknown_region_lists_valid_regions_set_04() -> None:
    """SET-04: an unknown region names the ``regions`` field and lists the valid ones."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=3, regions=("central", "eastern", "atlantis"))
    assert err.value.field == "regions"
    msg = str(err.value)
    assert "atlantis" in msg
    for region in EUROPE_REGIONS:
        assert region in msg


@pytest.mark.parametrize(
    ("players", "regions"),
    [
        (3, ("central", "eastern")),
        (3, ("central", "eastern", "scandinavia_baltic", "alps_italy_hungary")),
        (4, ("central", "eastern", "scandinavia_baltic")),
        (6, ("central", "eastern", "scandinavia_baltic", "alps_italy_hungary")),
    ],
)
def test_wrong_region_count_lists_valid_regions_set_12(
    players: int, regions: tuple[str, ...]
) -> None:
    """SET-04, SET-12: regions 3/3/4/5/5 for 2..6 players; a wrong count is rejected."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=players, regions=regions)
    assert err.value.field == "regions"
    msg = str(err.value)
    assert str(TABLE[players][0]) in msg
    for region in EUROPE_REGIONS:
        assert region in msg


def test_disconnected_regions_rejected_set_04() -> None:
    """SET-04: the play area must be connected (British Isles, Balkans, Scandinavia is not)."""
    regions = ("british_isles_low_countries", "balkans_turkey", "scandinavia_baltic")
    assert not _connected(_region_graph("europe"), regions)
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=3, regions=regions)
    assert err.value.field == "regions"


def test_duplicated_region_rejected_set_04() -> None:
    """SET-04: naming a region twice is not a play area of 3 regions."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=3, regions=("central", "central", "eastern"))
    assert err.value.field == "regions"


def test_regions_checked_against_the_chosen_map_set_04() -> None:
    """SET-04: Europe region names are unknown on the North America board."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(
            players=3, map="north_america", regions=("central", "eastern", "scandinavia_baltic")
        )
    assert err.value.field == "regions"
    assert "northwest" in str(err.value)


def test_config_error_is_a_powergrid_and_value_error() -> None:
    """SET-01: RulesConfigError derives from PowerGridError and ValueError."""
    with pytest.raises(pg.PowerGridError):
        pg.GameConfig(players=9)
    with pytest.raises(ValueError, match="players"):
        pg.GameConfig(players=9)


def test_explicit_connected_regions_are_the_play_area_set_04() -> None:
    """SET-04: a valid explicit play area is used as given."""
    regions = ("scandinavia_baltic", "central", "eastern")
    state = pg.new_game(pg.GameConfig(players=3, regions=regions), seed=5)
    assert set(state.regions) == set(regions)


# --- determinism and the seeded play area ------------------------------------------------


@pytest.mark.parametrize("map_id", MAPS)
def test_same_seed_same_state_different_seed_differs_set_05(map_id: str) -> None:
    """SET-05, SET-11: new_game is a pure function of (config, seed)."""
    cfg = pg.GameConfig(players=4, map=map_id)
    assert pg.new_game(cfg, seed=11) == pg.new_game(cfg, seed=11)
    a, b = pg.new_game(cfg, seed=11), pg.new_game(cfg, seed=12)
    assert a != b
    assert a.secret.deck != b.secret.deck


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seeded_play_area_is_connected_and_sized_set_04_set_12(map_id: str, players: int) -> None:
    """SET-04, SET-12: without explicit regions the seed picks a connected set of the right size."""
    graph = _region_graph(map_id)
    seen: set[tuple[str, ...]] = set()
    for seed in range(12):
        cfg = pg.GameConfig(players=players, map=map_id, components="classic")
        state = pg.new_game(cfg, seed=seed)
        regions = tuple(state.regions)
        assert len(regions) == TABLE[players][0]
        assert len(set(regions)) == len(regions)
        assert set(regions) <= set(graph)
        assert _connected(graph, regions)
        seen.add(tuple(sorted(regions)))
    assert len(seen) > 1, "the seed should vary the play area"


def test_build_outside_play_area_rejected_set_04() -> None:
    """SET-04: only cities inside the play area exist for the rest of the game."""
    state = new(3, seed=2, regions=("central", "eastern", "scandinavia_baltic"))
    state = arrange(state, round=2, phase=Phase.BUILDING, order=(0, 1, 2), done=(1, 2))
    state = give(state, 0, money=200)
    outside = _outside_cities(state)[0]
    before = state
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Build(player=0, city=outside))
    assert err.value.reason is Reason.OUTSIDE_PLAY_AREA
    assert state == before
    assert state.players[0].money == 200


# --- initial state -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_starts_with_50_elektro_and_nothing_else_set_02_set_03(players: int) -> None:
    """SET-02, SET-03: 50 Elektro each, city count 0, no plants, no tokens."""
    state = new(players, seed=4)
    for seat, p in enumerate(state.players):
        assert p.seat == seat
        assert p.money == 50
        assert p.city_count == 0
        assert p.plants == ()
        assert sum(p.resources) == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_game_starts_round_1_step_1_phase_2_set_06(players: int) -> None:
    """SET-06, AUC-02: round 1, Step 1; phase 2 opens with position 1 of the random order."""
    state = new(players, seed=8)
    assert state.round == 1
    assert state.step == 1
    assert state.phase is Phase.AUCTION
    assert sorted(state.order) == list(range(players))
    assert pg.current_player(state) == state.order[0]


def test_round_1_order_is_random_by_seed_set_05_con_05() -> None:
    """SET-05, CON-05: the round-1 order is a random permutation; seats stay 0..n-1."""
    firsts: set[int] = set()
    orders: set[tuple[int, ...]] = set()
    for seed in range(30):
        state = new(4, seed=seed)
        assert [p.seat for p in state.players] == [0, 1, 2, 3]
        assert sorted(state.order) == [0, 1, 2, 3]
        firsts.add(state.order[0])
        orders.add(state.order)
    assert firsts == {0, 1, 2, 3}
    assert len(orders) > 4


def test_twentythird_house_impossible_set_02() -> None:
    """SET-02: each player has 22 houses; with 22 cities a 23rd house is rejected."""
    state = new(6, seed=1)
    state = arrange(
        state,
        round=5,
        step=3,
        step3_in_deck=False,
        phase=Phase.BUILDING,
        order=(1, 2, 3, 4, 5, 0),
    )
    cities = _area_cities(state)
    assert len(cities) >= 23
    state = give(state, 0, money=1000, cities=cities[:22])
    # Seat 0 is last in player order, so it builds first in phase 4.
    assert pg.current_player(state) == 0
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Build(player=0, city=cities[22]))
    assert err.value.reason is Reason.NO_HOUSES_LEFT
    assert pg.legal_actions(state) == (pg.EndBuild(player=0),)
    with_21 = give(state, 0, cities=cities[:21])
    after = pg.apply(with_21, pg.Build(player=0, city=cities[22]))
    assert after.players[0].city_count == 22


@pytest.mark.parametrize("map_id", MAPS)
def test_initial_plant_market_and_deck_ec_61_set_11(map_id: str) -> None:
    """EC-61, SET-11, CON-07, CON-02: on either board the classic market is 3 4 5 6 |
    7 8 9 10; 13 face up on top; S3 at the bottom."""
    state = new(3, map=map_id, seed=9)
    m = state.market
    assert m.actual == labels(3, 4, 5, 6)
    assert m.future == labels(7, 8, 9, 10)
    assert m.top == "13"
    assert m.step3_in_deck
    assert not m.step3_in_market
    assert m.removed == ()
    assert m.deck_size == len(state.secret.deck)


def test_initial_plant_market_on_europe_is_4_plus_5_set_26_set_11() -> None:
    """SET-26, SET-11, CON-07, OQ-31 (Europe, classic deck with the ``map_rules`` option):
    the Step 1 market holds 4 + 5, so the face-up 13 is drawn as the ninth plant:
    3 4 5 6 | 7 8 9 10 13, nothing face up on top; S3 still at the bottom; 3 players:
    42 - 9 - 8 plants in the deck."""
    state = new(3, map="europe", seed=9, components="classic+map_rules")
    m = state.market
    assert m.actual == labels(3, 4, 5, 6)
    assert m.future == labels(7, 8, 9, 10, 13)
    assert m.top is None
    assert m.step3_in_deck
    assert not m.step3_in_market
    assert m.removed == ()
    assert m.deck_size == len(state.secret.deck) == 42 - 9 - 8


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_removed_unseen_by_player_count_set_12_ec_61(map_id: str, players: int) -> None:
    """SET-12, EC-61, CON-02: 8/8/4/0/0 plants removed unseen (2-6 players); the rest is
    the deck. On either board 8 plants are in the market and 13 on top, so
    42 - 8 - 1 - removed in the deck: 25, 25, 29, 33, 33.
    """
    state = new(players, map=map_id, seed=21)
    removed = TABLE[players][1]
    assert len(state.secret.removed_unseen) == removed
    assert state.market.plants == labels(3, 4, 5, 6, 7, 8, 9, 10)
    assert state.market.top == "13"
    in_deck = 42 - 8 - 1 - removed
    assert in_deck == {2: 25, 3: 25, 4: 29, 5: 33, 6: 33}[players]
    assert len(state.secret.deck) == in_deck
    assert state.market.deck_size == in_deck
    hidden = set(state.secret.deck) | set(state.secret.removed_unseen)
    assert hidden == CLASSIC_DECK - set(labels(3, 4, 5, 6, 7, 8, 9, 10, 13))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_removed_unseen_with_map_rules_on_europe_set_26_set_12_oq_31(players: int) -> None:
    """SET-12, SET-26, OQ-31: with the ``map_rules`` option classic Europe still removes
    8/8/4/0/0 plants unseen, but 13 is the ninth market plant (4 + 5), so
    42 - 9 - removed in the deck: 25, 25, 29, 33, 33."""
    state = new(players, map="europe", seed=21, components="classic+map_rules")
    removed = TABLE[players][1]
    assert len(state.secret.removed_unseen) == removed
    assert state.market.plants == labels(3, 4, 5, 6, 7, 8, 9, 10, 13)
    assert state.market.top is None
    in_deck = 42 - 9 - removed
    assert in_deck == {2: 25, 3: 25, 4: 29, 5: 33, 6: 33}[players]
    assert len(state.secret.deck) == in_deck
    assert state.market.deck_size == in_deck
    hidden = set(state.secret.deck) | set(state.secret.removed_unseen)
    assert hidden == CLASSIC_DECK - set(labels(3, 4, 5, 6, 7, 8, 9, 10, 13))


def test_removed_plants_depend_on_seed_set_11() -> None:
    """SET-11: the removed plants are a random (seeded) choice from the shuffled rest."""
    removed = {new(3, seed=s).secret.removed_unseen for s in range(6)}
    assert len(removed) > 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_plant_in_exactly_one_place_at_setup_con_11_set_11(players: int) -> None:
    """CON-11, SET-11: the 42 classic plants are each in exactly one location."""
    state = new(players, seed=13)
    places = _all_plant_locations(state)
    assert len(places) == len(set(places)) == 42
    assert set(places) == CLASSIC_DECK


@pytest.mark.parametrize("map_id", MAPS)
def test_plant_13_drawn_first_then_the_deck_set_11_con_13(map_id: str) -> None:
    """SET-11, CON-13, CON-02: 13 lies face up on top and is drawn first, then the hidden
    deck in order; the same on either board (the classic 4 + 4 market leaves 13 on top).
    """
    state = arrange(
        new(3, map=map_id, seed=0),
        round=2,
        order=(0, 1, 2),
        actual=(3, 4, 5, 6),
        future=(7, 8, 9, 10),
        top=13,
        deck=(40, 42),
    )
    assert state.market.top == "13"
    s1 = play(
        state,
        pg.ChoosePlant(player=0, plant=3, bid=3),
        pg.PassBid(player=1),
        pg.PassBid(player=2),
    )
    assert s1.market.actual == labels(4, 5, 6, 7)
    assert s1.market.future == labels(8, 9, 10, 13)
    assert s1.market.top is None
    s2 = play(s1, pg.ChoosePlant(player=1, plant=4, bid=4), pg.PassBid(player=2))
    assert s2.market.plants == labels(5, 6, 7, 8, 9, 10, 13, 40)
    # Seat 2 is the last player and buys 5 at face value (AUC-14); 42 is drawn.
    s3 = pg.apply(s2, pg.ChoosePlant(player=2, plant=5, bid=5))
    assert s3.market.plants == labels(6, 7, 8, 9, 10, 13, 40, 42)
    assert s3.market.step3_in_deck
    assert not s3.market.step3_in_market


def test_step3_card_lies_under_the_last_hidden_plant_set_11() -> None:
    """SET-11: the Step 3 card is at the bottom: it is drawn only after the hidden deck ran out.

    North America, classic (4 + 4 market in Step 1, no discount token, CON-02).
    """
    state = new(3, map="north_america", seed=0)
    state = arrange(
        state, round=2, order=(0, 1, 2), actual=(3, 4, 5, 6), future=(7, 8, 9, 10), top=None
    )
    state = arrange(state, deck=(40,))
    s1 = play(state, pg.ChoosePlant(player=0, plant=3, bid=3), pg.PassBid(player=1))
    s1 = play(s1, pg.PassBid(player=2))
    assert "40" in s1.market.plants
    assert not s1.market.step3_in_market
    s2 = play(s1, pg.ChoosePlant(player=1, plant=4, bid=4), pg.PassBid(player=2))
    assert s2.market.step3_in_market
    assert not s2.market.step3_in_deck


@pytest.mark.parametrize("map_id", MAPS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_initial_resource_market_set_10(map_id: str, players: int) -> None:
    """SET-10, EC-61: 24 coal, 18 oil, 6 garbage, 2 uranium on the market, whatever the count."""
    state = new(players, map=map_id, seed=6)
    assert state.rules.resources == (
        Resource.COAL,
        Resource.OIL,
        Resource.GARBAGE,
        Resource.URANIUM,
    )
    assert state.resources.market == (24, 18, 6, 2)
    assert kinds(state) == {"coal": 24, "oil": 18, "garbage": 6, "uranium": 2}


def test_token_totals_and_general_supply_set_08_con_10() -> None:
    """SET-08, CON-10: 24/24/24/12 tokens; whatever is not on the market is in the supply."""
    state = new(4, seed=2)
    assert state.resources.supply == (0, 6, 18, 10)
    totals = tuple(
        m + s for m, s in zip(state.resources.market, state.resources.supply, strict=True)
    )
    assert totals == (24, 24, 24, 12)


def test_market_spaces_layout_set_07() -> None:
    """SET-07: coal/oil/garbage 8 spaces 1..8 of 3; uranium 12 spaces 1-8,10,12,14,16 of 1."""
    state = new(3, seed=0)
    three_each = tuple(p for p in range(1, 9) for _ in range(3))
    prices = state.rules.components.slot_prices
    assert prices[0] == three_each
    assert prices[1] == three_each
    assert prices[2] == three_each
    assert prices[3] == (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16)


def _phase3_buyer(state: GameState, plants: tuple[int, ...], money: int = 200) -> GameState:
    """Seat 0 owns ``plants`` and is first to buy in phase 3 (last in player order)."""
    state = arrange(state, round=2, phase=Phase.RESOURCES, order=(1, 2, 0), done=())
    state = give(state, 0, money=money, plants=plants)
    assert pg.current_player(state) == 0
    return state


@pytest.mark.parametrize(
    ("plants", "resource", "count", "cost"),
    [
        ((8,), "coal", 4, 1 + 1 + 1 + 2),  # coal fills 1-8: three at 1, then 2
        ((7,), "oil", 4, 3 + 3 + 3 + 4),  # oil fills 3-8
        ((14,), "garbage", 4, 7 + 7 + 7 + 8),  # garbage fills 7-8
        ((11,), "uranium", 2, 14 + 16),  # uranium on 14 and 16 only
    ],
)
def test_initial_market_prices_set_07_set_10(
    plants: tuple[int, ...], resource: str, count: int, cost: int
) -> None:
    """SET-07, SET-10: the first tokens bought cost the prices of the initial fill."""
    state = _phase3_buyer(new(3, seed=0), plants)
    after = pg.apply(state, pg.BuyResource(player=0, resource=resource, count=count))
    assert after.players[0].money == 200 - cost


def test_uranium_uses_the_10_and_12_spaces_set_07() -> None:
    """SET-07: with 4 uranium on the market they lie on 10, 12, 14, 16: two cost 10 + 12."""
    state = arrange(new(3, seed=0), market_tokens={"uranium": 4})
    state = _phase3_buyer(state, (11,))
    after = pg.apply(state, pg.BuyResource(player=0, resource="uranium", count=2))
    assert after.players[0].money == 200 - 22


def test_classic_resources_and_coal_oil_hybrid_con_01() -> None:
    """CON-01: classic uses coal, oil, garbage, uranium; hybrid 5 stores any coal/oil mix."""
    state = _phase3_buyer(new(3, seed=0), (5,))
    s = play(
        state,
        pg.BuyResource(player=0, resource="coal", count=1),
        pg.BuyResource(player=0, resource="oil", count=3),
    )
    assert s.players[0].resources == (1, 3, 0, 0)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.BuyResource(player=0, resource="garbage", count=1))
    assert err.value.reason is Reason.NO_STORAGE
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.BuyResource(player=0, resource="gas", count=1))
    assert err.value.reason is Reason.UNKNOWN_RESOURCE


# --- SET-12 thresholds ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_thresholds_by_player_count_set_12(players: int) -> None:
    """SET-12: Step 2 at 10/7/7/7/6, game end 21/17/17/15/14, at most 4/3/3/3/3 plants."""
    rules = new(players, seed=0).rules
    _, _, step2, end, max_plants = TABLE[players]
    assert rules.step2_cities == step2
    assert rules.end_cities == end
    assert rules.max_plants == max_plants


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seed_thresholds_option_set_12(players: int) -> None:
    """SET-12, OQ-09: seed_thresholds gives Step 2 at 7 and at most 3 plants for every count."""
    cfg = pg.GameConfig(players=players, components="classic", options={"seed_thresholds"})
    state = pg.new_game(cfg, seed=0)
    step2, max_plants = SEED_TABLE[players]
    assert state.rules.step2_cities == step2
    assert state.rules.max_plants == max_plants
    # The option changes neither game end, regions nor removals.
    regions, removed, _, end, _ = TABLE[players]
    assert state.rules.end_cities == end
    assert len(state.regions) == regions
    assert len(state.secret.removed_unseen) == removed


def _build_to(state: GameState, count: int) -> GameState:
    """Seat 0 owns ``count - 1`` cities and builds its ``count``-th house (Step 3 slots free)."""
    order = (*range(1, len(state.players)), 0)
    state = arrange(state, round=5, phase=Phase.BUILDING, order=order, done=())
    cities = _area_cities(state)
    state = give(state, 0, money=2000, cities=cities[: count - 1])
    assert pg.current_player(state) == 0
    return pg.apply(state, pg.Build(player=0, city=cities[count - 1]))


@pytest.mark.parametrize(
    ("players", "options", "threshold"),
    [
        (2, frozenset(), 10),
        (2, frozenset({"seed_thresholds"}), 7),
        (3, frozenset(), 7),
        (6, frozenset(), 6),
        (6, frozenset({"seed_thresholds"}), 7),
    ],
)
def test_step2_starts_at_the_table_count_set_12(
    players: int, options: frozenset[str], threshold: int
) -> None:
    """SET-12, STP-01: the house reaching the table's count starts Step 2, one fewer does not."""
    cfg = pg.GameConfig(players=players, components="classic", options=options)
    state = pg.new_game(cfg, seed=0)
    assert _build_to(state, threshold - 1).step == 1
    assert _build_to(state, threshold).step == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_game_end_triggers_at_the_table_count_set_12(players: int) -> None:
    """SET-12, END-01: 21/17/17/15/14 cities trigger the game end; one fewer does not."""
    state = pg.new_game(pg.GameConfig(players=players, components="classic"), seed=0)
    end = TABLE[players][3]
    assert not _build_to(state, end - 1).end_triggered
    assert _build_to(state, end).end_triggered


# --- CON-08 / CON-09 ------------------------------------------------------------------------


def test_plant_number_is_minimum_bid_and_sort_key_con_08() -> None:
    """CON-08, AUC-04 (Europe, classic components): the actual plants open at their number;
    the market is sorted by number."""
    state = new(3, map="europe", seed=0)
    m = state.market
    assert m.plants == state.rules.ranked(m.plants)
    assert discount(state) is None
    seat = pg.current_player(state)
    assert seat is not None
    lowest: dict[str, int] = {}
    for action in pg.legal_actions(state):
        if isinstance(action, pg.ChoosePlant):
            lowest[action.plant] = min(lowest.get(action.plant, 999), action.bid)
    assert lowest == {"3": 3, "4": 4, "5": 5, "6": 6}
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.ChoosePlant(player=seat, plant=6, bid=5))
    assert err.value.reason is Reason.BID_TOO_LOW


def test_discount_token_opens_lowest_plant_at_1_on_north_america_auc_31_con_08() -> None:
    """AUC-31, SET-24, CON-08, CON-02, OQ-31 (North America, classic components with the
    ``map_rules`` option): phase 2 of round 1 starts with the token on the lowest actual
    plant 3, which opens at 1; the other plants still open at their number; the market
    is sorted by number."""
    state = new(3, map="north_america", seed=0, components="classic+map_rules")
    m = state.market
    assert m.plants == state.rules.ranked(m.plants)
    assert discount(state) == "3"
    assert pg.public_view(state).min_bids == (("3", 1), ("4", 4), ("5", 5), ("6", 6))
    seat = pg.current_player(state)
    assert seat is not None
    lowest: dict[str, int] = {}
    for action in pg.legal_actions(state):
        if isinstance(action, pg.ChoosePlant):
            lowest[action.plant] = min(lowest.get(action.plant, 999), action.bid)
    assert lowest == {"3": 1, "4": 4, "5": 5, "6": 6}
    assert pg.is_legal(state, pg.ChoosePlant(player=seat, plant=3, bid=1))
    for plant, bid in ((3, 0), (6, 5)):
        with pytest.raises(pg.IllegalAction) as err:
            pg.apply(state, pg.ChoosePlant(player=seat, plant=plant, bid=bid))
        assert err.value.reason is Reason.BID_TOO_LOW


@pytest.mark.parametrize("map_id", MAPS)
def test_classic_plays_no_map_rules_at_setup_con_02_oq_31_ec_61(map_id: str) -> None:
    """CON-02, OQ-31, EC-61, CON-08, AUC-04: a classic game (no options) on Europe and on
    North America starts alike: market 3 4 5 6 | 7 8 9 10 (4 + 4, not Europe's 4 + 5),
    13 face up on the deck, no discount token; every seat's view shows the minimum
    opening bids 3, 4, 5, 6, i.e. the plant numbers (no plant opens at 1)."""
    for players in (2, 3, 4, 5, 6):
        state = new(players, map=map_id, seed=4)
        m = state.market
        assert m.actual == labels(3, 4, 5, 6)
        assert m.future == labels(7, 8, 9, 10)
        assert m.top == "13"
        assert discount(state) is None
        assert state.config.options == frozenset()
        bids = (("3", 3), ("4", 4), ("5", 5), ("6", 6))
        assert pg.public_view(state).min_bids == bids
        for seat in range(players):
            assert pg.view(state, seat).public.min_bids == bids
        assert "discount_placed" not in [e.kind for e in state.events]


def test_map_rules_option_is_classic_only_oq_31_con_02() -> None:
    """OQ-31, CON-02: ``map_rules`` opts a classic game in to the board's map rules; the
    Deluxe game always plays them, so the option with the Deluxe components is rejected,
    naming the ``options`` field. Classic accepts it on both boards."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(components="deluxe", options={"map_rules"})
    assert err.value.field == "options"
    assert "map_rules" in str(err.value)
    for map_id in MAPS:
        with pytest.raises(pg.RulesConfigError) as err:
            pg.GameConfig(map=map_id, components="deluxe", options={"map_rules"})
        assert err.value.field == "options"
        cfg = pg.GameConfig(map=map_id, components="classic", options={"map_rules"})
        assert cfg.options == frozenset({"map_rules"})


def test_map_rules_option_restores_the_board_rules_at_setup_oq_31() -> None:
    """OQ-31, SET-26, SET-24, AUC-31: with ``map_rules`` the same classic seed starts with
    Europe's 4 + 5 market 3 4 5 6 | 7 8 9 10 13 (nothing face up, no token, minimum bids
    3 4 5 6) and with North America's token on 3 (3 opens at 1; 13 face up on top)."""
    eu = new(3, map="europe", seed=4, components="classic+map_rules")
    assert eu.market.actual == labels(3, 4, 5, 6)
    assert eu.market.future == labels(7, 8, 9, 10, 13)
    assert eu.market.top is None
    assert discount(eu) is None
    assert pg.public_view(eu).min_bids == (("3", 3), ("4", 4), ("5", 5), ("6", 6))
    na = new(3, map="north_america", seed=4, components="classic+map_rules")
    assert na.market.actual == labels(3, 4, 5, 6)
    assert na.market.future == labels(7, 8, 9, 10)
    assert na.market.top == "13"
    assert discount(na) == "3"
    assert pg.public_view(na).min_bids == (("3", 1), ("4", 4), ("5", 5), ("6", 6))


def test_money_never_below_zero_con_09() -> None:
    """CON-09: a player may spend all his money (down to 0) but never more."""
    state = arrange(new(3, seed=0), round=2, order=(0, 1, 2), done=(1, 2))
    state = give(state, 0, money=6)
    after = pg.apply(state, pg.ChoosePlant(player=0, plant=6, bid=6))
    assert after.players[0].money == 0
    assert after.players[0].plants == labels(6)
    state7 = arrange(state, actual=(7, 8, 9, 10), future=(11, 12, 13, 14))
    legal = pg.legal_actions(state7)
    assert not any(isinstance(a, pg.ChoosePlant) for a in legal)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state7, pg.ChoosePlant(player=0, plant=7, bid=7))
    assert err.value.reason is Reason.BID_ABOVE_MONEY


def test_plants_stay_in_exactly_one_place_after_play_con_11() -> None:
    """CON-11: after purchases, a discard and a nobody-buys removal every plant has one place."""
    state = arrange(new(3, seed=0), round=3, order=(0, 1, 2))
    state = give(state, 0, plants=(20, 25, 30))
    state = play(
        state,
        pg.ChoosePlant(player=0, plant=3, bid=3),
        pg.PassBid(player=1),
        pg.PassBid(player=2),
        pg.DiscardPlant(player=0, plant=20),
        pg.PassAuction(player=1),
        pg.PassAuction(player=2),
    )
    assert state.phase is Phase.RESOURCES
    assert "20" in state.market.removed
    places = _all_plant_locations(state)
    assert len(places) == len(set(places)) == 42
    assert set(places) == CLASSIC_DECK
