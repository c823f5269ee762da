"""Benchmark: seeded random full games; speed of games, apply and legal_actions.

The policy is fixed so numbers stay comparable between versions: at each
decision choose uniformly among the legal actions, where all opening bids on
one plant count as one choice (the minimum bid), all raises in a running
auction count as one choice (the minimum raise) and all purchase counts of
one resource kind count as one choice (buy one token). The policy's random
stream is random.Random(f"bench:{seed}:{game}"), game seed = seed + game.

Run: python benchmarks/random_games.py --games 20 --players 2,3,4,5,6 --maps europe
     [--components deluxe,classic]
One table is printed per component set (default: deluxe only).
Nothing here asserts on speed; it only reports.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import random
import statistics
import sys
import time

import attrs

import powergrid as pg
from powergrid.bots import distinct_choices

MAX_ACTIONS = 100_000


@attrs.define
class Stats:
    """Counts and per-call timings (nanoseconds) summed over the games of one row."""

    games: int = 0
    actions: int = 0
    wall_ns: int = 0
    apply_ns: list[int] = attrs.field(factory=list)
    legal_ns: list[int] = attrs.field(factory=list)


def play_one(config: pg.GameConfig, seed: int, game: int, stats: Stats) -> None:
    """Play game ``game`` of a row to its end, adding its timings to ``stats``.

    Raises RuntimeError if the game does not end within MAX_ACTIONS actions.
    """
    perf = time.perf_counter_ns
    rng = random.Random(f"bench:{seed}:{game}")
    start = perf()
    state = pg.new_game(config, seed=seed + game)
    count = 0
    while pg.outcome(state) is None:
        t0 = perf()
        actions = pg.legal_actions(state)
        t1 = perf()
        action = rng.choice(distinct_choices(actions))
        t2 = perf()
        state = pg.apply(state, action)
        t3 = perf()
        stats.legal_ns.append(t1 - t0)
        stats.apply_ns.append(t3 - t2)
        count += 1
        if count > MAX_ACTIONS:
            raise RuntimeError(f"{config} seed {seed + game}: no end after {MAX_ACTIONS} actions")
    stats.wall_ns += perf() - start
    stats.games += 1
    stats.actions += count


def pct(values: list[int], q: float) -> float:
    """Percentile ``q`` (0..1) in microseconds, nearest rank."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index] / 1000


def row(players: int, map_name: str, s: Stats) -> str:
    """Format one table line; the column widths match the header printed by main."""
    secs = s.wall_ns / 1e9
    return (
        f"{players:>7} {map_name:<14} {s.games:>5} {s.games / secs:>8.1f} {s.actions / secs:>10.0f}"
        f" {s.actions / s.games:>8.1f} {statistics.median(s.apply_ns) / 1000:>9.1f}"
        f" {pct(s.apply_ns, 0.95):>9.1f} {statistics.median(s.legal_ns) / 1000:>9.1f}"
        f" {pct(s.legal_ns, 0.95):>9.1f}"
    )


def parse(argv: list[str] | None) -> argparse.Namespace:
    """Parse the command line; exits with usage (code 2) on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="games per (players, map) (20)")
    parser.add_argument("--players", default="2,3,4,5,6", help="player counts (2,3,4,5,6)")
    parser.add_argument("--maps", default="europe,north_america", help="maps (both)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed (0)")
    parser.add_argument(
        "--components", default="deluxe", help="component sets, one table each (deluxe)"
    )
    args = parser.parse_args(argv)
    try:
        args.players = [int(p) for p in args.players.split(",")]
    except ValueError:
        parser.error(f"--players must be comma-separated numbers, not {args.players!r}")
    args.maps = [m.strip() for m in args.maps.split(",")]
    args.components = [c.strip() for c in args.components.split(",") if c.strip()]
    if not args.components:
        parser.error("--components names no component set")
    if args.games < 1:
        parser.error("--games must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark tables; return 0, or 2 for a configuration the library refuses."""
    args = parse(argv)
    now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    print(f"powergrid {pg.__version__} random-game benchmark, {now}")
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}) "
        f"on {platform.platform()}"
    )
    print(f"{args.games} games per row, seeds {args.seed}..{args.seed + args.games - 1}")
    for components in args.components:
        print()
        print(f"components: {components}")
        if table(components, args) != 0:
            return 2
    return 0


def table(components: str, args: argparse.Namespace) -> int:
    """Print one component set's table, a row per (map, players); 2 if a config is refused."""
    print(
        f"{'players':>7} {'map':<14} {'games':>5} {'games/s':>8} {'actions/s':>10}"
        f" {'act/game':>8} {'apply p50':>9} {'apply p95':>9} {'legal p50':>9} {'legal p95':>9}"
    )
    print(f"{'':>46}(times per call in microseconds)")
    for map_name in args.maps:
        for players in args.players:
            try:
                config = pg.GameConfig(players=players, map=map_name, components=components)
            except pg.RulesConfigError as err:
                print(f"error: {err}", file=sys.stderr)
                return 2
            stats = Stats()
            for game in range(args.games):
                play_one(config, args.seed, game, stats)
            print(row(players, map_name, stats), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
