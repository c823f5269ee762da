"""Instructions per game of two powergrid revisions: a speed comparison that does not swing.

Run: python benchmarks/instructions.py 7437d42 HEAD [--rows deluxe/europe/4] [--games 3]

On a shared machine games/s can move by a third between two runs of the same
code (see compare.py), too much to see a 10% change. This script counts the
machine instructions a game takes instead, with valgrind's callgrind tool, which
gives the same count on every run. It plays the workload of compare.py (the same
policy, seeds and rows; a side is a revision or a directory, as there) twice
per side and row, once with one game and once with ``--games`` more, and
reports the difference per game, so start-up and imports do not count. The
policy's own work is included, as it is in compare.py's games/s.

Instructions are not time: memory stalls and cache misses do not show, so
confirm a large change with compare.py. It needs ``valgrind`` on the PATH and
runs about 50 times slower than the game itself (about a minute per row and
side for 3 games). Nothing here asserts on speed; it only reports.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import DEFAULT_ROWS, Side, parse_row, resolve_side

COMPARE = Path(__file__).resolve().parent / "compare.py"
_COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(side: Side, row: str, games: int) -> int:
    """Instructions of compare.py's workload for ``row`` with ``games`` timed games."""
    env = dict(os.environ, PYTHONPATH=str(side.pythonpath), PYTHONHASHSEED="0")
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += [sys.executable, str(COMPARE), "--workload", "--rows", row, "--games", str(games)]
    proc = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    found = _COLLECTED.search(proc.stderr)
    if proc.returncode != 0 or found is None:
        tail = "\n".join(proc.stderr.strip().splitlines()[-10:])
        raise SystemExit(f"error: side {side.name} ({side.spec}), row {row} failed:\n{tail}")
    return int(found.group(1))


def per_game(side: Side, row: str, games: int) -> float:
    """Instructions per game of ``row`` on ``side``, start-up and warm-up excluded."""
    return (instructions(side, row, games + 1) - instructions(side, row, 1)) / games


def main(argv: list[str] | None = None) -> int:
    """Count both sides and print a table of millions of instructions per game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="side A: a git revision or a directory")
    parser.add_argument("b", help="side B: a git revision or a directory")
    parser.add_argument(
        "--rows", default=DEFAULT_ROWS, help="components/map/players, comma-separated"
    )
    parser.add_argument("--games", type=int, default=3, help="games counted per row and side")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("error: valgrind is not installed (it counts the instructions)")
    if args.games < 1:
        raise SystemExit("error: --games must be at least 1")
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    for row in rows:
        parse_row(row)  # a bad label fails before the slow runs
    with contextlib.ExitStack() as stack:
        sides = (resolve_side("A", args.a, stack), resolve_side("B", args.b, stack))
        print(f"  A = {sides[0].spec}: {sides[0].describe}")
        print(f"  B = {sides[1].spec}: {sides[1].describe}")
        print(
            f"{args.games} games per row and side (seeds 1..{args.games}), millions of instructions"
        )
        print(f"{'row':24} {'A':>10} {'B':>10} {'A/B':>7}")
        for row in rows:
            a, b = (per_game(side, row, args.games) for side in sides)
            print(f"{row:24} {a / 1e6:>10.1f} {b / 1e6:>10.1f} {a / b:>7.2f}")
    print("A/B above 1: B takes fewer instructions per game. Nothing here asserts on speed.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
