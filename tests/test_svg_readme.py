"""The README's picture is what the drawing draws today (issue 35: the README shows one)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).parents[1]


def _tool() -> ModuleType:
    """tools/readme_picture.py, loaded from its file (tools/ is scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(
        "readme_picture", ROOT / "tools/readme_picture.py"
    )
    assert spec is not None
    assert spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_readme_picture_is_up_to_date() -> None:
    tool = _tool()
    committed = tool.PICTURE.read_text(encoding="utf-8")
    assert committed == tool.picture(), "the drawing changed: run python tools/readme_picture.py"
    assert "](docs/images/game.svg)" in (ROOT / "README.md").read_text(encoding="utf-8")
