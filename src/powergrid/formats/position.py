"""Positions: build a game state from what matters, and derive the rest consistently.

:func:`build_position` starts from the seeded set-up of a config
(:func:`powergrid.new_game`) and :func:`edit_position` from any state; both
take the parts a caller names and derive everything else:

- every plant card not placed anywhere goes to the hidden deck (in its
  previous order, ``deck_size`` of them when that is given) or, for the rest,
  to the plants removed unseen;
- the general supply holds every token that is neither on the market nor on
  a plant (CON-10);
- the board follows the seats' cities (``houses`` fixes the build order within
  a city where it matters);
- ``build_step`` follows ``step`` when the phase is building.

A part that cannot be read, or a position that breaks a rule of a consistent
state (:func:`powergrid.engine.invariants.invariant_violations`, the one definition
the JSON decoder uses too), raises :class:`~powergrid.InvalidRecord` naming
the part. A built position need not be reachable from a real start: puzzles
and tutorials may set up any consistent position. Its event log is empty
(:func:`build_position`) or kept (:func:`edit_position`).

>>> import powergrid as pg
>>> state = pg.build_position(
...     pg.GameConfig(players=3, map="europe", components="classic"), seed=1,
...     round=4, step=2, phase="building", order=[2, 0, 1],
...     seats={0: {"money": 30, "plants": [13, 20], "resources": {"coal": 3},
...                "cities": ["berlin"]}},
...     actual=[15, 17, 21, 22], future=[23, 24, 25, 26],
... )
>>> state.players[0].plants, state.market.actual, state.round
(('13', '20'), ('15', '17', '21', '22'), 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from powergrid.config import GameConfig
from powergrid.engine.invariants import invariant_violations
from powergrid.enums import Phase
from powergrid.errors import InvalidRecord, PowerGridError, RulesConfigError
from powergrid.events import EMPTY_LOG
from powergrid.formats.placement import (
    card_list,
    fill_supply,
    integer,
    known_cards,
    lay_board,
    place_plants,
    seat_list,
    set_market_tokens,
    token_counts,
    whole,
)
from powergrid.frozen import evolve
from powergrid.mechanics.chance_points import OPTION as EXPLICIT_CHANCE
from powergrid.module_state import StateSpec, keyed_fields
from powergrid.outcome import Outcome
from powergrid.outside_text import name_problem, shown
from powergrid.state import ActorState, AuctionState, GameState, PlayerState

#: The parts a position may name, in the order they are applied (``area``, the
#: play area, only when building from a config).
PARTS = (
    "round",
    "step",
    "phase",
    "order",
    "done",
    "bought",
    "build_step",
    "seats",
    "actors",
    "houses",
    "actual",
    "future",
    "top",
    "under_step3",
    "removed",
    "step3",
    "deck",
    "deck_size",
    "removed_unseen",
    "market_tokens",
    "auction",
    "discard",
    "step3_pending",
    "end_triggered",
    "result",
    "rng",
)


def module_parts(
    specs: tuple[tuple[str, StateSpec], ...], reserved: frozenset[str] = frozenset()
) -> dict[str, tuple[str, str, Any, Any]]:
    """The rule modules' state fields by position key (``keyed_fields``), none a core key.

    A module field whose key is a part of the core (or one of ``reserved``, the
    position text's own keys) could never be set: such a module is refused with
    :class:`~powergrid.RulesConfigError`.
    """
    own = keyed_fields(specs)
    taken = sorted(set(own) & (frozenset(PARTS) | reserved | {"area"}))
    if taken:
        name, field = own[taken[0]][:2]
        raise RulesConfigError(
            f"rule module {name!r} gives its state field {field!r} the key {taken[0]!r} of "
            "a part of every position: give it another key (StateSpec.keys)",
            field="modules",
        )
    return own


def build_position(config: GameConfig, *, seed: int = 0, **parts: Any) -> GameState:
    """A position of ``config``: the seeded set-up with the named ``parts`` changed.

    ``seed`` decides what the parts leave open, as in :func:`powergrid.new_game`:
    the play area (unless the config names it), the deck order, the plants
    removed unseen and the random stream. See the module docstring and
    :data:`~powergrid.formats.position.PARTS` for the parts; a rule module's own state
    fields are parts too, under their position keys (North America's
    ``discount``, a customised deck's ``inactive`` and ``quota``). The event
    log of the position is empty.
    """
    from powergrid.engine.start import new_game

    if not isinstance(config, GameConfig):
        raise TypeError(f"build_position takes a GameConfig, not {type(config).__name__}")
    area = parts.pop("area", None)
    # A position is a decision point: the seed lays out what the parts leave open even
    # with explicit chance, whose chance points start again from it (the same ruleset).
    plain = attrs.evolve(config, options=config.options - {EXPLICIT_CHANCE})
    if area is None or config.cities is not None:
        start = new_game(plain, seed=seed)
        if area is not None and sorted(area) != list(start.regions):
            raise InvalidRecord("the config's cities lie in other regions (CDK-16)", path="area")
    else:
        area = _area(config, area)
        start = new_game(attrs.evolve(plain, regions=area), seed=seed)
        start = evolve(start, regions=area)  # the same ruleset: see ruleset_for
    return edit_position(evolve(start, config=config, events=EMPTY_LOG), **parts)


def _area(config: GameConfig, area: Any) -> tuple[str, ...]:
    """The play area named by ``area``, checked like a config's regions (SET-04)."""
    from powergrid.config import validate_regions

    if isinstance(area, str) or not isinstance(area, Iterable):
        raise InvalidRecord(f"expected a list of region ids, not {shown(area)}", path="area")
    regions = tuple(area)
    if config.regions is not None and sorted(regions) != sorted(config.regions):
        raise InvalidRecord("the config names other regions", path="area")
    try:
        validate_regions(config, regions)
    except PowerGridError as err:
        raise InvalidRecord(str(err), path="area") from None
    return regions


def edit_position(state: GameState, *, strict: bool = True, **parts: Any) -> GameState:
    """``state`` with the named ``parts`` changed and the rest derived (module docstring).

    Unnamed parts keep their value. The result is checked as a whole: a
    contradiction raises :class:`~powergrid.InvalidRecord` naming the part.
    ``strict=False`` skips that whole-state check (the derivations still run,
    so plants, tokens and houses stay conserved): for unit tests of one rule
    function on a partial position, never for a position to play from.
    """
    own = module_parts(state.rules.state_specs)
    unknown = sorted(set(parts) - set(PARTS) - set(own))
    if unknown:
        known = ", ".join((*PARTS, *own))
        raise InvalidRecord(f"unknown part; the parts are {known}", path=unknown[0])
    try:
        state = _apply_parts(state, parts)
    except InvalidRecord:
        raise
    except (TypeError, ValueError, KeyError) as err:
        raise InvalidRecord(f"{err}", path=_blame(parts)) from None
    problems = invariant_violations(state) if strict else []
    if problems:
        raise InvalidRecord(f"the position breaks the rules: {problems[0]}", path="position")
    return state


def _blame(parts: Mapping[str, Any]) -> str:
    return next(iter(parts), "position")


def _apply_parts(state: GameState, parts: Mapping[str, Any]) -> GameState:
    state = _flow(state, parts)
    if "seats" in parts:
        state = _seats(state, parts["seats"])
    if "actors" in parts:
        state = _actors(state, parts["actors"])
    state = lay_board(state, parts.get("houses"))
    state = place_plants(state, parts)
    if "market_tokens" in parts:
        state = set_market_tokens(state, parts["market_tokens"])
    state = fill_supply(state, fixed_market="market_tokens" in parts)
    return _turn(state, parts)


# --- round, step, phase, order --------------------------------------------------------


def _flow(state: GameState, parts: Mapping[str, Any]) -> GameState:
    changes: dict[str, Any] = {}
    for key in ("round", "step", "build_step"):
        if key in parts:
            changes[key] = whole(parts[key], key, low=1)
    if "phase" in parts:
        changes["phase"] = _phase(parts["phase"])
    if "order" in parts:
        changes["order"] = seat_list(parts["order"], "order")
    for key in ("done", "bought"):
        if key in parts:
            changes[key] = frozenset(seat_list(parts[key], key))
    if "build_step" not in parts and (
        changes.get("phase", state.phase) is Phase.BUILDING
        and ("phase" in parts or "step" in parts)
    ):
        changes["build_step"] = changes.get("step", state.step)
    return evolve(state, **changes)


def _phase(value: Any) -> Phase:
    if isinstance(value, Phase):
        return value
    names = {p.name.lower(): p for p in Phase if p is not Phase.ORDER}
    if value not in names:
        raise InvalidRecord(f"expected one of {', '.join(names)}, not {shown(value)}", path="phase")
    return names[value]


# --- seats and actors ------------------------------------------------------------------


def _cities(state: GameState, value: Any, path: str) -> tuple[str, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidRecord(f"expected a list of city ids, not {shown(value)}", path=path)
    index = state.rules.area.board.index
    cities = tuple(value)
    for i, city in enumerate(cities):
        if city not in index:
            raise InvalidRecord(f"unknown city {shown(city)}", path=f"{path}[{i}]")
    return cities


def _seats(state: GameState, seats: Any) -> GameState:
    if not isinstance(seats, Mapping):
        raise InvalidRecord("expected an object of seat: description", path="seats")
    players = list(state.players)
    for seat, given in seats.items():
        path = f"seats.{seat}"
        if not isinstance(seat, int) or not 0 <= seat < len(players):
            raise InvalidRecord(f"no seat {shown(seat)} in a {len(players)}-player game", path=path)
        if not isinstance(given, Mapping):
            raise InvalidRecord("expected an object: money, plants, resources, cities", path=path)
        extra = sorted(set(given) - {"money", "plants", "resources", "cities"})
        if extra:
            raise InvalidRecord("unknown field", path=f"{path}.{extra[0]}")
        p = players[seat]
        players[seat] = PlayerState(
            seat=seat,
            money=whole(given["money"], f"{path}.money") if "money" in given else p.money,
            plants=_ranked(state, given, "plants", path, p.plants),
            resources=(
                token_counts(state, given["resources"], f"{path}.resources")
                if "resources" in given
                else p.resources
            ),
            cities=(
                _cities(state, given["cities"], f"{path}.cities") if "cities" in given else p.cities
            ),
        )
    return evolve(state, players=tuple(players))


def _ranked(
    state: GameState, given: Mapping[str, Any], key: str, path: str, old: tuple[str, ...]
) -> tuple[str, ...]:
    if key not in given:
        return old
    cards = card_list(given[key], f"{path}.{key}")
    known_cards(state, cards, f"{path}.{key}")
    return state.rules.ranked(cards)


def _actors(state: GameState, actors: Any) -> GameState:
    if isinstance(actors, Mapping) or not isinstance(actors, Iterable):
        raise InvalidRecord("expected a list of automatic actors", path="actors")
    out = []
    for i, a in enumerate(actors):
        path = f"actors[{i}]"
        if isinstance(a, ActorState):
            out.append(a)
            continue
        if not isinstance(a, Mapping) or "actor" not in a or "name" not in a:
            raise InvalidRecord("expected an object with actor and name", path=path)
        actor = integer(a["actor"], f"{path}.actor")
        if actor >= 0:
            raise InvalidRecord("an automatic actor's id is negative", path=f"{path}.actor")
        problem = name_problem(a["name"], what="an actor's name")
        if problem:
            raise InvalidRecord(problem, path=f"{path}.name")
        out.append(
            ActorState(
                actor=actor,
                name=a["name"],
                plants=_ranked(state, a, "plants", path, ()),
                resources=token_counts(state, a.get("resources", {}), f"{path}.resources"),
                cities=_cities(state, a.get("cities", ()), f"{path}.cities"),
                houses=whole(a.get("houses", 0), f"{path}.houses"),
            )
        )
    return evolve(state, actors=tuple(out))


# --- the board -------------------------------------------------------------------------


# --- plants ----------------------------------------------------------------------------


# --- tokens ----------------------------------------------------------------------------


# --- the turn --------------------------------------------------------------------------


def _turn(state: GameState, parts: Mapping[str, Any]) -> GameState:
    changes: dict[str, Any] = {}
    if "auction" in parts:
        changes["auction"] = _auction(parts["auction"])
    if "discard" in parts:
        value = parts["discard"]
        if value is None:
            changes["discarding"], changes["new_plant"] = None, None
        else:
            if not (isinstance(value, tuple | list) and len(value) == 2):
                raise InvalidRecord("expected [seat, plant just bought] or null", path="discard")
            changes["discarding"] = integer(value[0], "discard[0]")
            changes["new_plant"] = card_list([value[1]], "discard[1]")[0]
    for key in ("step3_pending", "end_triggered"):
        if key in parts:
            if not isinstance(parts[key], bool):
                raise InvalidRecord("expected true or false", path=key)
            changes[key] = parts[key]
    if "result" in parts:
        result = parts["result"]
        if result is not None and not isinstance(result, Outcome):
            raise InvalidRecord("expected an Outcome or null", path="result")
        changes["result"] = result
    return evolve(state, **changes)


def _auction(value: Any) -> AuctionState | None:
    if value is None or isinstance(value, AuctionState):
        return value
    if not isinstance(value, Mapping):
        raise InvalidRecord(
            "expected an object: plant, bid, high_bidder, auctioneer, active", path="auction"
        )
    try:
        return AuctionState(
            plant=card_list([value["plant"]], "auction.plant")[0],
            bid=whole(value["bid"], "auction.bid"),
            high_bidder=integer(value["high_bidder"], "auction.high_bidder"),
            auctioneer=integer(value["auctioneer"], "auction.auctioneer"),
            active=seat_list(value["active"], "auction.active"),
        )
    except KeyError as err:
        raise InvalidRecord("missing field", path=f"auction.{err.args[0]}") from None
