"""Saves that survive faults (issue 31, item 1): atomic writes, overwrite rules, a full disk.

Every file the command line writes goes to a temporary file that is synced and then renamed
onto the target, so a failure leaves the old file byte for byte; a game record replaces only
an earlier save of the same game unless forced. The signals are in tests/test_signals.py.
"""

from __future__ import annotations

import errno
import os
import pathlib
import stat
import subprocess
import sys

import pytest

from powergrid import (
    GameRecord,
    from_json,
    outcome,
    parse_action,
    replay,
    to_json,
)
from powergrid.cli.errors import UserError, printable
from powergrid.cli.files import check_overwrite, write_text
from powergrid.cli.main import main
from tests.cli_session import BOTS, CLASSIC, PLAY, typed

#: Player 0 is to act after these actions of that game (it lost the first auction).
OPENING = ("0:choose 4 4", "1:bid 5", "0:fold")


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs in a fresh directory; its usage lines say ``python -m powergrid``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["/site-packages/powergrid/cli/main.py"])


def record(*actions: str, seed: int = 3) -> GameRecord:
    return GameRecord(config=CLASSIC, seed=seed, actions=tuple(parse_action(a) for a in actions))


def put(path: str, rec: GameRecord) -> bytes:
    """Write ``rec`` to ``path`` as the command line does; return the bytes written."""
    data = (to_json(rec, indent=2) + "\n").encode()
    pathlib.Path(path).write_bytes(data)
    return data


def record_of(path: str | pathlib.Path) -> GameRecord:
    rec = from_json(pathlib.Path(path).read_text(encoding="utf-8"))
    assert isinstance(rec, GameRecord)
    return rec


def files() -> list[str]:
    """Every name in the current folder, hidden ones (temporary files) included."""
    return sorted(os.listdir("."))


def whole_game() -> GameRecord:
    """The bots' whole game of :data:`BOTS`, written to full.json."""
    assert main([*BOTS, "--record", "full.json"]) == 0
    return record_of("full.json")


# --- write_text: all or nothing ---------------------------------------------------------------


def test_write_text_replaces_the_file_and_keeps_its_permissions() -> None:
    """Item 1: the new text replaces the file whole; its permission bits stay."""
    pathlib.Path("a.json").write_text("old", encoding="utf-8")
    os.chmod("a.json", 0o640)
    write_text("a.json", "new ✓")
    assert pathlib.Path("a.json").read_text(encoding="utf-8") == "new ✓"
    assert stat.S_IMODE(os.stat("a.json").st_mode) == 0o640
    write_text("b.json", "fresh")  # a new file gets the umask's bits, as open() gives
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat("b.json").st_mode) == 0o666 & ~umask
    assert files() == ["a.json", "b.json"]


def test_write_text_follows_a_symbolic_link() -> None:
    os.mkdir("saves")
    pathlib.Path("saves/game.json").write_text("old", encoding="utf-8")
    os.symlink("saves/game.json", "link.json")
    write_text("link.json", "new")
    assert os.path.islink("link.json")
    assert pathlib.Path("saves/game.json").read_text(encoding="utf-8") == "new"


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EFBIG])
def test_a_write_that_fails_half_way_leaves_the_old_file(
    monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    """Item 1: a full disk after part of the text: the old file byte for byte, no temp file."""
    pathlib.Path("a.json").write_bytes(b"old bytes")
    real_write = os.write
    calls = []

    def half(fd: int, data: bytes | memoryview) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[:10]))  # a partial write, as a full disk gives
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "write", half)
    with pytest.raises(UserError) as caught:
        write_text("a.json", "x" * 1000)
    assert str(caught.value) == f"cannot write a.json: {os.strerror(code)}"
    assert calls == [1000, 990]
    assert pathlib.Path("a.json").read_bytes() == b"old bytes"
    assert files() == ["a.json"]


def test_a_failed_rename_leaves_no_temporary_file() -> None:
    os.mkdir("folder.json")  # a folder where the file should go: the rename fails
    with pytest.raises(UserError, match=r"^cannot write folder\.json: "):
        write_text("folder.json", "text")
    assert files() == ["folder.json"]


def test_a_read_only_file_is_not_replaced() -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root may write any file")
    pathlib.Path("ro.json").write_text("keep", encoding="utf-8")
    os.chmod("ro.json", 0o444)
    with pytest.raises(UserError, match=r"^cannot write ro\.json: Permission denied$"):
        write_text("ro.json", "new")
    assert pathlib.Path("ro.json").read_text(encoding="utf-8") == "keep"
    assert files() == ["ro.json"]


