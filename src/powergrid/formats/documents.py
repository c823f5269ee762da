"""Decoding the documents that need their game's rules: states, views and records.

A state's board, its rule modules' own records and the kinds of its plant
events depend on the ruleset its config and regions choose; a view's module
records on its config; a record's actions are written as text. These decoders
build what they need first, then decode the rest field by field
(:mod:`powergrid.formats.typed_decoding`), and :func:`register` makes them the
decoders of their types. Documents of formats 1 to 4 kept the modules' records
in the plant market and a field under another name; both are read as today's.
"""

from __future__ import annotations

from typing import Any

import attrs

from powergrid.config import GameConfig
from powergrid.engine.invariants import invariant_violations
from powergrid.errors import InvalidRecord, PowerGridError
from powergrid.formats.typed_decoding import (
    DOCUMENT_DECODERS,
    MARKET_HELD_MODULES,
    PLANT_KINDS,
    decode,
    decode_attrs,
    join,
    kind_of,
)
from powergrid.module_state import ModuleStates, StateSpec, from_market, initial, is_empty
from powergrid.outside_text import shown, text_problem
from powergrid.state import Board, GameState, PlantMarket


def register() -> None:
    """Make this module's functions the decoders of states, views and records."""
    from powergrid.engine.views import PlayerView, PublicView
    from powergrid.formats.records import GameRecord

    DOCUMENT_DECODERS.setdefault(GameState, _decode_state)
    DOCUMENT_DECODERS.setdefault(GameRecord, _decode_record)
    DOCUMENT_DECODERS.setdefault(PublicView, _decode_public_view)
    DOCUMENT_DECODERS.setdefault(PlayerView, _decode_player_view)


def _decode_state(data: Any, path: str) -> GameState:
    from powergrid.rules.ruleset import ruleset_for

    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {kind_of(data)}", path=path)
    config = decode_attrs(GameConfig, data.get("config"), join(path, "config"))
    regions = decode(tuple[str, ...], data.get("regions"), join(path, "regions"))
    try:
        from powergrid.config import validate_regions

        validate_regions(config, regions)
        rules = ruleset_for(config, tuple(sorted(regions)))
    except PowerGridError as err:
        raise InvalidRecord(str(err), path=join(path, "regions")) from None
    board = _decode_board(data.get("board"), rules, join(path, "board"))
    data, modules = _module_states(_renamed(data), rules.state_specs, path)
    ready = {"config": config, "regions": regions, "board": board, "rules": rules}
    ready["modules"] = modules
    kinds = PLANT_KINDS.set(rules.plant_events)
    try:
        state: GameState = decode_attrs(GameState, data, path, ready)
    finally:
        PLANT_KINDS.reset(kinds)
    problems = invariant_violations(state)
    if problems:
        raise InvalidRecord(f"the state breaks the rules: {problems[0]}", path=path)
    return state


#: Fields of states and public views that formats 1 to 4 wrote under another name.
_OLD_NAMES = {"discard": "discarding"}


def _renamed(data: dict[str, Any]) -> dict[str, Any]:
    """A state or view document of formats 1 to 4 with its fields under today's names."""
    if not MARKET_HELD_MODULES.get():
        return data
    return {_OLD_NAMES.get(k, k): v for k, v in data.items()}


