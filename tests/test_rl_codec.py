"""The action codec of powergrid.rl: a fixed-size integer action space per configuration.

The layout follows the rules' own sizes: 6 actual plants in Step 3 (CON-07),
the plant limit of 3, 4 for classic with 2 players (AUC-16), the hybrids'
two kinds (RES-04), one index per board city (BLD-03) and per fund city
(FND-05). Properties over seeded random games of every configuration, the
fund and the customised decks included: the mask is exactly the set of
encodable legal actions and is never empty while the game runs;
``decode(encode(a)) == a``; the always-expressible actions all have an index.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.rl import RAISES, ActionCodec
from powergrid.rules.custom_deck.samples import sample_config
from powergrid.state import GameState
from powergrid.testing import configs, seeds

#: Actions the codec expresses without loss: every legal one has an index.
LOSSLESS = (pg.PassAuction, pg.PassBid, pg.EndPurchase, pg.EndBuild, pg.Build, pg.Power)
CUSTOM = (sample_config("M", 3), sample_config("P", 4), sample_config("M", 2))


def states_of(config: pg.GameConfig, seed: int, stride: int = 1) -> list[GameState]:
    """Every ``stride``-th state of a seeded random game (uniform over all legal actions)."""
    state, rnd, out = pg.new_game(config, seed=seed), random.Random(seed), []
    while pg.current_player(state) is not None:
        out.append(state)
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    return out[::stride]


def check_state(codec: ActionCodec, state: GameState) -> None:
    legal = pg.legal_actions(state)
    mask = codec.mask(state)
    encoded = {codec.encode(a, state) for a in legal} - {None}
    assert set(np.flatnonzero(mask).tolist()) == encoded
    assert mask.dtype == np.int8
    assert mask.shape == (codec.size,)
    assert mask.any(), "a running game always has an expressible action"
    for action in legal:
        i = codec.encode(action, state)
        if i is not None:
            assert codec.decode(i, state) == action
        elif isinstance(action, LOSSLESS + (pg.PlaceFundHouse,)):
            pytest.fail(f"{action} has no index")
    for i, action in codec.legal(state).items():
        assert codec.decode(np.int64(i), state) == action


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(config=st.one_of(configs(), st.sampled_from(CUSTOM)), seed=seeds())
def test_mask_is_the_set_of_encodable_legal_actions(config: pg.GameConfig, seed: int) -> None:
    """Along a random game: mask == {encode(a)} - {None}, decode inverts encode, never empty."""
    codec = ActionCodec(config)
    for state in states_of(config, seed % 1000, stride=3):
        check_state(codec, state)


def test_layout_of_a_four_player_deluxe_game() -> None:
    """4 players, Deluxe, Europe: 189 indices, each block sized by a rule.

    end 4; choose 6 actual slots in Step 3 (CON-07) x 8 raises; bid 8; discard
    3 + 1 plants (AUC-16, AUC-17); buy 4 kinds, coal gas oil uranium (CON-01);
    build 49 Europe cities; power 2**3 plant subsets x (8 + 1) hybrid splits,
    8 being what the Deluxe hybrids 08, 22 and 35 burn together (3 + 3 + 2, RES-04).
    """
    codec = ActionCodec(pg.GameConfig(players=4, map="europe"))
    sizes = {b.name: b.size for b in codec.blocks}
    assert sizes == {
        "end": 4,
        "choose": 48,
        "bid": 8,
        "discard": 4,
        "buy": 4,
        "build": 49,
        "power": 72,
    }
    assert codec.size == 189
    starts = [b.start for b in codec.blocks]
    assert starts == [0, 4, 52, 60, 64, 68, 117]


def test_layout_of_a_two_player_classic_game_and_of_the_fund() -> None:
    """Classic with 2 players has the limit 4 (AUC-16): 5 discard slots, 2**4 x 10 power.

    The top four classic hybrids (46, 5, 12, 21; RES-04) burn 3 + 2 + 2 + 2 = 9.
    A 2-player Deluxe game plays the fund (SET-25), which adds a city per index
    for its starting houses (FND-05).
    """
    classic = ActionCodec(pg.GameConfig(players=2, map="europe", components="classic"))
    assert classic.block("discard").size == 5
    assert classic.block("power").size == 16 * 10
    fund = ActionCodec(pg.GameConfig(players=2, map="north_america"))
    assert fund.block("fund").size == 49
    assert fund.block("fund").start == fund.block("power").stop == fund.size - 49
    with pytest.raises(KeyError, match="the blocks are end, choose"):
        classic.block("fund")


def test_describe_names_each_index() -> None:
    """describe() needs no state and reads as the block table says."""
    codec = ActionCodec(pg.GameConfig(players=4, map="europe"))
    choose, bid = codec.block("choose").start, codec.block("bid").start
    assert codec.describe(0) == "pass the auction"
    assert codec.describe(3) == "end building"
    assert codec.describe(choose + 2 * 8 + 2) == "choose slot 2 +2"
    assert codec.describe(bid + 7) == "bid +21"
    assert codec.describe(codec.block("buy").start + 1) == "buy 1 gas"
    assert codec.describe(codec.block("build").start) == "build " + codec._cities[0]
    assert codec.describe(codec.block("power").start) == "power slots none"
    assert codec.describe(codec.block("power").start + 5 * 9 + 3) == "power slots 0,2 gas=3"
    with pytest.raises(ValueError, match=r"outside 0\.\.188"):
        codec.describe(189)


def test_opening_bids_and_raises_are_buckets_over_the_minimum() -> None:
    """AUC-04: the opening bid is at least the plant number; AUC-06: a raise beats the bid.

    In a fresh 4-player Deluxe game the lowest actual plant is opened at
    its number + RAISES[k]; a running auction's raises are bid + 1 + RAISES[k].
    """
    config = pg.GameConfig(players=4, map="europe")
    codec = ActionCodec(config)
    state = pg.new_game(config, seed=5)
    seat = pg.current_player(state)
    assert seat is not None
    plant = state.market.actual[0]
    number = state.rules.number(plant)
    choose = codec.block("choose").start
    for k, r in enumerate(RAISES):
        assert codec.decode(choose + k, state) == pg.ChoosePlant(
            player=seat, plant=plant, bid=number + r
        )
    between = pg.ChoosePlant(player=seat, plant=plant, bid=number + 4)
    assert pg.is_legal(state, between)
    assert codec.encode(between, state) is None  # between the buckets 3 and 5
    state = pg.apply(state, pg.ChoosePlant(player=seat, plant=plant, bid=number))
    bidder = pg.current_player(state)
    assert bidder is not None
    bid = codec.block("bid").start
    assert codec.decode(bid, state) == pg.Bid(player=bidder, amount=number + 1)
    assert codec.decode(bid + 4, state) == pg.Bid(player=bidder, amount=number + 1 + 5)
    assert codec.decode(1, state) == pg.PassBid(player=bidder)


def test_decoding_an_illegal_index_says_why() -> None:
    """A masked index raises IllegalAction with the engine's reason and message."""
    config = pg.GameConfig(players=4, map="europe")
    codec = ActionCodec(config)
    state = pg.new_game(config, seed=5)
    choose = codec.block("choose").start
    # Round 1: AUC-13 forbids passing the auction phase.
    with pytest.raises(pg.IllegalAction, match=r"Action index 0 \(pass the auction\)") as err:
        codec.decode(0, state)
    assert err.value.reason is pg.Reason.PASS_FORBIDDEN_FIRST_ROUND
    # Step 1 has 4 actual plants (CON-07): slot 5 names nothing.
    with pytest.raises(pg.IllegalAction, match="names nothing") as err:
        codec.decode(choose + 5 * 8, state)
    assert err.value.reason is pg.Reason.NOT_IN_MASK
    # Everyone starts with 50 Elektro: the highest plant + 21 can be too dear (AUC-07).
    plant = state.market.actual[3]
    if state.rules.number(plant) + 21 > 50:
        with pytest.raises(pg.IllegalAction) as err:
            codec.decode(choose + 3 * 8 + 7, state)
        assert err.value.reason is pg.Reason.BID_ABOVE_MONEY
    with pytest.raises(ValueError, match="outside"):
        codec.decode(-1, state)
    with pytest.raises(TypeError):
        codec.decode(1.5, state)  # type: ignore[arg-type]


