"""The Gymnasium environment's opponents play fair by default (issue 36 item 2).

An opponent gets ``pg.determinize`` of the real state for its seat (the rng
from the game seed, its seat and the decision number), or the real state with
``full_information=True``. The learner's observation never reads the secret.
"""

from __future__ import annotations

import numpy as np

import powergrid as pg
from powergrid.bots import GreedyBot
from powergrid.rl import PowerGridEnv


class Spy:
    """An opponent that plays greedy and keeps (what it was shown, the real state)."""

    def __init__(self) -> None:
        self.env: PowerGridEnv | None = None
        self.seen: list[tuple[pg.GameState, pg.GameState]] = []

    def __call__(self, state: pg.GameState) -> pg.Action:
        assert self.env is not None
        real = self.env.state
        assert real is not None
        self.seen.append((state, real))
        return GreedyBot(seed=0).choose(state)


def play(full_information: bool) -> list[tuple[pg.GameState, pg.GameState]]:
    spy = Spy()
    env = PowerGridEnv(players=3, opponents=spy, full_information=full_information)
    spy.env = env
    env.reset(seed=6)
    for _ in range(150):
        mask = env.action_masks()
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
        if terminated or truncated:
            break
    return spy.seen


def test_opponents_get_their_seats_view_by_default() -> None:
    seen = play(full_information=False)
    assert len(seen) > 50
    for shown, real in seen:
        seat = pg.current_player(real)
        assert seat is not None
        assert pg.view(shown, seat) == pg.view(real, seat)
    hidden = [(s, r) for s, r in seen if len(r.secret.deck) > 1]
    assert sum(s.secret.deck == r.secret.deck for s, r in hidden) <= len(hidden) // 20


def test_full_information_hands_opponents_the_real_state() -> None:
    assert all(shown is real for shown, real in play(full_information=True))


def test_the_same_seed_gives_the_same_fair_episode() -> None:
    one = [s.secret for s, _ in play(full_information=False)]
    assert one == [s.secret for s, _ in play(full_information=False)]