def _module_states(
    data: dict[str, Any], specs: tuple[tuple[str, StateSpec], ...], path: str
) -> tuple[dict[str, Any], ModuleStates]:
    """The modules' own records of a state or view document, and the rest of it.

    A document of formats 1 to 4 kept them in its plant market, under the keys
    of :mod:`powergrid.module_state`; a key no module of the game claims must
    hold its empty value there.
    """
    given = data.get("modules", {})
    market = data.get("market")
    if MARKET_HELD_MODULES.get() and isinstance(market, dict) and "modules" not in data:
        own = {a.name for a in attrs.fields(PlantMarket)}
        legacy = {k: v for k, v in market.items() if k not in own}
        given, unclaimed = from_market(specs, legacy)
        for key in unclaimed:
            if not is_empty(legacy[key]):
                raise InvalidRecord(
                    f"no rule module of this game keeps {shown(key)}",
                    path=join(join(path, "market"), key),
                )
        data = {**data, "market": {k: v for k, v in market.items() if k in own}}
    where = join(path, "modules")
    if not isinstance(given, dict):
        raise InvalidRecord(
            f"expected an object of module states, not {kind_of(given)}", path=where
        )
    names = dict(specs)
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise InvalidRecord(
            f"no rule module {shown(unknown[0])} keeps a state in this game",
            path=join(where, unknown[0]),
        )
    records = {
        name: decode_attrs(spec.record, given[name], join(where, name))
        for name, spec in specs
        if name in given
    }
    return {k: v for k, v in data.items() if k != "modules"}, initial(specs, records)


def _decode_board(value: Any, rules: Any, path: str) -> Board:
    if not isinstance(value, dict):
        raise InvalidRecord(f"expected an object of cities, not {kind_of(value)}", path=path)
    board = rules.area.board
    houses: list[tuple[int, ...]] = [()] * len(board.cities)
    for city, seats in value.items():
        if city not in board.index:
            raise InvalidRecord(f"unknown city {shown(city)}", path=join(path, city))
        houses[board.index[city]] = decode(tuple[int, ...], seats, join(path, city))
    return Board(houses=tuple(houses))


def _decode_record(data: Any, path: str) -> Any:
    from powergrid.formats.notation import parse_action
    from powergrid.formats.records import GameRecord

    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {kind_of(data)}", path=path)
    unknown = sorted(set(data) - {"versions", "config", "seed", "actions"})
    if unknown:
        raise InvalidRecord(f"unknown field {shown(unknown[0])}", path=join(path, unknown[0]))
    for key in ("config", "seed", "actions", "versions"):
        if key not in data:
            raise InvalidRecord("missing field", path=join(path, key))
    versions = data["versions"]
    if not isinstance(versions, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in versions.items()
    ):
        raise InvalidRecord(
            "expected an object of name: version strings", path=join(path, "versions")
        )
    for name, version in versions.items():
        problem = text_problem(name, what="a module name") or text_problem(version)
        if problem:
            raise InvalidRecord(problem, path=join(join(path, "versions"), name))
    config = decode_attrs(GameConfig, data["config"], join(path, "config"))
    seed = decode(int, data["seed"], join(path, "seed"))
    raw = decode(tuple[str, ...], data["actions"], join(path, "actions"))
    acts = []
    for i, text in enumerate(raw):
        try:
            acts.append(parse_action(text))
        except InvalidRecord as err:
            raise InvalidRecord(str(err), path=join(join(path, "actions"), i)) from None
    return GameRecord(config=config, seed=seed, actions=tuple(acts), versions=versions)


def _decode_public_view(data: Any, path: str) -> Any:
    from powergrid.engine.views import PublicView
    from powergrid.rules.ruleset import plant_events_for, state_specs_for

    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {kind_of(data)}", path=path)
    config = decode_attrs(GameConfig, data.get("config"), join(path, "config"))
    data, modules = _module_states(_renamed(data), state_specs_for(config), path)
    kinds = PLANT_KINDS.set(plant_events_for(config))
    try:
        return decode_attrs(PublicView, data, path, {"config": config, "modules": modules})
    finally:
        PLANT_KINDS.reset(kinds)


def _decode_player_view(data: Any, path: str) -> Any:
    from powergrid.engine.views import PlayerView, PublicView
    from powergrid.rules.ruleset import state_specs_for

    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {kind_of(data)}", path=path)
    public = _decode_public_view(data.get("public"), join(path, "public"))
    assert isinstance(public, PublicView)
    modules = public.modules
    if "modules" in data:
        own = {"modules": data["modules"]}
        _, modules = _module_states(own, state_specs_for(public.config), path)
    rest = {k: v for k, v in data.items() if k != "modules"}
    return decode_attrs(PlayerView, rest, path, {"public": public, "modules": modules})
