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
from powergrid.cli.main import main
from powergrid.formats.position_text import position_text
from powergrid.formats.text import compact_actions, show_lines
from powergrid.version import __version__


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
    "args",
    [
        ["--help"],
        ["play", "--help"],
        ["replay", "--help"],
        ["show", "--help"],
        ["record", "--help"],
        ["record", "cut", "--help"],
    ],
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


@pytest.mark.parametrize("args", [[], ["play", "--players", "four"], ["record"]])
def test_usage_errors_exit_two(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert "usage:" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--bots", "smart"],
            "error: --bots: unknown bot 'smart'; choose from random, greedy, heuristic, mcts",
        ),
        (["--bots", "random,greedy"], "error: --bots names 2 bots for 4 players"),
        (
            ["--players", "2", "--human", "0", "--bots", "random,greedy"],
            "error: --bots names 2 bots for bot seat 1",
        ),
        (
            ["--players", "2", "--human", "0", "--human", "1", "--bots", "random"],
            "error: --bots names bots, but every seat is played by --human",
        ),
        (["--players", "2", "--human", "2"], "error: --human '2': no such seat; seats are 0 to 1"),
        (
            ["--players", "2", "--human", "-1"],
            "error: --human '-1': no such seat; seats are 0 to 1",
        ),
        (["--human", "0", "--human", "0"], "error: --human names seat 0 twice"),
        (
            ["--components", "plastic"],
            "error: --components: unknown component set 'plastic'; choose one of classic, "
            "deluxe, recharged",
        ),
        (
            ["--players", "2", "--regions", "central,france_iberia"],
            "error: --regions: 2 players play in 3 regions, not 2 (SET-12); valid regions: "
            "british_isles_low_countries, france_iberia, central, alps_italy_hungary, "
            "scandinavia_baltic, eastern, balkans_turkey",
        ),
        (
            ["--regions", "atlantis"],
            "error: --regions: unknown region(s) 'atlantis' on Europe; valid regions: "
            "british_isles_low_countries, france_iberia, central, alps_italy_hungary, "
            "scandinavia_baltic, eastern, balkans_turkey",
        ),
        (
            ["--modules", "weather"],
            # Other tests may register more modules in this process: the list goes on.
            "error: --modules: unknown rule module 'weather'; known modules: custom_deck, "
            "experienced_start, fund...",
        ),
        (
            ["--players", "3", "--modules", "fund"],
            "error: --modules: rule module 'fund' is for 2 players, not 3 (FND-01)",
        ),
        (
            ["--options", "fast"],
            "error: --options: unknown option 'fast'; known options: "
            "explicit_chance, map_rules, seed_thresholds, too_small_rule, trust_refill_as_three, "
            "two_player_boardgamers",
        ),
        (["--names", "Ann,Bob"], "error: --names: names has 2 entries for 4 players"),
        (
            ["--cities", "berlin"],
            "error: --variant and --cities go with --deck FILE (a customised deck)",
        ),
    ],
)
def test_play_options_are_checked_in_one_line(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each bad value is one line on stderr and exit 2, before anything is printed."""
    assert main(["play", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (got,) = captured.err.splitlines()
    if line.endswith("..."):
        assert got.startswith(line[:-3])
    else:
        assert got == line


def test_the_new_play_options_play_the_game_they_name(tmp_path: Path) -> None:
    """--components, --regions, --modules, --options and --names reach the recorded config."""
    path = tmp_path / "g.json"
    argv = ["play", "--players", "3", "--components", "classic", "--map", "north_america"]
    argv += ["--regions", "mideast,midwest,northeast", "--options", "map_rules"]
    argv += ["--names", "Ann,Bob,Cy", "--modules", "none", "--quiet", "--record", str(path)]
    assert main(argv) == 0
    record = from_json(path.read_text(encoding="utf-8"))
    assert isinstance(record, GameRecord)
    assert record.config == GameConfig(
        players=3,
        map="north_america",
        components="classic",
        regions=("mideast", "midwest", "northeast"),
        options=frozenset({"map_rules"}),
        names=("Ann", "Bob", "Cy"),
        modules=(),
    )
    assert outcome(replay(record)) is not None


def test_two_player_deluxe_without_the_fund(tmp_path: Path) -> None:
    """Issue 32 item 8: leaving the default fund out is --without fund, and the record says so."""
    path = tmp_path / "g.json"
    assert main(["play", "--players", "2", "--without", "fund", "--record", str(path)]) == 0
    record = from_json(path.read_text(encoding="utf-8"))
    assert isinstance(record, GameRecord)
    assert record.config.modules == ()
    assert record.config.without == frozenset({"fund"})
    assert json.loads(path.read_text(encoding="utf-8"))["config"]["without"] == ["fund"]
    assert GameConfig(players=2).modules == ("fund",)


def test_modules_none_where_a_default_plays_asks_for_without(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 32 item 8: --modules none once dropped the fund; now it says to write --without."""
    assert main(["play", "--players", "2", "--modules", "none"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --modules none adds no module")
    assert "--without fund" in err


@pytest.mark.usefixtures("plugins_installed")
def test_extra_modules_keep_the_default_fund(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 32 item 8, SET-25: an extra module adds to the fund of a 2-player Deluxe game."""
    path = tmp_path / "g.json"
    argv = ["play", "--players", "2", "--modules", "bargain", "--quiet", "--record", str(path)]
    assert main(argv) == 0
    record = from_json(path.read_text(encoding="utf-8"))
    assert isinstance(record, GameRecord)
    assert record.config.modules == ("fund", "bargain")
    capsys.readouterr()
    assert main(["play", "--players", "3", "--without", "fund"]) == 2
    assert capsys.readouterr().err.startswith("error: --without: without names 'fund'")


def test_version_prints_the_library_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"powergrid {__version__}\n"


@pytest.mark.parametrize(
    ("argv0", "prog"),
    [
        ("/usr/bin/powergrid", "powergrid"),
        ("/work/.venv/bin/powergrid", "powergrid"),
        ("/site-packages/powergrid/cli/main.py", "python -m powergrid"),
        ("", "python -m powergrid"),
    ],
)
def test_the_usage_line_names_the_command_typed(
    argv0: str, prog: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", [argv0])
    assert main(["play", "--players", "four"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: {prog} play ")
    assert main(["--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: {prog} [-h]")


def test_a_closed_pipe_ends_play_quietly_with_zero() -> None:
    """`play | head`: the reader goes away before the summaries; no traceback, exit 0."""
    argv = [sys.executable, "-m", "powergrid", "play", "--players", "4", "--seed", "1"]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        proc.stdout.close()  # before the game ends, so every write finds the pipe closed
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0
    assert err == b""


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
    assert re.fullmatch(r"Record ends in round \d+, phase \d \([\w ]+\), player \d to act", last)
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


def test_show_writes_the_picture_as_svg(tmp_path: Path, record_data: dict[str, Any]) -> None:
    """``show --svg OUT`` writes the game's picture; ``--as`` draws that seat's view (issue 35)."""
    import xml.etree.ElementTree as ET

    record_data["actions"] = record_data["actions"][:38]
    path = write_record(tmp_path / "auction.json", record_data)
    state = replay(from_json(Path(path).read_text(encoding="utf-8")))
    picture = tmp_path / "game.svg"
    proc = run("show", path, "--svg", str(picture))
    assert proc.returncode == 0, proc.stderr
    assert f"Wrote the picture to {picture}" in proc.stdout
    root = ET.fromstring(picture.read_text(encoding="utf-8"))
    houses = [e for e in root.iter() if "house" in e.get("class", "").split()]
    assert len(houses) == sum(len(h) for h in state.board.houses)
    assert _error_line(run("show", path, "--svg", str(picture))).endswith(
        "add --force to replace it)"
    )
    seat = current_player(state)
    proc = run("show", path, "--as", str(seat), "--svg", str(picture), "--force")
    assert proc.returncode == 0, proc.stderr
    text = picture.read_text(encoding="utf-8")
    assert 'class="reach"' in text  # the seat's build costs are drawn
    assert not any(f'data-card="{c}"' in text for c in state.secret.deck)


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


def test_unwritable_record_exits_two_before_the_game(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "game.json"
    proc = run("play", "--players", "2", "--quiet", "--record", str(target))
    assert _error_line(proc) == f"error: cannot write {target}: No such file or directory"
    assert proc.stdout == ""  # reported at once, not after the whole game


def test_the_record_check_leaves_no_file_behind(capsys: pytest.CaptureFixture[str]) -> None:
    """Checking --record creates no file when the game then fails to start."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "game.json"
        assert main(["play", "--bots", "smart", "--record", str(target)]) == 2
        assert main(["play", "--record", str(target), "--players", "2", "--human", "5"]) == 2
        assert not target.exists()
    capsys.readouterr()


def test_an_existing_record_file_is_checked_without_change(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("old", encoding="utf-8")
    assert main(["play", "--players", "2", "--bots", "smart", "--record", str(target)]) == 2
    assert target.read_text(encoding="utf-8") == "old"


# --- record cut ---------------------------------------------------------------------------


def test_record_cut_writes_the_first_k_actions(
    recorded: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = from_json(recorded[0].read_text(encoding="utf-8"))
    assert isinstance(full, GameRecord)
    out = tmp_path / "part.json"
    assert main(["record", "cut", str(recorded[0]), "--upto", "38", "--out", str(out)]) == 0
    total = len(full.actions)
    assert capsys.readouterr().out == (
        f"Wrote the first 38 of {total} actions of {recorded[0]} to {out}\n"
    )
    part = from_json(out.read_text(encoding="utf-8"))
    assert isinstance(part, GameRecord)
    assert part.actions == full.actions[:38]
    assert (part.config, part.seed, part.versions) == (full.config, full.seed, full.versions)
    assert replay(part) == replay(full, upto=38)
    assert main(["record", "cut", str(recorded[0]), "--upto", "0"]) == 0
    cut = from_json(capsys.readouterr().out)
    assert isinstance(cut, GameRecord)
    assert cut.actions == ()


@pytest.mark.parametrize("upto", ["-1", "100000"])
def test_record_cut_out_of_range_exits_two(recorded: tuple[Path, str], upto: str) -> None:
    full = from_json(recorded[0].read_text(encoding="utf-8"))
    assert isinstance(full, GameRecord)
    total = len(full.actions)
    line = _error_line(run("record", "cut", str(recorded[0]), "--upto", upto))
    assert line == f"error: --upto {upto}: {recorded[0]} has {total} actions, so K is 0 to {total}"


def test_record_cut_checks_the_actions_it_keeps(
    tmp_path: Path, record_data: dict[str, Any]
) -> None:
    record_data["actions"][2] = "0:bid 1"
    path = write_record(tmp_path / "bad.json", record_data)
    line = _error_line(run("record", "cut", path, "--upto", "10"))
    assert line.startswith(f"error: {path}: action 2 (0:bid 1) is illegal: ")
    assert run("record", "cut", path, "--upto", "2").returncode == 0


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


# --- play --resume between bots -------------------------------------------------------------


def test_resuming_a_cut_record_with_the_same_bots_replays_the_game(
    recorded: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bots are functions of their seed and the state, so the cut game plays out the same."""
    part, again = tmp_path / "part.json", tmp_path / "again.json"
    assert main(["record", "cut", str(recorded[0]), "--upto", "40", "--out", str(part)]) == 0
    capsys.readouterr()
    assert main(["play", "--resume", str(part), "--record", str(again)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1:3] == [
        "Bots: player 0 greedy, player 1 random, player 2 greedy",
        f"Resumed 40 actions from {part}",
    ]
    assert out.endswith(recorded[1].split("\n\n")[-1])  # the same final ranking
    assert from_json(again.read_text(encoding="utf-8")) == from_json(
        recorded[0].read_text(encoding="utf-8")
    )


def test_resume_refuses_the_options_that_choose_the_game(recorded: tuple[Path, str]) -> None:
    line = _error_line(run("play", "--resume", str(recorded[0]), "--map", "europe", "--seed", "1"))
    assert line == (
        "error: --resume plays on the game of its record (config and seed): leave out --map, --seed"
    )


def test_resume_of_a_record_with_an_illegal_action_exits_two(
    tmp_path: Path, record_data: dict[str, Any]
) -> None:
    record_data["actions"][2] = "0:bid 1"
    path = write_record(tmp_path / "bad.json", record_data)
    line = _error_line(run("play", "--resume", path, "--human", "0"))
    assert line.startswith(f"error: {path}: action 2 (0:bid 1) is illegal: ")
