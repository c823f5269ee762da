"""Memory over many games in one process: does anything grow without bound?

Run: python benchmarks/memory.py [--games 2000] [--row deluxe/europe/4] [--every 200]

Plays seeded games of one row with the fixed policy of random_games.py in a
single process and prints, every ``--every`` games, the resident set size, the
objects the garbage collector tracks and the entries held by the library's
caches (every ``functools.lru_cache`` in the ``powergrid`` modules, each of
which has a maximum size). Memory is flat when the last rows stop growing once
the caches have filled; the summary line gives the growth over the second half
of the run. Nothing here asserts; it only reports. Resident size is read from
``/proc/self/statm`` (Linux); elsewhere that column shows the peak size from
``resource.getrusage``.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import random
import sys
import time
from pathlib import Path

import powergrid as pg
from powergrid.bots import distinct_choices


def resident_mib() -> float:
    """The process's resident set size in MiB (the peak size where /proc is missing)."""
    statm = Path("/proc/self/statm")
    if statm.exists():
        pages = int(statm.read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    import resource  # not on Windows, where /proc is missing too: then it fails loudly

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (2**20 if sys.platform == "darwin" else 2**10)


def caches() -> list[functools._lru_cache_wrapper[object]]:
    """Every lru_cache of the imported powergrid modules."""
    found = []
    for name, module in list(sys.modules.items()):
        if name != "powergrid" and not name.startswith("powergrid."):
            continue
        for value in vars(module).values():
            if isinstance(value, functools._lru_cache_wrapper):
                found.append(value)
    return found


def cache_entries() -> tuple[int, int]:
    """(entries held, entries allowed) over every powergrid cache."""
    held = allowed = 0
    for cache in caches():
        info = cache.cache_info()
        held += info.currsize
        allowed += info.maxsize or 0
    return held, allowed


def play(config: pg.GameConfig, seed: int, game: int) -> int:
    """Play one game with the benchmark policy; return its number of actions."""
    rng = random.Random(f"bench:{seed}:{game}")
    state = pg.new_game(config, seed=seed + game)
    count = 0
    while pg.outcome(state) is None:
        state = pg.apply(state, rng.choice(distinct_choices(pg.legal_actions(state))))
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    """Run the games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--row", default="deluxe/europe/4", help="components/map/players")
    parser.add_argument("--every", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    components, map_name, players = args.row.split("/")
    config = pg.GameConfig(players=int(players), map=map_name, components=components)
    print(f"powergrid {pg.__version__}, {args.row}, {args.games} games in one process")
    print(f"{'games':>6} {'RSS MiB':>8} {'GC objects':>11} {'cache entries':>14} {'games/s':>8}")
    samples: list[tuple[int, float]] = []
    start = last = time.perf_counter()
    for game in range(1, args.games + 1):
        play(config, args.seed, game)
        if game % args.every == 0 or game == args.games:
            now = time.perf_counter()
            rss = resident_mib()
            held, allowed = cache_entries()
            rate = args.every / (now - last)
            last = now
            samples.append((game, rss))
            tracked = len(gc.get_objects())
            print(f"{game:>6} {rss:>8.1f} {tracked:>11} {held:>7}/{allowed:<6} {rate:>8.1f}")
    half = [rss for game, rss in samples if game >= args.games // 2]
    print(
        f"RSS over the second half: {half[0]:.1f} -> {half[-1]:.1f} MiB "
        f"({half[-1] - half[0]:+.1f}); {args.games / (time.perf_counter() - start):.1f} games/s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
