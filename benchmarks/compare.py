"""Compare the speed of two powergrid revisions (or builds) in one run.

Run: python benchmarks/compare.py 7437d42 HEAD [--rounds 5] [--games 100]
     [--rows deluxe/europe/4,classic/europe/4] [--seed 0] [--warmup 1]

Each side is a directory or a git revision. A directory holds a source tree
(``DIR/src/powergrid``) or an installed or built package (``DIR/powergrid``);
an existing directory wins over a revision of the same name. A revision is
exported with ``git archive REV | tar -x`` into a temporary directory that is
removed at the end (no worktree is left behind).

Every round runs each row on side A and then on side B (B first on odd
rounds, so drift in the machine's speed falls on both sides alike), each in a
fresh ``python compare.py --workload ...`` subprocess whose PYTHONPATH holds
only that side's tree. The workload prints the ``powergrid.__file__`` it imported
and the run aborts unless that file lies inside the side's tree. Both sides get
the same seeds and PYTHONHASHSEED=0, so they play the same games as long as
their rules agree; when a row's action count differs between the sides, the
table says so.

The workload plays the fixed policy of benchmarks/random_games.py (its own copy:
old revisions have no shared helper) and uses only public API that already
existed at commit 7437d42: GameConfig(players=, map=, components=),
new_game(cfg, seed=), legal_actions, apply, outcome, ChoosePlant, Bid and
BuyResource. A row is ``components/map/players``, or with a rule-module
extra part ``components/map/players/extra`` (see parse_row; those rows use
the modules' API and need a revision that has it); each row starts with one
untimed warm-up game, so data loading does not weigh on a short run.

Caveat: before the classic-rules change, classic games on Europe played the
Europe map rules, so a classic row may play different rules on the two sides
of that change. Only the Deluxe row compares like with like across it.

The table gives, per row, the median games/s of each side over the rounds with
its spread (min-max), the ratio B/A of the medians (above 1: B is faster), the
median of the rounds' own B/A ratios ("paired", which cancels load that changes
between rounds) and the median microseconds per apply and per legal_actions
call. The "engine" column is the paired ratio of the time spent inside
legal_actions and apply alone (old over new), without the policy and the
clock reads that both sides pay per decision. With ``--warmup N`` each process
plays N untimed games first (game 0, then seeds past the timed ones), which
measures a long-running process whose per-process caches are full.
On a busy machine (2 cores shared with a test run, say) every figure can
swing by a third or more, even between two identical sides; compare on a quiet
machine, or run again until paired and B/A agree. Nothing here
asserts on speed; it only reports.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import powergrid as pg

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ROWS = "deluxe/europe/4,classic/europe/4"
MIN_ROUNDS = 5
MAX_ACTIONS = 100_000


# --- The workload: runs in the subprocess, against the side's own powergrid. ---


def policy_choices(actions: Sequence[pg.Action]) -> list[pg.Action]:
    """Return the fixed benchmark policy's choice set, as in random_games.py.

    All opening bids on one plant count as one choice (the first, the minimum),
    all raises as one and all purchase counts of one resource kind as one
    (buy one token); every other action is its own choice: the choices of
    powergrid.bots.distinct_choices, which random_games.py uses. It is a copy
    because a revision compared may lack or change that function.
    """
    out: list[pg.Action] = []
    seen: set[object] = set()
    for a in actions:
        kind = type(a)
        if kind is pg.ChoosePlant:
            key: object = (kind, a.plant)  # type: ignore[union-attr]
        elif kind is pg.Bid:
            key = kind
        elif kind is pg.BuyResource:
            key = (kind, a.resource)  # type: ignore[union-attr]
        else:
            out.append(a)
            continue
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def play_game(
    config: pg.GameConfig, seed: int, game: int, times: tuple[list[int], list[int]]
) -> int:
    """Play game ``game`` of a row to its end and return its number of actions.

    The game seed is ``seed + game`` and the policy stream
    ``random.Random(f"bench:{seed}:{game}")``, exactly as in random_games.py.
    The nanoseconds of each legal_actions and apply call are appended to
    ``times`` (legal, apply).
    """
    perf = time.perf_counter_ns
    legal_ns, apply_ns = times
    rng = random.Random(f"bench:{seed}:{game}")
    state = pg.new_game(config, seed=seed + game)
    count = 0
    while pg.outcome(state) is None:
        t0 = perf()
        legal = pg.legal_actions(state)
        t1 = perf()
        action = rng.choice(policy_choices(legal))
        t2 = perf()
        state = pg.apply(state, action)
        t3 = perf()
        legal_ns.append(t1 - t0)
        apply_ns.append(t3 - t2)
        count += 1
        if count > MAX_ACTIONS:
            raise RuntimeError(f"{config} seed {seed + game}: no end in {MAX_ACTIONS} actions")
    return count


def play_row(config: pg.GameConfig, seed: int, games: int, warmup: int = 1) -> dict[str, Any]:
    """Play ``games`` seeded games of ``config`` and return the row's timings.

    ``warmup`` untimed games go first: game 0, so loading the map and component
    data and building the cached ruleset do not weigh on a short run, then
    games past the timed ones (``games``, ``games + 1``, ...), so a large
    ``warmup`` measures a process whose per-process caches are full, as in a
    long training run, without replaying the timed games. ``engine_ms`` is the
    mean time per game inside ``legal_actions`` and ``apply`` alone: the
    games/s also pay the policy and the clock reads, which both sides share.
    """
    for n in range(warmup):
        play_game(config, seed, 0 if n == 0 else games + n - 1, ([], []))
    times: tuple[list[int], list[int]] = ([], [])
    actions = 0
    start = time.perf_counter_ns()
    for game in range(games):
        actions += play_game(config, seed, game, times)
    wall_ns = time.perf_counter_ns() - start
    return {
        "games": games,
        "actions": actions,
        "games_per_s": games / (wall_ns / 1e9),
        "legal_us": statistics.median(times[0]) / 1000,
        "apply_us": statistics.median(times[1]) / 1000,
        "engine_ms": (sum(times[0]) + sum(times[1])) / games / 1e6,
    }


def workload(rows: list[str], games: int, seed: int, warmup: int = 1) -> int:
    """Run every row against the importable powergrid and print one JSON line.

    The line names the imported ``powergrid.__file__`` so the parent can check
    which tree was measured. The import is bound as this module's global ``pg``
    because the functions above look it up there.
    """
    global pg  # bound only in the workload process; the driver never imports it
    import powergrid as pg

    result: dict[str, Any] = {"file": pg.__file__, "rows": {}}
    for label in rows:
        result["rows"][label] = play_row(row_config(label), seed, games, warmup)
    print(json.dumps(result), flush=True)
    return 0


#: The rule-module rows: the last part of ``components/map/players/EXTRA``.
EXTRAS = ("fund", "nofund", "custom-M", "custom-P")


def parse_row(label: str) -> tuple[str, str, int, str | None]:
    """Split a row label ``components/map/players[/extra]`` into its parts.

    ``extra`` is one of :data:`EXTRAS`: the 2-player fund (``fund``), a
    2-player Deluxe game without it (``nofund``), or a classic game with a
    customised deck of the sample decks (``custom-M``, ``custom-P``). Those rows
    need a revision that has the modules. Raises ValueError for a label of
    another shape; map and component names are only checked by GameConfig.
    """
    parts = label.split("/")
    shape = "components/map/players[/extra], e.g. deluxe/europe/4 or classic/europe/4/custom-M"
    if len(parts) not in (3, 4) or not parts[2].isdigit():
        raise ValueError(f"row {label!r} is not {shape}")
    extra = parts[3] if len(parts) == 4 else None
    if extra is not None and extra not in EXTRAS:
        raise ValueError(f"row {label!r}: the extra part is one of {', '.join(EXTRAS)}")
    return parts[0], parts[1], int(parts[2]), extra


def row_config(label: str) -> pg.GameConfig:
    """The workload's GameConfig of a row (in the workload process, ``pg`` imported).

    A plain row uses only what commit 7437d42 already had; an extra row uses
    the rule modules (``modules=``, ``powergrid.rules.custom_deck.samples``).
    """
    components, map_name, players, extra = parse_row(label)
    if extra is None:
        return pg.GameConfig(players=players, map=map_name, components=components)
    if extra.startswith("custom-"):
        from powergrid.rules.custom_deck.samples import sample_config

        return sample_config(extra.removeprefix("custom-"), players, map=map_name)
    modules = ("fund",) if extra == "fund" else ()
    return pg.GameConfig(players=players, map=map_name, components=components, modules=modules)


# --- The driver: resolves the sides, runs the rounds and prints the table. ---


@dataclasses.dataclass(frozen=True)
class Side:
    """One side of the comparison: what the user named and where its package lives.

    ``pythonpath`` is the directory that holds the ``powergrid`` package; the
    imported ``powergrid.__file__`` must lie inside it.
    """

    name: str
    spec: str
    pythonpath: Path
    describe: str


def git(*args: str) -> subprocess.CompletedProcess[str]:
    """Run git in the repository that holds this script and capture its output.

    Does not raise on failure; the caller reads returncode.
    """
    return subprocess.run(
        ["git", "-C", str(REPO), *args], capture_output=True, text=True, check=False
    )


def export_revision(sha: str, dest: Path) -> None:
    """Extract the tree of commit ``sha`` into ``dest`` via ``git archive | tar -x``.

    Raises SystemExit with git's or tar's message when either fails.
    """
    archive = subprocess.Popen(
        ["git", "-C", str(REPO), "archive", sha],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert archive.stdout is not None  # for mypy: Popen with PIPE always sets it
    tar = subprocess.run(
        ["tar", "-x", "-C", str(dest)], stdin=archive.stdout, capture_output=True, check=False
    )
    archive.stdout.close()
    git_err = archive.stderr.read().decode() if archive.stderr else ""
    if archive.wait() != 0 or tar.returncode != 0:
        raise SystemExit(f"error: exporting {sha} failed: {git_err}{tar.stderr.decode()}".strip())


def package_root(directory: Path) -> Path | None:
    """Return the directory to put on PYTHONPATH for a tree, or None if it has no package.

    A source tree has ``src/powergrid``; an installed or built package has
    ``powergrid`` directly inside.
    """
    for candidate in (directory / "src", directory):
        if (candidate / "powergrid" / "__init__.py").is_file():
            return candidate
    return None


def resolve_side(name: str, spec: str, stack: contextlib.ExitStack) -> Side:
    """Turn a command-line side (directory or git revision) into a Side.

    A revision is exported into a temporary directory registered on ``stack``,
    so it is removed when the stack closes, even after an error. Raises
    SystemExit when ``spec`` is neither a package directory nor a revision.
    """
    path = Path(spec)
    if path.is_dir():
        root = package_root(path.resolve())
        if root is None:
            raise SystemExit(f"error: {spec} holds neither src/powergrid nor powergrid")
        return Side(name, spec, root, f"directory {root}")
    found = git("rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}")
    if found.returncode != 0:
        raise SystemExit(f"error: {spec!r} is neither a directory nor a git revision in {REPO}")
    sha = found.stdout.strip()
    tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"pg-compare-{name}-")))
    export_revision(sha, tmp)
    root = package_root(tmp)
    if root is None:
        raise SystemExit(f"error: revision {spec} ({sha[:10]}) has no src/powergrid")
    return Side(name, spec, root, f"revision {sha[:10]}")


def run_side(side: Side, label: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run the workload for one row of ``side`` in a fresh subprocess; return the row.

    Aborts (SystemExit) when the workload fails or imported powergrid from
    outside the side's tree, since the numbers would then measure something else.
    """
    env = dict(os.environ, PYTHONPATH=str(side.pythonpath), PYTHONHASHSEED="0")
    command = [sys.executable, str(Path(__file__).resolve()), "--workload", "--rows", label]
    command += ["--games", str(args.games), "--seed", str(args.seed), "--warmup", str(args.warmup)]
    proc = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise SystemExit(f"error: side {side.name} ({side.spec}) workload failed:\n{tail}")
    lines = proc.stdout.strip().splitlines()
    if not lines:
        raise SystemExit(f"error: side {side.name} ({side.spec}) workload printed nothing")
    result: dict[str, Any] = json.loads(lines[-1])
    imported = Path(result["file"]).resolve()
    if not imported.is_relative_to(side.pythonpath):
        raise SystemExit(
            f"error: side {side.name} ({side.spec}) imported powergrid from {imported}, "
            f"not from inside {side.pythonpath}; something on sys.path (a .pth file, "
            "sitecustomize or an installed copy) shadows PYTHONPATH"
        )
    row: dict[str, Any] = result["rows"][label]
    return row


