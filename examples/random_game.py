"""Play one seeded game between random bots and print how it ended.

Run: python examples/random_game.py [seed]
"""

from __future__ import annotations

import sys

import powergrid as pg
from powergrid.bots import RandomBot


def main(seed: int = 1) -> int:
    config = pg.GameConfig(players=3, map="europe")
    state = pg.new_game(config, seed=seed)
    bots = [RandomBot(seed=seed * 10 + seat) for seat in range(config.players)]
    actions = 0
    while pg.outcome(state) is None:
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, bots[seat].choose(state))
        actions += 1
    result = pg.outcome(state)
    assert result is not None
    print(f"seed {seed}: {actions} actions, {state.round} rounds; {result.reason}")
    for place, seat in enumerate(result.ranking, start=1):
        s = result.scores[seat]
        print(f"  {place}. player {seat}: powered {s.powered}, money {s.money}, cities {s.cities}")
    print("winner(s):", ", ".join(f"player {w}" for w in result.winners))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1))
