"""The fund's place in the game: joining it, the order, its six starting houses.

FND-02/03 and ORD-06: the fund joins as an automatic actor with 16 houses and
stands second in the player order, every round. FND-05: after the play area is
chosen, the two players put six fund houses on the 10 slots of six cities, in
the sequence start player 1, other player 2, start player 2, other player 1;
the first in any city of the play area, each later one in a city directly
connected to a city that already holds a fund house. These are player
decisions, so they are :class:`PlaceFundHouse` actions of the setup phase,
which the fund module declares (:class:`powergrid.rules.ModuleAction`).

This is a helper of :mod:`powergrid.rules.fund`, not a rule module of its own.
"""

from __future__ import annotations

import functools

import attrs

from powergrid.actions import whole_number, word
from powergrid.data import load
from powergrid.data.boards import MapData
from powergrid.enums import Phase
from powergrid.errors import Reason, illegal
from powergrid.frozen import evolve
from powergrid.module_state import held_houses
from powergrid.rules.fund.variant import DELUXE_FUND, FundVariant, opening
from powergrid.rules.hooks import StateViolations
from powergrid.rules.ruleset import Ruleset
from powergrid.state import ActorState, GameState

_DATA = load("fund.json")
#: The fund's public identity: an automatic actor, never a seat.
FUND: int = _DATA["actor"]


@attrs.frozen(kw_only=True)
class PlaceFundHouse:
    """Put one of the fund's starting houses on a city's 10 slot (setup, FND-05).

    The 2-player fund game only: before round 1 the two players place the
    fund's six starting houses in turn; each after the first goes into a city
    directly connected to a city that already holds a fund house. The fund
    module declares it (notation ``"<seat>:fund <city>"``); it is exported as
    ``powergrid.PlaceFundHouse``.
    """

    player: int = attrs.field(validator=whole_number)
    city: str = attrs.field(validator=word)

    def __str__(self) -> str:
        return f"{self.player}:fund {self.city}"


# Its public home is the fund module, which pickles name (older ones name
# powergrid.actions, which resolves module actions by name).
PlaceFundHouse.__module__ = "powergrid.rules.fund"


def join_game(state: GameState, variant: FundVariant = DELUXE_FUND) -> GameState:
    """FND-02, FND-03: the fund joins with all its houses, second in the round-1 order.

    The actor is named as the variant says (the fund, the Trust, RCH-85 b).
    """
    kinds = len(state.rules.resources)
    fund = ActorState(actor=FUND, name=variant.name, resources=(0,) * kinds, houses=_DATA["houses"])
    state = evolve(state, actors=(*state.actors, fund), order=stand_second(state, state.order))
    return state.log(
        "fund_joined",
        f"{opening(variant.name)} plays with {_DATA['houses']} houses and stands second in "
        "player order (FND-03).",
        FUND,
        _DATA["houses"],
    )


def house_word(state: GameState) -> str:
    """The words for one of its houses, ``fund house`` or ``Trust house``: its name, then house."""
    name = state.actor(FUND).name
    return f"{name.removeprefix('the ')} house"


