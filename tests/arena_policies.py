"""Policies for the arena tests, importable by name from worker processes."""

from __future__ import annotations

import powergrid as pg


class Crashes:
    """Raises on its first decision after round 1 (a broken policy)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: pg.GameState) -> pg.Action:
        if state.round > 1:
            raise RuntimeError("the policy's model file is missing")
        return pg.legal_actions(state)[0]


def passes_in_round_one(state: pg.GameState) -> pg.Action:
    """Always passes the auction: illegal in round 1 (AUC-13), so it breaks at once."""
    seat = pg.current_player(state)
    assert seat is not None
    return pg.PassAuction(player=seat)


def first_legal(state: pg.GameState) -> pg.Action:
    """The first legal action (a plain function policy)."""
    return pg.legal_actions(state)[0]
