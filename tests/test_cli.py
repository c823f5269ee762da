"""The command line: python -m powergrid play, --help, exit codes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from powergrid.__main__ import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "powergrid", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_play_prints_rounds_and_ranking() -> None:
    proc = run("play", "--players", "4", "--map", "europe", "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Round 1 (step 1)" in out
    assert "Round 2 " in out
    assert "market: actual" in out
    assert "player 3" in out
    assert "Final ranking" in out
    assert "Winner" in out
    assert "1. player" in out
    assert proc.stderr == ""


def test_play_quiet_with_chosen_bots() -> None:
    proc = run(
        "play",
        "--players",
        "3",
        "--map",
        "north_america",
        "--seed",
        "1",
        "--quiet",
        "--bots",
        "random,greedy,random",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Round 1" not in proc.stdout
    assert "player 0 random, player 1 greedy, player 2 random" in proc.stdout
    assert "Final ranking" in proc.stdout


@pytest.mark.parametrize("args", [["--help"], ["play", "--help"]])
def test_help_exits_zero(args: list[str]) -> None:
    proc = run(*args)
    assert proc.returncode == 0
    assert "usage:" in proc.stdout


def test_bad_map_is_a_one_line_error() -> None:
    proc = run("play", "--map", "atlantis")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert "atlantis" in lines[0]
    assert proc.stdout == ""


def test_too_many_players_exits_two() -> None:
    proc = run("play", "--players", "9")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert "9" in lines[0]


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["play", "--players", "four"],
        ["play", "--bots", "smart"],
        ["play", "--bots", "random,greedy"],
    ],
)
def test_usage_errors_exit_two(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert "usage:" in capsys.readouterr().err


def test_in_process_play_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "2", "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert main(["play", "--players", "2", "--seed", "3"]) == 0
    assert capsys.readouterr().out == first
    assert "Game over after round" in first
