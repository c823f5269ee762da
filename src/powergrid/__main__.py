"""Command line: ``python -m powergrid`` with ``play``, ``replay``, ``show`` and ``arena``.

``play`` plays a full game between bots (``--record FILE`` saves it as a
:class:`~powergrid.GameRecord`); ``replay`` re-plays a record, checking every
action, and prints the same round summaries as ``play``; ``show`` prints the
state after a record (optionally as one seat sees it, with its legal actions);
``arena`` plays many seeded games between policies (:mod:`powergrid.arena_cli`).

Exit codes: 0 on success; 2 for usage errors, a missing or unreadable file, an
invalid record, a configuration the rules reject and an illegal action in a
record (one line ``error: <message>`` on stderr); 1 for unexpected errors.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TextIO

from powergrid.actions import Action
from powergrid.arena_cli import add_arena_parser, run_arena_command
from powergrid.bots import GreedyBot, RandomBot
from powergrid.catalog import map_ids
from powergrid.cli_errors import UserError
from powergrid.cli_text import final, header, narrate, show_lines, where_it_ends
from powergrid.config import GameConfig
from powergrid.deck import Deck, DeckChoice
from powergrid.engine import apply, current_player, new_game, outcome
from powergrid.errors import IllegalAction, InvalidRecord, RulesConfigError
from powergrid.phases.common import name
from powergrid.records import GameRecord, replay, states
from powergrid.serialize import from_json, to_json
from powergrid.state import GameState

#: Safety bound on the number of actions in one game (bot games take a few hundred).
MAX_ACTIONS = 100_000


class Bot(Protocol):
    """Anything with ``choose(state) -> Action`` (see :mod:`powergrid.bots`)."""

    def choose(self, state: GameState) -> Action:
        """Return a legal action for the player to act."""
        ...


BOT_KINDS: dict[str, type[GreedyBot] | type[RandomBot]] = {"greedy": GreedyBot, "random": RandomBot}


def _parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """Build the top-level parser; return it and its ``play`` subparser."""
    parser = argparse.ArgumentParser(
        prog="python -m powergrid",
        description="Power Grid rules engine: play games between bots, replay and show records, "
        "run arenas of many games.",
        epilog="Exit codes: 0 success, 2 usage or input error, 1 unexpected error.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = sub.add_parser(
        "play",
        help="play a full game between bots and print a summary per round",
        description=(
            "Play a full seeded game between bots. By default seat 0 is a greedy bot and "
            "the seats after it alternate random, greedy, random, ... (even seats greedy, "
            "odd seats random). The bot in seat N gets seed 100 * SEED + N."
        ),
    )
    play.add_argument("--players", type=int, default=4, help="number of players, 2-6 (4)")
    play.add_argument("--map", default="europe", help=f"map: {' or '.join(map_ids())} (europe)")
    play.add_argument("--seed", type=int, default=0, help="game seed (0)")
    play.add_argument(
        "--bots",
        default=None,
        help="comma-separated bot per seat: greedy or random; one name means every seat",
    )
    play.add_argument(
        "--components", default=None, help="component set: deluxe or classic (deluxe)"
    )
    play.add_argument(
        "--deck",
        metavar="FILE",
        action="append",
        default=None,
        help="a plant deck (a Deck JSON document); give it twice for variant M or P. Plays "
        "the classic components with the custom_deck module (RULES.md section 10)",
    )
    play.add_argument(
        "--variant",
        choices=("M", "P", "free"),
        default=None,
        help="how the decks make the game's deck: M (mixed, inactive area), P (plus "
        "plants), free (one deck as given; the default with one --deck)",
    )
    play.add_argument(
        "--cities",
        default=None,
        help="comma-separated city ids in play instead of regions (variant P, CDK-16)",
    )
    play.add_argument(
        "--quiet", action="store_true", help="print only the final ranking, no round summaries"
    )
    play.add_argument(
        "--record", metavar="FILE", default=None, help="write the game record (JSON) to FILE"
    )
    _record_parsers(sub)
    add_arena_parser(sub)
    return parser, play


def _record_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` and ``show`` subparsers."""
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


def _bot_names(parser: argparse.ArgumentParser, spec: str | None, players: int) -> list[str]:
    """Return the bot kind per seat from ``--bots`` (usage errors exit via the parser)."""
    if spec is None:
        return ["greedy" if seat % 2 == 0 else "random" for seat in range(max(players, 0))]
    names = [part.strip().lower() for part in spec.split(",")]
    unknown = [n for n in names if n not in BOT_KINDS]
    if unknown:
        parser.error(f"unknown bot {unknown[0]!r}; choose from {', '.join(BOT_KINDS)}")
    if len(names) == 1:
        return names * max(players, 0)
    if len(names) != players:
        parser.error(f"--bots names {len(names)} bots for {players} players")
    return names


def bot_states(
    state: GameState, bots: Sequence[Bot], played: list[Action] | None = None
) -> Iterator[GameState]:
    """Yield each state after one bot move until the game ends.

    Every chosen action is appended to ``played`` if given. Raises
    ``RuntimeError`` if the game exceeds :data:`MAX_ACTIONS` actions.
    """
    count = 0
    while outcome(state) is None:
        count += 1
        if count > MAX_ACTIONS:
            raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")
        seat = current_player(state)
        assert seat is not None
        action = bots[seat].choose(state)
        if played is not None:
            played.append(action)
        state = apply(state, action)
        yield state


