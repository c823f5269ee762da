"""The bot ladder: every built-in bot against every other, as a Markdown table.

Heads-up games of each pair (2-player Deluxe Europe, with the fund, its
default) and tables of one bot against copies of another (4 players), seats
rotated by the arena, seeds given, fair by default (each bot sees only its
seat's determinized state). Prints the rows docs/bots.md shows: the first
policy's win rate with its Wilson 95% interval.

    python benchmarks/bot_ladder.py --games 400 --tables 200 --workers 2
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations

from powergrid.arena import run_arena
from powergrid.bots import BOTS
from powergrid.config import GameConfig

HEADS_UP = GameConfig(players=2, map="europe", components="deluxe")
TABLE = GameConfig(players=4, map="europe", components="deluxe")


def row(
    label: str, policies: list[str], config: GameConfig, games: int, seed: int, workers: int
) -> str:
    """One table row: the first policy's wins and win rate over ``games`` games."""
    start = time.perf_counter()
    result = run_arena(policies, games, config=config, seed=seed, backend="pool", workers=workers)
    hero = next(s for s in result.summary if s.policy == policies[0])
    took = time.perf_counter() - start
    rate = f"{hero.win_rate:.1%} [{hero.win_low:.1%}, {hero.win_high:.1%}]"
    return (
        f"| {label} | {config.label} | {games} | {seed} | {hero.wins:g} | {rate} | "
        f"{hero.rounds:.1f} | {took:.0f} s |"
    )


def main() -> None:
    """Print the ladder's Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="heads-up games per pair")
    parser.add_argument("--tables", type=int, default=200, help="4-player games per table")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--bots",
        default="random,greedy,heuristic",
        help="the bots of the ladder, weakest first (mcts takes about a second a decision)",
    )
    parser.add_argument("--pairs-only", action="store_true", help="no 4-player tables")
    args = parser.parse_args()
    print("| games of | config | games | seed | wins | win rate (95% CI) | rounds | time |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    ladder = args.bots.split(",")
    unknown = [b for b in ladder if b not in BOTS]
    if unknown:
        parser.error(f"unknown bot {unknown[0]!r}; the bots are {', '.join(BOTS)}")
    for weak, strong in combinations(ladder, 2):
        label = f"{strong} vs {weak}"
        print(row(label, [strong, weak], HEADS_UP, args.games, args.seed, args.workers), flush=True)
    for weak, strong in combinations(ladder, 2) if not args.pairs_only else ():
        label = f"one {strong} vs three {weak}"
        policies = [strong, weak, weak, weak]
        print(row(label, policies, TABLE, args.tables, args.seed, args.workers), flush=True)


if __name__ == "__main__":
    main()
