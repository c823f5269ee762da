"""Write one of our games as a boardgamers.space export (a test helper, not the library).

It writes what the importer reads, in that engine's forms: an auction's choice
and opening bid as two moves, one move per token bought and per plant run,
``Pass`` for every pass, an event per plant drawn, removed or put under the
deck, and the final plant market (from which, with the log, the importer reads
a Recharged starting market back). Only what the importer needs is written (no
final ``players`` money, no ``pretty`` HTML).
"""

from __future__ import annotations

from typing import Any

import powergrid as pg
from powergrid.catalog import load_map
from powergrid.formats import records

BOARDS = {
    "usa": "USA",
    "germany": "Germany",
    "usa_recharged": "USA",
    "germany_recharged": "Germany",
}
VARIANTS = {"classic": "original", "recharged": "recharged"}


def export(record: pg.GameRecord) -> dict[str, Any]:
    """The export of a classic or Recharged game on the USA or Germany board, round 1 in
    seat order (Recharged: with that engine's new setup, RCH-20)."""
    config = record.config
    board = load_map(config.map)
    states = list(records.states(record))
    regions = set(states[-1].regions)
    names = config.names or tuple(f"player {s}" for s in range(config.players))
    cities = [
        {"name": board.city_names[i], "region": board.city_region[i]}
        for i in range(len(board.cities))
        if board.city_region[i] in regions
    ]
    log: list[dict[str, Any]] = [{"type": "event", "event": "Game Start!"}]
    for before, action, after in zip(states, record.actions, states[1:], strict=False):
        if before.chance is not None and before.chance.action is None:
            continue  # the setup's own outcomes: the export holds the area and the order
        log.extend(_moves(before, action, board.city_names, board.index))
        log.extend(_events(before, after))
    options = {"map": BOARDS[config.map], "variant": VARIANTS[config.components]}
    market = states[-1].market
    return {
        "options": {**options, "fastBid": False, "useNewRechargedSetup": True},
        "players": [{"id": s, "name": n} for s, n in enumerate(names)],
        "map": {"name": BOARDS[config.map], "cities": cities},
        "log": log,
        "actualMarket": [{"number": int(p)} for p in market.actual],
        "futureMarket": [{"number": int(p)} for p in market.future],
    }


def _move(seat: int, name: str, data: Any, simple: str = "") -> dict[str, Any]:
    return {"type": "move", "player": seat, "move": {"name": name, "data": data}, "simple": simple}


def _moves(
    state: pg.GameState, action: pg.Action, city_names: tuple[str, ...], index: dict[str, int]
) -> list[dict[str, Any]]:
    if isinstance(action, pg.Reveal):
        return []
    seat = action.player
    if isinstance(action, pg.ChoosePlant):
        opens = len(state.order) - len(state.done) > 1
        if not opens:
            return [_move(seat, "ChoosePowerPlant", int(action.plant), "chooses Power Plant")]
        return [
            _move(seat, "ChoosePowerPlant", int(action.plant), "to initiate an auction"),
            _move(seat, "Bid", action.bid),
        ]
    if isinstance(action, pg.Bid):
        return [_move(seat, "Bid", action.amount)]
    if isinstance(action, pg.BuyResource):
        return [_move(seat, "BuyResource", {"resource": action.resource.value})] * action.count
    if isinstance(action, pg.Build):
        return [_move(seat, "Build", {"name": city_names[index[action.city]], "price": 0})]
    if isinstance(action, pg.DiscardPlant):
        return [_move(seat, "DiscardPowerPlant", int(action.plant))]
    if isinstance(action, pg.Power):
        return [*_uses(state, action), _move(seat, "Pass", True)]
    return [_move(seat, "Pass", True)]  # PassAuction, PassBid, EndPurchase, EndBuild


def _uses(state: pg.GameState, action: pg.Power) -> list[dict[str, Any]]:
    """One UsePowerPlant per plant: the mix split so that each plant burns its kinds."""
    left = {k.value: n for k, n in action.mix}
    rules = state.rules
    order = sorted(action.plants, key=lambda n: rules.plant(n).is_hybrid)  # hybrids last
    out = []
    for label in order:
        plant = rules.plant(label)
        kinds = sorted(k.value for k in plant.accepts)
        spent: list[str] = []
        for _ in range(plant.burn):
            kind = next(k for k in kinds if left.get(k, 0) > 0)
            left[kind] -= 1
            spent.append(kind)
        data = {"powerPlant": int(label), "resourcesSpent": spent, "citiesPowered": plant.cities}
        out.append(_move(action.player, "UsePowerPlant", data))
    return out


def _events(before: pg.GameState, after: pg.GameState) -> list[dict[str, Any]]:
    """Their event for every plant drawn, removed or put under the deck by this step."""
    out = []
    for event in after.events.as_tuple()[len(before.events) :]:
        plant = event.values[0] if event.values else None
        drawn = event.kind == "plant_drawn" or (
            event.kind == "plant_removed" and event.text.startswith("Drawn plant")
        )
        if drawn:
            text = f"Power Plant {plant} drawn from the deck."
        elif event.kind == "plant_removed":
            text = f"Discarding Power Plant {plant}"
        elif event.kind == "plant_under_deck":
            text = f"Putting Power Plant {plant} on the bottom of the deck"
        else:
            continue
        out.append({"type": "event", "event": text})
    return out
