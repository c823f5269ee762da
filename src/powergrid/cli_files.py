"""The command line's files: reading records and decks, replaying them, writing text.

Every failure is a :class:`~powergrid.cli_errors.UserError` (a file that
cannot be read or written) or an :class:`~powergrid.InvalidRecord` naming the
file (a document that is not what the command needs), so the command line
reports it in one line with exit code 2.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from powergrid.cli_errors import UserError
from powergrid.deck import Deck
from powergrid.errors import IllegalAction, InvalidRecord
from powergrid.records import GameRecord, states
from powergrid.serialize import from_json

T = TypeVar("T")


def read_document(path: str) -> object:
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
    deck = read_document(path)
    if not isinstance(deck, Deck):
        raise InvalidRecord(f"the document is a {type(deck).__name__}, not a Deck", path=path)
    return deck


def load_record(path: str) -> GameRecord:
    """Read and decode the :class:`~powergrid.GameRecord` in ``path``.

    Raises :class:`UserError` when the file cannot be read and
    :class:`~powergrid.InvalidRecord` (prefixed with the path) when it does not
    hold a record of this library's format and rule versions. The actions are
    not checked here: replaying them does that.
    """
    record = read_document(path)
    if not isinstance(record, GameRecord):
        kind = type(record).__name__
        raise InvalidRecord(f"the document is a {kind}, not a GameRecord", path=path)
    try:
        next(states(record))  # checks the format and rule versions, starts the game
    except InvalidRecord as err:
        raise InvalidRecord(str(err), path=path) from None
    return record


def checked(path: str, run: Callable[[], T]) -> T:
    """Run a replay of the record in ``path``; an illegal action becomes one naming the file."""
    try:
        return run()
    except IllegalAction as err:
        raise IllegalAction(f"{path}: {err}", reason=err.reason, action=err.action) from None


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path``, replacing the file (UserError when that fails)."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror or err}") from None


def check_writable(path: str) -> None:
    """Raise UserError unless ``path`` can be written; leave no new file behind.

    Run before a game starts, so a bad ``--record`` path is reported at once
    instead of after the whole game. An existing file is opened for appending,
    which changes nothing in it.
    """
    existed = os.path.lexists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror or err}") from None
    if not existed:
        os.remove(path)
