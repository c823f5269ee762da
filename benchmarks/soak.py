"""Soak: thousands of seeded games over every configuration, every invariant checked.

Run: python benchmarks/soak.py [--games 100] [--seed 0] [--workers 1]
     [--configs classic/europe/4,deluxe/north_america]

Configurations: every player count 2-6 x every component set in
powergrid.config.COMPONENT_SETS x each board it plays (``powergrid.testing.maps_of``:
Deluxe on Europe and North America, Recharged on its own Germany and USA, classic on
the rest; 2-player Deluxe games play the fund, their default); then classic with
option seed_thresholds for 2 and 3 players on every classic map; when the library
offers option map_rules, classic with map_rules on every classic map and count;
2-player Deluxe opted out of the fund (``without={"fund"}``); 2-player Recharged with
each of its options (``trust_refill_as_three``, ``two_player_boardgamers``) and every
count with the experienced start; and the customised
deck's variants M (2-6 players) and P (3-6; its 2-player row is refused, OQ-21) with
the sample decks of ``powergrid.rules.custom_deck.samples``, on the classic boards. A
combination the library refuses (RulesConfigError) is listed as skipped.

Each game plays ``powergrid.testing.playout`` (uniformly random legal actions,
game seed and policy seed both ``seed``) and checks
``powergrid.testing.invariant_violations`` on the new game, after every action
and on the final state, as ``check_game`` does; it does not call check_game
because that stops at the first problem without saying how many actions were
played or where. A game stops at its first problem. The exit code is 1 when any
game broke an invariant or raised, 0 otherwise (2 for bad arguments).

With --workers W > 1 the work is split into (configuration, seed range) chunks
run by a 'spawn' multiprocessing pool; results are merged in task order, so the
report is the same for any W except for the times. This is a script, not part
of ``make test``, and nothing here asserts on speed.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import platform
import sys
import time
from collections.abc import Iterable, Iterator

import powergrid as pg
from powergrid.catalog import extra_module_names
from powergrid.config import COMPONENT_SETS, MAPS, OPTIONS
from powergrid.testing import invariant_violations, playout

try:
    from powergrid.testing import maps_of
except ImportError:  # an older tree: every component set played every board

    def maps_of(components: str) -> tuple[str, ...]:
        return tuple(MAPS)


#: Seeds per task: small enough to keep two workers busy to the end, large
#: enough that pickling and scheduling stay negligible next to the games.
CHUNK = 10
#: How many problems the report prints in full.
SHOW = 10
#: The 2-player Recharged options: the Trust's refill (OQ-R04), no Trust (OQ-R03).
_RECHARGED_2P = frozenset({"trust_refill_as_three", "two_player_boardgamers"})


@dataclasses.dataclass(frozen=True)
class Problem:
    """One broken invariant or exception in one game.

    ``actions`` is how many actions had been applied when it was seen (0: the
    new game). For an exception it counts the action in progress, which may be
    one off when listing or checking (not applying) raised; the seed replays
    the game exactly either way.
    """

    label: str
    seed: int
    actions: int
    text: str
    exception: bool = False


@dataclasses.dataclass
class Tally:
    """Games, actions, problems and time summed over chunks of one or more configurations.

    ``seconds`` is the time spent playing, summed over chunks (CPU-ish, not wall).
    """

    games: int = 0
    actions: int = 0
    problems: list[Problem] = dataclasses.field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        """Add another tally's counts and problems to this one (order is kept)."""
        self.games += other.games
        self.actions += other.actions
        self.problems += other.problems
        self.seconds += other.seconds


@dataclasses.dataclass(frozen=True)
class Task:
    """One unit of work: ``count`` seeds from ``first`` of one configuration."""

    index: int
    label: str
    config: pg.GameConfig
    first: int
    count: int


