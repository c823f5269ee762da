"""Signals never lose a game (issue 31, item 1): SIGTERM, SIGHUP, a second Ctrl-C, Ctrl-C anywhere.

The terminal game saves on SIGTERM and SIGHUP and exits 128 + the signal; a signal during a
save waits until the file is complete; Ctrl-C exits 130 with one line, and a bots-only game
with --record saves what was played. Real signals go to real processes where it matters.
"""

from __future__ import annotations

import io
import os
import pathlib
import re
import select
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from powergrid import GameRecord, from_json, parse_action, replay
from powergrid.bots import GreedyBot
from powergrid.cli import start as cli_start
from powergrid.cli.main import main
from powergrid.cli.signals import Stopped, held_signals, stop_signals
from powergrid.cli.start import is_command_line
from tests.cli_session import CLASSIC, PLAY, terminal
from tests.cli_session import read_until as _read_until

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="POSIX signals")

RESUME = "python -m powergrid play --resume {} --human 0 --bots random"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["/site-packages/powergrid/cli/main.py"])


@pytest.fixture(autouse=True)
def _handlers_restored() -> Any:
    """Every test leaves the process's signal handlers as it found them.

    A process started in the background by a shell inherits Ctrl-C ignored; the tests
    run with Python's own handler, as a terminal's foreground process would.
    """
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    yield
    assert {sig: signal.getsignal(sig) for sig in before} == before
    signal.signal(signal.SIGINT, inherited)


def record(*actions: str) -> GameRecord:
    return GameRecord(config=CLASSIC, seed=3, actions=tuple(parse_action(a) for a in actions))


def record_of(path: str | pathlib.Path) -> GameRecord:
    rec = from_json(pathlib.Path(path).read_text(encoding="utf-8"))
    assert isinstance(rec, GameRecord)
    return rec


# --- the tools ------------------------------------------------------------------------------------


def test_held_signals_delivers_a_ctrl_c_after_the_block() -> None:
    done = []

    def save() -> None:
        with held_signals():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)  # the handler has run by now: it only noted the signal
            done.append("the rest of the block")

    with pytest.raises(KeyboardInterrupt):
        save()
    assert done == ["the rest of the block"]
    with held_signals(redeliver=False):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
    # Dropped: nothing raised.


def test_stop_signals_raises_once() -> None:

    def play() -> None:
        with stop_signals():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)

    with pytest.raises(Stopped) as caught:
        play()
    assert (caught.value.signum, caught.value.exit_code) == (signal.SIGTERM, 143)
    with stop_signals():
        try:
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(1)
        except Stopped:
            os.kill(os.getpid(), signal.SIGINT)  # a second signal while leaving: ignored
            time.sleep(0.01)


# --- SIGTERM and SIGHUP at the prompt -----------------------------------------------------------


