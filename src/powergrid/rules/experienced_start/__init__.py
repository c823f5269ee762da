"""The experienced players' starting cities, an optional Recharged rule (RCH-13, OQ-R14).

After the play area and the round-1 order are fixed, each player in player
order marks one city of the play area as his future starting city with a
uranium token from the general supply: the module's setup action
:class:`MarkStartCity` (notation ``mark kassel``), asked by the ``setup_turn``
hook once every earlier setup decision is made (with the Trust: its six start
cities first, RCH-85 g). Then:

- during Step 1 no one but its owner may build in a marked city
  (``build_refusal``, ``Reason.CITY_RESERVED``);
- the owner's first house must go there; he may still wait to build
  (OQ-R14); when it stands, the uranium token returns to the general supply
  (``after_build``);
- with the Trust (RCH-85 g): a Trust house is set aside from its supply for
  the 15 slot of each marked city, so 8 Trust houses remain in its supply;
  it goes on that slot when the city's first house is built.

The module's record (:class:`StartCities`) holds the marks not yet built on:
their uranium tokens (``StateSpec.tokens``) and the Trust's houses set aside
(``StateSpec.houses``), so the conservation checks count both.
"""

from __future__ import annotations

import attrs

from powergrid.actions import whole_number, word
from powergrid.config import GameConfig
from powergrid.data import load
from powergrid.enums import Phase, Resource
from powergrid.errors import Reason, RulesConfigError, illegal
from powergrid.frozen import evolve
from powergrid.module_state import StateSpec, with_module
from powergrid.rules import ModuleAction, RuleModule
from powergrid.rules.fund.variant import opening
from powergrid.rules.hooks import BuildRefusal, BuildStep, SetupTurn, StateViolations
from powergrid.rules.ruleset import Ruleset
from powergrid.state import GameState

__all__ = ["MARK_START_CITY", "MODULE", "NAME", "MarkStartCity", "StartCities"]

NAME = "experienced_start"
#: The automatic actor whose houses go on the marked cities' 15 slots: the Trust.
THIRD_PARTY: int = load("fund.json")["actor"]
#: Its start cities, chosen before the marks (RCH-85 g).
STARTING_HOUSES: int = load("fund.json")["starting_houses"]
#: The kind of token that marks a start city (RCH-13).
MARKER = Resource.URANIUM


@attrs.frozen(kw_only=True)
class MarkStartCity:
    """Mark a city of the play area as the player's future starting city (setup, RCH-13).

    The Recharged option ``experienced_start``: before round 1 each player in
    player order marks an empty, unmarked city with a uranium token from the
    supply. The module declares it (notation ``"<seat>:mark <city>"``).
    """

    player: int = attrs.field(validator=whole_number)
    city: str = attrs.field(validator=word)

    def __str__(self) -> str:
        return f"{self.player}:mark {self.city}"


# Its public home is this module, which pickles name.
MarkStartCity.__module__ = "powergrid.rules.experienced_start"


@attrs.frozen(kw_only=True)
class StartCities:
    """The marks not yet built on: ``seats[i]`` marked ``cities[i]`` (RCH-13).

    ``trust_houses`` lists the marked cities whose 15 slot a Trust house waits
    for (RCH-85 g). A mark leaves the record when its owner builds there.
    """

    seats: tuple[int, ...] = ()
    cities: tuple[str, ...] = ()
    trust_houses: tuple[str, ...] = ()


def _tokens(record: StartCities, rules: Ruleset) -> tuple[int, ...]:
    """One uranium token lies on each marked city (RCH-13)."""
    out = [0] * len(rules.resources)
    out[rules.kind_index(MARKER)] = len(record.cities)
    return tuple(out)


def _houses(record: StartCities) -> dict[int, int]:
    return {THIRD_PARTY: len(record.trust_houses)} if record.trust_houses else {}


