"""Phase 1: determining player order (ORD-01..ORD-05)."""

from __future__ import annotations

from powergrid.phases.common import name
from powergrid.state import GameState, evolve


def player_order(state: GameState) -> tuple[int, ...]:
    """ORD-01/02/03: most cities first, ties by highest plant (rank), then previous order.

    Python's sort is stable and runs over the previous order, so players still
    tied keep their previous relative order (ORD-03). Only seats are sorted
    (human-only); the ``player_order`` hook then places any automatic actor
    (ORD-06).
    """
    players, rank = state.players, state.rules.rank

    def key(seat: int) -> tuple[int, int]:
        # ORD-01 cities descending, then ORD-02 highest plant by rank descending
        # (a plus plant beats the plain plant of its number); no plant ranks last
        p = players[seat]
        return (-p.city_count, -(rank[p.plants[-1]] + 1 if p.plants else 0))

    seats = tuple(sorted((s for s in state.order if s >= 0), key=key))
    return tuple(state.rules.hook("player_order")(state, seats))


def determine_order(state: GameState) -> GameState:
    """Set and log the new player order."""
    order = player_order(state)
    state = evolve(state, order=order)
    return state.log(
        "order_set",
        "Player order: " + ", ".join(name(state, s) for s in order) + ".",
        None,
        *order,
    )
