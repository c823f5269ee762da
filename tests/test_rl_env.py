"""The PettingZoo and Gymnasium environments of powergrid.rl, checked by their own checkers.

PettingZoo's ``api_test``, ``seed_test`` and ``render_test`` run for 2, 4 and 6
players on both maps; Gymnasium's ``check_env`` on the single-agent env. Then
what the checkers do not see: whole games to the end with the END-03 ranking
as a zero-sum reward, the fund and customised decks, illegal indices,
truncation, seeds, records and pickling mid-game.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import powergrid as pg
from powergrid.outcome import Score, rank
from powergrid.rl import ENV_ID, NAME, PowerGridAEC, PowerGridEnv, env, rank_utility, raw_env
from powergrid.rules.custom_deck.samples import sample_config

# PettingZoo warns about every Dict observation outside its own whitelist of names.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]

MAPS = ("europe", "north_america")


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("map_", MAPS)
def test_pettingzoo_checkers(players: int, map_: str) -> None:
    """api_test, seed_test and render_test: 2-player Deluxe games play the fund (SET-25)."""
    api_test(env(players=players, map=map_), num_cycles=1000)
    seed_test(lambda: env(players=players, map=map_), num_cycles=300)
    render_test(lambda render_mode: env(players=players, map=map_, render_mode=render_mode))


def test_pettingzoo_checkers_with_the_classic_components() -> None:
    api_test(env(players=3, map="europe", components="classic"), num_cycles=1000)
    seed_test(lambda: env(players=2, map="europe", components="classic"), num_cycles=300)


def play_aec(e: Any, seed: int) -> dict[str, float]:
    """Play a masked-uniform game to the end; the cumulative reward of every agent."""
    e.reset(seed=seed)
    rnd = random.Random(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = rnd.choice(np.flatnonzero(obs["action_mask"]).tolist())
        e.step(action)
    return total


@pytest.mark.parametrize(
    "config",
    [
        pg.GameConfig(players=4, map="europe"),
        pg.GameConfig(players=2, map="north_america"),  # the fund, SET-25
        sample_config("M", 3),
        sample_config("P", 4, map="north_america"),
    ],
    ids=["deluxe4", "fund", "custom-M", "custom-P"],
)
def test_a_whole_game_pays_the_rank_utility(config: pg.GameConfig) -> None:
    """END-03/END-04: the terminal rewards are the rank utility, summing to 0.

    The environment's record replays to its final state.
    """
    e = raw_env(config)
    total = play_aec(e, seed=8)
    assert e.state is not None
    result = pg.outcome(e.state)
    assert result is not None
    assert e.agents == []
    expected = rank_utility(result)
    assert [total[f"player_{s}"] for s in range(config.players)] == pytest.approx(expected)
    assert sum(total.values()) == pytest.approx(0.0)
    assert total[f"player_{result.ranking[0]}"] == pytest.approx(1.0) or result.winner is None
    assert pg.replay(e.record()) == e.state


def test_rank_utility_shares_tied_places() -> None:
    """END-04: seats equal on powered cities, money and cities share their places."""
    distinct = rank(tuple(Score(s, p, 0, 0) for s, p in enumerate((3, 9, 6, 1))), "end")
    assert rank_utility(distinct) == pytest.approx((-1 / 3, 1.0, 1 / 3, -1.0))
    tied = rank(tuple(Score(s, 7, 20, 10) for s in range(2)) + (Score(2, 5, 0, 0),), "end")
    assert rank_utility(tied) == pytest.approx((0.5, 0.5, -1.0))
    assert sum(rank_utility(tied)) == 0


def test_raw_env_raises_on_an_illegal_index_and_env_ends_the_game(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """AUC-13: passing the auction in round 1 is illegal; raw raises, the wrapped env ends it."""
    raw = raw_env(players=3, map="europe")
    raw.reset(seed=2)
    with pytest.raises(pg.IllegalAction) as err:
        raw.step(0)
    assert err.value.reason is pg.Reason.PASS_FORBIDDEN_FIRST_ROUND
    wrapped = env(players=3, map="europe", illegal_reward=-5.0)
    wrapped.reset(seed=2)
    mover = wrapped.agent_selection
    wrapped.step(0)
    assert "Illegal move" in caplog.text
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[mover] == -5.0
    assert all(r == 0 for a, r in wrapped.rewards.items() if a != mover)


def test_max_rounds_truncates_with_no_reward() -> None:
    e = raw_env(players=4, map="europe", max_rounds=2)
    total = play_aec(e, seed=4)
    assert e.state is not None
    assert e.state.round == 3
    assert pg.outcome(e.state) is None
    assert total == dict.fromkeys(e.possible_agents, 0.0)


def test_reset_seed_is_the_game_seed_and_reseeds_the_stream() -> None:
    a, b = raw_env(players=3), raw_env(players=3)
    a.reset(seed=5)
    assert a.state == pg.new_game(pg.GameConfig(players=3), seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.game_seed == b.game_seed
    assert a.state == b.state


def test_observations_are_seat_relative_and_masks_only_for_the_mover() -> None:
    e = raw_env(players=4, map="europe")
    e.reset(seed=1)
    mover = e.agent_selection
    for agent in e.agents:
        obs = e.observe(agent)
        assert obs["observation"].dtype == np.float32
        assert e.observation_space(agent).contains(obs)
        assert obs["action_mask"].any() == (agent == mover)


def test_a_pickled_mid_game_env_goes_on_alike() -> None:
    e = raw_env(players=4, map="north_america")
    e.reset(seed=9)
    rnd = random.Random(9)
    for _ in range(150):
        e.step(rnd.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist()))
    copy: PowerGridAEC = pickle.loads(pickle.dumps(e))
    assert copy.state == e.state
    for _ in range(100):
        obs = e.observe(e.agent_selection)
        assert copy.agent_selection == e.agent_selection
        assert np.array_equal(copy.observe(copy.agent_selection)["observation"], obs["observation"])
        action = rnd.choice(np.flatnonzero(obs["action_mask"]).tolist())
        e.step(action)
        copy.step(action)
    assert copy.state == e.state


def test_env_refuses_bad_arguments() -> None:
    with pytest.raises(pg.RulesConfigError):
        raw_env(players=7)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_rounds"):
        raw_env(max_rounds=0)
    with pytest.raises(TypeError, match="not both"):
        raw_env(pg.GameConfig(players=3), players=4)
    assert raw_env().metadata["name"] == NAME == "powergrid_v0"


# --- Gymnasium ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "config",
    [pg.GameConfig(players=4, map="europe"), pg.GameConfig(players=2, map="north_america")],
    ids=["deluxe4", "fund"],
)
def test_gymnasium_check_env(config: pg.GameConfig) -> None:
    made = gym.make(ENV_ID, config=config, opponents="greedy", render_mode="ansi")
    check_env(made.unwrapped)


def test_gym_make_and_a_whole_episode() -> None:
    """The registered id plays to the end; the last reward is the learner's rank utility."""
    e = gym.make(ENV_ID, players=3, map="europe", seat=1, opponents=["random", "greedy"])
    obs, info = e.reset(seed=12)
    rnd = random.Random(12)
    rewards = []
    terminated = truncated = False
    while not (terminated or truncated):
        assert e.observation_space.contains(obs)
        mask = e.unwrapped.action_masks()  # type: ignore[attr-defined]
        assert np.array_equal(mask, info["action_mask"])
        obs, reward, terminated, truncated, info = e.step(rnd.choice(np.flatnonzero(mask).tolist()))
        rewards.append(reward)
    inner: PowerGridEnv = e.unwrapped  # type: ignore[assignment]
    assert inner.state is not None
    result = pg.outcome(inner.state)
    assert result is not None
    assert terminated
    assert rewards[-1] == pytest.approx(rank_utility(result)[1])
    assert set(rewards[:-1]) <= {0.0}
    assert inner.action_masks().all()  # pgx's terminal convention
    assert pg.replay(inner.record()) == inner.state
    prefixed = gym.make("powergrid.rl:" + ENV_ID, players=2)  # Gymnasium imports the module
    assert prefixed.unwrapped.spec is not None
    assert prefixed.unwrapped.spec.id == ENV_ID


