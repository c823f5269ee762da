"""Issue 36 item 4: ``ObservationEncoder.encode`` works at a chance point of an explicit game.

It used to raise ``IndexError`` there (the seat to act was ``CHANCE``). At a
chance point nobody is to act; every other feature is the seat's observation as
usual, in [0, 1], and it never reads the hidden part (the state determinized for
the seat encodes alike).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import powergrid as pg
from powergrid.bots import GreedyBot
from powergrid.rl import ObservationEncoder

CONFIGS = [
    pg.GameConfig(players=4, map="europe", options={"explicit_chance"}),
    pg.GameConfig(players=2, map="north_america", options={"explicit_chance"}),
    pg.GameConfig(players=3, map="germany", components="classic", options={"explicit_chance"}),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label)
def test_encode_works_at_every_chance_point_and_flags_nobody(config: pg.GameConfig) -> None:
    encoder = ObservationEncoder(config)
    names = encoder.feature_names()
    to_act = [i for i, n in enumerate(names) if n.startswith("seat") and n.endswith(".to_act")]
    state, rnd, chance_points = pg.new_game(config, seed=5), random.Random(5), 0
    while (turn := pg.current_player(state)) is not None:
        seat = rnd.randrange(config.players)
        obs = encoder.encode(state, seat)
        assert obs.min() >= 0.0
        assert obs.max() <= 1.0
        if turn == pg.CHANCE:
            chance_points += 1
            assert not obs[to_act].any()
            same = pg.determinize(state, seat, random.Random(chance_points))
            assert np.array_equal(encoder.encode(same, seat), obs)  # the secret is not read
        else:
            assert obs[to_act].sum() == 1.0
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    assert chance_points > 20


@pytest.mark.parametrize(
    "config",
    [
        pg.GameConfig(players=4, map="europe"),
        pg.GameConfig(players=2, map="europe"),
        pg.GameConfig(players=6, map="usa", components="classic"),
    ],
    ids=lambda c: c.label,
)
def test_an_encoder_that_saw_the_game_encodes_as_a_fresh_one(config: pg.GameConfig) -> None:
    """The encoder keeps the board block of the last board it met, per viewer."""
    warm, cold = ObservationEncoder(config), ObservationEncoder(config)
    state, bot, builds = pg.new_game(config, seed=8), GreedyBot(seed=8), set()
    while pg.current_player(state) is not None:  # greedy games reach Step 3 (build Step 3)
        builds.add(state.build_step)
        for seat in range(config.players):
            cold._boards = [None] * config.players  # what a fresh encoder knows of the game
            assert np.array_equal(warm.encode(state, seat), cold.encode(state, seat))
        state = pg.apply(state, bot.choose(state))
    assert builds == {1, 2, 3} if config.players > 2 else builds == {1, 3}
