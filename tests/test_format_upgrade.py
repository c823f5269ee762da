"""Format-1 documents still load and replay to the outcome their engine computed.

Format 1 played the board's map rules in classic games too; format 2 plays
them only with the ``map_rules`` option (RULES.md CON-02, OQ-31), so a classic
config read from format 1 gains that option. The documents in
``tests/data/format1`` were written by the format-1 engine (commit 7437d42).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import powergrid as pg
from powergrid.records import GameRecord

DATA = Path(__file__).parent / "data" / "format1"
OUTCOMES: dict[str, dict[str, Any]] = json.loads((DATA / "outcomes.json").read_text())


@pytest.mark.parametrize("label", sorted(OUTCOMES))
def test_format_1_record_replays_to_its_outcome_con_02_oq_31(label: str) -> None:
    """CON-02, OQ-31: a format-1 record replays, move for move, to the same result."""
    record = pg.from_json((DATA / f"{label}.record.json").read_text())
    assert isinstance(record, GameRecord)
    expected = OUTCOMES[label]
    assert len(record.actions) == expected["actions"]
    result = pg.outcome(pg.replay(record))
    assert result is not None
    assert result.winner == expected["winner"]
    assert list(result.ranking) == expected["ranking"]
    assert [[s.powered, s.money, s.cities] for s in result.scores] == expected["scores"]


@pytest.mark.parametrize("label", sorted(OUTCOMES))
def test_format_1_classic_config_gains_map_rules_oq_31(label: str) -> None:
    """OQ-31: classic format-1 configs opt in to the map rules they were played with."""
    record = pg.from_json((DATA / f"{label}.record.json").read_text())
    if record.config.components == "classic":
        assert record.config.options == frozenset({"map_rules"})
        assert dict(record.versions)[record.config.map] == "1"
    else:
        assert record.config.options == frozenset()


@pytest.mark.parametrize("label", sorted(OUTCOMES))
def test_format_1_state_decodes_and_continues_like_its_record(label: str) -> None:
    """A format-1 state is the record's state at that point and is written as format 2."""
    state = pg.from_json((DATA / f"{label}.state.json").read_text())
    record = pg.from_json((DATA / f"{label}.record.json").read_text())
    assert state == pg.replay(record, upto=expected_half(label))
    data = json.loads(pg.to_json(state))
    assert data["format"] == 2
    assert pg.from_json(pg.to_json(state)) == state


def expected_half(label: str) -> int:
    """The fixtures' states stand after half of the record's actions."""
    return int(OUTCOMES[label]["actions"]) // 2


def test_format_1_config_document_is_upgraded_but_format_2_is_taken_as_written() -> None:
    """A bare classic config: format 1 gains map_rules, format 2 keeps plain classic rules."""
    body = {"type": "GameConfig", "players": 3, "map": "north_america", "components": "classic"}
    old = pg.from_json(json.dumps({"format": 1, **body, "options": []}))
    new = pg.from_json(json.dumps({"format": 2, **body, "options": []}))
    assert old.options == frozenset({"map_rules"})
    assert new.options == frozenset()
    assert pg.new_game(old, seed=1).market.discount == 3  # AUC-31: token on the lowest plant
    assert pg.new_game(new, seed=1).market.discount is None  # CON-02: no token in classic


def test_format_1_player_view_config_is_upgraded() -> None:
    """A PlayerView keeps its config inside its public part; format 1 upgrades it there too."""
    cfg = pg.GameConfig(players=3, map="europe", components="classic", options={"map_rules"})
    doc = json.loads(pg.to_json(pg.view(pg.new_game(cfg, seed=2), 0)))
    doc["format"] = 1
    doc["public"]["config"]["options"] = []
    view = pg.from_json(json.dumps(doc))
    assert view.public.config.options == frozenset({"map_rules"})


def test_format_1_malformed_options_still_raise_invalid_record() -> None:
    """The upgrade never hides or changes a decoding error: bad options name their path."""
    for options in ([1, "a"], [None], "map_rules", [["x"]]):
        body = {"format": 1, "type": "GameConfig", "components": "classic", "options": options}
        with pytest.raises(pg.InvalidRecord) as info:
            pg.from_json(json.dumps(body))
        assert info.value.path.startswith("options")
