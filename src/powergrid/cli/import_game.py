"""``python -m powergrid import``: game records from exports of other sites (boardgamers).

The summary names the game and its winner, then lists, numbered, every place
where the export's engine did something other than our rules
(:func:`powergrid.interop.boardgamers.final.difference_lines`), each known one
with the rule behind it. ``--out OUT`` writes a new file: an existing one is replaced only with
``--force``, and the write is atomic (:func:`powergrid.cli.files.write_text`).
"""

from __future__ import annotations

import argparse
from typing import TextIO

from powergrid.cli.errors import UserError
from powergrid.cli.files import BAD_NAME, check_new, check_writable, write_text
from powergrid.engine.game import outcome
from powergrid.errors import InvalidRecord
from powergrid.formats.records import replay
from powergrid.formats.serialize import to_json
from powergrid.formats.text import count
from powergrid.interop.boardgamers import ImportedGame, import_game, read_export
from powergrid.interop.boardgamers.final import difference_lines


def add_import_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``import boardgamers FILE [--out OUT]``."""
    parser = sub.add_parser(
        "import",
        help="turn a game exported by another site into a game record",
        description="Turn a game exported by another site into a game record with explicit "
        "chance (its draws as the export logged them), checking every move against the rules.",
    )
    sources = parser.add_subparsers(dest="source", required=True, metavar="SOURCE")
    bg = sources.add_parser(
        "boardgamers",
        help="a boardgamers.space game export (original or Recharged, USA or Germany)",
        description="Import a boardgamers.space game export (a JSON GameState of the "
        "original rules or of Recharged, on the USA or Germany board) as a GameRecord to "
        "OUT or standard output; a summary and a numbered list of the differences between "
        "that engine and our rules go to standard error when the record goes to standard "
        "output.",
    )
    bg.add_argument("file", metavar="FILE", help="the export, a JSON file")
    bg.add_argument("--out", metavar="OUT", help="write the record to OUT (a new file)")
    bg.add_argument("--force", action="store_true", help="let --out replace an existing OUT")


def run_import(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Read, convert and write one export; errors name the file."""
    if args.out is not None:
        if not args.force:
            check_new(args.out, hint="add --force to replace it")
        check_writable(args.out)
    try:
        export = read_export(args.file)
    except OSError as error:
        raise UserError(f"cannot read {args.file}: {error.strerror or error}") from None
    except ValueError:  # a NUL, or a lone surrogate the file system cannot encode
        raise UserError(f"cannot read {args.file}: {BAD_NAME}") from None
    try:
        game = import_game(export)
    except InvalidRecord as error:
        raise InvalidRecord(f"{args.file}: {error}") from None
    text = to_json(game.record, indent=2) + "\n"
    if args.out is None:
        out.write(text)
        summary = err
    else:
        write_text(args.out, text)
        summary = out
    print(_summary(args.file, game), file=summary)
    lines = difference_lines(export, game)
    if lines:
        print(
            f"{count(len(lines), 'difference')} from the export (docs: Conformance):",
            file=summary,
        )
        for n, line in enumerate(lines, 1):
            print(f"  {n}. {line}", file=summary)
    if args.out is not None:
        print(f"Wrote the record to {args.out}", file=summary)
    return 0


def _summary(path: str, game: ImportedGame) -> str:
    state = replay(game.record)
    cfg = game.record.config
    head = (
        f"Imported {count(game.moves, 'log entry', 'log entries')} of {path}: "
        f"{cfg.players} players "
        f"({', '.join(game.names)}) on {cfg.map} ({', '.join(state.regions)}), "
        f"{count(len(game.record.actions), 'action')}"
    )
    if game.stopped is not None:
        return f"{head}; stopped: {game.stopped}."
    result = outcome(state)
    if result is None:
        return f"{head}; the export ends in round {state.round}, before the game does."
    winners = " and ".join(game.names[s] for s in result.winners)
    return f"{head}; finished in round {state.round}, {winners} won."
