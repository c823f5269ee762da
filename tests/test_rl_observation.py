"""powergrid.rl.ObservationEncoder: a fixed-size float32 observation in [0, 1] per seat.

The encoder must see only what a seat may know (DESIGN principle 5: nothing of
``state.secret``), lay everything out relative to the observer, and take its
scales from the rules. The numbers below are RULES.md's: 50 Elektro at the
start (SET-02); the Deluxe coal track holds 27 tokens on prices 1-9 and Europe
starts with spaces 2-9 filled, 23 tokens (SET-08, SET-27); the classic coal
track holds 24 on prices 1-8, all filled at the start (SET-07, SET-10).
"""

from __future__ import annotations

import functools
import pickle
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.enums import Phase
from powergrid.formats.position_text import parse_position, position_text
from powergrid.rl.observation import BID_SCALE, MONEY_SCALE, ObservationEncoder
from powergrid.state import GameState, evolve
from powergrid.testing import all_configs, config_label, playout
from tests.decks import config as deck_config
from tests.module_parts import inactive, quota
from tests.scenario import R3, R4
from tests.test_views import reshuffled

DELUXE_4 = pg.GameConfig(players=4, map="europe")
FUND = pg.GameConfig(players=2, map="europe")  # 2-player Deluxe plays the fund (SET-25)
VARIANT_M = deck_config("M", 3)
VARIANT_P = deck_config("P", 4, map="north_america")
CLASSIC_3 = pg.GameConfig(players=3, components="classic")
CONFIGS = (*all_configs(), VARIANT_M, VARIANT_P)
#: Six directly connected cities of R3 for the fund's starting houses (FND-05).
CHAIN = ("berlin", "bremen", "randstad", "vlaanderen", "rhein_ruhr", "rhein_main")


@functools.cache
def encoder(config: pg.GameConfig) -> ObservationEncoder:
    return ObservationEncoder(config)


@functools.cache
def game(config: pg.GameConfig, seed: int) -> tuple[GameState, ...]:
    """Every decision point of a seeded random game, then its final state."""
    steps = list(playout(config, seed, seed))
    return (*(s for s, _ in steps), pg.apply(*steps[-1]))


