"""The replay page (issue 35 item 2): ``svg.replay_page`` and ``replay FILE --html OUT``.

The page's data must rebuild every picture of the game exactly, need nothing
outside itself, stay small for a finished 6-player game, and survive names
that look like markup. The page in a real browser: test_replay_browser.py.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import powergrid as pg
from powergrid import svg
from powergrid.cli.main import main
from powergrid.formats.records import states
from powergrid.svg.replay import frames_of


def record_of(config: pg.GameConfig, seed: int, actions: int | None = None) -> pg.GameRecord:
    """A record of a seeded game of uniformly random legal actions (to the end by default)."""
    state = pg.new_game(config, seed=seed)
    rnd = random.Random(seed)
    taken: list[pg.Action] = []
    while pg.outcome(state) is None and (actions is None or len(taken) < actions):
        action = rnd.choice(pg.legal_actions(state))
        taken.append(action)
        state = pg.apply(state, action)
    return pg.GameRecord(config=config, seed=seed, actions=tuple(taken))


def page_data(page: str) -> dict[str, Any]:
    """The JSON data inside a page's ``game-data`` script."""
    found = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def rebuilt(data: dict[str, Any], k: int) -> str:
    """Picture ``k`` rebuilt from the page's data the way the page's script does it."""
    ids = list(data["first"])
    for edits in data["edits"][:k]:
        for start, end, new in reversed(edits):
            ids[start:end] = new
    return "\n".join(data["lines"][i] for i in ids)


def test_the_page_rebuilds_every_picture_of_the_game() -> None:
    record = record_of(pg.GameConfig(players=3, map="germany", components="classic"), 4, 150)
    page = svg.replay_page(record)
    data = page_data(page)
    game_states = list(states(record))
    assert len(data["spans"]) == len(game_states) == 151
    for k, state in enumerate(game_states):
        assert rebuilt(data, k) == svg.game(state)
        assert data["rounds"][k] == state.round
        assert data["spans"][k] == len(state.events)
    final = game_states[-1]
    assert len(data["log"]) == len(final.events)
    for line, event in zip(data["log"], final.events, strict=True):
        assert line.endswith(event.text)


def test_frames_store_each_line_once_and_only_what_changed() -> None:
    record = record_of(pg.GameConfig(players=4, map="europe", components="deluxe"), 2, 80)
    frames = frames_of(states(record))
    assert len(frames.lines) == len(set(frames.lines))
    first = frames.picture(0).split("\n")
    # The map alone is most of a picture; one action changes a few lines of it.
    changed = [sum(len(new) for _, _, new in edits) for edits in frames.edits]
    assert max(changed) < len(first) / 2
    assert sorted(changed)[len(changed) // 2] < 20


def test_a_finished_six_player_game_fits_in_five_megabytes() -> None:
    record = record_of(pg.GameConfig(players=6, map="europe", components="deluxe"), 5)
    assert pg.outcome(pg.replay(record)) is not None
    page = svg.replay_page(record)
    assert len(page.encode("utf-8")) < 5_000_000
    data = page_data(page)
    assert rebuilt(data, len(data["spans"]) - 1) == svg.game(pg.replay(record))


def test_the_page_needs_no_network_and_no_other_file() -> None:
    page = svg.replay_page(record_of(pg.GameConfig(players=2), 1, 40))
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert not re.search(r"\b(src|href)\s*=", page)
    assert "url(" not in page
    assert "@import" not in page
    # The one address is the SVG namespace, a name and not a download.
    assert set(re.findall(r"https?://[\w./-]+", page)) == {"http://www.w3.org/2000/svg"}


def test_names_that_look_like_markup_stay_text() -> None:
    names = ("</script><script>alert(1)</script>", "Tom & Jerry", "<b>bold</b>")
    config = pg.GameConfig(players=3, names=names)
    record = record_of(config, 3, 30)
    page = svg.replay_page(record, title="<i>Our</i> game & co")
    assert "<script>alert(1)" not in page
    assert "<b>bold" not in page
    assert "<i>Our" not in page
    assert "<title>&lt;i&gt;Our&lt;/i&gt; game &amp; co</title>" in page
    data = page_data(page)
    assert any(names[0] in line for line in data["log"])
    assert rebuilt(data, 30) == svg.game(pg.replay(record))


def test_replay_html_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = record_of(pg.GameConfig(players=3, map="germany", components="classic"), 6, 60)
    game_file, out = tmp_path / "game.json", tmp_path / "game.html"
    game_file.write_text(pg.to_json(record))
    assert main(["replay", str(game_file), "--quiet", "--html", str(out)]) == 0
    assert f"Wrote the replay page to {out}" in capsys.readouterr().out
    assert out.read_text(encoding="utf-8") == svg.replay_page(record)
    assert main(["replay", str(game_file), "--quiet", "--html", str(out)]) == 2
    assert "add --force" in capsys.readouterr().err
    assert main(["replay", str(game_file), "--quiet", "--html", str(out), "--force"]) == 0


def test_replay_html_of_an_illegal_record_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_of(pg.GameConfig(players=3), 6, 10)
    bad = pg.GameRecord(config=record.config, seed=record.seed, actions=record.actions[1:])
    game_file, out = tmp_path / "bad.json", tmp_path / "bad.html"
    game_file.write_text(pg.to_json(bad))
    assert main(["replay", str(game_file), "--html", str(out)]) == 2
    assert "illegal" in capsys.readouterr().err
    assert not out.exists()