def build_configs() -> tuple[list[tuple[str, pg.GameConfig]], list[tuple[str, str]]]:
    """Return every soak configuration as (label, GameConfig) and the refused ones.

    Labels read ``components/map/players`` plus ``+option`` per option and
    ``+module`` per rule module, e.g. ``classic/europe/2+seed_thresholds`` or
    ``deluxe/europe/2+fund`` (``+no_modules``: a 2-player Deluxe game opted
    out of the fund). The second list holds (label, reason)
    for combinations GameConfig refuses, so a refusal is reported, not hidden.
    """
    specs: list[tuple[str, str, int, tuple[str, ...], tuple[str, ...] | None]] = [
        (c, m, n, (), None) for c in COMPONENT_SETS for m in maps_of(c) for n in range(2, 7)
    ]
    classic_maps = maps_of("classic")
    specs += [("classic", m, n, ("seed_thresholds",), None) for m in classic_maps for n in (2, 3)]
    # map_rules is new; older trees lack it, and then there is nothing to soak.
    if "map_rules" in OPTIONS:
        specs += [
            ("classic", m, n, ("map_rules",), None) for m in classic_maps for n in range(2, 7)
        ]
    # 2-player Deluxe plays the fund by default (SET-25); its opt-out is soaked too.
    if "fund" in extra_module_names():
        specs += [("deluxe", m, 2, (), ()) for m in maps_of("deluxe")]
    # 2-player Recharged plays the Trust by default (RCH-84); its options and the
    # experienced start (RCH-13) are soaked where the library has them.
    if "trust_refill_as_three" in OPTIONS:
        for m in maps_of("recharged"):
            specs += [("recharged", m, 2, (o,), None) for o in sorted(_RECHARGED_2P)]
    if "experienced_start" in extra_module_names():
        for m in maps_of("recharged"):
            specs += [("recharged", m, n, (), ("experienced_start",)) for n in range(2, 7)]
    built: list[tuple[str, pg.GameConfig]] = []
    refused: list[tuple[str, str]] = []
    # The customised deck with the sample decks (synthetic cards, rules.custom_deck.samples).
    if "custom_deck" in extra_module_names():
        from powergrid.rules.custom_deck.samples import sample_config

        for variant, counts in (("M", range(2, 7)), ("P", range(3, 7))):
            for map_name in classic_maps:
                for players in counts:
                    label = f"classic/{map_name}/{players}+custom_deck_{variant}"
                    built.append((label, sample_config(variant, players, map=map_name)))
    for components, map_name, players, options, modules in specs:
        chosen = {} if modules is None else {"modules": modules}
        try:
            config = pg.GameConfig(
                players=players,
                map=map_name,
                components=components,
                options=frozenset(options),
                **chosen,
            )
        except pg.RulesConfigError as err:
            refused.append((f"{components}/{map_name}/{players}", str(err)))
            continue
        label = f"{components}/{map_name}/{players}" + "".join(f"+{o}" for o in options)
        label += "".join(f"+{m}" for m in config.modules) if config.modules else ""
        label += "+no_modules" if modules == () else ""
        built.append((label, config))
    return built, refused


def soak_game(label: str, config: pg.GameConfig, seed: int) -> tuple[int, list[Problem]]:
    """Play one seeded game, checking every invariant; return (actions, problems).

    Stops at the first broken invariant or exception (later states would only
    repeat it), so ``problems`` is empty or describes that first one.
    """
    applied = 0
    last: tuple[pg.GameState, pg.Action] | None = None
    try:
        for state, action in playout(config, seed, seed):
            # The yielded state has ``applied`` actions behind it.
            found = invariant_violations(state)
            if found:
                return applied, [Problem(label, seed, applied, text) for text in found]
            last = (state, action)
            applied += 1
        if last is not None:
            # playout applies the last action itself but never yields the end state.
            found = invariant_violations(pg.apply(*last))
            if found:
                return applied, [Problem(label, seed, applied, text) for text in found]
    except Exception as err:  # a soak reports every failure and goes on
        return applied, [Problem(label, seed, applied, f"{type(err).__name__}: {err}", True)]
    return applied, []


def run_task(task: Task) -> Tally:
    """Play one task's seeds and return their tally (runs in a worker or in-process).

    A module-level function so the 'spawn' pool can pickle it by name.
    """
    start = time.perf_counter()
    tally = Tally()
    for seed in range(task.first, task.first + task.count):
        actions, problems = soak_game(task.label, task.config, seed)
        tally.games += 1
        tally.actions += actions
        tally.problems += problems
    tally.seconds = time.perf_counter() - start
    return tally


