"""Benchmark: the cost per step of powergrid.rl against the raw API, on the same games.

The loops play the same seeded games. The first row is the engine alone,
with the policy of ``random_games.py`` (uniform over the distinct legal
choices); the others choose uniformly among the codec's legal indices, and
each adds one layer to the one above:

- raw API: ``legal_actions``, a uniform choice and ``apply``;
- codec: the codec's table, its int8 mask and ``decode`` of the chosen index;
- + observation: ``ObservationEncoder.encode`` for the mover on every step;
- AEC env: ``PowerGridAEC.last()`` and ``step()``, which do all of it.

Run: python benchmarks/rl_step.py [--games 10] [--players 4] [--map europe]
Nothing here asserts on speed; it only reports.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

import powergrid as pg
from powergrid.bots import distinct_choices
from powergrid.rl import ActionCodec, ObservationEncoder, raw_env


def engine(config: pg.GameConfig, seed: int) -> int:
    """Play one game with the raw API; the number of actions."""
    state, rnd, n = pg.new_game(config, seed=seed), random.Random(seed), 0
    while pg.current_player(state) is not None:
        state = pg.apply(state, rnd.choice(distinct_choices(pg.legal_actions(state))))
        n += 1
    return n


def coded(config: pg.GameConfig, seed: int, observe: bool) -> int:
    """Play one game through the codec (and the encoder); the number of actions."""
    codec, encoder = ActionCodec(config), ObservationEncoder(config)
    state, rnd, n = pg.new_game(config, seed=seed), random.Random(seed), 0
    while (seat := pg.current_player(state)) is not None:
        index = rnd.choice(np.flatnonzero(codec.mask(state)).tolist())
        if observe:
            encoder.encode(state, seat)
        state = pg.apply(state, codec.decode(index, state))
        n += 1
    return n


def aec(config: pg.GameConfig, seed: int) -> int:
    """Play one game through the AEC environment; the number of actions."""
    env, rnd, n = raw_env(config), random.Random(seed), 0
    env.reset(seed=seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        n += 1
    return n


def measure(label: str, play: Callable[[int], int], games: int) -> None:
    play(games)  # warm the caches on a game that is not timed
    start, actions = time.perf_counter(), 0
    for game in range(games):
        actions += play(game)
    wall = time.perf_counter() - start
    per = wall / actions * 1e6
    print(f"| {label:<20} | {games / wall:7.2f} | {actions / games:7.0f} | {per:6.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--map", default="europe")
    parser.add_argument("--components", default="deluxe")
    args = parser.parse_args()
    config = pg.GameConfig(players=args.players, map=args.map, components=args.components)
    print(f"{args.components}/{args.map}/{args.players}, {args.games} games")
    print("| loop                 | games/s | actions | us/act |")
    print("|---|---:|---:|---:|")
    measure("raw API", lambda g: engine(config, g), args.games)
    measure("codec", lambda g: coded(config, g, False), args.games)
    measure("codec + observation", lambda g: coded(config, g, True), args.games)
    measure("AEC env", lambda g: aec(config, g), args.games)


if __name__ == "__main__":
    main()