def sample(states: tuple[GameState, ...], count: int = 24) -> list[GameState]:
    """About ``count`` states spread over a game, its first and last included."""
    stride = max(1, len(states) // count)
    return [*states[::stride], states[-1]]


def obs(config: pg.GameConfig, state: GameState, seat: int) -> dict[str, float]:
    """The observation of ``state`` for ``seat`` by feature name."""
    enc = encoder(config)
    return dict(zip(enc.feature_names(), enc.encode(state, seat).tolist(), strict=True))


def block(config: pg.GameConfig, state: GameState, viewer: int, name: str) -> np.ndarray:
    enc = encoder(config)
    return enc.encode(state, viewer)[enc.slices[name]]


# --- shape, range and layout -------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=config_label)
def test_every_observation_is_a_float32_vector_in_the_unit_range(config: pg.GameConfig) -> None:
    """Along a seeded random game, for every seat: shape (size,), float32, finite, in [0, 1].

    Every deck card is in exactly one place (CON-11), so its row of the cards
    block is one-hot.
    """
    enc = encoder(config)
    cards = len(pg.new_game(config, seed=0).rules.deck.cards)
    out = np.full(enc.size, 7.0, dtype=np.float32)
    for state in sample(game(config, 5)):
        for seat in range(config.players):
            ob = enc.encode(state, seat)
            assert ob.shape == (enc.size,)
            assert ob.dtype == np.float32
            assert np.isfinite(ob).all()
            assert ob.min() >= 0.0
            assert ob.max() <= 1.0
            rows = ob[enc.slices["cards"]].reshape(cards, -1)
            assert (rows.sum(axis=1) == 1.0).all()
            assert enc.encode(state, seat, out) is out
            assert np.array_equal(out, ob)


@pytest.mark.parametrize("config", [DELUXE_4, FUND, VARIANT_M, VARIANT_P], ids=config_label)
def test_names_are_unique_and_the_slices_tile_the_vector(config: pg.GameConfig) -> None:
    enc = encoder(config)
    names = enc.feature_names()
    assert len(names) == enc.size
    assert len(set(names)) == enc.size
    stop = 0
    for name, part in enc.slices.items():
        assert part.start == stop
        assert part.stop > part.start
        assert all(n.startswith(f"{name}.") for n in names[part])
        stop = part.stop
    assert stop == enc.size
    assert isinstance(ObservationEncoder.VERSION, int)


def test_the_size_depends_on_the_config_only() -> None:
    """Another play area, names or seed change nothing of the layout; the in-play flags follow.

    SET-12: 4 players play in 4 regions; a Europe region holds 7 cities (28 in play).
    """
    fixed = ObservationEncoder(
        pg.GameConfig(players=4, map="europe", regions=R4, names=("a", "b", "c", "d"))
    )
    assert fixed.feature_names() == encoder(DELUXE_4).feature_names()
    assert fixed.config == encoder(DELUXE_4).config
    for seed in range(4):
        state = pg.new_game(DELUXE_4, seed=seed)
        in_play = [v for k, v in obs(DELUXE_4, state, 0).items() if k.endswith(".in_play")]
        assert len(in_play) == len(state.rules.area.board.cities)
        assert sum(in_play) == 28
    state = pg.new_game(pg.GameConfig(players=4, map="europe", regions=R4), seed=9)
    assert np.array_equal(fixed.encode(state, 1), encoder(DELUXE_4).encode(state, 1))


def test_sizes_of_three_configurations() -> None:
    """The layout table's sizes: 4 seats, a fund game (a third owner), Variant M's 84 cards."""
    assert encoder(DELUXE_4).size == 1479
    assert encoder(FUND).size == 1277
    assert encoder(VARIANT_M).size == 1688
    assert set(encoder(FUND).slices) >= {"seat0", "seat1", "fund"}


def test_an_encoder_pickles_by_its_config() -> None:
    enc = pickle.loads(pickle.dumps(encoder(FUND)))
    assert enc.feature_names() == encoder(FUND).feature_names()
    state = game(FUND, 5)[40]
    assert np.array_equal(enc.encode(state, 1), encoder(FUND).encode(state, 1))


# --- hidden information --------------------------------------------------------------------


HIDDEN = (DELUXE_4, FUND, VARIANT_M, CLASSIC_3)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(cfg=st.sampled_from(HIDDEN), where=st.floats(0, 1), shuffle_seed=st.integers(0, 2**32))
def test_states_differing_only_in_secret_encode_alike(
    cfg: pg.GameConfig, where: float, shuffle_seed: int
) -> None:
    states = game(cfg, 3)
    state = states[round(where * (len(states) - 1))]
    other = reshuffled(state, random.Random(shuffle_seed))
    assert other.secret != state.secret or not state.secret.deck
    enc = encoder(cfg)
    for seat in range(cfg.players):
        assert np.array_equal(enc.encode(other, seat), enc.encode(state, seat))


@pytest.mark.parametrize("config", [DELUXE_4, FUND, CLASSIC_3], ids=config_label)
def test_a_position_rebuilt_with_other_hidden_parts_encodes_alike(config: pg.GameConfig) -> None:
    """parse_position keeps the public position and draws the hidden parts from its seed.

    (A position text names a customised deck by its registered name, so the
    sample decks' Variant M stays out.)
    """
    enc = encoder(config)
    for state in sample(game(config, 4), count=6):
        other = parse_position(position_text(state), seed=99)
        assert other.secret != state.secret or not state.secret.deck
        for seat in range(config.players):
            assert np.array_equal(enc.encode(other, seat), enc.encode(state, seat))


# --- relative seats ------------------------------------------------------------------------


def test_the_starting_money_is_every_viewers_own_first_block() -> None:
    """SET-02: everyone starts with 50 Elektro, encoded m / (m + MONEY_SCALE) in seat0."""
    state = pg.new_game(DELUXE_4, seed=1)
    for viewer in range(4):
        ob = obs(DELUXE_4, state, viewer)
        for k in range(4):
            assert ob[f"seat{k}.money"] == pytest.approx(50 / (50 + MONEY_SCALE))
        assert ob["seat0.present"] == 1.0


@pytest.mark.parametrize("config", [DELUXE_4, FUND, VARIANT_M], ids=config_label)
def test_a_seats_block_moves_with_the_viewer(config: pg.GameConfig) -> None:
    """Seat s's facts land in block seat0 for viewer s and in block (s - v) % n for viewer v."""
    n = config.players
    for state in sample(game(config, 6), count=12):
        own = [block(config, state, s, "seat0") for s in range(n)]
        for viewer in range(n):
            ob = obs(config, state, viewer)
            for s, p in enumerate(state.players):
                k = (s - viewer) % n
                assert np.array_equal(block(config, state, viewer, f"seat{k}"), own[s])
                assert ob[f"seat{k}.money"] == pytest.approx(p.money / (p.money + MONEY_SCALE))
                for city in p.cities:
                    assert ob[f"board.{city}.owner.seat{k}"] == 1.0
            first = state.order[0]
            if first >= 0:
                assert ob[f"seat{(first - viewer) % n}.order.1"] == 1.0


def test_the_auction_flags_name_relative_seats() -> None:
    """AUC-04..AUC-08: the high bidder and the bidders still in, seen from every seat."""
    states = [s for s in game(DELUXE_4, 6) if s.auction is not None and len(s.auction.active) > 1]
    assert states
    state = states[0]
    auction = state.auction
    assert auction is not None
    for viewer in range(4):
        ob = obs(DELUXE_4, state, viewer)
        rel = {s: f"seat{(s - viewer) % 4}" for s in range(4)}
        assert ob[f"{rel[auction.high_bidder]}.high_bidder"] == 1.0
        assert ob[f"{rel[auction.auctioneer]}.auctioneer"] == 1.0
        assert sum(ob[f"seat{k}.in_auction"] for k in range(4)) == len(auction.active)
        assert ob[f"{rel[auction.active[0]]}.to_act"] == 1.0
        assert sum(ob[f"seat{k}.to_act"] for k in range(4)) == 1.0
        assert ob["auction.bid"] == pytest.approx(auction.bid / (auction.bid + BID_SCALE))
        number = state.rules.number(auction.plant)
        assert ob["auction.plant.number"] == pytest.approx(number / 50)  # Deluxe tops at 50


@pytest.mark.parametrize("config", [DELUXE_4, FUND], ids=config_label)
def test_the_turn_flags_follow_the_state(config: pg.GameConfig) -> None:
    """CON-06, AUC-12, AUC-17: finished, bought, to act and must discard, as relative seats."""
    n = config.players
    states = game(config, 9)
    discards = [s for s in states if s.discarding is not None]
    assert discards
    for state in [*sample(states, count=16), *discards[:3]]:
        turn = pg.current_player(state)
        for viewer in range(n):
            ob = obs(config, state, viewer)
            for s in range(n):
                k = f"seat{(s - viewer) % n}"
                assert ob[f"{k}.done"] == (s in state.done)
                assert ob[f"{k}.bought"] == (s in state.bought)
                assert ob[f"{k}.to_act"] == (s == turn)
                assert ob[f"{k}.discard"] == (s == state.discarding)
            new = [key for key, v in ob.items() if key.endswith(".new") and v]
            if state.discarding is None:
                assert new == []
            else:
                rel = (state.discarding - viewer) % n
                j = state.players[state.discarding].plants.index(state.new_plant or "")
                assert new == [f"seat{rel}.plant{j}.new"]


# --- scales from the rules -----------------------------------------------------------------


def test_deluxe_europe_starts_with_23_of_27_coal_on_the_market() -> None:
    """SET-27, SET-08, CON-10, RES-06: Deluxe coal spaces 1-9 hold 27; Europe fills 2-9.

    23 tokens on the 27-token track, 4 in the general supply, the next one
    sold at 2 of a dearest price 9. Oil fills 3-9 (16 of 20), uranium 8-9 (4 of 12).
    """
    state = pg.new_game(DELUXE_4, seed=2)
    coal = state.rules.kind_index(pg.Resource.COAL)
    assert state.resources.market[coal] == 23
    assert len(state.rules.components.slot_prices[coal]) == 27
    ob = obs(DELUXE_4, state, 0)
    assert ob["resources.coal.market"] == pytest.approx(23 / 27)
    assert ob["resources.coal.supply"] == pytest.approx(4 / 27)
    assert ob["resources.coal.price"] == pytest.approx(2 / 9)
    assert ob["resources.oil.market"] == pytest.approx(16 / 20)
    assert ob["resources.oil.price"] == pytest.approx(3 / 9)
    assert ob["resources.uranium.market"] == pytest.approx(4 / 12)
    assert ob["resources.uranium.price"] == pytest.approx(8 / 9)


def test_classic_starts_with_a_full_24_coal_track() -> None:
    """SET-07, SET-10: classic coal 3 on each of 1-8 (24 of 24), uranium on 14 and 16."""
    config = CLASSIC_3
    state = pg.new_game(config, seed=2)
    assert len(state.rules.components.slot_prices[0]) == 24
    ob = obs(config, state, 1)
    assert ob["resources.coal.market"] == 1.0
    assert ob["resources.coal.supply"] == 0.0
    assert ob["resources.coal.price"] == pytest.approx(1 / 8)
    assert ob["resources.garbage.market"] == pytest.approx(6 / 24)
    assert ob["resources.garbage.price"] == pytest.approx(7 / 8)
    assert ob["resources.uranium.market"] == pytest.approx(2 / 12)
    assert ob["resources.uranium.price"] == pytest.approx(14 / 16)


def test_the_classic_market_and_face_up_13_at_the_start() -> None:
    """SET-11: plants 3-6 actual, 7-10 future, 13 face up on top; every other card unseen.

    Plant 3 burns 2 oil for 1 city; the deck's highest number is 50, its
    largest burn 3 and most cities 7 (CON-08).
    """
    config = CLASSIC_3
    ob = obs(config, pg.new_game(config, seed=3), 2)
    for label in ("3", "4", "5", "6"):
        assert ob[f"cards.{label}.actual"] == 1.0
    for label in ("7", "8", "9", "10"):
        assert ob[f"cards.{label}.future"] == 1.0
    assert ob["cards.13.top"] == 1.0
    assert sum(v for k, v in ob.items() if k.endswith(".unseen")) == 42 - 9
    assert ob["market.slot0.number"] == pytest.approx(3 / 50)
    assert ob["market.slot0.kind.oil"] == 1.0
    assert ob["market.slot0.accepts.oil"] == 1.0
    assert ob["market.slot0.burn"] == pytest.approx(2 / 3)
    assert ob["market.slot0.cities"] == pytest.approx(1 / 7)
    assert [ob[f"market.slot{i}.actual"] for i in range(8)] == [1.0] * 4 + [0.0] * 4
    assert "market.slot8.present" not in ob  # classic rules on Europe: 4 + 4 (CON-02)


def test_the_europe_deluxe_market_fills_nine_slots() -> None:
    """SET-26: Europe's Deluxe market holds 4 actual and 5 future plants in Step 1."""
    ob = obs(DELUXE_4, pg.new_game(DELUXE_4, seed=4), 0)
    assert [ob[f"market.slot{i}.present"] for i in range(9)] == [1.0] * 9
    assert [ob[f"market.slot{i}.actual"] for i in range(9)] == [1.0] * 4 + [0.0] * 5
    assert ob["global.step.1"] == ob["global.phase.auction"] == ob["global.players.4"] == 1.0


def test_the_connection_cost_follows_the_viewers_network() -> None:
    """BLD-03, BLD-07: a first house connects for free; outside the play area nothing does."""
    state = pg.new_game(DELUXE_4, seed=5)
    ob = obs(DELUXE_4, state, 0)
    area = state.rules.area
    cities = area.board.cities
    assert all(
        ob[f"board.{c}.connect"] == (0.0 if area.in_area[i] else 1.0) for i, c in enumerate(cities)
    )
    home = cities[area.cities[0]]
    built = evolve(state, players=state.replaced(evolve(state.players[0], cities=(home,))))
    ob = obs(DELUXE_4, built, 0)
    assert ob[f"board.{home}.connect"] == 0.0
    others = [ob[f"board.{cities[i]}.connect"] for i in area.cities[1:]]
    assert all(0.0 < v < 1.0 for v in others)
    assert obs(DELUXE_4, built, 1)[f"board.{home}.connect"] == 0.0  # seat 1 has no network


# --- the fund and a customised deck ----------------------------------------------------------


def test_the_funds_starting_houses_are_its_own_on_the_board() -> None:
    """FND-02, FND-03, FND-05: 6 of the fund's 16 houses on the board, the fund second in order."""
    config = pg.GameConfig(players=2, map="europe", regions=R3)
    state = pg.new_game(config, seed=0)
    for city in CHAIN:
        turn = pg.current_player(state)
        assert turn is not None
        state = pg.apply(state, pg.PlaceFundHouse(player=turn, city=city))
    assert state.phase is Phase.AUCTION
    for viewer in range(2):
        ob = obs(FUND, state, viewer)
        fund = {k.split(".")[1] for k, v in ob.items() if k.endswith(".owner.fund") and v}
        assert fund == set(CHAIN)
        assert ob["fund.cities"] == pytest.approx(6 / 16)
        assert ob["fund.houses"] == pytest.approx(10 / 16)
        assert ob["fund.order.2"] == 1.0
        assert ob["fund.present"] == 1.0


def test_the_funds_plants_are_owned_by_the_fund() -> None:
    """FND-10..FND-14: the plants the fund takes show in its hand and as its cards."""
    states = [s for s in game(FUND, 8) if s.actors and s.actors[0].plants]
    assert states
    state = states[-1]
    plants = state.actors[0].plants
    ob = obs(FUND, state, 1)
    assert {k.split(".")[1] for k, v in ob.items() if k.endswith(".owner.fund") and v} >= set(
        plants
    )
    assert [ob[f"fund.plant{j}.present"] for j in range(len(plants))] == [1.0] * len(plants)
    assert sum(
        v for k, v in ob.items() if k.startswith("cards.") and k.endswith(".owner.fund")
    ) == len(plants)


def test_variant_m_shows_its_inactive_area() -> None:
    """CDK-03, CDK-06, CDK-07: the inactive area is open, the quota starts full (3 players: 8)."""
    states = game(VARIANT_M, 2)
    assert inactive(states[0])
    for state in sample(states, count=8):
        ob = obs(VARIANT_M, state, 0)
        shown = {k.split(".")[1] for k, v in ob.items() if k.endswith(".inactive") and v}
        assert shown == set(inactive(state))
        assert ob["market.quota"] == pytest.approx(quota(state) / 8)
    assert obs(VARIANT_M, states[0], 0)["market.quota"] == 1.0


def test_variant_p_ranks_a_plus_plant_above_its_plain_plant() -> None:
    """CDK-14: 46+ ranks directly above 46, so its cards row follows 46's."""
    names = encoder(VARIANT_P).feature_names()
    cards = list(dict.fromkeys(n.split(".")[1] for n in names if n.startswith("cards.")))
    assert cards.index("46+") == cards.index("46") + 1
    assert len(cards) == 48


# --- refused input -----------------------------------------------------------------------------


def test_bad_input_is_refused() -> None:
    enc = encoder(DELUXE_4)
    state = pg.new_game(DELUXE_4, seed=0)
    with pytest.raises(ValueError, match="made for"):
        enc.encode(pg.new_game(pg.GameConfig(players=3), seed=0), 0)
    with pytest.raises(ValueError, match="made for"):
        enc.encode(pg.new_game(pg.GameConfig(players=4, components="classic"), seed=0), 0)
    for seat in (-1, 4):
        with pytest.raises(ValueError, match="does not exist"):
            enc.encode(state, seat)
    for bad in (True, "0", 1.0, None):
        with pytest.raises(TypeError):
            enc.encode(state, bad)  # type: ignore[arg-type]
    for out in (np.zeros(enc.size, np.float64), np.zeros(enc.size + 1, np.float32)):
        with pytest.raises(ValueError, match="out must be"):
            enc.encode(state, 0, out)  # type: ignore[arg-type]
    for out in (np.zeros(2 * enc.size, np.float32)[::2], np.zeros((1, enc.size), np.float32)):
        with pytest.raises(ValueError, match="out must be"):
            enc.encode(state, 0, out)
    with pytest.raises(TypeError):
        ObservationEncoder("europe")  # type: ignore[arg-type]