def test_gym_same_seed_same_episode() -> None:
    def episode(seed: int) -> list[bytes]:
        e = PowerGridEnv(players=4, opponents="greedy")
        obs, _ = e.reset(seed=seed)
        out, done, rnd = [obs.tobytes()], False, random.Random(0)
        while not done:
            action = rnd.choice(np.flatnonzero(e.action_masks()).tolist())
            obs, _, terminated, truncated, _ = e.step(action)
            out.append(obs.tobytes())
            done = terminated or truncated
        return out

    assert episode(3) == episode(3)


def test_gym_illegal_action_policies() -> None:
    """AUC-13: in round 1 passing is illegal; terminate pays illegal_reward, raise raises."""
    e = PowerGridEnv(players=3, seat=0, opponents="random", illegal_reward=-2.0)
    e.reset(seed=1)
    assert not e.action_masks()[0]
    _, reward, terminated, truncated, info = e.step(0)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert "must buy a plant in the first round" in info["illegal"]
    with pytest.raises(RuntimeError, match="call reset"):
        e.step(0)
    strict = PowerGridEnv(players=3, illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(pg.IllegalAction):
        strict.step(0)


def test_gym_opponents_may_be_callables_and_are_checked() -> None:
    calls = []

    def first_legal(state: pg.GameState) -> pg.Action:
        calls.append(state.round)
        return pg.legal_actions(state)[0]

    e = PowerGridEnv(players=2, map="europe", components="classic", seat=1, opponents=first_legal)
    e.reset(seed=0)
    e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert calls
    with pytest.raises(ValueError, match="one per other seat"):
        PowerGridEnv(players=4, opponents=["random", "greedy"])
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        PowerGridEnv(players=3, opponents="smart")
    with pytest.raises(ValueError, match="seat must be"):
        PowerGridEnv(players=3, seat=3)


def test_gym_truncation_and_pickle() -> None:
    e = PowerGridEnv(players=4, opponents="greedy", max_rounds=3)
    e.reset(seed=6)
    rnd = random.Random(6)
    for _ in range(5):
        e.step(rnd.choice(np.flatnonzero(e.action_masks()).tolist()))
    copy: PowerGridEnv = pickle.loads(pickle.dumps(e))
    truncated = False
    while not truncated:
        action = rnd.choice(np.flatnonzero(e.action_masks()).tolist())
        obs, reward, terminated, truncated, _ = e.step(action)
        obs2, reward2, _, truncated2, _ = copy.step(action)
        assert np.array_equal(obs, obs2)
        assert reward == reward2 == 0.0
        assert truncated == truncated2
        assert not terminated
    assert e.state is not None
    assert e.state.round == 4


def test_import_powergrid_imports_no_extra() -> None:
    """The core keeps attrs as its one dependency: the extras load only with powergrid.rl."""
    code = (
        "import sys, powergrid, powergrid.bots, powergrid.testing\n"
        "bad = {'numpy', 'gymnasium', 'pettingzoo'} & set(sys.modules)\n"
        "assert not bad, bad\n"
        "import powergrid.rl\n"
        "assert 'gymnasium' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
