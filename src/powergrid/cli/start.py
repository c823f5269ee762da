"""Ctrl-C while the command line is still starting: exit 130 with one line, no traceback.

``python -m powergrid`` and the ``powergrid`` script import the whole package
before :func:`powergrid.cli.main.main` can catch anything, a few tenths of a
second in which Ctrl-C would print Python's traceback. Importing this module
first (``powergrid/__init__.py`` does) closes that gap, and only when this
process *is* the command line, as :data:`sys.orig_argv` shows: a program that
imports the library keeps Python's own Ctrl-C (:class:`KeyboardInterrupt`).
``main`` puts Python's handler back once it can report an interrupt itself.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
from types import FrameType

#: What the command line exits with after Ctrl-C (128 + SIGINT).
INTERRUPTED = 130
#: The interpreter's options that take the next word as their argument.
_WITH_ARGUMENT = frozenset({"-X", "-W"})


def is_command_line(argv: list[str]) -> bool:
    """Whether ``argv`` (the interpreter's own, :data:`sys.orig_argv`) runs this command line.

    ``python [options] -m powergrid ...`` or the ``powergrid`` console script
    (``python .../bin/powergrid ...``, on Windows ``powergrid.exe`` or
    ``powergrid-script.py``).
    """
    words = iter(argv[1:])
    for word in words:
        if word == "-m":
            return next(words, None) == "powergrid"
        if word.startswith("-m"):
            return word == "-mpowergrid"
        if word == "-c":
            return False
        if word in _WITH_ARGUMENT:
            next(words, None)
        elif not word.startswith("-"):  # the script: the first word that is not an option
            base = re.split(r"[\\/]", word)[-1]
            for suffix in (".exe", "-script.py"):
                base = base.removesuffix(suffix)
            return base == "powergrid"
    return False


def _leave(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C before ``main`` runs: one line, exit 130, nothing else to clean up."""
    os.write(2, b"interrupted\n")
    os._exit(INTERRUPTED)


def quiet_interrupt_while_starting() -> None:
    """Make Ctrl-C exit 130 with one line until ``main`` starts, if this is the command line."""
    if not is_command_line(list(getattr(sys, "orig_argv", ()))):
        return
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers; the command line runs there
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _leave)


def python_interrupts_again() -> None:
    """Give Ctrl-C back to Python (:class:`KeyboardInterrupt`), for ``main`` to report."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is _leave:
        signal.signal(signal.SIGINT, signal.default_int_handler)


quiet_interrupt_while_starting()
