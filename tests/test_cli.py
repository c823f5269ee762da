"""The command line: python -m powergrid play, replay, show, --help, exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from powergrid import (
    Bid,
    ChoosePlant,
    GameConfig,
    GameRecord,
    PassBid,
    Phase,
    current_player,
    from_json,
    legal_actions,
    new_game,
    outcome,
    replay,
    to_json,
)
from powergrid.__main__ import main
from powergrid.cli_text import compact_actions, show_lines
from powergrid.position_notation import position_text


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


@pytest.mark.parametrize(
    "args", [["--help"], ["play", "--help"], ["replay", "--help"], ["show", "--help"]]
)
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


# --- play --record, replay, show -------------------------------------------------------------


def write_record(path: Path, data: dict[str, Any]) -> str:
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A record written by ``play --record`` and the stdout of that play."""
    path = tmp_path_factory.mktemp("records") / "game.json"
    proc = run(
        "play", "--players", "3", "--map", "north_america", "--seed", "2", "--record", str(path)
    )
    assert proc.returncode == 0, proc.stderr
    return path, proc.stdout


@pytest.fixture
def record_data(recorded: tuple[Path, str]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(recorded[0].read_text(encoding="utf-8"))
    return data


def test_play_record_is_a_game_record(recorded: tuple[Path, str]) -> None:
    path, _ = recorded
    record = from_json(path.read_text(encoding="utf-8"))
    assert isinstance(record, GameRecord)
    assert record.seed == 2
    assert record.config == GameConfig(players=3, map="north_america")
    assert outcome(replay(record)) is not None
    assert json.loads(path.read_text(encoding="utf-8"))["versions"]["north_america"]


def test_replay_prints_the_game_like_play(recorded: tuple[Path, str]) -> None:
    path, played = recorded
    proc = run("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.splitlines()[0] == played.splitlines()[0]
    # Everything after the header lines (bots vs record) is the same text.
    assert proc.stdout.split("\n\n", 1)[1] == played.split("\n\n", 1)[1]
    assert proc.stdout.rstrip().endswith(played.rstrip().splitlines()[-1])


def test_replay_quiet_prints_only_the_ending(recorded: tuple[Path, str]) -> None:
    proc = run("replay", str(recorded[0]), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "Round 1 " not in proc.stdout
    assert "Final ranking" in proc.stdout


def test_replay_of_a_truncated_record_says_where_it_stops(
    tmp_path: Path, record_data: dict[str, Any]
) -> None:
    record_data["actions"] = record_data["actions"][: len(record_data["actions"]) // 2]
    proc = run("replay", write_record(tmp_path / "half.json", record_data))
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"Record ends in round \d+, phase \d \(\w+\), player \d to act", last)
    assert "Round 1 (step 1)" in proc.stdout
    assert "Final ranking" not in proc.stdout


def test_show_prints_the_state(recorded: tuple[Path, str]) -> None:
    proc = run("show", str(recorded[0]))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for text in ("game over", "Player order:", "Players:", "plants:", "Plant market:"):
        assert text in out
    assert "Resource market:" in out
    assert "Final ranking" in out
    assert "Legal actions" not in out
    (line,) = [x for x in out.splitlines() if x.startswith("Position: ")]
    state = replay(from_json(recorded[0].read_text(encoding="utf-8")))
    assert line == "Position: " + position_text(state)
    assert "hidden=" not in line  # the deck order, the unseen plants and the RNG stay secret


def test_show_as_the_seat_to_act_lists_legal_actions(
    tmp_path: Path, record_data: dict[str, Any]
) -> None:
    record_data["actions"] = record_data["actions"][:38]  # inside the round-2 auction
    path = write_record(tmp_path / "auction.json", record_data)
    state = replay(from_json(Path(path).read_text(encoding="utf-8")))
    seat = current_player(state)
    assert seat is not None
    assert state.phase is Phase.AUCTION
    proc = run("show", path, "--as", str(seat))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"To act: player {seat}" in out
    assert f"Legal actions for player {seat} (" in out
    assert "minimum opening bids:" in out
    assert "discount token:" in out
    assert f"Cheapest cities for player {seat}" in out
    listed = out.split("Legal actions", 1)[1]
    for action in legal_actions(state):
        if not isinstance(action, Bid | ChoosePlant):  # numbers are shown as ranges
            assert f"  {action}\n" in listed
    other = (seat + 1) % 3
    proc = run("show", path, "--as", str(other))
    assert proc.returncode == 0, proc.stderr
    assert f"player {other} is not to act" in proc.stdout
    assert "Legal actions" not in proc.stdout


def test_show_never_prints_the_deck_order(recorded: tuple[Path, str]) -> None:
    record = from_json(recorded[0].read_text(encoding="utf-8"))
    state = new_game(record.config, seed=record.seed)
    lines = show_lines(state, 0)
    deck = " ".join(map(str, state.secret.deck[:3]))
    assert not any(deck in line for line in lines)


def test_compact_actions_joins_number_runs() -> None:
    actions = [Bid(player=1, amount=n) for n in (10, 11, 12, 14)] + [PassBid(player=1)]
    assert compact_actions(actions) == ["1:bid 10..12", "1:bid 14", "1:fold"]


def _error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.mark.parametrize("command", ["replay", "show"])
def test_missing_file_exits_two(tmp_path: Path, command: str) -> None:
    line = _error_line(run(command, str(tmp_path / "nope.json")))
    assert "nope.json" in line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{", "not valid JSON"),
        (to_json(GameConfig()), "GameConfig, not a GameRecord"),
        ("[1, 2]", "must be a JSON object"),
    ],
)
@pytest.mark.parametrize("command", ["replay", "show"])
def test_bad_documents_exit_two(tmp_path: Path, command: str, text: str, expected: str) -> None:
    path = tmp_path / "doc.json"
    path.write_text(text, encoding="utf-8")
    assert expected in _error_line(run(command, str(path)))


def test_unknown_format_exits_two(tmp_path: Path, record_data: dict[str, Any]) -> None:
    record_data["format"] = 99
    line = _error_line(run("replay", write_record(tmp_path / "f.json", record_data)))
    assert "unknown format version 99" in line


def test_other_rule_version_exits_two(tmp_path: Path, record_data: dict[str, Any]) -> None:
    record_data["versions"]["north_america"] = "0"
    path = write_record(tmp_path / "v.json", record_data)
    for command in ("replay", "show"):
        line = _error_line(run(command, path))
        assert "versions.north_america" in line
        assert "version 0" in line


def test_unknown_action_name_exits_two(tmp_path: Path, record_data: dict[str, Any]) -> None:
    record_data["actions"][3] = "0:dance"
    line = _error_line(run("replay", write_record(tmp_path / "d.json", record_data)))
    assert "actions[3]" in line
    assert "dance" in line


def test_illegal_action_names_its_index(tmp_path: Path, record_data: dict[str, Any]) -> None:
    record = from_json(json.dumps(record_data))
    index = next(i for i, a in enumerate(record.actions) if isinstance(a, Bid))
    bid = record.actions[index]
    assert isinstance(bid, Bid)
    record_data["actions"][index] = f"{bid.player}:bid 1"
    path = write_record(tmp_path / "i.json", record_data)
    proc = run("replay", path)
    line = _error_line(proc)
    assert line.startswith(f"error: {path}: action {index} ({bid.player}:bid 1) is illegal: ")
    assert "Final ranking" not in proc.stdout
    assert f"action {index} " in _error_line(run("show", path))


@pytest.mark.parametrize("seat", ["3", "-1", "x", ""])
def test_bad_as_seat_exits_two(recorded: tuple[Path, str], seat: str) -> None:
    line = _error_line(run("show", str(recorded[0]), "--as", seat))
    assert "--as" in line
    assert "seats are 0 to 2" in line


def test_unwritable_record_exits_two(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "game.json"
    proc = run("play", "--players", "2", "--quiet", "--record", str(target))
    assert "cannot write" in _error_line(proc)


@pytest.mark.parametrize("command", ["replay", "show"])
def test_record_subcommand_help_exits_zero(command: str) -> None:
    proc = run(command, "--help")
    assert proc.returncode == 0
    assert proc.stdout.startswith("usage:")
    assert "FILE" in proc.stdout


@pytest.mark.parametrize("args", [["replay"], ["show", "a", "b"], ["replay", "x", "--as", "1"]])
def test_record_usage_errors_exit_two(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert "usage:" in capsys.readouterr().err