def test_discard_index_returns_fewest_tokens() -> None:
    """AUC-17/AUC-18: among a plant's discards, the index keeps the one dropping fewest."""
    config = pg.GameConfig(players=2, map="europe", components="classic")
    codec = ActionCodec(config)
    seen = 0
    for seed in range(40):
        for state in states_of(config, seed):
            discards = [a for a in pg.legal_actions(state) if isinstance(a, pg.DiscardPlant)]
            for plant in {a.plant for a in discards}:
                options = [a for a in discards if a.plant == plant]
                fewest = min(sum(n for _, n in a.drop) for a in options)
                slot = state.players[options[0].player].plants.index(plant)
                chosen = codec.decode(codec.block("discard").start + slot, state)
                assert isinstance(chosen, pg.DiscardPlant)
                assert sum(n for _, n in chosen.drop) == fewest
                seen += len(options) > 1
        if seen >= 3:
            break
    assert seen >= 3, "the games should have offered discards with a choice of drops"


def test_power_index_is_plant_mask_and_hybrid_split() -> None:
    """RES-04: a hybrid burns any mix of its two kinds; the index splits it by the first kind."""
    config = pg.GameConfig(players=3, map="europe")
    codec = ActionCodec(config)
    width, start = codec._hmax + 1, codec.block("power").start
    checked = 0
    for seed in range(30):
        for state in states_of(config, seed):
            for action in pg.legal_actions(state):
                if not isinstance(action, pg.Power) or not action.plants:
                    continue
                hand = state.players[action.player].plants
                mask = sum(1 << hand.index(p) for p in action.plants)
                cards = [state.rules.plant(p) for p in action.plants]
                gas_plants = sum(c.burn for c in cards if c.accepts == {pg.Resource.GAS})
                g = dict(action.mix).get(pg.Resource.GAS, 0) - gas_plants
                assert codec.encode(action, state) == start + mask * width + g
                checked += any(c.is_hybrid for c in cards)
        if checked >= 5:
            break
    assert checked >= 5, "the games should have powered hybrids"