def stand_second(state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
    """ORD-06: the fund at position 2; the seats' order decides positions 1 and 3."""
    seats = tuple(s for s in seats if s != FUND)
    return seats[:1] + (FUND,) + seats[1:]


def _humans(state: GameState) -> tuple[int, int]:
    """The start player (position 1) and the other player."""
    first, other = (s for s in state.order if s >= 0)
    return first, other


def fund_placer(state: GameState) -> int | None:
    """FND-05: the seat that places the next starting house, or None when all six stand."""
    placed = _placed(state)
    placers = _DATA["placers"]
    if placed >= len(placers):
        return None
    first, other = _humans(state)
    return first if placers[placed] == "start" else other


def _placed(state: GameState) -> int:
    return state.actor(FUND).city_count


@functools.cache
def _neighbours(board: MapData) -> tuple[frozenset[int], ...]:
    near: list[set[int]] = [set() for _ in board.cities]
    for a, b, _ in board.edges:
        near[a].add(b)
        near[b].add(a)
    return tuple(frozenset(n) for n in near)


def _open_cities(state: GameState) -> tuple[int, ...]:
    """City indices that may take the next starting house, in map order (FND-05)."""
    area = state.rules.area
    fund = state.actor(FUND)
    index = area.board.index
    held = {index[c] for c in fund.cities}
    near = _neighbours(area.board)
    houses = state.board.houses
    return tuple(
        i for i in area.cities if not houses[i] and (not held or not held.isdisjoint(near[i]))
    )


def fund_actions(state: GameState, seat: int) -> tuple[PlaceFundHouse, ...]:
    """Every legal starting house of the seat on turn, in map order; none once all six stand.

    Another module's setup decisions may follow the six houses (RCH-13).
    """
    if fund_placer(state) is None:
        return ()
    cities = state.rules.area.board.cities
    return tuple(PlaceFundHouse(player=seat, city=cities[i]) for i in _open_cities(state))


def fund_houses(rules: Ruleset) -> tuple[PlaceFundHouse, ...]:
    """Every starting house a fund game may see, of seat 0: one per city of the board."""
    return tuple(PlaceFundHouse(player=0, city=c) for c in rules.area.board.cities)


def place_fund_house(state: GameState, action: PlaceFundHouse) -> GameState:
    """FND-05: check and place one starting house on a city's 10 slot."""
    area = state.rules.area
    board = area.board
    i = _check(state, action)
    houses = state.board.houses
    fund = state.actor(FUND)
    fund = evolve(fund, cities=fund.cities + (action.city,), houses=fund.houses - 1)
    placed = evolve(state.board, houses=houses[:i] + ((FUND,),) + houses[i + 1 :])
    state = evolve(state, board=placed).with_actor(fund)
    return state.log(
        "fund_house_placed",
        f"{state.name_of(action.player)} puts a {house_word(state)} on {board.city_names[i]}'s "
        "10 slot "
        f"(FND-05, house {_placed(state)} of {len(_DATA['placers'])}).",
        action.player,
        i,
        10,
    )


def _check(state: GameState, action: PlaceFundHouse) -> int:
    """The city index of a legal starting house; IllegalAction naming the rule otherwise."""
    area = state.rules.area
    board = area.board
    if fund_placer(state) is None:
        illegal(
            f"All {len(_DATA['placers'])} starting houses of {state.actor(FUND).name} stand "
            "(FND-05)",
            Reason.MODULE_RULE,
            action,
        )
    i = area.city_index(action.city, action, "; the fund's houses go into its cities (FND-05)")
    here = board.city_names[i]
    if state.board.houses[i]:
        illegal(
            f"{here} already holds a {house_word(state)}; each goes on the 10 slot of another "
            "city (FND-05)",
            Reason.CITY_FULL,
            action,
        )
    if i not in _open_cities(state):
        illegal(
            f"{here} is not directly connected to a city with a fund house; after the first, "
            "each fund house must be (FND-05)",
            Reason.NOT_CONNECTED,
            action,
        )
    return i


def fund_violations(previous: StateViolations) -> StateViolations:
    """Wrap ``state_violations`` with the fund's rules of a consistent state.

    One fund, second in the order (ORD-06); its 16 houses on the board or in
    its supply (FND-02); six of them placed once setup is over (FND-05); only
    10 and 15 slots (FND-08); at most 3 plants (FND-12).
    """

    def state_violations(state: GameState) -> tuple[str, ...]:
        out = list(previous(state))
        funds = [a for a in state.actors if a.actor == FUND]
        if len(funds) != 1:
            return (*out, "a fund game has exactly one fund, actor -1 (FND-02)")
        fund = funds[0]
        placed = len(_DATA["placers"])
        # another module's setup decisions may follow the six houses (RCH-13)
        if fund.city_count < placed and state.phase is not Phase.SETUP:
            out.append(f"the fund's {placed} starting houses stand once setup is over")
        held = held_houses(state, FUND)
        if fund.city_count + fund.houses + held != _DATA["houses"]:
            out.append(f"the fund has {_DATA['houses']} houses, on the board or in its supply")
        if len(state.order) < 2 or state.order[1] != FUND:
            out.append("the fund stands second in player order (ORD-06)")
        if any(FUND in h[2:] for h in state.board.houses):
            out.append("the fund never uses a 20 slot (FND-08)")
        if len(fund.plants) > _DATA["max_plants"]:
            out.append(f"the fund holds at most {_DATA['max_plants']} plants (FND-12)")
        return tuple(out)

    return state_violations