@pytest.mark.parametrize(
    ("sig", "code", "why"),
    [(signal.SIGTERM, 143, "Terminated (SIGTERM)"), (signal.SIGHUP, 129, "Hung up (SIGHUP)")],
)
@pytest.mark.parametrize("where", ["game.json", None])
def test_a_signal_at_the_prompt_saves_every_decision(
    tmp_path: pathlib.Path, sig: int, code: int, why: str, where: str | None
) -> None:
    """Item 1: the issue's fault: SIGTERM and SIGHUP saved nothing. Now 143 and 129, saved."""
    argv = PLAY if where is None else [*PLAY, "--record", where]
    path = where or "powergrid-3.json"
    with subprocess.Popen(
        [sys.executable, "-m", "powergrid", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    ) as proc:
        assert proc.stdin is not None
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        shown = _read_until(fd, b"player 0> ", 1)
        assert f"The game is saved to {path} after each of your decisions.\n".encode() in shown
        proc.stdin.write(b"choose 4\n")
        proc.stdin.flush()
        shown += _read_until(fd, b"player 0> ", 1)  # the bot answered: the next prompt
        proc.send_signal(sig)
        rest, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert err == b""
    command = RESUME.format(path) + ("" if where is None else f" --record {where}")
    assert rest.decode().endswith(
        f"\n{why}: the game is saved in {path}; resume it with: {command}\n"
    )
    assert record_of(tmp_path / path) == record("0:choose 4 4", "1:bid 5")


def _ctrl_c_until_answered(proc: Any, main_fd: int) -> None:
    """Press Ctrl-C, again if the program shows nothing within 5 seconds, as a person would.

    CPython's readline notices a signal only while it waits in select(): one that
    lands between the prompt being written and that wait (a busy machine makes the
    window wide) is handled at the next key. A second Ctrl-C then stops the game;
    one that arrives while the first is saving is ignored (held_signals).
    """
    for _ in range(12):
        proc.send_signal(signal.SIGINT)
        ready, _, _ = select.select([main_fd], [], [], 5.0)
        if ready:
            return


def test_a_signal_while_the_prompt_reads_a_terminal(tmp_path: pathlib.Path) -> None:
    """Ctrl-C while input() reads a terminal (with readline): saved, 130."""
    with terminal(PLAY, tmp_path) as (proc, main_fd):
        _read_until(main_fd, b"player 0> ", 1)
        os.write(main_fd, b"choose 3\n")
        _read_until(main_fd, b"2. fold\r\nplayer 0> ", 1)
        _ctrl_c_until_answered(proc, main_fd)
        rest = _read_until(main_fd, None)
        code = proc.wait(timeout=60)
    assert code == 130
    assert b"Interrupted: the game is saved in powergrid-3.json. Resume it with:" in rest
    assert record_of(tmp_path / "powergrid-3.json").actions[0] == parse_action("0:choose 3 3")


# --- a second Ctrl-C during a save ----------------------------------------------------------------


class CtrlCAt:
    """Input that types ``lines``, then raises KeyboardInterrupt as Ctrl-C at a prompt does."""

    def __init__(self, *lines: str) -> None:
        self.lines = [f"{line}\n" for line in reversed(lines)]
        self.pressed = False

    def readline(self) -> str:
        if not self.lines:
            self.pressed = True
            raise KeyboardInterrupt
        return self.lines.pop()

    def isatty(self) -> bool:
        return False


def ctrl_c_in_fsync(monkeypatch: pytest.MonkeyPatch, when: Any = lambda: True) -> list[int]:
    """Make every sync of a file press Ctrl-C half-way through its save, once ``when()``."""
    real = os.fsync
    calls: list[int] = []

    def interrupted(fd: int) -> None:
        if when():
            calls.append(fd)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)  # the signal's handler runs here, in the middle of the save
        real(fd)

    monkeypatch.setattr(os, "fsync", interrupted)
    return calls


