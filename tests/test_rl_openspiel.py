"""Issue 36 item 3: Power Grid as an OpenSpiel game (``powergrid.rl.openspiel``)."""

from __future__ import annotations

import contextlib
import io
import pathlib
import random
import re
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import powergrid as pg

pyspiel = pytest.importorskip(
    "pyspiel", reason='open_spiel is not installed (pip install "powergrid-rules[rl]")'
)

from powergrid.rl import ActionCodec  # noqa: E402  (after the skip)
from powergrid.rl import openspiel as pos  # noqa: E402

CLASSIC_USA = {"players": 3, "map": "usa", "components": "classic", "max_rounds": 3}


def load(**params: Any) -> Any:
    return pyspiel.load_game(pos.NAME, params)


def step_randomly(state: Any, rng: random.Random) -> int:
    """Apply one random action (chance by its probabilities) and return its id."""
    if state.is_chance_node():
        ids, probs = zip(*state.chance_outcomes(), strict=True)
        action = rng.choices(ids, probs)[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return int(action)


def to_chance_point(state: Any, rng: random.Random, event: str, skip: int = 0) -> Any:
    """Play on until the ``skip + 1``-th chance point of ``event`` from here."""
    while not state.is_terminal():
        if state.is_chance_node() and pg.chance_outcomes(state.game_state)[0][0].event == event:
            if skip == 0:
                return state
            skip -= 1
        step_randomly(state, rng)
    raise AssertionError(f"no {event} chance point reached")


# --- registration, parameters and bounds --------------------------------------------------


def test_default_game_is_a_small_two_player_game_with_its_bounds() -> None:
    game = load()
    config = pos.config_of({})
    assert config.players == 2
    assert pg.config.EXPLICIT_CHANCE in config.options
    assert game.num_players() == 2
    assert game.num_distinct_actions() == ActionCodec(config).size
    assert game.max_chance_outcomes() == 715  # a Deluxe Europe market: C(13, 9) (SET-21)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == 40 * 2 * pos.MOVES_PER_SEAT_ROUND
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.observation_tensor_shape() == [pos.kit(config, 40).encoder.size]


@pytest.mark.parametrize(
    ("params", "outcomes"),
    [
        ({"map": "north_america"}, 1287),  # a Deluxe North America market: C(13, 8)
        ({"players": 6, "max_rounds": 2}, 720),  # 6! round-1 orders (SET-05)
        (CLASSIC_USA, 42),  # 42 deck cards by rank; the USA has fewer areas for 3 players
    ],
)
def test_max_chance_outcomes_is_the_largest_enumeration(
    params: dict[str, Any], outcomes: int
) -> None:
    game = load(**params)
    assert game.max_chance_outcomes() == outcomes
    ids = pos.kit(pos.config_of(params), int(params.get("max_rounds", 40))).chance
    assert max(len(o) for o in ids.outcomes.values()) == outcomes


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(pg.RulesConfigError, match="2 to 6 players"):
        load(players=7)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        load(bogus=1)
    with pytest.raises(ValueError, match="max_rounds"):
        load(max_rounds=0)


# --- OpenSpiel's own checks ---------------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [
        {},  # 2 players, Deluxe Europe, with the fund (the 2-player default)
        {"without": "fund"},
        {"players": 4},
        {"players": 6},
        {"players": 5, "map": "north_america"},
        {**CLASSIC_USA, "max_rounds": 40},  # the play area is a chance event too (SET-04)
    ],
)
def test_random_simulation_test_with_serialization_passes(params: dict[str, Any]) -> None:
    """Whole random games: clones, serialization, sorted legal actions, bounds, returns."""
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_an_openspiel_mcts_bot_plays_whole_games() -> None:
    from open_spiel.python.algorithms import mcts

    game = load(max_rounds=2)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rng)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                ids, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(ids, p=probs)))
            else:
                state.apply_action(bot.step(state))
        assert sum(state.returns()) == pytest.approx(0.0)
        assert max(state.returns()) == 1.0 or state.returns() == [0.0, 0.0]


# --- chance outcome ids -------------------------------------------------------------------


def check_exact(state: Any) -> None:
    """The ids' outcomes and probabilities are exactly the library's chance odds."""
    ids = state.kit.chance
    library = dict(pg.chance_outcomes(state.game_state))
    event = next(iter(library)).event
    pairs = state.chance_outcomes()
    assert [i for i, _ in pairs] == sorted(i for i, _ in pairs)
    assert {ids.reveal(event, i): p for i, p in pairs} == {r: float(f) for r, f in library.items()}
    assert sum(library.values()) == Fraction(1)
    assert sum(p for _, p in pairs) == pytest.approx(1.0, abs=1e-12)


def test_a_draw_id_is_the_cards_deck_rank_in_any_game() -> None:
    game = load()
    rules = pos.kit(pos.config_of({}), 40).start.rules
    seen: dict[int, str] = {}
    for seed in (1, 2):
        state = to_chance_point(game.new_initial_state(), random.Random(seed), "draw", skip=3)
        check_exact(state)
        for i, _ in state.chance_outcomes():
            label = state.kit.chance.reveal("draw", i).outcome
            assert rules.rank[label] == i
            seen.setdefault(i, label)
            assert seen[i] == label  # the same id, the same card, in both games
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, i) == f"chance:draw {label}"


@pytest.mark.parametrize("event", ["area", "order"])
def test_setup_outcome_ids_are_stable_and_exact(event: str) -> None:
    game = load(**CLASSIC_USA)
    first = to_chance_point(game.new_initial_state(), random.Random(0), event)
    check_exact(first)
    again = to_chance_point(game.new_initial_state(), random.Random(1), event)
    assert first.chance_outcomes() == again.chance_outcomes()
    if event == "order":  # lexicographic permutation rank: id 0 is 0,1,2 and 5 is 2,1,0
        assert first.kit.chance.reveal("order", 5).outcome == "2,1,0"


