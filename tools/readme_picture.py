"""Draw the README's picture: docs/images/game.svg, a seeded 4-player game in round 6.

Run after a change to the drawing (``powergrid.svg``) or to the game it shows;
``tests/test_svg_readme.py`` fails until the file matches what this draws. The
README is read on GitHub and PyPI, where nothing is built, so this one picture
is committed; the documentation's pictures are drawn when the docs build.
"""

from __future__ import annotations

from pathlib import Path

import powergrid as pg
from powergrid import svg
from powergrid.bots import GreedyBot

PICTURE = Path(__file__).parents[1] / "docs" / "images" / "game.svg"


def picture() -> str:
    """The README's picture: greedy bots play a 4-player Europe game to round 6."""
    state = pg.new_game(pg.GameConfig(players=4, map="europe"), seed=7)
    bot = GreedyBot(seed=7)
    while state.round < 6:
        state = pg.apply(state, bot.choose(state))
    return svg.game(state, seat=0) + "\n"


if __name__ == "__main__":
    PICTURE.write_text(picture(), encoding="utf-8")
    print(f"wrote {PICTURE}")