# --- a full disk, for real: RLIMIT_FSIZE --------------------------------------------------------


def _limited(limit: int) -> None:
    """Run in the child before it starts: no file may grow past ``limit`` bytes."""
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _run_limited(
    args: list[str], limit: int, cwd: pathlib.Path, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "powergrid", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=lambda: _limited(limit),
    )


@pytest.mark.skipif(sys.platform == "win32", reason="needs RLIMIT_FSIZE")
def test_a_full_disk_keeps_the_old_record_of_a_resumed_game(tmp_path: pathlib.Path) -> None:
    """Item 1: ``play --resume same.json --record same.json`` under RLIMIT_FSIZE.

    The issue's fault: the save was written in place and left invalid JSON where a
    55-action game had been. Now the old record stays byte for byte and loadable.
    """
    full = whole_game()
    old = put("same.json", GameRecord(config=full.config, seed=3, actions=full.actions[:55]))
    before = files()
    proc = _run_limited(
        ["play", "--resume", "same.json", "--record", "same.json", "--quiet"],
        len(old) + 64,
        tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == "error: cannot write same.json: File too large\n"
    assert pathlib.Path("same.json").read_bytes() == old
    assert len(record_of("same.json").actions) == 55
    assert replay(record_of("same.json")) == replay(full, upto=55)
    assert files() == before  # no temporary file left behind


@pytest.mark.skipif(sys.platform == "win32", reason="needs RLIMIT_FSIZE")
def test_a_full_disk_at_the_prompt_is_told_and_keeps_the_old_record(
    tmp_path: pathlib.Path,
) -> None:
    """Item 1: the save after a decision fails: the player is told, the game goes on.

    Quitting then cannot save either: one line, exit code 2, the old record unchanged.
    """
    old = put("same.json", record(*OPENING))
    before = files()
    argv = ["play", "--resume", "same.json", "--record", "same.json", "--human", "0"]
    argv += ["--bots", "random"]
    proc = _run_limited(argv, len(old) + 16, tmp_path, stdin="choose 6\nquit\n")
    assert proc.returncode == 2, proc.stderr
    told = proc.stdout.split("player 0> choose 6\n", 1)[1]
    assert (
        "Could not save the game: cannot write same.json: File too large. "
        "Type save FILE to save it elsewhere.\n"
    ) in told
    assert "player 0> quit\n" in told  # the game went on to the next prompt
    assert proc.stderr == "error: cannot write same.json: File too large\n"
    assert pathlib.Path("same.json").read_bytes() == old
    assert files() == before


# --- overwrite rules: play --record --------------------------------------------------------------


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before the game: nothing played, nothing printed
    return captured.err


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (b"my notes\n", "is not a game record"),
        (b'{"format": 4, "type": "Deck"', "is not a game record"),
        (to_json(CLASSIC).encode(), "holds a GameConfig, not a game record"),
        (to_json(record("0:choose 3 3", seed=4)).encode(), "holds another game (another "),
        (to_json(record(*OPENING)).encode(), "holds a longer record of this game (3 actions, "),
    ],
)
def test_play_record_refuses_a_file_that_is_not_an_earlier_save(
    capsys: pytest.CaptureFixture[str], content: bytes, what: str
) -> None:
    """Item 1: ``--record`` overwrites only a record of the same game it extends."""
    pathlib.Path("game.json").write_bytes(content)
    for argv in (BOTS, PLAY):
        assert main([*argv, "--record", "game.json"]) == 2
        line = _error(capsys)
        assert line.startswith(f"error: game.json {what}")
        assert line.endswith("; not overwritten (add --force to replace it)\n")
        assert pathlib.Path("game.json").read_bytes() == content
    assert files() == ["game.json"]


def test_play_record_with_force_replaces_any_file(capsys: pytest.CaptureFixture[str]) -> None:
    pathlib.Path("notes.txt").write_text("my notes", encoding="utf-8")
    assert main([*BOTS, "--record", "notes.txt", "--force"]) == 0
    assert outcome(replay(record_of("notes.txt"))) is not None
    capsys.readouterr()


