"""A third map is one data file plus one small rule module (issue: maps as rule modules).

The test copies the installed package to a temporary folder, adds
``data/maps/testland.json`` (a board) and ``rules/maps/testland.py`` (its module), and
plays a whole game there in a subprocess, without touching any other file.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import powergrid

PACKAGE = pathlib.Path(powergrid.__file__).resolve().parent

SCRIPT = """
import powergrid as pg
from powergrid.bots import RandomBot
assert "testland" in pg.config.MAPS, pg.config.MAPS
cfg = pg.GameConfig(players=3, map="testland", components="classic")
state = pg.new_game(cfg, seed=5)
assert state.rules.area.board.name == "Testland"
bot = RandomBot(seed=1)
while pg.outcome(state) is None:
    state = pg.apply(state, bot.choose(state))
print("winner", pg.outcome(state).winners)
try:
    pg.GameConfig(players=3, map="testland", components="deluxe")
except pg.RulesConfigError as err:
    print("deluxe refused:", err.field)
"""


def test_a_third_map_needs_one_board_file_and_one_module(tmp_path: pathlib.Path) -> None:
    """CON-02: a new board plays with the classic components; Deluxe (no cards) is refused."""
    copy = tmp_path / "powergrid"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for shared in PACKAGE.parent.glob("*__mypyc*"):  # the compiled build's shared library
        shutil.copy2(shared, tmp_path)
    board = json.loads((PACKAGE / "data" / "maps" / "europe.json").read_text())
    board["name"] = "Testland"
    (copy / "data" / "maps" / "testland.json").write_text(json.dumps(board))
    (copy / "rules" / "maps" / "testland.py").write_text(
        '"""Testland: no rules of its own."""\n\n'
        "from powergrid.rules import RuleModule\n\n"
        'MODULE = RuleModule(name="testland", version="1")\n'
    )
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "winner" in out.stdout
    assert "deluxe refused: components" in out.stdout


def test_the_core_names_no_map() -> None:
    """The engine, phases, market and component sets never branch on a map's name."""
    core = [
        *PACKAGE.glob("*.py"),
        *(PACKAGE / "mechanics").glob("*.py"),
        *(PACKAGE / "engine").rglob("*.py"),
        *(PACKAGE / "formats").glob("*.py"),
        PACKAGE / "rules" / "__init__.py",
        PACKAGE / "rules" / "base.py",
        PACKAGE / "rules" / "classic.py",
        PACKAGE / "rules" / "deluxe.py",
    ]
    # Defaults and help texts may name the default map; nothing may compare against one.
    for path in core:
        text = path.read_text()
        assert '== "north_america"' not in text, path
        assert '== "europe"' not in text, path
        assert '"north_america"' not in text, path
