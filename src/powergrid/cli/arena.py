"""``python -m powergrid arena``: many seeded games between policies, and their summary.

``--bots greedy,random,random,random`` names one policy per seat (so the
player count), each a built-in bot or ``module:callable``; ``--games``,
``--seed``, ``--workers N`` (a process pool when above 1), ``--ray
[ADDRESS]`` (Ray; a local instance without an address), ``--config FILE``
(a GameConfig JSON document) or ``--map`` / ``--components``,
``--records DIR`` (one record per game, written as the games finish) and
``--full-information`` (policies see the real states, deck order included,
instead of states determinized for their seats).
"""

from __future__ import annotations

import argparse
import gc
import pathlib
import sys
from typing import TextIO

from powergrid.arena import ArenaResult, Backend, Progress, run_arena
from powergrid.cli.errors import UserError
from powergrid.cli.files import write_text
from powergrid.config import GameConfig
from powergrid.errors import InvalidRecord, RulesConfigError
from powergrid.formats.serialize import from_json, to_json
from powergrid.formats.text import count


def add_arena_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``arena`` subparser."""
    arena = sub.add_parser(
        "arena",
        help="play many seeded games between policies and print win rates",
        description=(
            "Play seeded games between policies, rotating the seats game by game, and print "
            # argparse %-formats only argument help, so a description takes a plain %
            "per policy its games, wins (a shared win counts 1/k), win rate with a 95% "
            "Wilson interval, mean powered cities, mean place and mean game length. Game i "
            "has seed SEED + i. The same seeds give the same results on every backend."
        ),
    )
    arena.add_argument(
        "--bots",
        required=True,
        help="comma-separated policy per seat: greedy, random or module:callable",
    )
    arena.add_argument("--games", type=int, default=100, help="number of games (100)")
    arena.add_argument("--seed", type=int, default=0, help="seed of game 0 (0)")
    arena.add_argument(
        "--workers", type=int, default=1, help="processes; above 1 plays on a pool (1)"
    )
    arena.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help='play on Ray (pip install "powergrid-rules[ray]"); a local instance without ADDRESS',
    )
    arena.add_argument("--config", metavar="FILE", help="a GameConfig JSON document")
    arena.add_argument("--map", default=None, help="map (europe), unless --config")
    arena.add_argument(
        "--components", default=None, help="deluxe, classic or recharged, unless --config"
    )
    arena.add_argument("--records", metavar="DIR", help="write every game's record to DIR")
    arena.add_argument(
        "--full-information",
        action="store_true",
        help=(
            "give every policy the real state, deck order included (research only); by "
            "default a policy gets a state determinized for its seat"
        ),
    )
    arena.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )


def run_arena_command(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``arena`` with parsed arguments; print the summary to ``out``; the exit code.

    With ``args.owns_process`` (set by :func:`powergrid.cli.main.console`) the
    in-process games ``gc.freeze()`` after the first (:func:`_freezing`).
    """
    policies = [p.strip() for p in args.bots.split(",") if p.strip()]
    config = _config(args, len(policies))
    if args.games < 0:
        raise UserError(f"--games must be 0 or more, not {args.games}")
    if args.workers < 1:
        raise UserError(f"--workers must be 1 or more, not {args.workers}")
    records = _records_dir(args.records)
    backend: Backend = (
        "ray" if args.ray is not None else "pool" if args.workers > 1 else "inprocess"
    )
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress: Progress | None = _bar if show else None
    if backend == "inprocess" and getattr(args, "owns_process", False):
        progress = _freezing(progress)
    try:
        result = run_arena(
            policies,
            args.games,
            config=config,
            seed=args.seed,
            backend=backend,
            workers=args.workers if backend != "inprocess" else None,
            ray_address=args.ray or None,
            records=records is not None,
            progress=progress,
            full_information=args.full_information,
        )
    except (ValueError, RuntimeError) as err:
        raise UserError(str(err)) from None
    finally:
        if show:
            print(file=sys.stderr)
    _report(result, backend, out)
    if records is not None:
        _write_records(result, records, out)
    return 0


#: What ``--bots`` looks like, for a message that says how to fix it.
BOTS_EXAMPLE = "--bots greedy,random for 2 players or --bots greedy,random,random,random for 4"


def _config(args: argparse.Namespace, players: int) -> GameConfig:
    if args.config is None:
        try:
            return GameConfig(
                players=players, map=args.map or "europe", components=args.components or "deluxe"
            )
        except RulesConfigError as err:
            if err.field != "players":
                raise
            # the seats are the policies named: say so, and how to name them
            raise UserError(
                f"--bots names {count(players, 'policy', 'policies')} and each plays one seat, "
                f"but {err}: name one policy per player, e.g. {BOTS_EXAMPLE}"
            ) from None
    if args.map is not None or args.components is not None:
        raise UserError("--map and --components go without --config (the config names them)")
    try:
        text = pathlib.Path(args.config).read_text(encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot read {args.config}: {err.strerror or err}") from None
    config = from_json(text)
    if not isinstance(config, GameConfig):
        raise InvalidRecord(f"{args.config} holds a {type(config).__name__}, not a GameConfig")
    if config.players != players:
        raise UserError(
            f"--bots names {count(players, 'policy', 'policies')} for the "
            f"{config.players}-player config: name one per seat"
        )
    return config


def _records_dir(path: str | None) -> pathlib.Path | None:
    """The records directory, made and checked for writing before any game is played."""
    if path is None:
        return None
    folder = pathlib.Path(path)
    probe = folder / ".powergrid-write-test"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as err:
        raise UserError(f"cannot write records to {path}: {err.strerror or err}") from None
    return folder


def _freezing(progress: Progress | None) -> Progress:
    """``progress`` that also ``gc.freeze()``s once, after the first game finishes.

    Only where the command owns its process (the console script, ``python -m
    powergrid``; not :func:`powergrid.cli.main.main` called from Python, where a
    frozen heap would keep the caller's garbage for good): what outlives the
    first game (modules, rule tables, the caches of plants, hands and networks)
    then lives until the process ends, and the garbage collector stops walking
    it, as in a pool worker (:func:`powergrid.arena.backends.pool_chunk`).
    """

    def report(done: int, total: int) -> None:
        if done == 1 and not gc.get_freeze_count():
            gc.freeze()
        if progress is not None:
            progress(done, total)

    return report


def _bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // total if total else width
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    sys.stderr.flush()


def _report(result: ArenaResult, backend: str, out: TextIO) -> None:
    label = result.config.label
    full = ", full information" if result.full_information else ""
    print(
        f"Arena: {count(len(result.games), 'game')} of {label}, seeds {result.seed}.., "
        f"{backend}{full}",
        file=out,
    )
    print(result.table(), file=out)


def _write_records(result: ArenaResult, folder: pathlib.Path, out: TextIO) -> None:
    for game in result.games:
        assert game.record is not None
        path = folder / f"game-{game.index:05d}.json"
        write_text(str(path), to_json(game.record, indent=2))
    print(f"Wrote {count(len(result.games), 'record')} to {folder}", file=out)
