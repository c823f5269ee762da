"""The command line's files: reading records and decks, replaying them, writing them safely.

Every file the command line writes goes through :func:`write_text`, which
replaces a file all at once or not at all. Before writing over a file,
:func:`check_overwrite` (a game record: only an earlier save of the same
game) and :func:`check_new` (a new document: nothing there) say whether that
loses anything, and :func:`check_writable` whether the write can work.

Every failure is a :class:`~powergrid.cli.errors.UserError` (a file that
cannot be read or written) or an :class:`~powergrid.InvalidRecord` naming the
file (a document that is not what the command needs), so the command line
reports it in one line with exit code 2.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable
from typing import TypeVar

from powergrid.cli.errors import UserError
from powergrid.cli.signals import held_signals
from powergrid.deck import Deck
from powergrid.errors import IllegalAction, InvalidRecord
from powergrid.formats.records import GameRecord, states
from powergrid.formats.serialize import from_json

T = TypeVar("T")

#: Why a name with a NUL or a lone surrogate cannot be opened (``open()`` raises ValueError).
BAD_NAME = "not a file name this system can use"
#: The most of an existing file read to see whether it holds a record (records are far smaller).
_CHECK_LIMIT = 64 * 1024 * 1024


def read_document(path: str) -> object:
    """The JSON document in ``path``: UserError when unreadable, InvalidRecord naming it."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror or err}") from None
    except ValueError:  # a NUL, or a lone surrogate the file system cannot encode
        raise UserError(f"cannot read {path}: {BAD_NAME}") from None
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
    """Write ``text`` to ``path`` as UTF-8, all or nothing; UserError naming ``path`` on failure.

    The text goes to a temporary file in the same folder, which is flushed
    and synced to the disk and then renamed onto ``path`` (``os.replace``).
    A failure at any point (a full disk, a file size limit, a crash) leaves
    an existing file byte for byte as it was and no temporary file behind.
    The new file keeps the permission bits of the one it replaces (a new one
    gets the umask's); a symbolic link is followed, so the file it points to
    is replaced. SIGINT, SIGTERM and SIGHUP wait until the file is complete
    (:func:`~powergrid.cli.signals.held_signals`). A file that exists but may
    not be written is refused, as ``open(path, "w")`` would refuse it.
    """
    data = text.encode("utf-8", errors="backslashreplace")  # a lone surrogate cannot be UTF-8
    with held_signals():
        try:
            _replace(_target(path), data)
        except OSError as err:
            raise UserError(f"cannot write {path}: {err.strerror or err}") from None
        except ValueError:  # a name open() refuses
            raise UserError(f"cannot write {path}: {BAD_NAME}") from None


def _target(path: str) -> str:
    """The file a write to ``path`` replaces: the one a symbolic link points to."""
    return os.path.realpath(path) if os.path.islink(path) else path


def _replace(path: str, data: bytes) -> None:
    """Write ``data`` to a temporary file next to ``path``, sync it, rename it onto ``path``."""
    folder = os.path.dirname(path) or os.curdir
    mode = _mode(path)
    if mode is not None and not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    fd, temp = _open_temp(folder, os.path.basename(path))
    try:
        try:
            view = memoryview(data)
            while view:  # os.write may write only part; a full disk raises on the next call
                view = view[os.write(fd, view) :]
            if mode is not None:
                _chmod(fd, temp, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:  # also KeyboardInterrupt: never leave the temporary file
        with contextlib.suppress(OSError):
            os.remove(temp)
        raise
    _sync_folder(folder)


def _mode(path: str) -> int | None:
    """The permission bits of the file at ``path``, None when there is none."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return None


def _chmod(fd: int, temp: str, mode: int) -> None:
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:  # Windows has no fchmod
        os.chmod(temp, mode)


def _open_temp(folder: str, name: str) -> tuple[int, str]:
    """Create a new hidden temporary file for ``name`` in ``folder``: its descriptor and path.

    Created with mode 0o666 like ``open()``, so the umask decides a new
    file's permissions; the name is cut so that it stays within the
    system's limit on name length.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temp = os.path.join(folder, f".{name[:200]}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", folder)


def _sync_folder(folder: str) -> None:
    """Sync the folder so the rename itself survives a crash (POSIX; elsewhere a no-op)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the file itself is synced
    finally:
        os.close(fd)


def check_writable(path: str) -> None:
    """Raise UserError unless ``path`` can be written; change nothing, leave no new file.

    Run before a game starts, so a bad ``--record`` path is reported at once
    instead of after the whole game. An existing file is opened for
    appending, which changes nothing in it; the folder must take the
    temporary file that :func:`write_text` writes first, so one is made and
    removed.
    """
    try:
        target = _target(path)
        if os.path.exists(target):
            with open(target, "ab"):  # a folder or a read-only file fails here
                pass
        fd, temp = _open_temp(os.path.dirname(target) or os.curdir, os.path.basename(target))
        os.close(fd)
        os.remove(temp)
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror or err}") from None
    except ValueError:
        raise UserError(f"cannot write {path}: {BAD_NAME}") from None


def check_new(path: str, *, hint: str) -> None:
    """Raise UserError if something exists at ``path``; the message ends with ``hint``.

    For commands that write a new document (``record cut --out``, ``import
    --out``): they replace a file only when told to (``hint`` says how).
    """
    if os.path.lexists(path):
        raise UserError(f"{path} exists; not overwritten ({hint})")


def check_overwrite(path: str, record: GameRecord, *, hint: str) -> None:
    """Raise UserError unless writing ``record`` to ``path`` loses nothing; ``hint`` ends it.

    Writing is allowed when no file is there, or when the file holds a
    record of the same game (the same config and seed) whose actions begin
    ``record``'s: an earlier save of the game that ``record`` continues.
    Anything else is refused in one line saying what the file holds and
    ending with ``hint`` (how to force it): another game, a longer or
    different record of this game, a document that is not a record, a file
    that is not JSON at all.
    """
    what = _occupant(path, record)
    if what is not None:
        raise UserError(f"{path} {what}; not overwritten ({hint})")


def _occupant(path: str, record: GameRecord) -> str | None:
    """What in ``path`` stops ``record`` being written over it, or None when nothing does."""
    try:
        target = _target(path)
        if not os.path.lexists(target):
            return None
        with open(target, "rb") as f:
            data = f.read(_CHECK_LIMIT + 1)
    except OSError as err:
        return f"exists and cannot be read to check it ({err.strerror or err})"
    except ValueError:
        return None  # a name with a NUL: the write itself reports it
    if len(data) > _CHECK_LIMIT:
        return "is not a game record"
    try:
        old = from_json(data)
    except Exception:  # whatever fails to decode is not a record of this game
        return "is not a game record"
    if not isinstance(old, GameRecord):
        return f"holds a {type(old).__name__}, not a game record"
    if (old.config, old.seed) != (record.config, record.seed):
        return "holds another game (another configuration or seed)"
    have, new = len(old.actions), len(record.actions)
    if old.actions == record.actions[:have]:
        return None
    if old.actions[:new] == record.actions:
        return f"holds a longer record of this game ({have} actions, not {new})"
    return "holds a different record of this game (its actions part from these)"