def test_a_second_ctrl_c_during_the_save_loses_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 1: the issue lost the game in 3 of 6 tries. The second Ctrl-C waits for the save."""
    typing = CtrlCAt("choose 5")
    monkeypatch.setattr(sys, "stdin", typing)
    calls = ctrl_c_in_fsync(monkeypatch, lambda: typing.pressed)  # once the first Ctrl-C came
    assert main(PLAY) == 130
    out = capsys.readouterr().out
    assert out.endswith(
        "Interrupted: the game is saved in powergrid-3.json. Resume it with:\n"
        f"  {RESUME.format('powergrid-3.json')}\n"
    )
    assert calls  # the saves did sync, each pressed Ctrl-C
    assert record_of("powergrid-3.json") == record("0:choose 5 5", "1:bid 6")
    assert sorted(os.listdir(".")) == ["powergrid-3.json"]


def test_ctrl_c_during_the_save_after_a_decision_stops_the_game_saved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C during the save after a decision takes effect after it: saved, then 130."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("choose 5\nfold\n"))
    ctrl_c_in_fsync(monkeypatch)  # every save, the one after the decision first
    assert main([*PLAY, "--record", "game.json"]) == 130
    out = capsys.readouterr().out
    assert out.endswith(
        "player 0> choose 5\n  player 0 opens plant 5 at 5.\n\n"
        "Interrupted: the game is saved in game.json. Resume it with:\n"
        f"  {RESUME.format('game.json')} --record game.json\n"
    )
    assert record_of("game.json") == record("0:choose 5 5")


def test_two_ctrl_c_in_a_real_process_lose_nothing(tmp_path: pathlib.Path) -> None:
    """Item 1, in a subprocess: Ctrl-C, then Ctrl-C again while the game is being saved."""
    script = (
        "import os, stat, sys, time\n"
        "real = os.fsync\n"
        "def slow(fd):\n"
        "    if stat.S_ISREG(os.fstat(fd).st_mode):  # the file, not its folder\n"
        "        print('SAVING', file=sys.stderr, flush=True)\n"
        "        time.sleep(1)\n"
        "    real(fd)\n"
        "os.fsync = slow\n"
        "from powergrid.cli.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script, *PLAY],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    ) as proc:
        assert proc.stdin is not None
        assert proc.stdout is not None
        assert proc.stderr is not None
        _read_until(proc.stdout.fileno(), b"player 0> ", 1)
        proc.stdin.write(b"choose 4\n")
        proc.stdin.flush()
        _read_until(proc.stderr.fileno(), b"SAVING", 1)  # the save after the decision
        _read_until(proc.stdout.fileno(), b"player 0> ", 1)
        proc.send_signal(signal.SIGINT)  # Ctrl-C at the prompt: the game is saved ...
        _read_until(proc.stderr.fileno(), b"SAVING", 1)
        proc.send_signal(signal.SIGINT)  # ... and Ctrl-C again, in the middle of that save
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"Interrupted: the game is saved in powergrid-3.json" in out
    assert record_of(tmp_path / "powergrid-3.json") == record("0:choose 4 4", "1:bid 5")
    assert sorted(os.listdir(tmp_path)) == ["powergrid-3.json"]


# --- Ctrl-C anywhere ------------------------------------------------------------------------------


REAL_CHOOSE = GreedyBot.choose


def press_ctrl_c_at_bot_move(monkeypatch: pytest.MonkeyPatch, move: int) -> None:
    """The greedy bots' ``move``-th choice is interrupted by a real SIGINT."""
    real = REAL_CHOOSE
    calls = []

    def choose(self: GreedyBot, state: Any) -> Any:
        calls.append(1)
        if len(calls) == move:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        return real(self, state)

    monkeypatch.setattr(GreedyBot, "choose", choose)


BOTS = ["play", "--players", "6", "--seed", "3", "--quiet"]


def test_ctrl_c_in_a_bots_game_saves_what_was_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 1: the issue's traceback and -2. Now 130, one line, and the game so far saved."""
    assert main([*BOTS, "--record", "whole.json"]) == 0
    whole = record_of("whole.json")
    capsys.readouterr()
    press_ctrl_c_at_bot_move(monkeypatch, 40)
    assert main([*BOTS, "--record", "part.json"]) == 130
    captured = capsys.readouterr()
    part = record_of("part.json")
    played = len(part.actions)
    assert 40 <= played < len(whole.actions)
    assert part.actions == whole.actions[:played]
    assert captured.err == (
        f"interrupted (SIGINT): the game so far ({played} actions) is saved in part.json; "
        "resume it with: python -m powergrid play --resume part.json --record part.json\n"
    )
    monkeypatch.setattr(GreedyBot, "choose", REAL_CHOOSE)
    assert main(["play", "--resume", "part.json", "--record", "part.json", "--quiet"]) == 0
    assert record_of("part.json") == whole  # nothing lost: the same bots play the same game
    capsys.readouterr()


def test_ctrl_c_in_a_bots_game_without_a_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    press_ctrl_c_at_bot_move(monkeypatch, 40)
    assert main(BOTS) == 130
    assert capsys.readouterr().err == "interrupted\n"
    assert os.listdir(".") == []


