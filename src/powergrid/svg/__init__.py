"""Pictures of a game as SVG text: :func:`board` and :func:`game` (issue 35).

Both take a :class:`~powergrid.GameState`, a :class:`~powergrid.PlayerView`
or a :class:`~powergrid.PublicView` and return a complete SVG document as a
string; they need nothing beyond the standard library.

>>> import powergrid as pg
>>> from powergrid import svg
>>> state = pg.new_game(pg.GameConfig(players=3, map="germany", components="classic"), seed=1)
>>> svg.board(state).startswith("<svg")
True

A picture shows what its argument holds and no more: a view has no hidden
card or random stream, and the drawing reads the public part of a state only
(its spectator view), so a picture of a seat's view holds no card of the
deck. Every text in it is escaped (a player's name may hold ``<`` or ``&``).

Elements carry stable attributes for programs and tests: ``class="city"``
with ``data-city``, ``class="house"`` with ``data-city`` and ``data-seat``,
``class="card"`` with ``data-card`` for each market plant, ``class="mark"``
for a module's token on a card, ``class="area-card"`` for a card in a
module's area, ``class="seat"`` for each seat's panel.

Jupyter shows a state and a player view as :func:`game` through their
``_repr_svg_`` method. The state and the views lie in layers below this one
and import nothing of it; the facade (``powergrid/__init__.py``, the top
layer) assigns :func:`repr_svg` to both classes when ``powergrid`` is
imported, so the layering stays clean and the records gain no field.
"""

from __future__ import annotations

from powergrid.svg.pictures import BOARD_WIDTH, SIDE_WIDTH, board, game, repr_svg
from powergrid.svg.replay import replay_page

__all__ = ["BOARD_WIDTH", "SIDE_WIDTH", "board", "game", "replay_page", "repr_svg"]