def _described(record: StartCities, rules: Ruleset) -> list[str]:
    names = rules.area.board
    return [
        f"start city of player {seat}: {names.city_names[names.index[city]]} (RCH-13)"
        for seat, city in zip(record.seats, record.cities, strict=True)
    ]


STATE = StateSpec(
    record=StartCities,
    keys={"seats": "start_seats", "cities": "start_cities", "trust_houses": "trust_waiting"},
    tokens=_tokens,
    houses=_houses,
    describe=_described,
)


def _record(state: GameState) -> StartCities:
    record: StartCities = state.modules[NAME]
    return record


# --- setup: marking ---------------------------------------------------------------------


def marking_turn(previous: SetupTurn) -> SetupTurn:
    """Wrap ``setup_turn``: after every earlier setup decision, the seats mark in player order."""

    def setup_turn(state: GameState) -> int | None:
        seat = previous(state)
        if seat is not None:
            return seat
        marked = set(_record(state).seats)
        return next((s for s in state.order if s >= 0 and s not in marked), None)

    return setup_turn


def _open(state: GameState) -> tuple[int, ...]:
    """City indices that may be marked: empty cities of the play area no one marked."""
    area = state.rules.area
    taken = {area.board.index[c] for c in _record(state).cities}
    houses = state.board.houses
    return tuple(i for i in area.cities if not houses[i] and i not in taken)


def mark_actions(state: GameState, seat: int) -> tuple[MarkStartCity, ...]:
    """Every city the seat on turn may mark, in map order; none while the Trust places its own."""
    if _trust_placing(state) or seat in _record(state).seats:
        return ()
    cities = state.rules.area.board.cities
    return tuple(MarkStartCity(player=seat, city=cities[i]) for i in _open(state))


def _trust_placing(state: GameState) -> bool:
    """Whether the Trust's start cities, which come first (RCH-85 g), are still being placed."""
    third = next((a for a in state.actors if a.actor == THIRD_PARTY), None)
    return third is not None and third.city_count < STARTING_HOUSES


def mark_instances(rules: Ruleset) -> tuple[MarkStartCity, ...]:
    """Every mark a game may see, of seat 0: one per city of the board."""
    return tuple(MarkStartCity(player=0, city=c) for c in rules.area.board.cities)


def mark_city(state: GameState, action: MarkStartCity) -> GameState:
    """RCH-13: check and mark a start city with a uranium token from the supply.

    With the Trust a house of its supply is set aside for the city's 15 slot (RCH-85 g).
    """
    i = _check_mark(state, action)
    board = state.rules.area.board
    k = state.rules.kind_index(MARKER)
    res = state.resources
    supply = res.supply[:k] + (res.supply[k] - 1,) + res.supply[k + 1 :]
    state = evolve(state, resources=evolve(res, supply=supply))
    record = _record(state)
    record = attrs.evolve(
        record, seats=record.seats + (action.player,), cities=record.cities + (action.city,)
    )
    third = next((a for a in state.actors if a.actor == THIRD_PARTY), None)
    if third is not None and third.houses > 0:
        record = attrs.evolve(record, trust_houses=record.trust_houses + (action.city,))
        state = state.with_actor(evolve(third, houses=third.houses - 1))
    state = with_module(state, NAME, record)
    return state.log(
        "start_city_marked",
        f"{state.name_of(action.player)} marks {board.city_names[i]} as the starting city "
        "with a uranium token from the supply (RCH-13).",
        action.player,
        i,
    )


