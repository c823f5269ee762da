"""The replay page in a real browser (issue 35): headless Chromium driven by Playwright.

``make test`` installs Debian's ``chromium`` where it can (as root with
apt-get) and Playwright's Python package; Playwright drives that system
browser and downloads none. Where either is missing the test is skipped and
says why. ``POWERGRID_CHROMIUM`` names another Chromium binary.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import powergrid as pg
from powergrid import svg
from powergrid.formats.records import states
from tests.test_replay_page import record_of

CHROMIUM = os.environ.get("POWERGRID_CHROMIUM") or shutil.which("chromium")
#: Chromium's flags for a closed network: no background connections that would fail.
FLAGS = [
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no headless Chromium: install Debian's chromium (make test does, as root) "
    "or set POWERGRID_CHROMIUM to a Chromium binary",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (the system's), for the module's tests."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (make test installs it)"
    )
    with sync_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        launched.close()


def test_the_page_steps_forward_and_back_by_action_and_round(browser: Any, tmp_path: Path) -> None:
    record = record_of(pg.GameConfig(players=3, map="germany", components="classic"), 4, 120)
    game_states = list(states(record))
    path = tmp_path / "game.html"
    path.write_text(svg.replay_page(record), encoding="utf-8")
    page = browser.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())

    def step() -> int:
        return int(page.locator("body").get_attribute("data-step"))

    def houses() -> int:
        return int(page.locator("#picture .house").count())

    def phase() -> str:
        return str(page.locator("#picture text.phase").text_content())

    assert step() == 0
    assert houses() == 0
    assert page.locator("#picture .city").count() == len(game_states[0].rules.area.board.cities)
    start = page.locator("#picture").inner_html()
    assert "round 1" in phase()

    page.click("#next")
    assert step() == 1
    assert page.locator("#picture").inner_html() != start
    page.keyboard.press("ArrowRight")
    assert step() == 2
    page.click("#prev")
    page.keyboard.press("ArrowLeft")
    assert step() == 0
    assert page.locator("#picture").inner_html() == start

    # A round forward: the first state of round 2, drawn as that state.
    page.click("#next-round")
    first_of_round_2 = next(k for k, s in enumerate(game_states) if s.round == 2)
    assert step() == first_of_round_2
    assert "round 2" in phase()
    built = sum(len(seats) for seats in game_states[first_of_round_2].board.houses)
    assert built > 0
    assert houses() == built
    page.click("#prev-round")
    assert step() == 0

    page.keyboard.press("End")
    last = len(game_states) - 1
    assert step() == last
    assert houses() == sum(len(seats) for seats in game_states[last].board.houses)
    assert page.locator("#status").text_content() == (
        f"action {last} of {last}, round {game_states[last].round}"
    )
    page.click("#first")
    assert page.locator("#picture").inner_html() == start

    assert problems == []
    assert requests == [path.as_uri()]
    page.close()


def test_the_address_names_the_step_shown(browser: Any, tmp_path: Path) -> None:
    record = record_of(pg.GameConfig(players=2, map="germany", components="classic"), 8, 30)
    path = tmp_path / "game.html"
    path.write_text(svg.replay_page(record), encoding="utf-8")
    page = browser.new_page()
    page.goto(path.as_uri() + "#12")
    assert page.locator("body").get_attribute("data-step") == "12"
    page.keyboard.press("ArrowRight")
    assert page.url.endswith("#13")
    page.goto(path.as_uri() + "#999")  # past the end: the last step
    page.reload()
    assert page.locator("body").get_attribute("data-step") == "30"
    page.close()
