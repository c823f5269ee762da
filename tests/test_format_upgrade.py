"""Documents of older formats still load and replay to the outcome their engine computed.

Format 1 played the board's map rules in classic games too; format 2 plays
them only with the ``map_rules`` option (RULES.md CON-02, OQ-31), so a classic
config read from format 1 gains that option. Formats 1 and 2 named plants by
number; format 3 names them by card label, and a number ``n`` is read as the
label ``"n"``. The documents in ``tests/data/format1`` were written by the
format-1 engine (commit 7437d42), those in ``tests/data/format2`` by the
format-2 engine (commit 5ff24ea).

A decoded state keeps the event sentences its engine wrote, and an event's
``text`` may be reworded between releases (:class:`powergrid.events.Event`), so
the decoded documents are compared with today's replays by their events' kinds,
rounds, players and values, not their sentences (:func:`untexted`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

import powergrid as pg
from powergrid.events import PLANT_EVENTS, EventLog
from powergrid.formats.records import GameRecord
from powergrid.frozen import evolve
from powergrid.version import FORMAT
from tests.module_parts import discount

DATA = Path(__file__).parent / "data" / "format1"
OUTCOMES: dict[str, dict[str, Any]] = json.loads((DATA / "outcomes.json").read_text())


def _untexted_log(log: EventLog) -> EventLog:
    out = EventLog()
    for e in log:
        out = out.added(e.kind, e.round, "", e.player, e.values)
    return out


def untexted(doc: pg.GameState | pg.PlayerView) -> pg.GameState | pg.PlayerView:
    """``doc`` with every event sentence blanked: what stays equal across rewordings."""
    if isinstance(doc, pg.PlayerView):
        public = attrs.evolve(doc.public, events=_untexted_log(doc.public.events))
        return attrs.evolve(doc, public=public)
    return evolve(doc, events=_untexted_log(doc.events))


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
    assert untexted(state) == untexted(pg.replay(record, upto=expected_half(label)))
    data = json.loads(pg.to_json(state))
    assert data["format"] == FORMAT
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
    assert discount(pg.new_game(old, seed=1)) == "3"  # AUC-31: token on the lowest plant
    assert discount(pg.new_game(new, seed=1)) is None  # CON-02: no token in classic


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


# --- format 2: plants by number ----------------------------------------------------------

DATA2 = Path(__file__).parent / "data" / "format2"
OUTCOMES2: dict[str, dict[str, Any]] = json.loads((DATA2 / "outcomes.json").read_text())
MOMENTS2 = [(label, m) for label in sorted(OUTCOMES2) for m in sorted(OUTCOMES2[label]["states"])]


def _record2(label: str) -> GameRecord:
    record = pg.from_json((DATA2 / f"{label}.record.json").read_text())
    assert isinstance(record, GameRecord)
    return record


def _check_outcome(state: pg.GameState, expected: dict[str, Any]) -> None:
    result = pg.outcome(state)
    assert result is not None
    assert result.winner == expected["winner"]
    assert list(result.ranking) == expected["ranking"]
    assert [[s.powered, s.money, s.cities] for s in result.scores] == expected["scores"]
    # the plants removed face up, once numbers, are the labels of those numbers
    assert list(state.market.removed) == [str(n) for n in expected["removed"]]


@pytest.mark.parametrize("label", sorted(OUTCOMES2))
def test_format_2_record_replays_to_its_outcome(label: str) -> None:
    """A format-2 record replays, move for move, to the outcome the format-2 engine computed."""
    record = _record2(label)
    assert len(record.actions) == OUTCOMES2[label]["actions"]
    _check_outcome(pg.replay(record), OUTCOMES2[label])


@pytest.mark.parametrize(("label", "moment"), MOMENTS2)
def test_format_2_state_names_plants_by_label_and_continues(label: str, moment: str) -> None:
    """A format-2 state decodes to the replayed state (plants and events by label) and plays on.

    The fixtures stand with an auction running, a discard pending and half way,
    so the auction's plant, ``new_plant`` and every market list are upgraded.
    """
    state = pg.from_json((DATA2 / f"{label}.{moment}.state.json").read_text())
    record = _record2(label)
    done = OUTCOMES2[label]["states"][moment]
    assert untexted(state) == untexted(pg.replay(record, upto=done))
    assert all(isinstance(c, str) for p in state.players for c in p.plants)
    assert json.loads(pg.to_json(state))["format"] == FORMAT
    for action in record.actions[done:]:
        state = pg.apply(state, action)
    _check_outcome(state, OUTCOMES2[label])


@pytest.mark.parametrize("label", sorted(OUTCOMES2))
def test_format_2_view_decodes_to_the_view_of_the_replayed_state(label: str) -> None:
    """A format-2 PlayerView (its legal actions, market and events) reads as today's view.

    Views of that time did not record who finished the phase or bought a
    plant: those read as unknown (None), not as nobody.
    """
    view = pg.from_json((DATA2 / f"{label}.half.view.json").read_text())
    state = pg.replay(_record2(label), upto=OUTCOMES2[label]["states"]["half"])
    assert isinstance(view, pg.PlayerView)
    assert view.public.done is None
    assert view.public.bought is None
    today = pg.view(state, OUTCOMES2[label]["view_seat"])
    unknown = attrs.evolve(today.public, done=None, bought=None)
    assert untexted(view) == untexted(attrs.evolve(today, public=unknown))


def test_format_2_plant_events_carry_labels() -> None:
    """In a format-2 state the first value of a plant event becomes a label; others stay numbers."""
    label = "deluxe_north_america_3"
    raw = json.loads((DATA2 / f"{label}.half.state.json").read_text())
    state = pg.from_json(json.dumps(raw))
    assert state.rules.plant_events == PLANT_EVENTS | {"discount_placed", "discount_removed"}
    for old, new in zip(raw["events"], state.events, strict=True):
        if old["kind"] in state.rules.plant_events:
            assert new.values == (str(old["values"][0]), *old["values"][1:])
        else:
            assert list(new.values) == old["values"]
    kinds = {e.kind for e in state.events}
    assert {"plant_bought", "plant_drawn", "discount_placed"} <= kinds


def test_format_3_refuses_plant_numbers() -> None:
    """Only formats 1 and 2 may name a plant by number: format 3 wants its label."""
    body = {"type": "ChoosePlant", "player": 0, "plant": 13, "bid": 13}
    assert pg.from_json(json.dumps({"format": 2, **body})) == pg.ChoosePlant(
        player=0, plant="13", bid=13
    )
    with pytest.raises(pg.InvalidRecord) as info:
        pg.from_json(json.dumps({"format": 3, **body}))
    assert info.value.path == "plant"
    assert "label" in str(info.value)
