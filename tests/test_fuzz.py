"""A seeded mutation fuzz of state documents and records (the decoder's door).

Every mutated document either raises ``InvalidRecord`` or decodes to a
consistent state (``invariant_violations`` empty) that survives a short random
playout: no other exception, no hang, and the caps of ``powergrid.engine.invariants``
keep ``legal_actions`` bounded. The mutations are seeded, so a failure
reproduces with its seed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import powergrid as pg
from powergrid.engine.invariants import invariant_violations
from powergrid.formats.records import GameRecord

#: A value a mutation may put anywhere: edge numbers, wrong types, empty containers.
ODD_VALUES: tuple[Any, ...] = (
    0, 1, -1, 2, 3, 13, 99, 10**6, 10**9, 2**63, 10**20, -(2**63), True, False, None,
    "", "x", "13", "46+", "coal", "berlin", [], {}, [0], [0, 0], 1.5,
)  # fmt: skip


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def mutate(doc: Any, rnd: random.Random) -> Any:
    """One random change somewhere in a copy of ``doc`` (format and type kept)."""
    doc = json.loads(json.dumps(doc))
    paths = [p for p in _paths(doc) if p and p[0] not in ("format", "type")]
    path = rnd.choice(paths)
    parent, key = _at(doc, path[:-1]), path[-1]
    value = parent[key]
    kind = rnd.randrange(6)
    if kind == 0 and isinstance(parent, dict):
        del parent[key]
    elif kind == 1 and isinstance(value, list) and value:
        value.append(rnd.choice(value))  # a duplicate
    elif kind == 2 and isinstance(value, list) and len(value) > 1:
        i, j = rnd.sample(range(len(value)), 2)
        value[i], value[j] = value[j], value[i]
    elif kind == 3 and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = value + rnd.choice((-1, 1, 10**9))
    else:
        parent[key] = rnd.choice(ODD_VALUES)
    return doc


def _states() -> list[dict[str, Any]]:
    """States of seeded games, early, mid and late, on every map and component set."""
    out = []
    for i, cfg in enumerate(
        [
            pg.GameConfig(players=3, map="north_america"),
            pg.GameConfig(players=4, map="europe", components="classic"),
            pg.GameConfig(
                players=2, map="north_america", components="classic", options={"map_rules"}
            ),
        ]
    ):
        rnd = random.Random(i)
        state = pg.new_game(cfg, seed=i)
        for n in range(400):
            if n in (3, 60, 250) or pg.outcome(state) is not None:
                out.append(json.loads(pg.to_json(state)))
            if pg.outcome(state) is not None:
                break
            state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    return out


STATES = _states()


def _survives(state: pg.GameState, rnd: random.Random) -> None:
    """A decoded state is consistent and plays on for a while."""
    assert invariant_violations(state) == []
    for _ in range(20):
        if pg.outcome(state) is not None:
            return
        actions = pg.legal_actions(state)
        assert 0 < len(actions) <= 50_000
        pg.view(state, 0)
        state = pg.apply(state, rnd.choice(actions))
        assert invariant_violations(state) == []


@pytest.mark.parametrize("chunk", range(4))
def test_mutated_states_are_refused_or_consistent(chunk: int) -> None:
    """600 mutations per chunk: InvalidRecord or a consistent, playable state."""
    rnd = random.Random(f"fuzz-states:{chunk}")
    decoded = 0
    for _ in range(600):
        doc = mutate(rnd.choice(STATES), rnd)
        try:
            state = pg.from_json(json.dumps(doc))
        except pg.InvalidRecord:
            continue
        decoded += 1
        _survives(state, rnd)
    assert decoded < 600  # most mutations break the document


def test_mutated_records_are_refused_or_replay() -> None:
    """500 mutations of a record: InvalidRecord (or an illegal move) or a replay that holds."""
    cfg = pg.GameConfig(players=3, map="europe", components="classic")
    rnd = random.Random("fuzz-records")
    state = pg.new_game(cfg, seed=5)
    actions = []
    for _ in range(120):
        action = rnd.choice(pg.legal_actions(state))
        actions.append(action)
        state = pg.apply(state, action)
    good = json.loads(pg.to_json(GameRecord(config=cfg, seed=5, actions=tuple(actions))))
    for _ in range(500):
        doc = mutate(good, rnd)
        try:
            record = pg.from_json(json.dumps(doc))
            replayed = pg.replay(record)
        except (pg.InvalidRecord, pg.IllegalAction, pg.RulesConfigError):
            continue
        assert invariant_violations(replayed) == []


def test_mutated_position_texts_are_refused_or_consistent() -> None:
    """1,500 edits of a position text: InvalidRecord, or a consistent state."""
    rnd = random.Random("fuzz-text")
    state = pg.new_game(pg.GameConfig(players=3, map="europe", components="classic"), seed=1)
    for _ in range(30):
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    words = pg.position_text(state, hidden=True).split()
    odd = ("", "-", "x", "0", "-1", "9" * 25, "a/b", "a:b", "1.2", "%zz", "3,3", "/", ".")
    for _ in range(1500):
        w = list(words)
        i = rnd.randrange(len(w))
        key, _, value = w[i].partition("=")
        how = rnd.randrange(4)
        if how == 0:
            del w[i]
        elif how == 1:
            w[i] = f"{key}={rnd.choice(odd)}"
        elif how == 2 and value:
            j = rnd.randrange(len(value))
            w[i] = f"{key}={value[:j]}{rnd.choice('0123456789,/.:-+x')}{value[j + 1 :]}"
        else:
            w.append(rnd.choice(w))
        try:
            built = pg.parse_position(" ".join(w))
        except pg.InvalidRecord:
            continue
        assert invariant_violations(built) == []


def test_odd_builder_parts_are_refused_or_consistent() -> None:
    """2,000 random part values: InvalidRecord naming a part, or a consistent state."""
    from powergrid.formats.position import PARTS

    cfg = pg.GameConfig(players=3, map="europe", components="classic")
    rnd = random.Random("fuzz-parts")
    values = [*ODD_VALUES, {0: {"money": -1}}, {0: {"plants": "13"}}, {9: {}}, {"coal": "x"}]
    paths: list[str] = []
    for _ in range(2000):
        names = rnd.sample((*PARTS, "area"), rnd.randrange(1, 3))
        try:
            built = pg.build_position(cfg, seed=1, **{n: rnd.choice(values) for n in names})
        except pg.InvalidRecord as err:
            paths.append(err.path)
            continue
        assert invariant_violations(built) == []
    assert paths
    assert all(paths)  # every refusal names the part it refuses
