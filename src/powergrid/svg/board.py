"""The map: cities at their positions, connections with costs, metropoles, houses in their slots.

Regions out of play are greyed; each house stands in its slot (the 10, 15
and 20 slots, in build order) in its seat's colour, shape and number; an
automatic actor's (the fund's) in grey with its initial. Options highlight a
seat's network, the cities it can build in with their cost, and the last action.
"""

from __future__ import annotations

from powergrid.events import Event
from powergrid.svg.layout import fitted
from powergrid.svg.markup import num, seat_colour, seat_label, seat_mark, tag
from powergrid.svg.scene import Scene, houses_by_index, last_event

#: Light fills for the regions in play, by the region's index on the board.
REGION_FILLS = (
    "#F4B6C2",
    "#F7C59F",
    "#C9B79C",
    "#FFF1A8",
    "#FFD59E",
    "#AFCBFF",
    "#B8E0B8",
    "#E0C3FC",
)
OUT_OF_PLAY = "#DDDDDD"
#: The band under the map that holds the legend of the regions.
LEGEND_HEIGHT = 20.0
CITY_R = 8.0
HOUSE_R = 6.5
#: Where the three slots sit around a city (the 10, 15 and 20 slot), as offsets.
SLOTS = ((-14.0, -15.0), (0.0, -19.0), (14.0, -15.0))


def draw_board(scene: Scene, width: float, last_action: bool) -> tuple[list[str], float]:
    """The board's elements in a box ``width`` wide, and the box's height."""
    board = scene.rules.area.board
    points, height = fitted(board, width)
    height += LEGEND_HEIGHT
    in_area = scene.rules.area.in_area
    houses = houses_by_index(scene)
    event = last_event(scene.view) if last_action else None
    last_city = _event_city(event, houses)
    out = ['<g class="board">']
    out += _metropoles(board.metropoles, points)
    out += _network(scene, points, houses)
    out += _connections(board.edges, points, in_area)
    for i in range(len(board.cities)):
        out += _city(scene, i, points[i], houses.get(i, ()), last_city == i)
    if event is not None:
        text = f"Last: {event.text}"
        style = {
            "class": "last-action",
            "x": 10.0,
            "y": height - 8 - LEGEND_HEIGHT,
            "font-size": 13,
        }
        out.append(tag("text", style, text))
    out += _legend(scene, height - 8)
    out.append("</g>")
    return out, height


def _legend(scene: Scene, y: float) -> list[str]:
    """One swatch per region in its fill, grey and named as such when out of play."""
    board, area = scene.rules.area.board, scene.rules.area
    in_play = {board.city_region[i] for i in area.cities}
    out = ['<g class="legend">', tag("text", {"x": 10.0, "y": y, "font-size": 11}, "Regions:")]
    x = 66.0
    for k, region in enumerate(board.regions):
        live = region in in_play
        fill = REGION_FILLS[k % len(REGION_FILLS)] if live else OUT_OF_PLAY
        name = region.replace("_", " ") + ("" if live else " (out of play)")
        out.append(f'<g class="region" data-region="{region}" data-in-play="{live}">')
        out.append(tag("circle", {"cx": x, "cy": y - 4, "r": 5.0, "fill": fill, "stroke": "#333"}))
        ink = "#000" if live else "#888"
        out.append(tag("text", {"x": x + 8, "y": y, "font-size": 11, "fill": ink}, name))
        out.append("</g>")
        x += 8 + 5.9 * len(name) + 14
    out.append("</g>")
    return out


def _event_city(event: Event | None, houses: dict[int, tuple[int, ...]]) -> int | None:
    """The city of a house the event placed, or ``None``.

    The core's ``house_built`` and a module's house event (its kind names a
    house or ends in ``_built``, like the fund's ``fund_house_placed``) give
    the city index first; the event's seat or actor must sit there.
    """
    if event is None or not event.values or not isinstance(event.values[0], int):
        return None
    if "house" not in event.kind and not event.kind.endswith("_built"):
        return None
    city = event.values[0]
    return city if event.player in houses.get(city, ()) else None


def _metropoles(
    groups: tuple[tuple[int, ...], ...], points: tuple[tuple[float, float], ...]
) -> list[str]:
    """A grey band joining the cities of each metropole."""
    out = []
    for group in groups:
        path = " ".join(
            f"{'M' if k == 0 else 'L'}{num(points[i][0])},{num(points[i][1])}"
            for k, i in enumerate(group)
        )
        style = {"stroke": "#000", "stroke-opacity": 0.12, "stroke-width": 34, "fill": "none"}
        out.append(
            tag("path", {"class": "metropole", "d": path, "stroke-linecap": "round", **style})
        )
    return out


