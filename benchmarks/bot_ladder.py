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
from typing import Literal

from powergrid.arena import run_arena
from powergrid.arena.games import policy_name
from powergrid.bots import BOTS, MCTSBot
from powergrid.config import GameConfig

HEADS_UP = GameConfig(players=2, map="europe", components="deluxe")
TABLE = GameConfig(players=4, map="europe", components="deluxe")


def row(
    label: str,
    policies: list[str | object],
    config: GameConfig,
    games: int,
    seed: int,
    workers: int,
) -> str:
    """One table row: the first policy's wins and win rate over ``games`` games.

    Policies given as objects (a search bot with its own budget) play in this
    process, since only names cross to a pool's workers.
    """
    start = time.perf_counter()
    named = all(isinstance(p, str) for p in policies)
    backend: Literal["pool", "inprocess"] = "pool" if named else "inprocess"
    result = run_arena(policies, games, config=config, seed=seed, backend=backend, workers=workers)
    hero = next(s for s in result.summary if s.policy == policy_name(policies[0]))
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
    parser.add_argument(
        "--mcts-iterations",
        type=int,
        help="the search bot's playouts a decision (default its own, 200); with this option "
        "its games run in this process",
    )
    parser.add_argument(
        "--mcts-seconds",
        type=float,
        help="the search bot's time a decision instead (games then depend on the machine "
        "and its load); with this option its games run in this process",
    )
    args = parser.parse_args()
    print("| games of | config | games | seed | wins | win rate (95% CI) | rounds | time |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    ladder = args.bots.split(",")
    unknown = [b for b in ladder if b not in BOTS]
    if unknown:
        parser.error(f"unknown bot {unknown[0]!r}; the bots are {', '.join(BOTS)}")

    def policy(name: str) -> str | object:
        if name == "mcts" and args.mcts_seconds is not None:
            return MCTSBot(seconds=args.mcts_seconds)
        if name == "mcts" and args.mcts_iterations is not None:
            return MCTSBot(iterations=args.mcts_iterations)
        return name

    for weak, strong in combinations(ladder, 2):
        label = f"{strong} vs {weak}"
        pair = [policy(strong), policy(weak)]
        print(row(label, pair, HEADS_UP, args.games, args.seed, args.workers), flush=True)
    for weak, strong in combinations(ladder, 2) if not args.pairs_only else ():
        label = f"one {strong} vs three {weak}"
        policies = [policy(strong), policy(weak), policy(weak), policy(weak)]
        print(row(label, policies, TABLE, args.tables, args.seed, args.workers), flush=True)


if __name__ == "__main__":
    main()
