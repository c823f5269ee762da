"""Issue 32 items 7 and 8: composition without surprises, and module API versions.

The documents in ``tests/data/format4`` were written by the format-4 engine
(commit 8d405b1), which played exactly the modules a config named.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import powergrid as pg
from powergrid.catalog import register_module
from powergrid.formats.records import GameRecord
from powergrid.rules import RuleModule
from powergrid.version import FORMAT, MODULE_API

DATA4 = Path(__file__).parent / "data" / "format4"
OUTCOMES4: dict[str, dict[str, Any]] = json.loads((DATA4 / "outcomes.json").read_text())


@pytest.mark.usefixtures("plugins_installed")
def test_an_extra_module_keeps_the_default_fund_set_25() -> None:
    """SET-25: a 2-player Deluxe game naming another module still plays the fund."""
    config = pg.GameConfig(players=2, modules=("bargain",))
    assert config.modules == ("fund", "bargain")
    assert config == pg.GameConfig(players=2, modules=("fund", "bargain"))
    assert [a.actor for a in pg.new_game(config, seed=1).actors] == [-1]


@pytest.mark.usefixtures("plugins_installed")
def test_leaving_the_fund_out_is_explicit_and_shows_in_json() -> None:
    """``without`` leaves a default out; the JSON says so and reads back equal."""
    config = pg.GameConfig(players=2, modules=("bargain",), without={"fund"})
    assert config.modules == ("bargain",)
    data = json.loads(pg.to_json(config))
    assert data["format"] == FORMAT
    assert (data["modules"], data["without"]) == (["bargain"], ["fund"])
    assert pg.from_json(pg.to_json(config)) == config
    assert pg.new_game(config, seed=1).actors == ()
    for bad in ({"without": {"bargain"}}, {"modules": ("fund",), "without": {"fund"}}):
        with pytest.raises(pg.RulesConfigError) as info:
            pg.GameConfig(players=2, **bad)
        assert info.value.field == "without"


def test_a_module_for_a_newer_api_is_refused_by_register_module() -> None:
    """Item 7: the message names the API and tells to upgrade the library."""
    future = RuleModule(name="from_the_future", version="1", api=MODULE_API + 1)
    with pytest.raises(pg.RulesConfigError) as info:
        register_module(future)
    assert f"written for module API {MODULE_API + 1}" in str(info.value)
    assert "upgrade powergrid-rules" in str(info.value)


@pytest.mark.usefixtures("plugins_installed")
@pytest.mark.parametrize("label", sorted(OUTCOMES4))
def test_format_4_documents_keep_their_modules_and_replay(label: str) -> None:
    """A format-4 record, state, view and config pickle play exactly the modules named then."""
    expected = OUTCOMES4[label]
    record = pg.from_json((DATA4 / f"{label}.record.json").read_text())
    assert isinstance(record, GameRecord)
    assert list(record.config.modules) == expected["modules"]
    config = pickle.loads((DATA4 / f"{label}.config.pickle").read_bytes())
    assert config == record.config
    state = pg.from_json((DATA4 / f"{label}.half.state.json").read_text())
    assert state.config == record.config
    view = pg.from_json((DATA4 / f"{label}.half.view.json").read_text())
    assert view.public.config == record.config
    for action in record.actions[expected["half"] :]:
        state = pg.apply(state, action)
    for final in (pg.replay(record), state):
        result = pg.outcome(final)
        assert result is not None
        assert result.winner == expected["winner"]
        assert list(result.ranking) == expected["ranking"]
        assert [[s.powered, s.money, s.cities] for s in result.scores] == expected["scores"]


def test_a_modules_notable_events_join_the_round_summary() -> None:
    """A module names its events worth a summary line; the terminal prints them (issue 33)."""
    import io

    from powergrid.events import NOTABLE_EVENTS, Event
    from powergrid.formats.text import round_summary

    fund = pg.new_game(pg.GameConfig(players=2, map="europe"), seed=1)
    assert fund.rules.notable_events == NOTABLE_EVENTS | {
        "fund_house_placed",
        "fund_took_plant",
        "fund_dropped_plant",
    }
    plain = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
    assert plain.rules.notable_events == NOTABLE_EVENTS
    took = Event(kind="fund_took_plant", round=1, text="The fund takes plant 13.")
    for state, shown in ((fund, True), (plain, False)):
        out = io.StringIO()
        round_summary(state, 1, [took], out)
        assert ("* The fund takes plant 13." in out.getvalue()) is shown