def play_config(args: argparse.Namespace) -> GameConfig:
    """The config ``play`` asks for: players, map, components, and a customised deck."""
    if args.deck is None:
        if args.variant is not None or args.cities is not None:
            raise UserError("--variant and --cities go with --deck FILE (a customised deck)")
        components = args.components or "deluxe"
        return GameConfig(players=args.players, map=args.map, components=components)
    decks = [load_deck(path) for path in args.deck]
    variant = args.variant or ("free" if len(decks) == 1 else None)
    if variant is None:
        raise UserError("two decks make variant M or P: say which with --variant")
    cities = None if args.cities is None else [c.strip() for c in args.cities.split(",")]
    return GameConfig(
        players=args.players,
        map=args.map,
        components=args.components or "classic",
        modules=("custom_deck",),
        deck=DeckChoice(variant=variant, decks=decks),
        cities=cities,
    )


def _document(path: str) -> object:
    """The JSON document in ``path``: UserError when unreadable, InvalidRecord naming it."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        return from_json(data)
    except InvalidRecord as err:
        raise InvalidRecord(str(err), path=path) from None


def load_deck(path: str) -> Deck:
    """Read the :class:`~powergrid.Deck` document in ``path`` (UserError or InvalidRecord)."""
    deck = _document(path)
    if not isinstance(deck, Deck):
        raise InvalidRecord(f"the document is a {type(deck).__name__}, not a Deck", path=path)
    return deck


def _play(args: argparse.Namespace, kinds: list[str], out: TextIO) -> int:
    config = play_config(args)
    state = new_game(config, seed=args.seed)
    bots: list[Bot] = [
        BOT_KINDS[kind](seed=args.seed * 100 + seat) for seat, kind in enumerate(kinds)
    ]
    header(state, args.seed, out)
    print("Bots: " + ", ".join(f"{name(state, s)} {k}" for s, k in enumerate(kinds)), file=out)
    print(file=out)
    played: list[Action] = []
    later = list(bot_states(state, bots, played))  # the whole game before any summary,
    if args.record is not None:  # so the record is written even if stdout closes early
        record = GameRecord(config=config, seed=args.seed, actions=played)
        _write(args.record, to_json(record, indent=2) + "\n")
    state = narrate(state, later, out, quiet=args.quiet)
    result = outcome(state)
    assert result is not None
    final(state, result, out)
    return 0


def _write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (UserError when that fails)."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror or err}") from None


def load_record(path: str) -> GameRecord:
    """Read and decode the :class:`~powergrid.GameRecord` in ``path``.

    Raises :class:`UserError` when the file cannot be read and
    :class:`~powergrid.InvalidRecord` (prefixed with the path) when it does not
    hold a record of this library's format and rule versions.
    """
    record = _document(path)
    if not isinstance(record, GameRecord):
        kind = type(record).__name__
        raise InvalidRecord(f"the document is a {kind}, not a GameRecord", path=path)
    try:
        next(states(record))  # checks the format and rule versions, starts the game
    except InvalidRecord as err:
        raise InvalidRecord(str(err), path=path) from None
    return record


def _replay(args: argparse.Namespace, out: TextIO) -> int:
    record = load_record(args.file)
    steps = states(record)
    start = next(steps)
    header(start, record.seed, out)
    print(f"Record: {len(record.actions)} actions from {args.file}", file=out)
    print(file=out)
    state = _checked(args.file, lambda: narrate(start, steps, out, quiet=args.quiet))
    result = outcome(state)
    if result is not None:
        final(state, result, out)
    else:
        print(where_it_ends(state), file=out)
    return 0


def _checked(path: str, run: Callable[[], GameState]) -> GameState:
    """Run a replay; an illegal action becomes an IllegalAction naming the file."""
    try:
        return run()
    except IllegalAction as err:
        raise IllegalAction(f"{path}: {err}", reason=err.reason, action=err.action) from None


def _show(args: argparse.Namespace, out: TextIO) -> int:
    record = load_record(args.file)
    state = _checked(args.file, lambda: replay(record))
    seat = None if args.seat is None else _seat(state, args.seat)
    for line in show_lines(state, seat):
        print(line, file=out)
    return 0


def _seat(state: GameState, text: str) -> int:
    """The seat ``--as`` names: a seat number or a configured player name."""
    players = len(state.players)
    names = state.config.names or ()
    if text in names:
        return names.index(text)
    try:
        seat = int(text)
    except ValueError:
        seat = -1
    if 0 <= seat < players:
        return seat
    raise UserError(f"--as {text!r}: no such seat; seats are 0 to {players - 1}")


def _run(args: argparse.Namespace, kinds: list[str]) -> int:
    """Dispatch to the subcommand; errors propagate to :func:`main`."""
    if args.command == "play":
        return _play(args, kinds, sys.stdout)
    if args.command == "replay":
        return _replay(args, sys.stdout)
    if args.command == "arena":
        return run_arena_command(args, sys.stdout)
    return _show(args, sys.stdout)


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code.

    ``--help`` returns 0; usage errors print argparse's message and return 2; a
    file that cannot be read, an invalid record, a configuration the rules reject
    or an illegal action in a record prints one line ``error: <message>`` and
    returns 2; anything unexpected prints a traceback and returns 1.
    """
    parser, play = _parsers()
    try:
        args = parser.parse_args(argv)
        kinds = _bot_names(play, args.bots, args.players) if args.command == "play" else []
    except SystemExit as stop:  # --help or a usage error
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    try:
        return _run(args, kinds)
    except (UserError, InvalidRecord, RulesConfigError, IllegalAction) as err:
        sys.stdout.flush()
        print(f"error: {_one_line(str(err))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as err:
        traceback.print_exc()
        print(f"error: unexpected {type(err).__name__}: {err}", file=sys.stderr)
        return 1


def _one_line(message: str) -> str:
    """Collapse a message onto one line (a file name may hold a newline)."""
    return " ".join(message.split())


if __name__ == "__main__":
    raise SystemExit(main())
