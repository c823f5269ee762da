"""Properties of seeded games with a third-party module (tests/plugins, ``grants``).

The same properties the built-in configurations keep (tests/test_properties.py) hold
with a module from outside the package that adds its own state, its own action and a
component table: the invariants after every action, purity, determinism, legality
closure, JSON and pickle round trips, hidden information, and the end of the game.
Money moves only by bids, purchases, builds, income and the module's grants.
"""

from __future__ import annotations

import pickle
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.frozen import evolve
from powergrid.testing import check_game, playout, seeds
from tests.test_properties import _money_from_events, snapshot

pytestmark = pytest.mark.usefixtures("plugins_installed")

#: The configurations, built once the plugins are installed (the fixture runs first).
SHAPES = st.sampled_from(
    [
        {"players": 3, "components": "classic", "map": "europe"},
        {"players": 2, "map": "north_america"},  # with the fund, a default module
        {"players": 4, "map": "north_america", "components": "classic", "options": {"map_rules"}},
        {"players": 5, "map": "europe"},
    ]
)


def config_of(shape: dict[str, object]) -> pg.GameConfig:
    """The shape's config with the third-party module ``grants``."""
    return pg.GameConfig(**shape, modules=("grants",))  # type: ignore[arg-type]


@settings(max_examples=6)
@given(shape=SHAPES, seed=seeds(), policy=seeds())
def test_invariants_hold_and_the_game_ends(
    shape: dict[str, object], seed: int, policy: int
) -> None:
    """CON-10, CON-11, AUC-16, RES-05, BLD-05, BLD-06, BLD-12, CON-07, END-01 with the module."""
    config = config_of(shape)
    final = check_game(config, seed, policy)
    result = pg.outcome(final)
    assert result is not None
    assert sorted(result.ranking) == list(range(config.players))


def _money_moves(events: tuple[pg.Event, ...], players: int) -> list[int]:
    """The core's money moves (tests/test_properties.py) plus the module's grants."""
    delta = _money_from_events(events, players)
    for e in events:
        if e.kind == "grant_claimed":
            delta[e.player or 0] += int(e.values[0])
    return delta


@settings(max_examples=4)
@given(shape=SHAPES, seed=seeds(), policy=seeds(), other=seeds())
def test_each_action_is_pure_closed_and_round_trips(
    shape: dict[str, object], seed: int, policy: int, other: int
) -> None:
    """Purity, legality closure, money, JSON, pickle and hidden information, action by action."""
    config = config_of(shape)
    rnd = random.Random(other)
    for state, action in playout(config, seed, policy):
        before = snapshot(state)
        after = pg.apply(state, action)
        assert snapshot(state) == before
        assert pg.apply(state, action) == after  # determinism
        moved = _money_moves(after.events.as_tuple()[len(state.events) :], config.players)
        assert [p.money for p in after.players] == [
            p.money + d for p, d in zip(state.players, moved, strict=True)
        ]
        if rnd.random() > 0.1:
            continue
        assert all(pg.is_legal(state, a) for a in pg.legal_actions(state))
        assert pg.from_json(pg.to_json(state)) == state
        assert pickle.loads(pickle.dumps(state)) == state
        deck = list(state.secret.deck)
        rnd.shuffle(deck)
        twin = evolve(state, secret=attrs.evolve(state.secret, deck=tuple(deck)))
        assert pg.legal_actions(twin) == pg.legal_actions(state)
        for seat in range(config.players):
            assert pg.view(twin, seat) == pg.view(state, seat)
