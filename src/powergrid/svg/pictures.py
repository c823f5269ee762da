"""The two pictures, :func:`board` and :func:`game`, and Jupyter's ``_repr_svg_``."""

from __future__ import annotations

from typing import Any

from powergrid.svg.board import draw_board
from powergrid.svg.market import plant_market, resource_market
from powergrid.svg.markup import document
from powergrid.svg.panels import header, seats
from powergrid.svg.scene import Drawable, scene_of

__all__ = ["board", "game", "repr_svg"]

#: The board's width in the picture (the map keeps its proportions).
BOARD_WIDTH = 1000.0
#: The width of the column of markets and panels beside the board in :func:`game`.
SIDE_WIDTH = 660.0


def board(
    state_or_view: Drawable,
    *,
    seat: int | None = None,
    reach: bool = False,
    last_action: bool = True,
) -> str:
    """The map as SVG: cities, connections and costs, regions in and out of play, houses.

    ``seat`` highlights that seat's network (a player view's viewer by
    default); with ``reach`` each city the seat could build in now shows its
    cost (slot plus connection, BLD-03..05). ``last_action`` rings the city of
    the last house placed and writes the last action under the map. A seat
    outside the game raises ``ValueError``; ``reach`` without a seat, or for a
    seat other than a view's own, raises ``ValueError`` too.
    """
    scene = scene_of(state_or_view, seat, reach)
    body, height = draw_board(scene, BOARD_WIDTH, last_action)
    return document(BOARD_WIDTH, height, body, f"Power Grid: {scene.rules.area.board.name}")


def game(state_or_view: Drawable, **options: Any) -> str:
    """The board (options as :func:`board`) with the markets, the seats and the phase.

    Beside the map: the round, Step and phase, the plant market (actual and
    future, each card's fuel, capacity and cities, the modules' marks), the
    cards the modules hold in their areas, the resource market with its price
    track and the supply, and a panel per seat and actor in player order.
    """
    seat, reach = options.pop("seat", None), options.pop("reach", False)
    last_action = options.pop("last_action", True)
    if options:
        raise TypeError(f"game() got unknown options: {', '.join(sorted(options))}")
    scene = scene_of(state_or_view, seat, reach)
    body, height = draw_board(scene, BOARD_WIDTH, last_action)
    x, y = BOARD_WIDTH + 10, 10.0
    for part in (header, plant_market, resource_market, seats):
        drawn, y = part(scene, x, y)
        body += drawn
        y += 10
    title = f"Power Grid: {scene.rules.area.board.name}, round {scene.view.round}"
    return document(BOARD_WIDTH + SIDE_WIDTH, max(height, y), body, title)


def repr_svg(self: Drawable) -> str:
    """``_repr_svg_`` of a state or a player view: its :func:`game` picture (Jupyter)."""
    return game(self)