def make_tasks(configs: list[tuple[str, pg.GameConfig]], games: int, seed: int) -> list[Task]:
    """Split every configuration's seed range into CHUNK-sized tasks, in report order."""
    tasks: list[Task] = []
    for label, config in configs:
        for first in range(seed, seed + games, CHUNK):
            count = min(CHUNK, seed + games - first)
            tasks.append(Task(len(tasks), label, config, first, count))
    return tasks


def run_all(tasks: list[Task], workers: int) -> Iterator[tuple[Task, Tally]]:
    """Yield each task with its tally, in task order, whatever the worker count.

    With more than one worker a 'spawn' pool runs the tasks (spawn: no forked
    copies of the parent's state, same behaviour on every platform); imap keeps
    the results in submission order, which makes the merge deterministic.
    """
    if workers == 1:
        for task in tasks:
            yield task, run_task(task)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from zip(tasks, pool.imap(run_task, tasks, chunksize=1), strict=True)


def per_config(results: Iterable[tuple[Task, Tally]]) -> Iterator[tuple[str, Tally]]:
    """Merge consecutive task tallies of the same configuration into one per label."""
    label: str | None = None
    merged = Tally()
    for task, tally in results:
        if task.label != label:
            if label is not None:
                yield label, merged
            label, merged = task.label, Tally()
        merged.add(tally)
    if label is not None:
        yield label, merged


def report(total: Tally, configs: int, refused: list[tuple[str, str]], elapsed: float) -> None:
    """Print the summary: counts, the first SHOW problems in full, games/s and time.

    "after action N": the state after N actions (0: the new game) broke an
    invariant; "at action N": an exception around the Nth action (see Problem).
    """
    failed_games = len({(p.label, p.seed) for p in total.problems})
    print()
    print(
        f"configurations: {configs}" + (f" ({len(refused)} refused, see above)" if refused else "")
    )
    print(f"games:          {total.games}")
    print(f"actions:        {total.actions}")
    raised = sum(p.exception for p in total.problems)
    print(f"violations:     {len(total.problems) - raised}")
    print(f"exceptions:     {raised}")
    print(f"failed games:   {failed_games}")
    for p in total.problems[:SHOW]:
        where = "at action" if p.exception else "after action"
        print(f"  {p.label} seed {p.seed} {where} {p.actions}: {p.text}")
    if len(total.problems) > SHOW:
        print(f"  ... and {len(total.problems) - SHOW} more")
    print(f"games/s:        {total.games / elapsed:.1f}")
    print(f"elapsed:        {elapsed:.1f} s")


def parse(argv: list[str] | None) -> argparse.Namespace:
    """Parse the command line; exits with usage (code 2) on bad arguments."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100, help="games per configuration (100)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (0)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--configs", default="", help="comma-separated substrings; keep labels matching any"
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    args.configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the soak and print the report; return 1 on any problem, else 0."""
    args = parse(argv)
    configs, refused = build_configs()
    if args.configs:
        configs = [(lb, c) for lb, c in configs if any(s in lb for s in args.configs)]
        refused = [(lb, r) for lb, r in refused if any(s in lb for s in args.configs)]
        if not configs:
            print(f"error: no configuration matches {','.join(args.configs)}", file=sys.stderr)
            return 2
    last = args.seed + args.games - 1
    print(f"powergrid {pg.__version__} soak, Python {platform.python_version()}")
    print(
        f"{len(configs)} configurations x {args.games} games, seeds {args.seed}..{last}, ", end=""
    )
    print(f"{args.workers} worker(s); every invariant after every action")
    for label, reason in refused:
        print(f"refused: {label}: {reason}")
    print()
    width = max(len("configuration"), *(len(label) for label, _ in configs))
    print(f"{'configuration':<{width}} {'games':>6} {'actions':>9} {'problems':>8} {'seconds':>8}")
    start = time.perf_counter()
    total = Tally()
    tasks = make_tasks(configs, args.games, args.seed)
    for label, tally in per_config(run_all(tasks, args.workers)):
        print(
            f"{label:<{width}} {tally.games:>6} {tally.actions:>9} {len(tally.problems):>8}"
            f" {tally.seconds:>8.1f}",
            flush=True,
        )
        total.add(tally)
    report(total, len(configs), refused, time.perf_counter() - start)
    return 1 if total.problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