def _connections(
    edges: tuple[tuple[int, int, int], ...],
    points: tuple[tuple[float, float], ...],
    in_area: tuple[bool, ...],
) -> list[str]:
    lines, labels = [], []
    for a, b, cost in edges:
        (x1, y1), (x2, y2) = points[a], points[b]
        live = in_area[a] and in_area[b]
        style: dict[str, object] = {"stroke": "#555" if live else "#bbb", "stroke-width": 1.5}
        if not live:
            style["stroke-dasharray"] = "4 3"
        lines.append(tag("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **style}))
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        labels.append(f'<g class="connection" data-cost="{cost}">')
        fill = "#fff" if live else "#eee"
        labels.append(tag("circle", {"cx": mx, "cy": my, "r": 7.0, "fill": fill, "stroke": "#999"}))
        ink = "#000" if live else "#999"
        labels.append(
            tag(
                "text",
                {"x": mx, "y": my + 3.5, "font-size": 9, "text-anchor": "middle", "fill": ink},
                str(cost),
            )
        )
        labels.append("</g>")
    return lines + labels


def _network(
    scene: Scene, points: tuple[tuple[float, float], ...], houses: dict[int, tuple[int, ...]]
) -> list[str]:
    """A broad band in the seat's colour under each connection between two of its cities."""
    seat = scene.seat
    if seat is None:
        return []
    mine = {i for i, seats in houses.items() if seat in seats}
    out = []
    for a, b, _ in scene.rules.area.board.edges:
        if a in mine and b in mine:
            (x1, y1), (x2, y2) = points[a], points[b]
            style = {"stroke": seat_colour(seat), "stroke-width": 7, "stroke-opacity": 0.5}
            out.append(
                tag("line", {"class": "network", "x1": x1, "y1": y1, "x2": x2, "y2": y2, **style})
            )
    return out


def _city(
    scene: Scene, i: int, point: tuple[float, float], seats: tuple[int, ...], last: bool
) -> list[str]:
    board = scene.rules.area.board
    city, (x, y) = board.cities[i], point
    live = scene.rules.area.in_area[i]
    region = board.city_region[i]
    fill = REGION_FILLS[board.regions.index(region) % len(REGION_FILLS)] if live else OUT_OF_PLAY
    head = f'<g class="city" data-city="{city}" data-region="{region}" data-in-play="{live}">'
    out = [head, tag("title", {}, board.city_names[i])]
    if last:
        out.append(
            tag(
                "circle",
                {
                    "class": "last",
                    "cx": x,
                    "cy": y,
                    "r": CITY_R + 6,
                    "fill": "none",
                    "stroke": "#d00",
                    "stroke-width": 2.5,
                },
            )
        )
    out.append(tag("circle", {"cx": x, "cy": y, "r": CITY_R, "fill": fill, "stroke": "#333"}))
    ink = "#000" if live else "#999"
    label = {"x": x, "y": y + CITY_R + 11, "font-size": 11, "text-anchor": "middle", "fill": ink}
    out.append(
        tag(
            "text",
            {**label, "stroke": "#fff", "stroke-width": 3, "paint-order": "stroke"},
            board.city_names[i],
        )
    )
    for k, (dx, dy) in enumerate(SLOTS if live else ()):
        if k < len(seats):
            out += _house(scene, city, seats[k], x + dx, y + dy)
        else:
            out.append(
                tag(
                    "circle",
                    {"cx": x + dx, "cy": y + dy, "r": 3.0, "fill": "#fff", "stroke": "#888"},
                )
            )
    out += _reach(scene, city, x, y)
    out.append("</g>")
    return out


def _house(scene: Scene, city: str, seat: int, x: float, y: float) -> list[str]:
    name = scene.view.name_of(seat)
    head = f'<g class="house" data-city="{city}" data-seat="{seat}">'
    return [
        head,
        tag("title", {}, name),
        *seat_mark(seat, seat_label(seat, name), x, y, HOUSE_R),
        "</g>",
    ]


def _reach(scene: Scene, city: str, x: float, y: float) -> list[str]:
    costs, seat = scene.costs, scene.seat
    if costs is None or seat is None or city not in costs:
        return []
    cost = costs[city]
    style = {
        "class": "reach",
        "data-city": city,
        "data-cost": cost,
        "x": x + CITY_R + 3,
        "y": y + 4,
        "font-size": 11,
        "font-weight": "bold",
        "fill": seat_colour(seat),
        "stroke": "#fff",
        "stroke-width": 3,
        "paint-order": "stroke",
    }
    return [tag("text", style, str(cost))]
