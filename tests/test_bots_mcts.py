"""MCTSBot (issue 36 item 1): legal, seeded, fair (it decides from its seat's knowledge only).

Budgets here are tiny (a few playouts of one round) so that the tests are
quick; the strength of the real budget is measured by benchmarks/bot_ladder.py
and shown on the docs page "Bots".
"""

from __future__ import annotations

import random

import pytest

import powergrid as pg
from powergrid.actions import ChoosePlant
from powergrid.bots import BOTS, HeuristicBot, MCTSBot
from powergrid.bots.mcts import _candidates

SMALL = MCTSBot(seed=5, iterations=6, horizon=1)
CONFIGS = [
    pg.GameConfig(players=2, map="europe", components="deluxe"),  # with the fund
    pg.GameConfig(players=3, map="germany", components="classic"),
]


def decision_points(config: pg.GameConfig, seed: int, count: int) -> list[pg.GameState]:
    """States of a heuristic game where the seat to act has a real choice (every 7th)."""
    state = pg.new_game(config, seed=seed)
    bots = [HeuristicBot(seed=s) for s in range(config.players)]
    out: list[pg.GameState] = []
    while pg.outcome(state) is None and len(out) < count:
        seat = pg.current_player(state)
        assert seat is not None
        if len(state.events) % 7 == 0 and len(pg.legal_actions(state)) > 1:
            out.append(state)
        state = pg.apply(state, bots[seat].choose(state))
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label)
def test_a_whole_game_is_legal_and_the_same_twice(config: pg.GameConfig) -> None:
    def game() -> tuple[pg.Action, ...]:
        state = pg.new_game(config, seed=2)
        bots: list[MCTSBot | HeuristicBot] = [HeuristicBot(seed=s) for s in range(config.players)]
        bots[0] = SMALL
        taken = []
        while pg.outcome(state) is None:
            seat = pg.current_player(state)
            assert seat is not None
            action = bots[seat].choose(state)
            assert action in pg.legal_actions(state)
            taken.append(action)
            state = pg.apply(state, action)
        return tuple(taken)

    assert game() == game()


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.label)
def test_states_a_seat_cannot_tell_apart_get_the_same_decision(config: pg.GameConfig) -> None:
    """Issue 36 item 2: the bot reads nothing its seat may not know (deck order, RNG)."""
    for state in decision_points(config, seed=3, count=6):
        seat = pg.current_player(state)
        assert seat is not None
        twin = pg.determinize(state, seat, random.Random(99))
        assert pg.view(twin, seat) == pg.view(state, seat)
        assert twin.secret != state.secret or not state.secret.deck
        assert SMALL.choose(twin) == SMALL.choose(state)


def test_a_time_budget_still_tries_every_candidate() -> None:
    state = pg.new_game(CONFIGS[1], seed=1)  # round 1 of a 3-player game: open an auction
    action = MCTSBot(seed=1, seconds=0.0, horizon=1).choose(state)
    assert isinstance(action, ChoosePlant)
    assert action in pg.legal_actions(state)


def test_the_candidates_start_with_the_heuristic_choice_and_are_legal() -> None:
    for state in decision_points(CONFIGS[1], seed=4, count=10):
        seat = pg.current_player(state)
        assert seat is not None
        legal = pg.legal_actions(state)
        guide = HeuristicBot(seed=1).choose(state)
        found = _candidates(state, seat, legal, guide)
        assert found[0] == guide
        assert len(found) == len(set(found))
        assert set(found) <= set(legal)


def test_it_is_named_mcts() -> None:
    assert BOTS["mcts"] is MCTSBot
