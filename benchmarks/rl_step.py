"""Benchmark: the cost per step of powergrid.rl and of fair play against the raw API.

The loops play the same seeded games. The first row is the engine alone,
with the policy of ``random_games.py`` (uniform over the distinct legal
choices); the others add one piece each:

- raw API: ``legal_actions``, a uniform choice and ``apply``;
- + determinize: ``pg.determinize`` of the state for the mover on every step,
  what the fair arena hands a policy (with its per-decision rng);
- + view: ``pg.view`` for the mover on every step (for comparison: what an
  agent limited to the view would build);
- codec: the codec's table, its int8 mask and ``decode`` of the chosen index
  (uniform over the codec's legal indices from here on);
- codec + observation: ``ObservationEncoder.encode`` for the mover on every step;
- AEC env: ``PowerGridAEC.last()`` and ``step()``, which do all of it.

Each row is run ``--repeat`` times, the rows taking turns so that a busy
machine slows them alike, and the median is reported, with its ratio to the
raw API's median.

Run: python benchmarks/rl_step.py [--games 10] [--players 4] [--map europe] [--repeat 3]
Nothing here asserts on speed; it only reports.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import powergrid as pg
from powergrid.bots import distinct_choices
from powergrid.engine.determinize import decision_rng
from powergrid.rl import ActionCodec, ObservationEncoder, raw_env


def engine(config: pg.GameConfig, seed: int, extra: str = "") -> int:
    """Play one game with the raw API (and a determinize or a view a step); the action count."""
    state, rnd, n = pg.new_game(config, seed=seed), random.Random(seed), 0
    while (seat := pg.current_player(state)) is not None:
        if extra == "determinize":
            pg.determinize(state, seat, decision_rng(seed, seat, n))
        elif extra == "view":
            pg.view(state, seat)
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


def measure(play: Callable[[int], int], games: int) -> tuple[float, float]:
    """Microseconds per action and actions per game over ``games`` seeded games."""
    start, actions = time.perf_counter(), 0
    for game in range(games):
        actions += play(game)
    wall = time.perf_counter() - start
    return wall / actions * 1e6, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--map", default="europe")
    parser.add_argument("--components", default="deluxe")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    config = pg.GameConfig(players=args.players, map=args.map, components=args.components)
    rows: dict[str, Callable[[int], int]] = {
        "raw API": lambda g: engine(config, g),
        "+ determinize": lambda g: engine(config, g, "determinize"),
        "+ view": lambda g: engine(config, g, "view"),
        "codec": lambda g: coded(config, g, False),
        "codec + observation": lambda g: coded(config, g, True),
        "AEC env": lambda g: aec(config, g),
    }
    for play in rows.values():
        play(args.games)  # warm the caches on a game that is not timed
    runs: dict[str, list[float]] = {label: [] for label in rows}
    lengths: dict[str, float] = {}
    for _ in range(args.repeat):
        for label, play in rows.items():
            per, lengths[label] = measure(play, args.games)
            runs[label].append(per)
    base = statistics.median(runs["raw API"])
    print(f"{config.label}, {args.games} games, median of {args.repeat} runs")
    print("| loop                 | actions | us/act | x raw |")
    print("|---|---:|---:|---:|")
    for label, times in runs.items():
        per = statistics.median(times)
        print(f"| {label:<20} | {lengths[label]:7.0f} | {per:6.1f} | {per / base:5.2f} |")


if __name__ == "__main__":
    main()
