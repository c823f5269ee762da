"""Where each city of a board stands in the picture: its map position, or a computed one.

A board's positions (:attr:`powergrid.data.boards.MapData.positions`) are drawing
coordinates in any unit; they are scaled into the picture's box keeping their
proportions. A board that ships none (a third party's map may not) gets a
computed layout: its regions around a large circle, each region's cities
around a small one. It uses no randomness, so a picture of such a board is the
same text every time.
"""

from __future__ import annotations

import math

from powergrid.data.boards import MapData

#: Room left around the outermost cities, in picture units.
MARGIN = 40.0


def computed_positions(board: MapData) -> tuple[tuple[float, float], ...]:
    """A deterministic layout: a circle of regions, each a circle of its cities."""
    regions = board.regions
    ring = 300.0 if len(regions) > 1 else 0.0
    out: list[tuple[float, float]] = []
    members = {r: [i for i, c in enumerate(board.city_region) if c == r] for r in regions}
    place: dict[int, tuple[float, float]] = {}
    for k, region in enumerate(regions):
        angle = 2 * math.pi * k / max(1, len(regions)) - math.pi / 2
        cx, cy = ring * math.cos(angle), ring * math.sin(angle)
        cities = members[region]
        radius = 25.0 * len(cities) / math.pi if len(cities) > 1 else 0.0
        for j, city in enumerate(cities):
            a = 2 * math.pi * j / max(1, len(cities))
            place[city] = (cx + radius * math.cos(a), cy + radius * math.sin(a))
    for i in range(len(board.cities)):
        out.append(place.get(i, (0.0, 0.0)))
    return tuple(out)


def fitted(board: MapData, width: float) -> tuple[tuple[tuple[float, float], ...], float]:
    """Each city's point in a box ``width`` wide (its height to fit), and that height."""
    given = board.positions if board.positions is not None else computed_positions(board)
    xs = [p[0] for p in given] or [0.0]
    ys = [p[1] for p in given] or [0.0]
    span_x = max(max(xs) - min(xs), 1.0)
    span_y = max(max(ys) - min(ys), 1.0)
    scale = (width - 2 * MARGIN) / span_x
    if span_y * scale > 1.2 * width:  # a tall board: keep the picture in bounds
        scale = 1.2 * width / span_y
    points = tuple(
        (MARGIN + (x - min(xs)) * scale, MARGIN + (y - min(ys)) * scale) for x, y in given
    )
    return points, span_y * scale + 2 * MARGIN
