"""The README's picture is what the drawing draws today (issue 35: the README shows one)."""

from __future__ import annotations

from pathlib import Path

from tools.readme_picture import PICTURE, picture

ROOT = Path(__file__).parents[1]


def test_the_readme_picture_is_up_to_date() -> None:
    committed = PICTURE.read_text(encoding="utf-8")
    assert committed == picture(), "the drawing changed: run python tools/readme_picture.py"
    assert "](docs/images/game.svg)" in (ROOT / "README.md").read_text(encoding="utf-8")