def _check_mark(state: GameState, action: MarkStartCity) -> int:
    """The city index of a legal mark; IllegalAction naming the rule otherwise."""
    area = state.rules.area
    board = area.board
    if _trust_placing(state):
        illegal(
            "The Trust's start cities are chosen before the players mark theirs (RCH-85 g)",
            Reason.MODULE_RULE,
            action,
        )
    if action.player in _record(state).seats:
        illegal(
            f"{state.name_of(action.player)} has marked a starting city already (RCH-13)",
            Reason.MODULE_RULE,
            action,
        )
    i = area.city_index(action.city, action, "; a start city is one of its cities (RCH-13)")
    here = board.city_names[i]
    if state.board.houses[i]:
        illegal(f"{here} holds a house already (RCH-13)", Reason.CITY_FULL, action)
    if action.city in _record(state).cities:
        illegal(
            f"{here} is marked as another player's starting city already (RCH-13)",
            Reason.CITY_RESERVED,
            action,
        )
    if state.resources.supply[state.rules.kind_index(MARKER)] <= 0:
        illegal(
            "The general supply holds no uranium token to mark a city with (RCH-13)",
            Reason.MODULE_RULE,
            action,
        )
    return i


#: The experienced start's setup decision (RCH-13): ``mark kassel``.
MARK_START_CITY = ModuleAction(
    cls=MarkStartCity,
    verb="mark",
    phases={Phase.SETUP},
    legal=mark_actions,
    apply=mark_city,
    instances=mark_instances,
)


# --- phase 4: the marked cities ---------------------------------------------------------


def reserved(previous: BuildRefusal) -> BuildRefusal:
    """Wrap ``build_refusal``: a marked city is its owner's in Step 1; his first house goes there.

    RCH-13: another player may not build in a marked city during Step 1; the
    owner, as long as his mark stands (he has no house yet), may build
    nowhere else (OQ-R14: he may still wait).
    """

    def build_refusal(state: GameState, seat: int, city: str) -> tuple[Reason, str] | None:
        refused = previous(state, seat, city)
        if refused is not None:
            return refused
        record = _record(state)
        if not record.cities:
            return None
        board = state.rules.area.board
        marks = dict(zip(record.seats, record.cities, strict=True))
        own = marks.get(seat)
        if city in record.cities and own != city and state.step == 1:
            owner = record.seats[record.cities.index(city)]
            return (
                Reason.CITY_RESERVED,
                f"{board.city_names[board.index[city]]} is {state.name_of(owner)}'s marked "
                "starting city: no one else may build there in Step 1 (RCH-13)",
            )
        if own is not None and own != city:
            return (
                Reason.CITY_RESERVED,
                f"{state.name_of(seat)}'s first house must go in the marked starting city, "
                f"{board.city_names[board.index[own]]} (RCH-13)",
            )
        return None

    return build_refusal


def settle_mark(previous: BuildStep) -> BuildStep:
    """Wrap ``after_build``: the Trust's waiting house, then the owner's uranium token.

    RCH-85 g: the first house in a marked city brings the Trust house set aside
    for it onto the 15 slot. RCH-13: when the owner builds there, his mark is
    done and its uranium token returns to the general supply; a Trust house
    still waiting (the 15 slot was taken otherwise) returns to its supply.
    The build policy in force (the Trust's) runs afterwards.
    """

    def after_build(state: GameState, seat: int, city: str) -> GameState:
        record = _record(state)
        if city in record.trust_houses:
            state = _place_waiting(state, seat, city)
        record = _record(state)
        if city in record.cities and record.seats[record.cities.index(city)] == seat:
            state = _return_marker(state, seat, city)
        return previous(state, seat, city)

    return after_build


def _place_waiting(state: GameState, seat: int, city: str) -> GameState:
    """The city's first house stands: the Trust house set aside goes on its 15 slot."""
    board = state.rules.area.board
    i = board.index[city]
    if state.board.houses[i] != (seat,):
        return state
    record = _record(state)
    waiting = tuple(c for c in record.trust_houses if c != city)
    third = state.actor(THIRD_PARTY)
    houses = state.board.houses
    state = evolve(
        state,
        board=evolve(state.board, houses=houses[:i] + ((seat, THIRD_PARTY),) + houses[i + 1 :]),
    )
    state = state.with_actor(evolve(third, cities=third.cities + (city,)))
    state = with_module(state, NAME, attrs.evolve(record, trust_houses=waiting))
    return state.log(
        "fund_house_placed",
        f"{opening(third.name)} puts the house set aside for "
        f"{board.city_names[i]} on its 15 slot (RCH-85 g).",
        THIRD_PARTY,
        i,
        15,
    )


