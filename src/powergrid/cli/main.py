"""Command line: ``powergrid`` or ``python -m powergrid``, a dispatcher of its commands.

``play`` plays a game between bots, or with human seats at the prompt
(:mod:`powergrid.cli.play`, :mod:`powergrid.cli.human`); ``replay`` re-plays a
record, checking every action, and prints the same round summaries as
``play``; ``show`` prints the state after a record (optionally as one seat
sees it, with its legal actions); ``record cut`` writes a record cut after K
actions; ``arena`` plays many seeded games between policies
(:mod:`powergrid.cli.arena`); ``import boardgamers`` turns a game exported by
boardgamers.space into a record (:mod:`powergrid.cli.import_game`); ``rule`` prints
an entry of the rules specification that messages cite, by its ID
(:mod:`powergrid.cli.rule`).

Every file a command writes is written all at once or not at all
(:func:`powergrid.cli.files.write_text`); a game record replaces only an
earlier save of the same game, other files only with ``--force``.

Exit codes: 0 on success (also when the output is a pipe closed early, and
when a human game is left at ``quit`` or the end of the input, saved); 2 for
usage errors, a missing or unreadable file, a file that cannot be written or
may not be replaced, an invalid record, a configuration the rules reject and
an illegal action in a record (one line ``error: <message>`` on stderr,
non-printable characters escaped); 130 after Ctrl-C anywhere, 143 after
SIGTERM and 129 after SIGHUP in a game (a game saved first; one line on
stderr, or the resume command at the prompt); 1 for unexpected errors.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import traceback
from typing import TextIO

import attrs

from powergrid import svg
from powergrid.actions import Reveal
from powergrid.cli.arena import add_arena_parser, run_arena_command
from powergrid.cli.errors import UserError, printable
from powergrid.cli.files import check_new, check_writable, checked, load_record, write_text
from powergrid.cli.import_game import add_import_parser, run_import
from powergrid.cli.play import add_play_parser, prepare_play, run_play
from powergrid.cli.rule import add_rule_parser, run_rule
from powergrid.cli.signals import Stopped
from powergrid.cli.start import python_interrupts_again
from powergrid.engine.game import chance_outcomes, outcome
from powergrid.engine.views import view
from powergrid.errors import IllegalAction, InvalidRecord, RulesConfigError
from powergrid.formats.records import GameRecord, replay, states
from powergrid.formats.serialize import to_json
from powergrid.formats.text import count, header, narrate, show_lines, where_it_ends
from powergrid.formats.text import final as final_ranking
from powergrid.frozen import evolve
from powergrid.state import GameState
from powergrid.version import __version__

#: The program name usage lines give when not run as the ``powergrid`` console script.
MODULE_PROG = "python -m powergrid"


def program_name() -> str:
    """The command the user typed: ``powergrid`` for the console script, else ``python -m ...``."""
    base = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    for suffix in (".exe", "-script.py"):  # how installers name scripts on Windows
        base = base.removesuffix(suffix)
    return "powergrid" if base == "powergrid" else MODULE_PROG


def build_parser(prog: str = MODULE_PROG) -> argparse.ArgumentParser:
    """The parser of the whole command line, its usage lines naming ``prog``."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Power Grid rules engine: play games (against bots or at the prompt), "
        "replay, show and cut records, run arenas of many games, import games played "
        "elsewhere.",
        epilog="Exit codes: 0 success, 2 usage or input error, 130 interrupted (Ctrl-C), "
        "143 terminated (SIGTERM), 129 hung up (SIGHUP), 1 unexpected error.",
    )
    parser.add_argument(
        "--version", action="version", version=f"powergrid {__version__}", help="print the version"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_play_parser(sub)
    _record_parsers(sub)
    add_arena_parser(sub)
    add_import_parser(sub)
    add_rule_parser(sub)
    return parser


def _record_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay``, ``show`` and ``record`` subparsers."""
    rep = sub.add_parser(
        "replay",
        help="replay a game record, checking every action, with a summary per round",
        description=(
            "Replay a game record (as written by 'play --record' or powergrid.to_json), "
            "checking every action against the rules, and print the rounds like 'play'. "
            "Ends with the final ranking, or with where the record stops mid-game."
        ),
    )
    rep.add_argument("file", metavar="FILE", help="the record, a GameRecord JSON document")
    rep.add_argument(
        "--quiet", action="store_true", help="print only the ending, no round summaries"
    )
    rep.add_argument(
        "--html",
        metavar="OUT",
        help="also write the game as one self-contained HTML page to OUT, to step through "
        "it action by action and round by round in any browser",
    )
    rep.add_argument("--force", action="store_true", help="let --html replace an existing OUT")
    show = sub.add_parser(
        "show",
        help="print the state after a game record as readable text",
        description=(
            "Print the public state after all actions of a game record: players, plant "
            "market, resource market. With --as, also what that seat may do now."
        ),
    )
    show.add_argument("file", metavar="FILE", help="the record, a GameRecord JSON document")
    show.add_argument(
        "--as",
        dest="seat",
        metavar="SEAT",
        default=None,
        help="seat number (or configured name) whose legal actions and build costs to list",
    )
    show.add_argument(
        "--svg",
        metavar="OUT",
        help="also write the picture of the game to OUT (SVG); with --as, what that seat "
        "sees, with its network and build costs",
    )
    show.add_argument("--force", action="store_true", help="let --svg replace an existing OUT")
    record = sub.add_parser("record", help="edit game records: cut one after K actions")
    tools = record.add_subparsers(dest="tool", required=True, metavar="TOOL")
    cut = tools.add_parser(
        "cut",
        help="write a record cut after its first K actions",
        description="Write the record of FILE cut after its first K actions (0 to its length), "
        "checking them, to OUT or standard output. 'play --resume' continues a cut record.",
    )
    cut.add_argument("file", metavar="FILE", help="the record, a GameRecord JSON document")
    cut.add_argument("--upto", metavar="K", type=int, required=True, help="actions to keep")
    cut.add_argument("--out", metavar="OUT", help="write the cut record to OUT (a new file)")
    cut.add_argument("--force", action="store_true", help="let --out replace an existing OUT")


def _replay(args: argparse.Namespace, out: TextIO) -> int:
    record = load_record(args.file)
    if args.html is not None:
        if not args.force:
            check_new(args.html, hint="add --force to replace it")
        check_writable(args.html)
    steps = states(record)
    start = next(steps)
    header(_as_headed(start, record), record.seed, out)
    print(f"Record: {count(len(record.actions), 'action')} from {args.file}", file=out)
    print(file=out)
    state = checked(args.file, lambda: narrate(start, steps, out, quiet=args.quiet))
    result = outcome(state)
    if result is not None:
        final_ranking(state, result, out)
    else:
        print(where_it_ends(state), file=out)
    if args.html is not None:
        write_text(args.html, svg.replay_page(record))
        print(f"Wrote the replay page to {args.html}", file=out)
    return 0


def _as_headed(start: GameState, record: GameRecord) -> GameState:
    """The start as the header shows it: with the play area the record's chance picks.

    With explicit chance the area is a chance point (SET-04) and the start
    state holds a placeholder; the header names the record's outcome, or says
    the area is chosen by chance when the record ends before it.
    """
    pending = chance_outcomes(start) if start.chance is not None else ()
    if not pending or pending[0][0].event != "area":
        return start
    area = next((a for a in record.actions if isinstance(a, Reveal) and a.event == "area"), None)
    regions = tuple(area.outcome.split(",")) if area else ("play area chosen by chance",)
    return evolve(start, regions=regions)


def _show(args: argparse.Namespace, out: TextIO) -> int:
    record = load_record(args.file)
    state = checked(args.file, lambda: replay(record))
    seat = (
        None
        if args.seat is None
        else _seat(state.config.names or (), len(state.players), args.seat)
    )
    if args.svg is not None:
        if not args.force:
            check_new(args.svg, hint="add --force to replace it")
        check_writable(args.svg)
    for line in show_lines(state, seat):
        print(line, file=out)
    if args.svg is not None:
        shown = state if seat is None else view(state, seat)
        write_text(args.svg, svg.game(shown, seat=seat, reach=seat is not None) + "\n")
        print(f"Wrote the picture to {args.svg}", file=out)
    return 0


def _seat(names: tuple[str, ...], players: int, text: str) -> int:
    """The seat ``--as`` names: a seat number or a configured player name."""
    if text in names:
        return names.index(text)
    seat = int(text) if text.isascii() and text.isdigit() else -1
    if 0 <= seat < players:
        return seat
    raise UserError(f"--as {text!r}: no such seat; seats are 0 to {players - 1}")


def _cut(args: argparse.Namespace, out: TextIO) -> int:
    """``record cut FILE --upto K [--out OUT]``."""
    record = load_record(args.file)
    total = len(record.actions)
    if not 0 <= args.upto <= total:
        raise UserError(
            f"--upto {args.upto}: {args.file} has {count(total, 'action')}, so K is 0 to {total}"
        )
    if args.out is not None:
        if not args.force:
            check_new(args.out, hint="add --force to replace it")
        check_writable(args.out)
    part = attrs.evolve(record, actions=record.actions[: args.upto])
    checked(args.file, lambda: replay(part))
    text = to_json(part, indent=2) + "\n"
    if args.out is None:
        out.write(text)
    else:
        write_text(args.out, text)
        print(
            f"Wrote the first {args.upto} of {count(total, 'action')} of {args.file} to {args.out}",
            file=out,
        )
    return 0


def _run(args: argparse.Namespace, prog: str) -> int:
    """Check the options, then run the subcommand; errors propagate to :func:`main`."""
    out = sys.stdout
    if args.command == "play":
        return run_play(prepare_play(args, prog), out)
    if args.command == "replay":
        return _replay(args, out)
    if args.command == "arena":
        return run_arena_command(args, out)
    if args.command == "record":
        return _cut(args, out)
    if args.command == "import":
        return run_import(args, out, sys.stderr)
    if args.command == "rule":
        return run_rule(args, out)
    return _show(args, out)


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code.

    ``--help`` and ``--version`` return 0; usage errors print argparse's
    message and return 2; a file that cannot be read or written (or may not
    be replaced), an invalid record, a configuration the rules reject, a bad
    seat or bot list or an illegal action in a record print one line
    ``error: <message>`` and return 2, before any game is played; standard
    output closed early (a pipe into ``head``) ends quietly with 0; Ctrl-C
    returns 130 with one line ``interrupted`` (a game with a record says
    where it was saved); SIGTERM and SIGHUP stop a game (saved) with 143 and
    129; anything unexpected prints a traceback and returns 1. The usage
    line names the command typed (:func:`program_name`). Messages are one
    line with their non-printable characters escaped
    (:func:`powergrid.cli.errors.printable`), so no file name or file
    content can drive the terminal.
    """
    return _guarded(argv, owns_process=False)


def console() -> int:
    """The ``powergrid`` console script and ``python -m powergrid``: :func:`main` on ``sys.argv``.

    Here the command owns its process, which ends with it: ``arena`` without
    workers ``gc.freeze()``s after its first game, as a pool worker does
    (:func:`powergrid.cli.arena.run_arena_command`). :func:`main`, called from
    Python (a test, a notebook), leaves the caller's collector alone.
    """
    return _guarded(None, owns_process=True)


def _guarded(argv: list[str] | None, *, owns_process: bool) -> int:
    python_interrupts_again()  # from here on, Ctrl-C is reported below
    try:
        return _main(argv, owns_process)
    except KeyboardInterrupt:  # Ctrl-C anywhere: also while an error is being reported
        return _stop("interrupted", 130)


def _main(argv: list[str] | None, owns_process: bool) -> int:
    prog = program_name()
    try:
        args = build_parser(prog).parse_args(argv)
    except SystemExit as stop:  # --help, --version or a usage error
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    args.owns_process = owns_process  # read by arena (run_arena_command)
    try:
        code = _run(args, prog)
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
        return code
    except (UserError, InvalidRecord, RulesConfigError, IllegalAction) as err:
        _flush_quietly()
        print(f"error: {printable(_one_line(str(err)))}", file=sys.stderr)
        return 2
    except Stopped as stop:  # a game stopped by a signal, saved: the message says where
        return _stop(str(stop), stop.exit_code)
    except BrokenPipeError:  # e.g. piped into `head`: the reader has all it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as err:
        traceback.print_exc()
        print(f"error: unexpected {type(err).__name__}: {printable(str(err))}", file=sys.stderr)
        return 1


def _stop(message: str, code: int) -> int:
    """Report a stop signal in one line on stderr and return its exit code."""
    _flush_quietly()
    with contextlib.suppress(OSError, ValueError):  # a terminal that hung up takes no message
        print(printable(_one_line(message)), file=sys.stderr)
    return code


def _flush_quietly() -> None:
    """Flush what was printed before an error; a closed output has nothing to lose.

    When the flush fails, standard output is pointed at the null device so
    the interpreter's own flush at exit does not fail again.
    """
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())


def _one_line(message: str) -> str:
    """Collapse a message onto one line (a file name may hold a newline)."""
    return " ".join(message.split())
