"""The header (map, round, Step, phase, whose turn) and one panel per seat and actor."""

from __future__ import annotations

from powergrid.engine.queries import phase_title
from powergrid.svg.markup import seat_label, seat_mark, tag
from powergrid.svg.scene import Scene


def header(scene: Scene, x: float, y: float) -> tuple[list[str], float]:
    """Map, round, Step and phase; whose turn it is; a running auction."""
    view = scene.view
    board = scene.rules.area.board
    title = f"{board.name} - round {view.round}, Step {view.step}, {phase_title(view)}"
    out = [
        tag(
            "text",
            {"class": "phase", "x": x, "y": y + 18, "font-size": 18, "font-weight": "bold"},
            title,
        )
    ]
    y += 24
    lines = []
    if view.turn is not None:
        lines.append(f"to play: {view.name_of(view.turn)}")
    if view.auction is not None:
        a = view.auction
        lines.append(f"auction of plant {a.plant}: {a.bid} by {view.name_of(a.high_bidder)}")
    for line in lines:
        out.append(tag("text", {"x": x, "y": y + 14, "font-size": 12}, line))
        y += 16
    return out, y + 6


def seats(scene: Scene, x: float, y: float) -> tuple[list[str], float]:
    """A panel per seat and actor in player order: money, cities, plants, tokens."""
    view = scene.view
    out = ['<g class="seats">']
    out.append(
        tag(
            "text",
            {"x": x, "y": y + 14, "font-size": 15, "font-weight": "bold"},
            "Players (in player order)",
        )
    )
    y += 22
    kinds = [k.value for k in scene.rules.resources]
    for position, seat in enumerate(view.order, start=1):
        out += _panel(scene, seat, position, kinds, x, y)
        y += 44
    out.append("</g>")
    return out, y


def _panel(
    scene: Scene, seat: int, position: int, kinds: list[str], x: float, y: float
) -> list[str]:
    view = scene.view
    name = view.name_of(seat)
    if seat >= 0:
        p = view.players[seat]
        plants, tokens, cities = p.plants, p.resources, p.city_count
        money = f"{p.money} Elektro"
    else:
        actor = next(a for a in view.actors if a.actor == seat)
        plants, tokens, cities = actor.plants, actor.resources, actor.city_count
        money = f"{actor.houses} houses in supply"
    head = f'<g class="seat" data-seat="{seat}" data-order="{position}">'
    first = f"{position}. {name}: {money}, {cities} cities"
    out = [
        head,
        *seat_mark(seat, seat_label(seat, name), x + 9, y + 10, 8.0),
        tag("text", {"x": x + 24, "y": y + 14, "font-size": 12}, first),
    ]
    shown = [f"{scene.rules.plants[c]}" for c in plants]
    second = "plants: " + (", ".join(shown) if shown else "none")
    held = [f"{n} {k}" for k, n in zip(kinds, tokens, strict=False) if n]
    if held:
        second += "; fuel: " + ", ".join(held)
    out.append(tag("text", {"x": x + 24, "y": y + 30, "font-size": 10}, second))
    for card in plants:
        out.append(f'<g class="owned-card" data-card="{card}" data-seat="{seat}"/>')
    out.append("</g>")
    return out