def _return_marker(state: GameState, seat: int, city: str) -> GameState:
    """RCH-13: the owner's first house stands in his marked city; the token returns."""
    record = _record(state)
    at = record.cities.index(city)
    k = state.rules.kind_index(MARKER)
    res = state.resources
    supply = res.supply[:k] + (res.supply[k] + 1,) + res.supply[k + 1 :]
    state = evolve(state, resources=evolve(res, supply=supply))
    waiting = record.trust_houses
    if city in waiting:  # the 15 slot was taken before: the house goes back to the Trust
        third = state.actor(THIRD_PARTY)
        state = state.with_actor(evolve(third, houses=third.houses + 1))
        waiting = tuple(c for c in waiting if c != city)
    record = StartCities(
        seats=record.seats[:at] + record.seats[at + 1 :],
        cities=record.cities[:at] + record.cities[at + 1 :],
        trust_houses=waiting,
    )
    state = with_module(state, NAME, record)
    board = state.rules.area.board
    return state.log(
        "start_city_built",
        f"{state.name_of(seat)} builds in the marked starting city, "
        f"{board.city_names[board.index[city]]}; the uranium token returns to the supply "
        "(RCH-13).",
        seat,
        board.index[city],
    )


def mark_violations(previous: StateViolations) -> StateViolations:
    """Wrap ``state_violations`` with the rules of a consistent set of marks (RCH-13).

    One mark per seat, on distinct empty cities of the play area; a seat that
    has marked has no house yet; once setup is over every seat without a house
    has a mark; the Trust's waiting houses are on marked cities (RCH-85 g).
    """

    def state_violations(state: GameState) -> tuple[str, ...]:
        out = list(previous(state))
        record = _record(state)
        area = state.rules.area
        if len(record.seats) != len(record.cities):
            return (*out, "each start mark names one seat and one city (RCH-13)")
        if len(set(record.seats)) != len(record.seats) or len(set(record.cities)) != len(
            record.cities
        ):
            out.append("a seat marks one starting city, and a city is marked once (RCH-13)")
        seats = range(len(state.players))
        for seat, city in zip(record.seats, record.cities, strict=True):
            if seat not in seats or not area.contains(city):
                out.append(f"start mark {seat} {city}: no such seat or city of the play area")
            elif state.players[seat].cities:
                out.append(f"seat {seat} has built but keeps its start mark (RCH-13)")
        if state.phase is not Phase.SETUP and any(
            not p.cities and p.seat not in record.seats for p in state.players
        ):
            out.append("every seat without a house has marked its starting city (RCH-13)")
        if not set(record.trust_houses) <= set(record.cities):
            out.append("a Trust house waits only for a marked city (RCH-85 g)")
        if record.trust_houses and all(a.actor != THIRD_PARTY for a in state.actors):
            out.append("only the Trust's houses wait for a marked city (RCH-85 g)")
        return tuple(out)

    return state_violations


def _check_config(config: GameConfig) -> None:
    """The Trust, when it plays, comes first: its start cities are chosen before the marks."""
    modules = config.modules
    if "trust" in modules and modules.index("trust") > modules.index(NAME):
        raise RulesConfigError(
            f"rule module {NAME!r} follows the Trust (its start cities are chosen first, "
            "RCH-85 g): name 'trust' before it, or leave it to the defaults",
            field="modules",
        )


#: The experienced players' starting cities (RCH-13), a Recharged option.
MODULE = RuleModule(
    name=NAME,
    version="1",
    wraps={
        "setup_turn": marking_turn,
        "build_refusal": reserved,
        "after_build": settle_mark,
        "state_violations": mark_violations,
    },
    components={"recharged"},
    rule="RCH-13",
    check_config=_check_config,
    state=STATE,
    actions=(MARK_START_CITY,),
    notable_events={"start_city_marked", "start_city_built"},
)
