"""A module a third party could have written plays through every part of the library.

``grants`` (tests/plugins/powergrid_grants.py, installed through an entry point and
editing nothing in powergrid) keeps a state of its own, adds an action and changes a
component table (issue 32, "What must show"). Its made-up rules: once per game the seat
on turn in phase 3 may claim 10 Elektro; houses cost 12, 17, 22 instead of BLD-05's 10,
15, 20.
"""

from __future__ import annotations

import importlib
import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

import powergrid as pg
from powergrid.enums import Phase
from powergrid.errors import Reason
from powergrid.formats.schemas import schema
from powergrid.rl.codec import ActionCodec
from powergrid.testing import check_ruleset, invariant_violations

pytestmark = pytest.mark.usefixtures("plugins_installed")


def classic3() -> pg.GameConfig:
    """Three players, classic components on Europe, with the module."""
    return pg.GameConfig(players=3, components="classic", map="europe", modules=("grants",))


def grants_module() -> Any:
    """The plugin's Python module (importable once the fixture put it on the path)."""
    return importlib.import_module("powergrid_grants")


def test_it_composes_after_the_defaults() -> None:
    """SET-25: a 2-player Deluxe game naming it keeps the fund; it states module API 2."""
    config = pg.GameConfig(players=2, modules=("grants",))
    assert config.modules == ("fund", "grants")
    state = pg.new_game(config, seed=3)
    assert [m.name for m in state.rules.modules][-2:] == ["fund", "grants"]
    assert state.modules["grants"] == grants_module().Grants()
    assert state.rules.modules[-1].api == 2


def round_two(phase: str, money: int = 40) -> pg.GameState:
    """Round 2 in ``phase``, order 1, 2, 0, seat 0 with ``money`` Elektro and plant 20.

    Seat 0 is last in the order: first to buy (RES-01) and to build (BLD-01).
    """
    return pg.build_position(
        classic3(),
        seed=1,
        round=2,
        step=1,
        phase=phase,
        order=[1, 2, 0],
        seats={0: {"money": money, "plants": [20]}, 1: {"plants": [21]}, 2: {"plants": [22]}},
    )


def building(money: int = 40) -> pg.GameState:
    """Round 2, phase 4, seat 0 first to build, with ``money`` Elektro and no houses."""
    return round_two("building", money)


def buying() -> pg.GameState:
    """Round 2, phase 3, seat 0 on turn with 20 Elektro."""
    return round_two("resources", 20)


def test_bld_05_houses_cost_what_its_tables_say() -> None:
    """BLD-04/05 with its tables: a first house costs 12, not 10; the seat pays 12."""
    state = building(money=12)
    assert state.rules.tables.house_costs == (12, 17, 22)
    assert pg.public_view(state).slot_costs[0][1] == 12
    build = pg.Build(player=0, city="berlin")
    assert build in pg.legal_actions(state)
    after = pg.apply(state, build)
    assert after.players[0].money == 0
    poorer = building(money=11)
    assert build not in pg.legal_actions(poorer)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(poorer, build)
    assert err.value.reason is Reason.CANNOT_AFFORD


def test_its_action_plays_once_per_game() -> None:
    """The claim is listed after the phase's own actions, pays 10 once, then is refused."""
    mod = grants_module()
    state = buying()
    assert pg.current_player(state) == 0
    legal = pg.legal_actions(state)
    assert legal[-1] == mod.ClaimGrant(player=0)
    after = pg.apply(state, mod.ClaimGrant(player=0))
    assert after.players[0].money == 30
    assert after.modules["grants"].claimed == frozenset({0})
    assert after.events.as_tuple()[-1].kind == "grant_claimed"
    assert mod.ClaimGrant(player=0) not in pg.legal_actions(after)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(after, mod.ClaimGrant(player=0))
    assert err.value.reason is Reason.MODULE_RULE
    assert "claimed the grant already" in str(err.value)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, mod.ClaimGrant(player=1))
    assert err.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(building(), mod.ClaimGrant(player=0))
    assert err.value.reason is Reason.WRONG_PHASE


def test_its_action_and_state_travel_as_text() -> None:
    """Notation, JSON, schemas and the position text carry its action and state."""
    mod = grants_module()
    action = mod.ClaimGrant(player=2)
    assert str(action) == "2:grant"
    assert pg.parse_action("2:grant") == action
    assert pg.from_json(pg.to_json(action)) == action
    state = pg.apply(buying(), mod.ClaimGrant(player=0))
    doc = json.loads(pg.to_json(state))
    assert doc["modules"] == {"grants": {"claimed": [0]}}
    text = pg.position_text(state, hidden=True)
    assert "granted=0" in text.split()
    again = pg.parse_position(text)
    assert again.modules == state.modules
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(doc, schema("state"))
    jsonschema.validate(json.loads(pg.to_json(action)), schema("action"))


def games(config: pg.GameConfig, count: int) -> Iterator[pg.GameState]:
    """Every state of ``count`` seeded random games that claim a grant whenever they may."""
    mod = grants_module()
    for seed in range(count):
        rng = random.Random(seed)
        state = pg.new_game(config, seed=seed)
        while pg.outcome(state) is None:
            yield state
            acts = pg.legal_actions(state)
            claims = [a for a in acts if isinstance(a, mod.ClaimGrant)]
            state = pg.apply(state, claims[0] if claims else acts[rng.randrange(len(acts))])
        yield state


@pytest.mark.parametrize("label", ["classic/europe/3", "deluxe/north_america/2+fund"])
def test_whole_games_keep_every_round_trip(label: str) -> None:
    """Seeded games: invariants, JSON, pickle, views, positions and codec masks hold."""
    config = (
        classic3()
        if label.startswith("classic")
        else pg.GameConfig(players=2, map="north_america", modules=("grants",))
    )
    check_ruleset(config, games=2, seed=5)
    codec = ActionCodec(config)
    block = codec.block("grant")
    claimed = set()
    for i, state in enumerate(games(config, 1)):
        assert invariant_violations(state) == []
        claimed |= state.modules["grants"].claimed
        assert pg.from_json(pg.to_json(state)) == state
        assert pickle.loads(pickle.dumps(state)) == state
        if i % 7:
            continue  # the slower round trips on a sample of the states
        for seat in range(config.players):
            view = pg.view(state, seat)
            assert pg.from_json(pg.to_json(view)) == view
            assert view.modules == state.modules  # public: every seat sees all of it
        text = pg.position_text(state, hidden=True)
        again = pg.parse_position(text)
        assert again == pg.state.evolve(state, events=again.events)
        mask = codec.mask(state)
        listed = {codec.encode(a, state) for a in pg.legal_actions(state)} - {None}
        assert {int(k) for k in mask.nonzero()[0]} == listed
        turn = pg.current_player(state)
        may_claim = (
            state.phase is Phase.RESOURCES
            and turn is not None
            and turn not in state.modules["grants"].claimed
        )
        assert bool(mask[block.start : block.stop].any()) == may_claim
    assert claimed == set(range(config.players))  # every seat claimed once in the game
