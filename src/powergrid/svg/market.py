"""The plant market, the modules' marks and areas, and the resource market.

Module marks and areas are drawn from the rule modules' state specs
(:class:`~powergrid.module_state.StateSpec` ``marks`` and ``areas``), never by
naming a module: North America's discount token and a third party's token
draw alike, as a round mark on their card, and the custom deck's inactive
area as a row of cards under the name the module gives it.
"""

from __future__ import annotations

from powergrid.plants import Plant
from powergrid.svg.markup import KIND_COLOURS, tag
from powergrid.svg.scene import Scene

CARD_W, CARD_H, GAP = 86.0, 64.0, 6.0
CELL = 12.0


def plant_market(scene: Scene, x: float, y: float) -> tuple[list[str], float]:
    """The actual and future markets, marks on their cards, the deck and module areas."""
    market = scene.view.market
    marks = _marks(scene)
    bids = dict(scene.view.min_bids)
    out = ['<g class="plant-market">', _heading("Plant market", x, y + 14)]
    y += 22
    for row, cards in (("actual", market.actual), ("future", market.future)):
        out.append(tag("text", {"x": x, "y": y + 12, "font-size": 11}, row))
        for k, card in enumerate(cards):
            cx = x + 48 + k * (CARD_W + GAP)
            out += _card(scene.rules.plants[card], cx, y, "card", row)
            if card in bids:
                note = {"x": cx + 2, "y": y + CARD_H + 10, "font-size": 9}
                out.append(tag("text", note, f"min bid {bids[card]}"))
            out += [m for key in marks.get(card, ()) for m in _mark(key, cx, y, card)]
        if row == "actual" and market.step3_in_market:
            cx = x + 48 + len(cards) * (CARD_W + GAP)
            box = {"class": "step3", "x": cx, "y": y, "width": CARD_W, "height": CARD_H}
            out += [
                tag("rect", {**box, "fill": "#eee", "stroke": "#333"}),
                tag("text", {"x": cx + 8, "y": y + 36, "font-size": 13}, "Step 3"),
            ]
        y += CARD_H + (16 if row == "actual" and bids else 8)
    out += _deck_line(scene, x, y + 12)
    y += 20
    for called, cards in _areas(scene):
        out.append(tag("text", {"x": x, "y": y + 12, "font-size": 11}, called.capitalize()))
        y += 16
        for k, card in enumerate(cards):
            out += _card(scene.rules.plants[card], x + k * (CARD_W + GAP), y, "area-card", called)
        y += CARD_H + 8
    out.append("</g>")
    return out, y


def _heading(text: str, x: float, y: float) -> str:
    return tag("text", {"x": x, "y": y, "font-size": 15, "font-weight": "bold"}, text)


def _marks(scene: Scene) -> dict[str, list[str]]:
    """The keys of the module fields that hold a market plant, by that plant."""
    out: dict[str, list[str]] = {}
    for name, spec in scene.rules.state_specs:
        record = scene.modules.get(name)
        for field in spec.marks:
            card = getattr(record, field, None)
            if isinstance(card, str):
                out.setdefault(card, []).append(f"{name}.{spec.key(field)}")
    return out


def _areas(scene: Scene) -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for name, spec in scene.rules.state_specs:
        record = scene.modules.get(name)
        for field, called in spec.areas.items():
            cards = tuple(getattr(record, field, ()) or ())
            if cards:
                out.append((called, scene.rules.ranked(cards)))
    return out


def _mark(key: str, x: float, y: float, card: str) -> list[str]:
    module, _, field = key.partition(".")
    head = f'<g class="mark" data-module="{module}" data-field="{field}" data-card="{card}">'
    cx, cy = x + CARD_W - 10, y + 10
    return [
        head,
        tag("title", {}, f"{field} ({module})"),
        tag("circle", {"cx": cx, "cy": cy, "r": 8.0, "fill": "#ffd700", "stroke": "#000"}),
        tag(
            "text",
            {"x": cx, "y": cy + 4, "font-size": 10, "text-anchor": "middle"},
            field[:1].upper(),
        ),
        "</g>",
    ]


def _card(plant: Plant, x: float, y: float, kind: str, row: str) -> list[str]:
    fuel = "/".join(sorted(plant.accepts)) if plant.accepts else plant.kind
    colour = KIND_COLOURS.get("hybrid" if plant.is_hybrid else plant.kind, "#999")
    head = f'<g class="{kind}" data-card="{plant.label}" data-row="{row}">'
    burn = f"burns {plant.burn}, holds {plant.capacity}" if plant.burn else "no fuel"
    return [
        head,
        tag(
            "rect",
            {
                "x": x,
                "y": y,
                "width": CARD_W,
                "height": CARD_H,
                "rx": 5.0,
                "fill": "#fafafa",
                "stroke": colour,
                "stroke-width": 3,
            },
        ),
        tag("text", {"x": x + 6, "y": y + 18, "font-size": 16, "font-weight": "bold"}, plant.label),
        tag("text", {"x": x + 6, "y": y + 32, "font-size": 9, "fill": colour}, fuel),
        tag("text", {"x": x + 6, "y": y + 44, "font-size": 9}, burn),
        tag("text", {"x": x + 6, "y": y + 57, "font-size": 10}, f"powers {plant.cities}"),
        "</g>",
    ]


def _deck_line(scene: Scene, x: float, y: float) -> list[str]:
    market = scene.view.market
    parts = [f"deck: {market.deck_size} hidden"]
    if market.step3_in_deck:
        parts.append("Step 3 card below")
    if market.top is not None:
        parts.append(f"face up on top: {market.top}")
    if scene.view.next_back is not None:  # RCH-21: the top card's back is public
        parts.append(f"top card's back: {scene.view.next_back}")
    if market.under_step3:
        parts.append("under Step 3: " + " ".join(market.under_step3))
    if market.removed:
        parts.append("removed: " + " ".join(market.removed))
    return [tag("text", {"class": "deck", "x": x, "y": y, "font-size": 10}, "; ".join(parts))]


def resource_market(scene: Scene, x: float, y: float) -> tuple[list[str], float]:
    """Each kind's price track (filled spaces hold tokens) with its count and supply."""
    out = ['<g class="resource-market">', _heading("Resources", x, y + 14)]
    y += 24
    tracks = scene.rules.tables.slot_prices
    market, supply = scene.view.resources.market, scene.view.resources.supply
    for k, kind in enumerate(scene.rules.resources):
        prices, held = tracks[k], market[k]
        head = (
            f'<g class="resource" data-kind="{kind.value}" data-market="{held}" '
            f'data-supply="{supply[k]}">'
        )
        out += [head, tag("text", {"x": x, "y": y + 10, "font-size": 11}, kind.value)]
        colour = KIND_COLOURS.get(kind.value, "#999")
        for s, price in enumerate(prices):
            full = s >= len(prices) - held
            cx = x + 56 + s * CELL
            out.append(
                tag(
                    "rect",
                    {
                        "x": cx,
                        "y": y,
                        "width": CELL - 2,
                        "height": CELL - 2,
                        "fill": colour if full else "#fff",
                        "stroke": "#666",
                    },
                )
            )
            if s == 0 or prices[s - 1] != price:
                out.append(tag("text", {"x": cx, "y": y + CELL + 8, "font-size": 8}, str(price)))
        end = x + 60 + len(prices) * CELL
        text = f"{held} on market, {supply[k]} in supply"
        out += [tag("text", {"x": end, "y": y + 10, "font-size": 10}, text), "</g>"]
        y += CELL + 16
    out.append("</g>")
    return out, y
