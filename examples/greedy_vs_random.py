"""A few seeded games: one GreedyBot against random bots, counting wins per bot kind.

Run: python examples/greedy_vs_random.py
"""

from __future__ import annotations

from collections import Counter

import powergrid as pg
from powergrid.bots import GreedyBot, RandomBot

Bot = GreedyBot | RandomBot


def play(config: pg.GameConfig, seed: int, bots: list[Bot]) -> pg.Outcome:
    state = pg.new_game(config, seed=seed)
    while pg.outcome(state) is None:
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, bots[seat].choose(state))
    result = pg.outcome(state)
    assert result is not None
    return result


def main() -> int:
    wins: Counter[str] = Counter()
    for seed in range(6):
        map_name = ("europe", "north_america")[seed % 2]
        config = pg.GameConfig(players=3, map=map_name)
        greedy_seat = seed % 3  # rotate the greedy bot through the seats
        bots: list[Bot] = [RandomBot(seed * 10 + s) for s in range(3)]
        bots[greedy_seat] = GreedyBot(seed)
        result = play(config, seed, bots)
        kinds = [type(bots[w]).__name__ for w in result.winners]
        wins.update(kinds)
        print(f"game {seed} on {map_name}: greedy in seat {greedy_seat}; won by {', '.join(kinds)}")
    print("wins:", ", ".join(f"{kind} {n}" for kind, n in sorted(wins.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