def test_market_ids_of_a_deluxe_north_america_game() -> None:
    state = to_chance_point(
        load(map="north_america").new_initial_state(), random.Random(0), "market"
    )
    pairs = state.chance_outcomes()
    assert len(pairs) == 1287
    assert {p for _, p in pairs} == {1 / 1287}
    check_exact(state)


def test_ids_mean_the_same_outcomes_after_serialization() -> None:
    game = load()
    state = to_chance_point(game.new_initial_state(), random.Random(5), "draw", skip=2)
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert back.chance_outcomes() == state.chance_outcomes()
    assert back.history() == state.history()
    assert back.information_state_string(0) == state.information_state_string(0)
    outcome = state.chance_outcomes()[-1][0]
    state.apply_action(outcome)
    back.apply_action(outcome)
    assert str(back) == str(state)
    assert back.game_state.market == state.game_state.market


# --- what a seat sees ---------------------------------------------------------------------


def test_views_do_not_depend_on_the_hidden_deck() -> None:
    """Two games whose seeds deal other hidden decks look alike to every seat."""
    game = load(without="fund")
    config = pos.config_of({"without": "fund"})
    one = pos.PowerGridState(game, pg.new_game(config, seed=11))
    two = pos.PowerGridState(game, pg.new_game(config, seed=12))
    rng = random.Random(2)
    decks_differed = False
    for _ in range(250):
        if one.is_terminal():
            break
        decks_differed |= one.game_state.secret.deck != two.game_state.secret.deck
        if one.is_chance_node():
            assert one.chance_outcomes() == two.chance_outcomes()
        else:
            assert one.legal_actions() == two.legal_actions()
        for seat in range(2):
            assert one.information_state_string(seat) == two.information_state_string(seat)
            assert one.observation_string(seat) == two.observation_string(seat)
            assert one.observation_tensor(seat) == two.observation_tensor(seat)
        two.apply_action(step_randomly(one, rng))
    assert decks_differed


def test_a_start_state_of_another_configuration_is_refused() -> None:
    other = pg.new_game(pos.config_of({"players": 3}), seed=0)
    with pytest.raises(ValueError, match="made for"):
        pos.PowerGridState(load(), other)


def test_information_state_is_the_public_history_of_the_seat() -> None:
    game = load()
    state = game.new_initial_state()
    rng = random.Random(8)
    for _ in range(30):
        step_randomly(state, rng)
    lines = state.information_state_string(1).split("\n")
    assert lines[0] == "seat 1"
    assert lines[1].startswith("chance:area ")
    assert len(lines) == 31
    assert any(line.startswith("chance:draw") for line in lines)


def test_setup_chance_points_observe_as_zeros() -> None:
    state = load(**CLASSIC_USA).new_initial_state()
    assert state.is_chance_node()
    assert not any(state.observation_tensor(0))
    assert state.observation_string(2) == "seat 2\nsetup; outcomes so far: none"


# --- truncation (the adapter's, not a rule) -----------------------------------------------


def test_max_rounds_truncates_and_ranks_by_end_03_with_the_last_powered() -> None:
    game = load(max_rounds=1)
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_terminal():
        step_randomly(state, rng)
    now = state.now
    assert now.state.result is None
    assert now.truncated is not None
    assert now.truncated.reason == pos.TRUNCATED
    assert now.state.round == 2  # cut when round 2 would begin
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert tuple(state.returns()) == pg.rl.rank_utility(now.truncated)
    assert sum(state.returns()) == 0.0
    scores = now.truncated.scores
    assert [s.money for s in scores] == [p.money for p in now.state.players]
    powered = [e for e in now.state.events if e.kind == "powered"]
    assert len(powered) == 2  # the one phase 5 played: each seat's BUR-03 count ranks it
    assert [s.powered for s in scores] == [
        next(int(e.values[0]) for e in powered if e.player == seat) for seat in range(2)
    ]


def test_the_decision_cap_truncates_too() -> None:
    """``max_game_length`` holds even if the rounds never run out: the adapter cuts there."""
    game = load()
    state = game.new_initial_state()
    state.kit = pos.Kit(pos.config_of({}), 40)
    state.kit.max_game_length = 12
    rng = random.Random(6)
    while not state.is_terminal():
        step_randomly(state, rng)
    assert state.now.decisions == 12
    assert state.now.truncated is not None
    assert state.now.state.round == 1
    assert sum(state.returns()) == 0.0


def test_the_docs_example_runs() -> None:
    """docs/agents.md's OpenSpiel example (a plain block there) plays a game with MCTS."""
    page = pathlib.Path(__file__).resolve().parent.parent / "docs" / "agents.md"
    section = page.read_text(encoding="utf-8").split("## OpenSpiel", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(found.group(1), str(page), "exec"), {})
    assert out.getvalue().strip() in ("[1.0, -1.0]", "[-1.0, 1.0]", "[0.0, 0.0]")


def test_random_whole_games_stay_within_the_declared_bounds() -> None:
    """Games that end by the rules (END-01) use fewer decisions and chance nodes than declared."""
    game = load(players=4)
    for seed in range(3):
        state = game.new_initial_state()
        rng = random.Random(seed)
        chance_nodes = 0
        while not state.is_terminal():
            chance_nodes += state.is_chance_node()
            step_randomly(state, rng)
        assert state.now.state.result is not None  # the rules ended it, not the adapter
        assert state.now.decisions <= game.max_game_length()
        assert chance_nodes <= state.kit.max_chance_nodes
        assert len(state.history()) == state.now.decisions + chance_nodes