@pytest.mark.parametrize(
    ("target", "argv"),
    [
        ("build_parser", ["play"]),  # start-up
        ("prepare_play", ["play"]),
        ("load_record", ["replay", "x.json"]),
        ("load_record", ["show", "x.json"]),
        ("run_arena_command", ["arena", "--games", "2", "--bots", "random,random"]),
        ("run_import", ["import", "boardgamers", "x.json"]),
    ],
)
def test_ctrl_c_anywhere_exits_130_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    target: str,
    argv: list[str],
) -> None:
    """Item 1: every command; the Ctrl-C lands where the work is."""

    def ctrl_c(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(f"powergrid.cli.main.{target}", ctrl_c)
    assert main(argv) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_ctrl_c_in_a_real_bots_game(tmp_path: pathlib.Path) -> None:
    """Item 1, in a subprocess: a real SIGINT in the middle of a bots-only game."""
    script = (
        "import sys, time\n"
        "from powergrid.bots import GreedyBot\n"
        "real = GreedyBot.choose\n"
        "calls = []\n"
        "def choose(self, state):\n"
        "    calls.append(1)\n"
        "    if len(calls) == 30:\n"
        "        print('READY', file=sys.stderr, flush=True)\n"
        "        time.sleep(60)\n"
        "    return real(self, state)\n"
        "GreedyBot.choose = choose\n"
        "from powergrid.cli.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    for extra in ([], ["--record", "g.json"], ["--record", "h.json"]):
        with subprocess.Popen(
            [sys.executable, "-c", script, *BOTS, *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
        ) as proc:
            assert proc.stderr is not None
            _read_until(proc.stderr.fileno(), b"READY\n", 1)
            sig = signal.SIGTERM if "h.json" in extra else signal.SIGINT
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=60)
        lines = err.decode().splitlines()
        assert len(lines) == 1, err
        if not extra:
            assert (proc.returncode, lines[0]) == (130, "interrupted")
            continue
        path = extra[1]
        rec = record_of(tmp_path / path)
        assert replay(rec) is not None
        assert proc.returncode == 128 + sig
        name = "interrupted (SIGINT)" if sig == signal.SIGINT else "terminated (SIGTERM)"
        assert re.fullmatch(
            rf"{re.escape(name)}: the game so far \({len(rec.actions)} actions\) is saved in "
            rf"{path}; resume it with: python -m powergrid play --resume {path} --record {path}",
            lines[0],
        )


# --- Ctrl-C while the command line starts -------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "ours"),
    [
        (["python", "-m", "powergrid", "play"], True),
        (["python", "-X", "importtime", "-m", "powergrid"], True),
        (["python", "-mpowergrid"], True),
        (["/venv/bin/python", "/venv/bin/powergrid", "play"], True),
        (["C:\\py\\python.exe", "C:\\py\\Scripts\\powergrid-script.py"], True),
        (["python", "-m", "pytest"], False),
        (["python", "-m", "mybot"], False),
        (["python", "bot.py"], False),
        (["python", "-c", "import powergrid"], False),
        (["python"], False),
    ],
)
def test_only_the_command_line_takes_over_ctrl_c_while_starting(
    argv: list[str], ours: bool
) -> None:
    """Issue 31 item 1: the import sets up the quiet Ctrl-C for the command line alone."""
    assert is_command_line(argv) is ours


def _interrupted_right_after_import(pretend_cli: bool) -> subprocess.CompletedProcess[str]:
    """A Python process that imports powergrid, then gets Ctrl-C before any main() runs."""
    fake = "import sys; sys.orig_argv = ['python', '-m', 'powergrid']; " if pretend_cli else ""
    code = fake + "import os, signal, time, powergrid; os.kill(os.getpid(), signal.SIGINT); "
    code += "time.sleep(30)"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def test_ctrl_c_while_the_command_line_imports_exits_130_in_one_line() -> None:
    """Issue 31 item 1: Ctrl-C before main() runs: 130 and one line, no traceback."""
    done = _interrupted_right_after_import(pretend_cli=True)
    assert (done.returncode, done.stderr) == (130, "interrupted\n")


def test_a_program_importing_the_library_keeps_keyboard_interrupt() -> None:
    """Issue 31 item 1: the library does not take Ctrl-C from programs that import it."""
    done = _interrupted_right_after_import(pretend_cli=False)
    assert done.returncode != 130
    assert "KeyboardInterrupt" in done.stderr


def test_main_gives_ctrl_c_back_to_python() -> None:
    """Issue 31 item 1: once main() runs, Ctrl-C is a KeyboardInterrupt it reports itself."""
    before = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, cli_start._leave)
        assert main(["--version"]) == 0
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)