def test_states_differing_only_in_secret_have_equal_masks() -> None:
    """DESIGN principle 5: the deck order changes no mask and no table."""
    config = pg.GameConfig(players=3, map="north_america")
    codec = ActionCodec(config)
    for state in states_of(config, 11, stride=25):
        other = pg.parse_position(pg.position_text(state), seed=99)
        assert np.array_equal(codec.mask(other), codec.mask(state))
        assert dict(codec.legal(other)) == dict(codec.legal(state))


def test_a_state_of_another_configuration_is_refused() -> None:
    codec = ActionCodec(pg.GameConfig(players=4, map="europe"))
    other = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
    with pytest.raises(ValueError, match="made for deluxe/europe/4 games; the state is a deluxe"):
        codec.mask(other)
    with pytest.raises(TypeError):
        ActionCodec("europe")  # type: ignore[arg-type]


def test_names_and_seats_do_not_change_the_codec() -> None:
    """Display names are not game-defining: one codec serves a named game."""
    codec = ActionCodec(pg.GameConfig(players=3, map="europe"))
    named = pg.new_game(pg.GameConfig(players=3, map="europe", names=("a", "b", "c")), seed=2)
    assert codec.mask(named).any()


def test_codec_pickles_without_its_cache() -> None:
    config = pg.GameConfig(players=5, map="north_america", components="classic")
    codec = ActionCodec(config)
    state = states_of(config, 3)[40]
    codec.mask(state)
    copy = pickle.loads(pickle.dumps(codec))
    assert copy._last is None
    assert np.array_equal(copy.mask(state), codec.mask(state))
    assert copy.size == codec.size
