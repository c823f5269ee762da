"""Signals at the command line: saves that always finish, games that stop cleanly.

A game stopped by Ctrl-C (SIGINT), ``kill`` (SIGTERM) or a closed terminal
(SIGHUP) is saved before the program exits with ``128 + signal number``
(130, 143, 129), and a signal that arrives while a file is written waits
until the file is complete. Two tools do this, both in the main thread only
(Python runs signal handlers there; elsewhere they change nothing):

- :func:`held_signals` defers the three signals for the length of a block;
  :func:`powergrid.cli.files.write_text` holds them while it writes, so a
  second Ctrl-C cannot cut a save short. A deferred signal is delivered when
  the block ends (or dropped, for code that is leaving anyway).
- :func:`stop_signals` turns the first of them into :class:`Stopped` (an
  exception the game loop catches to save and leave) and ignores the later
  ones, so pressing Ctrl-C twice does not interrupt the saving either.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

#: The signals that stop a game: Ctrl-C, kill, a closed terminal (where the platform has them).
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, sig) for sig in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, sig)
)
#: How the messages name what stopped the game, by signal number.
_WHY = {2: "Interrupted", 15: "Terminated", 1: "Hung up"}

Handler = Callable[[int, FrameType | None], Any] | int | None


class Stopped(BaseException):
    """The game was stopped by signal ``signum``; the program exits with :attr:`exit_code`.

    A :class:`BaseException` like :class:`KeyboardInterrupt`, so no
    ``except Exception`` swallows it. ``message`` (optional) is the one line
    the command line prints for it, e.g. where the game was saved.
    """

    def __init__(self, signum: int, message: str = "") -> None:
        super().__init__(message or f"{why(signum).lower()} ({signal_name(signum)})")
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """128 + the signal number, as a shell reports a process ended by that signal."""
        return 128 + self.signum


def signal_name(signum: int) -> str:
    """``SIGTERM`` for 15, and so on; ``signal N`` for a number the platform does not name."""
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def why(signum: int) -> str:
    """What a stop signal did, for a message: Interrupted, Terminated or Hung up."""
    return _WHY.get(signum, f"Stopped by {signal_name(signum)}")


def stopped_by(error: BaseException) -> int:
    """The signal number behind ``error``: a :class:`Stopped` or a KeyboardInterrupt (SIGINT)."""
    return error.signum if isinstance(error, Stopped) else int(signal.SIGINT)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def _handling(handler: Callable[[int, FrameType | None], None]) -> Iterator[None]:
    """Run ``handler`` for the stop signals inside the block, then restore the old handlers."""
    previous: dict[signal.Signals, Handler] = {}
    try:
        for sig in STOP_SIGNALS:
            old = signal.getsignal(sig)
            if old is None:  # installed outside Python: it could not be put back
                continue
            previous[sig] = old
            signal.signal(sig, handler)
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextlib.contextmanager
def held_signals(*, redeliver: bool = True) -> Iterator[None]:
    """Defer SIGINT, SIGTERM and SIGHUP until the block ends.

    With ``redeliver`` (the default) each deferred signal is raised again
    once the old handlers are back, so it takes effect just after the block
    (Ctrl-C then raises KeyboardInterrupt there); without it they are
    dropped, for code that is on its way out already. Blocks nest: an inner
    block hands its signals to the outer one.
    """
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []
    try:
        with _handling(lambda signum, _frame: caught.append(signum)):
            yield
    finally:  # also after an error: a Ctrl-C during a failed save still stops the program
        if redeliver:
            for signum in dict.fromkeys(caught):
                signal.raise_signal(signum)


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """Raise :class:`Stopped` at the first stop signal inside the block; ignore the later ones.

    The code that catches :class:`Stopped` (or KeyboardInterrupt, raised by
    Ctrl-C before the block or by an input that stands in for it) saves the
    game and leaves; a signal while it does so is ignored, not raised again.
    """
    if not _in_main_thread():
        yield
        return
    stopping = False

    def stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            raise Stopped(signum)

    with _handling(stop):
        yield
