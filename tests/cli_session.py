"""Running the command line as a player would, for the CLI tests: typed lines and a terminal.

``typed`` runs ``main`` in-process with lines on standard input; ``terminal`` starts
``python -m powergrid`` on a pseudo-terminal, and ``read_until`` reads its screen.
"""

from __future__ import annotations

import io
import os
import pathlib
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from powergrid import GameConfig
from powergrid.cli.main import main

CLASSIC = GameConfig(players=2, components="classic")
#: The 2-player classic game of seed 3 with the human in seat 0 against a random bot.
PLAY = ["play", "--players", "2", "--components", "classic", "--human", "0"]
PLAY += ["--bots", "random", "--seed", "3"]
#: The same game between bots.
BOTS = ["play", "--players", "2", "--components", "classic", "--seed", "3", "--quiet"]


def typed(
    argv: list[str],
    lines: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str, str]:
    """Run ``main(argv)`` with ``lines`` typed at the prompt: exit code, stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@contextmanager
def terminal(argv: list[str], cwd: pathlib.Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``python -m powergrid ARGV`` on a pseudo-terminal: the process and the terminal's fd.

    The fd is closed on leaving; the caller waits for the process.
    """
    main_fd, child_fd = os.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "powergrid", *argv],
        stdin=child_fd,
        stdout=child_fd,
        stderr=child_fd,
        cwd=cwd,
        env={**os.environ, "TERM": "dumb"},
    ) as proc:
        os.close(child_fd)
        try:
            yield proc, main_fd
        finally:
            os.close(main_fd)


def read_until(fd: int, marker: bytes | None, count: int = 1, timeout: float = 60) -> bytes:
    """Read a terminal until ``marker`` has shown ``count`` times, or to its end if None.

    Fails when the marker does not show within ``timeout`` seconds, or when the
    program ends before it does.
    """
    data = b""
    end = time.monotonic() + timeout
    while marker is None or data.count(marker) < count:
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            raise AssertionError(f"no {marker!r} x{count} in {data!r}")
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end closed: the program ended
            chunk = b""
        if not chunk:
            if marker is None:
                break
            raise AssertionError(f"the program ended: {data!r}")
        data += chunk
    return data
