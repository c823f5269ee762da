"""Set up a puzzle position in a few lines, save it as one line of text, and solve it.

The puzzle: phase 5 of a classic game, player 0 holds plants 5 (hybrid) and 20 (coal)
with 3 coal and 2 oil, and 6 cities. Which Power action earns the most?

Run: python examples/puzzle_position.py
"""

from __future__ import annotations

import powergrid as pg


def main() -> int:
    config = pg.GameConfig(players=3, map="europe", components="classic")
    state = pg.build_position(
        config,
        seed=7,
        area=["british_isles_low_countries", "central", "alps_italy_hungary"],
        round=6,
        phase="bureaucracy",
        order=[0, 1, 2],
        seats={
            0: {
                "plants": [5, 20],
                "resources": {"coal": 3, "oil": 2},
                "cities": ["berlin", "praha", "wien", "munchen", "stuttgart", "zurich"],
            }
        },
        actual=[13, 14, 15, 16],
        future=[17, 18, 19, 21],
    )
    text = pg.position_text(state)  # the public text: paste it anywhere, read it back
    print(text)
    again = pg.parse_position(text, seed=7)
    assert pg.position_text(again) == text
    best = max(pg.legal_actions(state), key=lambda a: pg.apply(state, a).players[0].money)
    earned = pg.apply(state, best).players[0].money - state.players[0].money
    print(f"best: {best} earns {earned} Elektro")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
