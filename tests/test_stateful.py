"""A hypothesis state machine that plays whole games, checking invariants after each step.

Rules either play one action drawn by hypothesis from the legal ones, or fast-forward
with a seeded random policy, so whole games fit in the step budget.
"""

from __future__ import annotations

import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import powergrid as pg
from powergrid.testing import configs, invariant_violations, seeds


class WholeGames(RuleBasedStateMachine):
    """Whole games of every configuration, one decision or a burst of them per step."""

    state: pg.GameState

    @initialize(config=configs(), seed=seeds())
    def start(self, config: pg.GameConfig, seed: int) -> None:
        self.state = pg.new_game(config, seed=seed)

    @precondition(lambda self: pg.current_player(self.state) is not None)
    @rule(data=st.data())
    def play_one(self, data: st.DataObject) -> None:
        action = data.draw(st.sampled_from(pg.legal_actions(self.state)))
        assert action.player == pg.current_player(self.state)
        self.state = pg.apply(self.state, action)

    @precondition(lambda self: pg.current_player(self.state) is not None)
    @rule(count=st.integers(1, 400), policy=seeds())
    def play_many(self, count: int, policy: int) -> None:
        rnd = random.Random(policy)
        for _ in range(count):
            acts = pg.legal_actions(self.state)
            if not acts:
                break
            self.state = pg.apply(self.state, rnd.choice(acts))
            assert invariant_violations(self.state) == []

    @rule()
    def legal_actions_are_legal(self) -> None:
        """Always enabled, so finished games keep the machine running."""
        acts = pg.legal_actions(self.state)
        if acts:
            assert pg.is_legal(self.state, acts[0])
            assert pg.is_legal(self.state, acts[-1])
        else:
            assert pg.outcome(self.state) is not None

    @invariant()
    def holds_invariants(self) -> None:
        assert invariant_violations(self.state) == []


WholeGames.TestCase.settings = settings(max_examples=8, stateful_step_count=30, deadline=None)
TestWholeGames = WholeGames.TestCase
