"""States are plain values: they pickle, cloudpickle, deep-copy and cross processes.

A state holds its ruleset (the composed hooks, which are plain functions and
closures); pickling stores only the ruleset's key and the unpickling process
rebuilds it from its installed rule modules. The event log pickles as a flat
tuple, so a long game never nests deeper than a few frames.
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import sys

import cloudpickle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.rules import ruleset
from powergrid.state import GameState
from powergrid.testing import check_game, config_label, configs, playout, seeds


def late_states(config: pg.GameConfig, seed: int) -> list[GameState]:
    """The final state of a seeded random game and two states from its last quarter."""
    seen = [state for state, _ in playout(config, seed, seed)]
    final = check_game(config, seed, seed)
    return [seen[len(seen) * 3 // 4], seen[-1], final]


def assert_same_game(copied: GameState, state: GameState) -> None:
    """A copy is equal, shares the ruleset, and plays on exactly like the original."""
    assert copied == state
    assert copied.rules is state.rules  # rebuilt from the cache, never duplicated
    assert copied.events.as_tuple() == state.events.as_tuple()
    assert pg.legal_actions(copied) == pg.legal_actions(state)
    assert pg.view(copied, 0) == pg.view(state, 0)


@settings(max_examples=15)
@given(config=configs(), seed=seeds())
def test_late_game_states_round_trip_through_pickle(config: pg.GameConfig, seed: int) -> None:
    """pickle at every protocol from 2 up returns an equal state that plays on the same."""
    for state in late_states(config, seed):
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            assert_same_game(pickle.loads(pickle.dumps(state, protocol=protocol)), state)


@settings(max_examples=15)
@given(config=configs(), seed=seeds())
def test_late_game_states_round_trip_through_cloudpickle(config: pg.GameConfig, seed: int) -> None:
    """cloudpickle (what Ray and many pools use) returns an equal state."""
    for state in late_states(config, seed):
        assert_same_game(cloudpickle.loads(cloudpickle.dumps(state)), state)


@settings(max_examples=15)
@given(config=configs(), seed=seeds())
def test_late_game_states_survive_deepcopy_and_copy(config: pg.GameConfig, seed: int) -> None:
    """deepcopy and copy of an immutable state give an equal state (here: the state itself)."""
    for state in late_states(config, seed):
        assert_same_game(copy.deepcopy(state), state)
        assert_same_game(copy.copy(state), state)
        holder = {"state": state, "list": [state]}
        copied = copy.deepcopy(holder)
        assert copied["state"] == state
        assert copied["list"] == [state]


def test_a_long_six_player_game_pickles_at_the_default_recursion_limit() -> None:
    """A finished 6-player game with over 1,000 events needs no deeper stack."""
    assert sys.getrecursionlimit() <= 1000
    state = check_game(pg.GameConfig(players=6, map="europe"), 0, 0)
    assert pg.outcome(state) is not None
    assert len(state.events) > 1000
    for dumps, loads in ((pickle.dumps, pickle.loads), (cloudpickle.dumps, cloudpickle.loads)):
        assert_same_game(loads(dumps(state)), state)
    assert copy.deepcopy(state) == state
    assert copy.deepcopy(state.events).as_tuple() == state.events.as_tuple()


def test_a_ruleset_travels_by_reference() -> None:
    """Pickling a ruleset stores its key (config and play area), not its hooks or tables."""
    state = pg.new_game(pg.GameConfig(players=4, map="north_america"), seed=3)
    blob = pickle.dumps(state.rules)
    assert len(blob) < 1000  # the plant tables and the all-pairs costs alone are far larger
    assert pickle.loads(blob) is state.rules
    assert b"lambda" not in blob


def test_the_ruleset_cache_is_bounded_and_ignores_display_names() -> None:
    """Configs that differ only in names share a ruleset; the cache has a fixed size."""
    named = pg.GameConfig(players=3, names=("Ann", "Bo", "Cy"))
    other = pg.GameConfig(players=3, names=("Dee", "Ed", "Flo"))
    a = pg.new_game(named, seed=4)
    b = pg.new_game(other, seed=4)
    assert a.rules is b.rules
    assert a.config.names == ("Ann", "Bo", "Cy")  # the state keeps the game's own config
    assert pickle.loads(pickle.dumps(a)).config.names == ("Ann", "Bo", "Cy")
    info = ruleset._build.cache_info()
    assert info.maxsize == ruleset.CACHE_SIZE
    before = info.currsize
    for n in range(20):
        pg.new_game(pg.GameConfig(players=3, names=(f"a{n}", "b", "c")), seed=4)
    assert ruleset._build.cache_info().currsize == before


PAIRS = [
    (pg.GameConfig(players=2, map="europe"), 1),
    (pg.GameConfig(players=5, map="north_america", components="classic"), 2),
    (pg.GameConfig(players=3, components="classic", options={"map_rules"}), 3),
    (pg.GameConfig(players=6, map="north_america"), 4),
]


def test_a_spawn_process_pool_returns_finished_states_equal_to_in_process_games() -> None:
    """Workers started fresh (spawn) play the same seeded games and send back equal states."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        remote = pool.starmap(check_game, [(cfg, seed, seed) for cfg, seed in PAIRS])
    for (cfg, seed), state in zip(PAIRS, remote, strict=True):
        local = check_game(cfg, seed, seed)
        assert pg.outcome(state) is not None
        assert_same_game(state, local)


@pytest.mark.parametrize("config", [cfg for cfg, _ in PAIRS], ids=config_label)
def test_views_outcomes_and_configs_pickle(config: pg.GameConfig) -> None:
    """The other values a worker sends back (configs, views, outcomes) pickle too."""
    state = check_game(config, 0, 0)
    for value in (config, pg.view(state, 1), pg.public_view(state), pg.outcome(state)):
        assert pickle.loads(pickle.dumps(value)) == value


@given(st.integers(0, 300))
def test_event_logs_of_any_length_pickle_flat(length: int) -> None:
    """An event log of any length pickles to an equal log."""
    log = pg.new_game(seed=length).events
    for i in range(length):
        log = log.append(pg.Event("probe", 1, f"event {i}", None, (i,)))
    copied = pickle.loads(pickle.dumps(log))
    assert copied == log
    assert len(copied) == len(log)
