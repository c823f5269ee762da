"""Phase 1: determining player order (ORD-01..ORD-05)."""

from __future__ import annotations

import functools

from powergrid.frozen import evolve
from powergrid.state import GameState


def player_order(state: GameState) -> tuple[int, ...]:
    """ORD-01/02/03: most cities first, ties by highest plant (rank), then previous order.

    The sort runs over the previous order with each seat's place in it as the
    last key, so players still tied keep their previous relative order
    (ORD-03). Only seats are sorted (human-only); the ``player_order`` hook
    then places any automatic actor (ORD-06).
    """
    players, rank = state.players, state.rules.rank
    keys = []
    for place, seat in enumerate(state.order):
        if seat >= 0:
            # ORD-01 cities descending, then ORD-02 highest plant by rank descending
            # (a plus plant beats the plain plant of its number); no plant ranks last
            p = players[seat]
            top = rank[p.plants[-1]] + 1 if p.plants else 0
            keys.append((-len(p.cities), -top, place, seat))
    keys.sort()
    seats = tuple([k[3] for k in keys])
    rules = state.rules
    hook = rules.hooks.player_order
    if hook is rules.base_hooks.player_order:
        return seats
    return tuple(hook(state, seats))


def determine_order(state: GameState) -> GameState:
    """Set and log the new player order."""
    order = player_order(state)
    if min(order, default=0) >= 0:
        text = _order_text(order, state.config.names)
    else:  # an automatic actor's name is in the state
        text = "Player order: " + ", ".join(state.name_of(s) for s in order) + "."
    return evolve(state, order=order, events=state.events_with("order_set", text, None, *order))


@functools.lru_cache(maxsize=256)
def _order_text(order: tuple[int, ...], names: tuple[str, ...] | None) -> str:
    """The ``order_set`` text of an order of seats alone (the seats' names are the config's)."""
    seats = [names[s] if names else f"player {s}" for s in order]
    return "Player order: " + ", ".join(seats) + "."