Results = dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]]


def run_rounds(sides: tuple[Side, Side], args: argparse.Namespace) -> Results:
    """Run every round and return, per row, each side's per-round results.

    Within a round each row runs on both sides back to back, A first on even
    rounds and B first on odd ones, so the two measurements of a pair are
    seconds apart and a change in the machine's load hits both alike. Progress
    goes to stderr so stdout holds only the report.
    """
    results: Results = {label: ([], []) for label in args.rows}
    for round_no in range(args.rounds):
        order = (0, 1) if round_no % 2 == 0 else (1, 0)
        times = []
        for label in args.rows:
            for index in order:
                start = time.perf_counter()
                results[label][index].append(run_side(sides[index], label, args))
                times.append(f"{sides[index].name} {time.perf_counter() - start:.1f}s")
        print(f"round {round_no + 1}/{args.rounds}: {', '.join(times)}", file=sys.stderr)
    return results


def median_of(rounds: list[dict[str, Any]], key: str) -> float:
    """Return the median over the rounds of one figure of a row's results."""
    return statistics.median(float(r[key]) for r in rounds)


def row_line(label: str, a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str:
    """Format one table line from the per-round results of a row on both sides.

    Every figure is a median over the rounds; the spread is min-max of games/s.
    "paired" is the median of each round's own B/A, which cancels load that
    changes slowly between rounds.
    """
    cells = []
    for rounds in (a, b):
        rates = [r["games_per_s"] for r in rounds]
        cells.append(f"{statistics.median(rates):>9.1f} ({min(rates):.1f}-{max(rates):.1f})")
    ratio = median_of(b, "games_per_s") / median_of(a, "games_per_s")
    paired = statistics.median(
        y["games_per_s"] / x["games_per_s"] for x, y in zip(a, b, strict=True)
    )
    # the engine's own speed-up, paired the same way: old engine time over new (both
    # sides run this file's workload, so every row has engine_ms)
    engine = statistics.median(x["engine_ms"] / y["engine_ms"] for x, y in zip(a, b, strict=True))
    times = [median_of(side, key) for key in ("apply_us", "legal_us") for side in (a, b)]
    head = f"{label:<20} {cells[0]:<23} {cells[1]:<23} {ratio:>6.3f} {paired:>6.3f} {engine:>6.3f}"
    return head + "".join(f" {t:>8.1f}" for t in times)


def load_average() -> str:
    """Return the 1-minute load average as text, or "n/a" where the OS has none.

    Other work on the machine is the usual cause of a surprising ratio.
    """
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except (AttributeError, OSError):
        return "n/a"


def report(
    sides: tuple[Side, Side], args: argparse.Namespace, results: Results, load_before: str
) -> None:
    """Print the header, one table line per row and a note for rows whose games differ.

    Games differ when the sides' action counts for a row differ: their rules
    (or their random streams) disagree, so the row compares different work.
    """
    print(
        f"powergrid speed comparison, Python {platform.python_version()} on {platform.platform()}"
    )
    for side in sides:
        print(f"  {side.name} = {side.spec}: {side.describe}")
    last = args.seed + args.games - 1
    print(f"{args.rounds} rounds, {args.games} games per row and side, seeds {args.seed}..{last}")
    print(f"{args.warmup} untimed warm-up game(s) per row and process")
    print(f"load average (1 min) before {load_before}, after {load_average()}")
    print()
    print(
        f"{'row':<20} {'A games/s':>9} {'(min-max)':<13} {'B games/s':>9} {'(min-max)':<13}"
        f" {'B/A':>6} {'paired':>6} {'engine':>6}"
        f" {'A apply':>8} {'B apply':>8} {'A legal':>8} {'B legal':>8}"
    )
    print(f"{'':<89}(median microseconds per call)")
    notes = []
    for label in args.rows:
        a, b = results[label]
        print(row_line(label, a, b))
        if a[0]["actions"] != b[0]["actions"]:
            notes.append(
                f"note: {label}: A played {a[0]['actions']} actions, B {b[0]['actions']}; "
                "the sides play different games (different rules?), so this row is not like "
                "with like"
            )
    print()
    print(
        "B/A: ratio of the median games/s, above 1 means B is faster; paired: median of the\n"
        "rounds' own B/A; engine: the same paired ratio for the time inside legal_actions and\n"
        "apply alone (the policy and the clock reads left out). On a busy machine all three\n"
        "can be 10-20% off even for identical sides: check the spreads and the load, and run\n"
        "again before trusting a small difference.\n"
        "Nothing here asserts on speed."
    )
    for note in notes:
        print(note)


def parse(argv: list[str] | None) -> argparse.Namespace:
    """Parse the command line; exits with usage (code 2) on bad arguments.

    In workload mode the two sides are not needed.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("a", nargs="?", help="side A: git revision or directory")
    parser.add_argument("b", nargs="?", help="side B: git revision or directory")
    parser.add_argument("--rounds", type=int, default=MIN_ROUNDS, help="rounds, at least 5 (5)")
    parser.add_argument("--games", type=int, default=100, help="games per row and side (100)")
    parser.add_argument(
        "--rows",
        default=DEFAULT_ROWS,
        help=f"components/map/players[/extra] ({DEFAULT_ROWS}; extra: {', '.join(EXTRAS)})",
    )
    parser.add_argument("--seed", type=int, default=0, help="first game seed (0)")
    parser.add_argument(
        "--warmup",
        type=int,
        default=1,
        help="untimed games per row and process before the timed ones (1; 100: full caches)",
    )
    parser.add_argument("--workload", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    try:
        for label in args.rows:
            parse_row(label)
    except ValueError as err:
        parser.error(str(err))
    if not args.rows:
        parser.error("--rows names no row")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.warmup < 1:
        parser.error("--warmup must be at least 1 (game 0 loads the data)")
    if not args.workload:
        if args.a is None or args.b is None:
            parser.error("name two sides, e.g. 7437d42 HEAD")
        if args.rounds < MIN_ROUNDS:
            parser.error(f"--rounds must be at least {MIN_ROUNDS}: fewer give no usable median")
    return args


def main(argv: list[str] | None = None) -> int:
    """Compare two sides (or, with --workload, run the measured workload).

    Returns 0 on success; errors exit through SystemExit with a message.
    """
    args = parse(argv)
    if args.workload:
        return workload(args.rows, args.games, args.seed, args.warmup)
    with contextlib.ExitStack() as stack:
        sides = (resolve_side("A", args.a, stack), resolve_side("B", args.b, stack))
        load_before = load_average()
        results = run_rounds(sides, args)
    report(sides, args, results, load_before)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
