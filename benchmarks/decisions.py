"""Where a game's engine time goes, decision by decision: a profile for speed work.

Run: python benchmarks/decisions.py [--row classic/europe/4] [--games 30]

Plays the workload of compare.py (the same policy and seeds) and times every
``legal_actions`` and ``apply`` call, then prints two tables: ``apply`` by the
kind of action played (an action after which a new round begins counts apart,
``+round_end``: the end of a round runs there), and ``legal_actions`` by
phase; each line has the count, the mean microseconds and the share of all
engine time measured. A kind that is rare but dear (a discard, the last Power
of a round) shows up here where a games/s number hides it. Caches fill as the
process runs, as in a benchmark or an arena worker, so a first meeting with a
hand counts. Nothing here asserts on speed.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare

import powergrid as pg

compare.pg = pg  # type: ignore[attr-defined]  # compare imports it only in subprocesses


def profile(config: pg.GameConfig, games: int, seed: int) -> tuple[dict[str, list[int]], ...]:
    """Nanoseconds of each apply (by action kind) and legal_actions call (by phase)."""
    applies: dict[str, list[int]] = collections.defaultdict(list)
    legals: dict[str, list[int]] = collections.defaultdict(list)
    perf = time.perf_counter_ns
    for game in range(games):
        rng = random.Random(f"bench:{seed}:{game}")
        state = pg.new_game(config, seed=seed + game)
        while pg.outcome(state) is None:
            t0 = perf()
            legal = pg.legal_actions(state)
            t1 = perf()
            action = rng.choice(compare.policy_choices(legal))
            t2 = perf()
            after = pg.apply(state, action)
            t3 = perf()
            kind = type(action).__name__ + ("+round_end" if after.round != state.round else "")
            applies[kind].append(t3 - t2)
            legals[state.phase.name.lower()].append(t1 - t0)
            state = after
    return applies, legals


def report(title: str, table: dict[str, list[int]], total: int) -> None:
    """Print one table, dearest share first."""
    print(f"{title:<24} {'count':>7} {'mean us':>9} {'share':>7}")
    for key, times in sorted(table.items(), key=lambda kv: -sum(kv[1])):
        mean = sum(times) / len(times) / 1000
        print(f"  {key:<22} {len(times):>7} {mean:>9.1f} {sum(times) / total:>7.1%}")


def main() -> None:
    """Parse the arguments, play the games, print the two tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--row", default="classic/europe/4", help="components/map/players")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    components, map_id, players = args.row.split("/")[:3]
    config = pg.GameConfig(players=int(players), map=map_id, components=components)
    applies, legals = profile(config, args.games, args.seed)
    total = sum(map(sum, applies.values())) + sum(map(sum, legals.values()))
    print(f"{args.row}, {args.games} games, engine time {total / 1e9:.2f} s")
    report("apply by action", applies, total)
    report("legal_actions by phase", legals, total)


if __name__ == "__main__":
    main()