def test_play_record_continues_an_earlier_save_of_the_same_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Item 1: the same config and seed with fewer actions: an earlier save, replaced."""
    full = whole_game()
    put("part.json", GameRecord(config=full.config, seed=3, actions=full.actions[:40]))
    assert main(["play", "--resume", "part.json", "--record", "part.json", "--quiet"]) == 0
    assert record_of("part.json") == full
    put("empty.json", GameRecord(config=full.config, seed=3))  # the game before its first move
    assert main([*BOTS, "--record", "empty.json"]) == 0
    assert record_of("empty.json") == full
    capsys.readouterr()


def test_undo_may_shorten_the_record_file_this_session_writes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The --record file, checked at the start, is the session's own: undo saves over it."""
    put("game.json", record(*OPENING))
    argv = ["play", "--resume", "game.json", "--record", "game.json", "--human", "0"]
    code, out, err = typed([*argv, "--bots", "random"], ["choose 6", "undo"], monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert "Took back choose 6 6" in out
    assert record_of("game.json") == record(*OPENING)


# --- overwrite rules: save at the prompt, the autosave ----------------------------------------


def test_save_at_the_prompt_refuses_what_it_would_lose(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 1: ``save FILE`` refuses a text file and another game, tells how to force it."""
    pathlib.Path("notes.txt").write_text("my notes", encoding="utf-8")
    other = put("other.json", record("0:choose 3 3", seed=4))
    lines = ["choose 4", "save notes.txt", "save other.json", "save notes.txt --force"]
    lines += ["save --force My Game.json", "save --force"]
    code, out, err = typed(PLAY, lines, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert (
        "player 0> save notes.txt\n"
        "notes.txt is not a game record; not overwritten "
        "(type save notes.txt --force to replace it)\n"
    ) in out
    assert (
        "player 0> save other.json\n"
        "other.json holds another game (another configuration or seed); not overwritten "
        "(type save other.json --force to replace it)\n"
    ) in out
    assert "player 0> save notes.txt --force\nSaved the game (2 actions) to notes.txt.\n" in out
    assert "> save --force My Game.json\nSaved the game (2 actions) to My Game.json.\n" in out
    assert "player 0> save --force\nsave needs a file name: save FILE" in out
    assert record_of("notes.txt") == record("0:choose 4 4", "1:bid 5")
    assert record_of("My Game.json") == record("0:choose 4 4", "1:bid 5")
    assert pathlib.Path("other.json").read_bytes() == other


def test_save_at_the_prompt_replaces_an_earlier_save_of_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    put("early.json", record("0:choose 4 4"))
    put("late.json", record(*OPENING, "0:choose 6 6"))
    put("other.json", record("0:choose 3 3"))
    lines = ["choose 4", "fold", "save early.json", "save late.json", "save other.json"]
    code, out, _ = typed(PLAY, lines, monkeypatch, capsys)
    assert code == 0
    assert "player 0> save early.json\nSaved the game (3 actions) to early.json.\n" in out
    assert "late.json holds a longer record of this game (4 actions, not 3)" in out
    assert "other.json holds a different record of this game (its actions part from these)" in out
    assert record_of("early.json") == record(*OPENING)


def test_the_game_is_saved_after_each_decision_to_the_file_named_at_the_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 1: the default file is chosen once (a free name) and told; saved as you play."""
    pathlib.Path("powergrid-3.json").write_text("someone else's", encoding="utf-8")
    saved: list[GameRecord] = []
    real = write_text

    def spy(path: str, text: str) -> None:
        real(path, text)
        saved.append(record_of(path))

    monkeypatch.setattr("powergrid.cli.human.write_text", spy)
    code, out, _ = typed(PLAY, ["choose 4", "fold", "undo"], monkeypatch, capsys)
    assert code == 0
    assert "The game is saved to powergrid-3-2.json after each of your decisions.\n" in out
    assert saved == [
        record("0:choose 4 4"),  # right after the decision, before the bot answers
        record(*OPENING),
        record("0:choose 4 4", "1:bid 5"),  # the undo
        record("0:choose 4 4", "1:bid 5"),  # the end of the input
    ]
    assert pathlib.Path("powergrid-3.json").read_text(encoding="utf-8") == "someone else's"


def test_check_overwrite_reads_no_more_than_it_needs() -> None:
    """A huge file is not read whole to learn it is no record."""
    with open("big.bin", "wb") as f:
        f.truncate(65 * 1024 * 1024)
    with pytest.raises(UserError, match=r"^big\.bin is not a game record; not overwritten \(x\)$"):
        check_overwrite("big.bin", record(), hint="x")


# --- record cut --out, import boardgamers --out: new files --------------------------------------


def test_record_cut_and_import_refuse_an_existing_out_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Item 1: they write new documents, so an existing OUT needs --force."""
    whole_game()
    export = pathlib.Path(__file__).parent / "data" / "boardgamers" / "USAOriginal.json"
    pathlib.Path("out.json").write_text("mine", encoding="utf-8")
    capsys.readouterr()
    for argv in (
        ["record", "cut", "full.json", "--upto", "5", "--out", "out.json"],
        ["import", "boardgamers", str(export), "--out", "out.json"],
    ):
        assert main(argv) == 2
        assert capsys.readouterr().err == (
            "error: out.json exists; not overwritten (add --force to replace it)\n"
        )
        assert pathlib.Path("out.json").read_text(encoding="utf-8") == "mine"
        assert main([*argv, "--force"]) == 0
        assert isinstance(record_of("out.json"), GameRecord)
        pathlib.Path("out.json").write_text("mine", encoding="utf-8")
    assert files() == ["full.json", "out.json"]
    capsys.readouterr()


# --- error lines never drive the terminal -------------------------------------------------------


def test_printable_escapes_what_a_terminal_would_obey() -> None:
    """Item 1: ESC sequences, other controls, format characters and lone surrogates."""
    assert printable("plain Köln 東京 ✓") == "plain Köln 東京 ✓"
    assert printable("a\x1b[2Jb\x07\x9b\u200b\ud800\U000e0001") == (
        "a\\x1b[2Jb\\x07\\x9b\\u200b\\ud800\\U000e0001"
    )
    printable("\ud800\x1b").encode("utf-8")  # always encodable


def test_an_error_line_escapes_a_file_name(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 1: a name holding ESC and a lone surrogate (which open() cannot even encode)."""
    assert main(["replay", "x\x1b]0;owned\x07.json"]) == 2
    assert capsys.readouterr().err == (
        "error: cannot read x\\x1b]0;owned\\x07.json: No such file or directory\n"
    )
    assert main(["show", "bad\ud800\x1b[31m.json"]) == 2
    assert capsys.readouterr().err == (
        "error: cannot read bad\\ud800\\x1b[31m.json: not a file name this system can use\n"
    )
    assert main([*BOTS, "--record", "bad\ud800.json"]) == 2
    assert capsys.readouterr().err == (
        "error: cannot write bad\\ud800.json: not a file name this system can use\n"
    )


def test_a_terminal_gets_no_raw_escape_from_a_file_name_or_a_record(
    tmp_path: pathlib.Path,
) -> None:
    """Item 1, in a subprocess: the bytes on stderr hold no ESC and are valid UTF-8."""
    rec = to_json(record()).replace('"actions": []', '"actions": ["0:\\u001b[2Jbid 5\\ud800"]')
    pathlib.Path("esc.json").write_text(rec, encoding="utf-8")
    for name in (b"bad\x1b[31m\xff.json", b"esc.json"):
        proc = subprocess.run(
            [sys.executable.encode(), b"-m", b"powergrid", b"replay", name],
            capture_output=True,
            timeout=60,
            check=False,
            cwd=tmp_path,
        )
        assert proc.returncode == 2
        assert proc.stderr.count(b"\n") == 1
        assert b"\x1b" not in proc.stderr
        proc.stderr.decode("utf-8")
    assert proc.stderr.startswith(b"error: esc.json: actions[0]")
    first = subprocess.run(
        [sys.executable.encode(), b"-m", b"powergrid", b"replay", b"bad\x1b[31m\xff.json"],
        capture_output=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert first.stderr == (
        b"error: cannot read bad\\x1b[31m\\udcff.json: No such file or directory\n"
    )


# --- the audit: play --map usa --------------------------------------------------------------------


def test_a_classic_map_with_deluxe_components_suggests_classic(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Item 6: ``play --map usa`` says how to play it."""
    assert main(["play", "--map", "usa"]) == 2
    assert capsys.readouterr().err == (
        "error: --components: the deluxe components have no refill card or initial market "
        "for map 'usa' (they know europe, north_america); play usa with --components classic\n"
    )
    assert main(["play", "--map", "germany", "--components", "classic", "--quiet"]) == 0
    capsys.readouterr()


def test_the_cli_docs_list_every_command() -> None:
    """Item 6: docs/cli.md said "five commands" and listed six; now it lists them, uncounted."""
    from powergrid.cli.main import build_parser

    text = (pathlib.Path(__file__).parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    intro = text.split("\n## ", 1)[0]
    assert " commands:" not in intro.replace("Its\ncommands:", "")  # no count to go stale
    action = next(a for a in build_parser()._actions if a.dest == "command")
    assert isinstance(action.choices, dict)
    for command in action.choices:
        assert f"\n- `{command}" in intro, command
