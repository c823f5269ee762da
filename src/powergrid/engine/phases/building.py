"""Phase 4: building houses, last player first (BLD-01..BLD-12, STP-01, END-01)."""

from __future__ import annotations

import functools

from powergrid.actions import Action, Build, EndBuild, kinds_in, trusted
from powergrid.data.boards import MapData
from powergrid.engine.phases.common import next_in
from powergrid.enums import Phase
from powergrid.errors import Reason, illegal
from powergrid.frozen import evolve
from powergrid.mechanics import market
from powergrid.mechanics.network import INF, network_costs
from powergrid.rules import HOUSES_PER_PLAYER
from powergrid.state import GameState

#: The phase's own actions, from the registry (:data:`powergrid.actions.BASE_KINDS`).
ACTIONS: tuple[type, ...] = kinds_in(Phase.BUILDING)

_end = functools.lru_cache(maxsize=16)(lambda p: EndBuild(player=p))


def current(state: GameState) -> int | None:
    """BLD-01: reverse player order, one turn each."""
    return next_in(reversed(state.order), state.done)


def connection_costs(state: GameState, seat: int) -> tuple[int, ...]:
    """Cheapest connection cost from the player's network to every city (BLD-04, BLD-07)."""
    return network_costs(state.rules.area, state.players[seat].cities)


def build_cost(state: GameState, seat: int, city: str) -> int:
    """Slot cost plus connection cost of a house in ``city`` (BLD-03..BLD-05)."""
    rules = state.rules
    i = rules.area.board.index[city]
    slot = rules.tables.house_costs[len(state.board.houses[i])]
    return slot + connection_costs(state, seat)[i]


def legal(state: GameState, seat: int | None) -> tuple[Action, ...]:
    """Every city ``seat``, the player to act, may build in now, in map order, then EndBuild."""
    if seat is None:
        return ()
    p = state.players[seat]
    out: list[Action] = []
    if len(p.cities) < HOUSES_PER_PLAYER:
        rules = state.rules
        area = rules.area
        slots = rules.tables.house_costs  # BLD-05, as the component tables say
        costs = network_costs(area, p.cities)
        builds = _builds(area.board, seat)
        houses = state.board.houses
        limit = state.build_step
        money = p.money
        budget = money - min(slots)  # most cities fail this test alone
        for i in area.cities:
            if costs[i] <= budget:
                here = houses[i]
                n = len(here)
                if n < limit and seat not in here and slots[n] + costs[i] <= money:
                    out.append(builds[i])
        refusal = rules.hooks.build_refusal
        if refusal is not rules.base_hooks.build_refusal:  # a module's rule (RCH-13)
            out = [b for b in out if isinstance(b, Build) and not refusal(state, seat, b.city)]
    out.append(_end(seat))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _builds(board: MapData, seat: int) -> tuple[Build, ...]:
    """A seat's Build action for every city of the board, by city index.

    Keyed by the board, not the play area, so every region set of a map shares
    them; the city ids are the map's own, so they need no validation.
    """
    return tuple(trusted(Build, player=seat, city=c) for c in board.cities)


def apply(state: GameState, action: Action) -> GameState:
    """Check and play a phase-4 action."""
    if isinstance(action, EndBuild):
        seat = action.player
        note = state.events_with("building_ended", f"{state.name_of(seat)} is done building.", seat)
        return evolve(state, done=state.done | {seat}, events=note)
    assert isinstance(action, Build)
    return _build_house(state, action)


def _check(state: GameState, action: Build) -> tuple[int, int]:
    seat, city = action.player, action.city
    area = state.rules.area
    i = area.city_index(city, action, " (SET-04, BLD-07)")
    p = state.players[seat]
    here = state.board.houses[i]
    if seat in here:
        illegal(
            f"{state.name_of(seat)} already has a house in {area.board.city_names[i]} (BLD-06)",
            Reason.ALREADY_IN_CITY,
            action,
        )
    if len(here) >= state.build_step:
        illegal(
            f"{area.board.city_names[i]} has no free slot usable in Step {state.build_step} "
            "(BLD-05)",
            Reason.CITY_FULL,
            action,
        )
    if len(p.cities) >= HOUSES_PER_PLAYER:
        illegal(f"{state.name_of(seat)} has no houses left (BLD-09)", Reason.NO_HOUSES_LEFT, action)
    refused = state.rules.hooks.build_refusal(state, seat, city)
    if refused is not None:
        illegal(refused[1], refused[0], action)
    link = connection_costs(state, seat)[i]
    slot = state.rules.tables.house_costs[len(here)]
    if link >= INF or slot + link > p.money:
        illegal(
            f"Building in {area.board.city_names[i]} costs {slot} + {link} = {slot + link} "
            f"Elektro; {state.name_of(seat)} has {p.money}",
            Reason.CANNOT_AFFORD,
            action,
        )
    return i, slot + link


def _build_house(state: GameState, action: Build) -> GameState:
    """BLD-02..BLD-08, then STP-01/02 and BLD-12 right after the placement."""
    i, cost = _check(state, action)
    seat = action.player
    p = state.players[seat]
    p = evolve(p, money=p.money - cost, cities=p.cities + (action.city,))
    houses = state.board.houses
    board = evolve(state.board, houses=houses[:i] + (houses[i] + (seat,),) + houses[i + 1 :])
    text = f"{state.name_of(seat)} builds in {state.rules.area.board.city_names[i]} for {cost}."
    state = evolve(
        state,
        players=state.replaced(p),
        board=board,
        events=state.events_with("house_built", text, seat, i, cost),
    )
    # A module may answer the house (the fund's reactive 15-slot house, FND-08);
    # the counts below are the seats' alone, so its answer cannot change them.
    state = state.rules.hooks.after_build(state, seat, action.city)
    count = p.city_count
    # OQ-32: the Step 2 start runs before the too-small check of the same house;
    # its removal may take the too-small plant, so one event removes one plant.
    rules = state.rules
    if (
        state.step == 1
        and count >= rules.step2_cities
        and not rules.components.step2_after_building
    ):
        # STP-01, STP-04 (an edition may check once after the phase instead, RCH-71)
        state = market.start_step2(state)
    if count >= rules.end_cities and not state.end_triggered:  # END-01
        state = evolve(state, end_triggered=True).log(
            "game_end_triggered",
            f"{state.name_of(seat)} reaches {count} cities: the game ends after this phase.",
            seat,
            count,
        )
    return market.enforce_too_small(state)
