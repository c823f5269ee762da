"""JSON in and out: :func:`to_json` and :func:`from_json` for every public type.

Every document is a JSON object ``{"format": 3, "type": "<Type>", ...fields}``.
A rule module's own action (:class:`powergrid.rules.ModuleAction`) is written
and read like the base game's, under its class name, for any module this
process knows (:func:`powergrid.catalog.module_action_named`).
Nested records are plain objects decoded by their declared field types, so a
document names no Python classes beyond its top-level ``type`` and the ``type``
of each action object. Plants are card labels (strings, ``"46+"``); documents
of formats 1 and 2 wrote plant numbers, read as the labels they name.
Enumerations are written as lower-case names
(``"auction"``, ``"coal"``), frozensets as sorted lists, the board as an object
``{city: [seats in build order]}`` and the event log as a list of events.
Decoding checks every field's type and reports the first problem as
:class:`~powergrid.InvalidRecord` with its path, e.g. ``players[2].money``.
Every string must be printable and short, names at most 40 characters
(:mod:`powergrid.outside_text`); seeds are stored whole (:mod:`powergrid.mechanics.seeds`).
"""

from __future__ import annotations

import contextvars
import enum
import functools
import json
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs

from powergrid import actions as actions_module
from powergrid.actions import ACTION_TYPES, Action, is_action_type, module_action_class
from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.deck import Deck, DeckChoice
from powergrid.engine.invariants import invariant_violations
from powergrid.enums import Phase, Resource
from powergrid.errors import InvalidRecord, PowerGridError
from powergrid.events import PLANT_EVENTS, Event, EventLog, log_of
from powergrid.formats.json_input import load_json
from powergrid.formats.upgrades import upgrade
from powergrid.mechanics.chance_points import ChancePoint
from powergrid.module_state import ModuleStates, StateSpec, from_market, initial, is_empty
from powergrid.outcome import Outcome, Score
from powergrid.outside_text import name_problem, shown, text_problem
from powergrid.plants import Card, Plant, card_label
from powergrid.record import field_annotations, is_compiled
from powergrid.state import (
    ActorState,
    AuctionState,
    Board,
    GameState,
    PlantMarket,
    PlayerState,
    ResourceMarket,
    Secret,
)
from powergrid.version import FORMAT, READABLE_FORMATS

ACTIONS: dict[str, type] = {cls.__name__: cls for cls in ACTION_TYPES}
#: The member types of :data:`~powergrid.actions.Action`, as an optional action's union lists them.
_ACTION_MEMBERS = frozenset(typing.get_args(Action))


def _records() -> dict[str, type]:
    from powergrid.engine.views import PlayerView, PublicView
    from powergrid.formats.records import GameRecord

    _register_record_codec()
    return {
        "GameConfig": GameConfig,
        "Deck": Deck,
        "GameState": GameState,
        "GameRecord": GameRecord,
        "PlayerView": PlayerView,
        "PublicView": PublicView,
        **ACTIONS,
    }


@functools.cache
def _namespace() -> dict[str, Any]:
    from powergrid.engine.views import PlayerView, PublicView
    from powergrid.formats.records import GameRecord
    from powergrid.rules.ruleset import Ruleset

    names: dict[str, Any] = {
        cls.__name__: cls
        for cls in (
            GameConfig,
            GameState,
            PlayerState,
            ActorState,
            PlantMarket,
            ResourceMarket,
            Board,
            Secret,
            RngState,
            AuctionState,
            ChancePoint,
            Outcome,
            Score,
            Event,
            EventLog,
            Phase,
            Resource,
            GameRecord,
            PlayerView,
            PublicView,
            Ruleset,
            Deck,
            DeckChoice,
            Plant,
            ModuleStates,
            *ACTION_TYPES,
        )
    }
    names.update(Action=Action, Amounts=actions_module.Amounts, Card=Card)
    return names


# --- encoding ------------------------------------------------------------------------------


def to_json(obj: object, *, indent: int | None = None) -> str:
    """Serialise a config, state, action, record or view as a JSON document."""
    return json.dumps(to_data(obj), indent=indent, sort_keys=False)


def to_data(obj: object) -> dict[str, Any]:
    """The JSON-ready dictionary :func:`to_json` writes."""
    name = type(obj).__name__
    if name not in _records() and not is_action_type(type(obj)):
        raise TypeError(f"cannot serialise a {name}")
    body = _encode(obj)
    assert isinstance(body, dict)
    return {"format": FORMAT, "type": name, **body}


def _encode(value: object) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value.name.lower() if isinstance(value, Phase) else value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(_encode(v) for v in value)
    if isinstance(value, EventLog):
        return [_encode(e) for e in value.as_tuple()]
    if isinstance(value, ModuleStates):
        return {name: _encode(record) for name, record in value.items()}
    custom = _ENCODERS.get(type(value))
    if custom is not None:
        return custom(value)
    cls: Any = type(value)
    if attrs.has(cls):
        out = {
            a.name: _encode(getattr(value, a.name)) for a in attrs.fields(cls) if a.name != "rules"
        }
        if type(value) in ACTION_TYPES or is_action_type(cls):
            return {"type": type(value).__name__, **out}
        return out
    raise TypeError(f"cannot serialise {value!r}")


def _encode_state(state: GameState) -> dict[str, Any]:
    out = {
        a.name: _encode(getattr(state, a.name))
        for a in attrs.fields(GameState)
        if a.name not in ("rules", "board") and not (a.name == "chance" and state.chance is None)
    }
    board = state.rules.area.board
    out["board"] = {board.cities[i]: list(h) for i, h in enumerate(state.board.houses) if h}
    return out


def _encode_record(record: Any) -> dict[str, Any]:
    return {
        "versions": dict(record.versions),
        "config": _encode(record.config),
        "seed": record.seed,
        "actions": [str(a) for a in record.actions],
    }


_ENCODERS: dict[type, Callable[[Any], Any]] = {GameState: _encode_state}


# --- decoding ------------------------------------------------------------------------------


def from_json(text: str | bytes) -> Any:
    """Read a document written by :func:`to_json` and return the object it holds.

    Malformed JSON (nesting too deep included), an unknown ``format`` or
    ``type``, a missing or unknown field, a value of the wrong type, text that
    is not printable, or a state that breaks the game's invariants raises
    :class:`~powergrid.InvalidRecord` naming the path.
    """
    return from_data(load_json(text))


#: Whether the document being decoded is of a format that named plants by number.
_NUMBERED_PLANTS: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "numbered_plants", default=False
)


def from_data(data: Any) -> Any:
    """Decode a dictionary as produced by :func:`to_data` (see :func:`from_json`)."""
    fmt = data.get("format") if isinstance(data, dict) else None
    token = _NUMBERED_PLANTS.set(fmt in (1, 2))
    legacy = _MARKET_HELD_MODULES.set(fmt in (1, 2, 3, 4))
    try:
        return _from_data(data)
    except InvalidRecord:
        raise
    except PowerGridError as err:
        raise InvalidRecord(str(err)) from None
    except RecursionError:
        raise InvalidRecord("the document is nested too deeply") from None
    finally:
        _NUMBERED_PLANTS.reset(token)
        _MARKET_HELD_MODULES.reset(legacy)


def _from_data(data: Any) -> Any:
    if not isinstance(data, dict):
        raise InvalidRecord(f"a document must be a JSON object, not {_kind(data)}")
    fmt = data.get("format")
    if type(fmt) is not int or fmt not in READABLE_FORMATS:
        readable = " and ".join(map(str, READABLE_FORMATS))
        raise InvalidRecord(
            f"unknown format version {shown(fmt)}; this library reads formats {readable}",
            path="format",
        )
    name = data.get("type")
    cls = _records().get(name) if isinstance(name, str) else None
    cls = cls or module_action_class(name)
    if cls is None:
        raise InvalidRecord(
            f"unknown document type {shown(name)}; known: {', '.join(_records())}", path="type"
        )
    body = {k: v for k, v in data.items() if k not in ("format", "type")}
    body = upgrade(fmt, str(name), body)
    if cls in ACTION_TYPES or is_action_type(cls):
        return _decode_action({"type": name, **body}, "")
    decoder = _DECODERS.get(cls)
    if decoder is not None:
        return decoder(body, "")
    return _decode_attrs(cls, body, "")


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else "a number"
    )


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    if not is_compiled(cls.__module__):
        return typing.get_type_hints(cls, localns=_namespace(), include_extras=True)

    def shim() -> None:  # carries the compiled record's annotations to get_type_hints
        pass

    shim.__annotations__ = field_annotations(cls)
    module = vars(sys.modules[cls.__module__])
    return typing.get_type_hints(shim, globalns=module, localns=_namespace(), include_extras=True)


def _decode_attrs(cls: type, data: Any, path: str, given: dict[str, Any] | None = None) -> Any:
    """Decode an attrs record field by field; ``given`` fields are passed in ready-made."""
    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {_kind(data)}", path=path)
    fields = {a.name: a for a in attrs.fields(cls) if a.name != "rules"}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise InvalidRecord(f"unknown field {shown(unknown[0])}", path=_join(path, unknown[0]))
    hints = _hints(cls)
    kwargs: dict[str, Any] = dict(given or {})
    for name, field in fields.items():
        if name in kwargs:
            continue
        if name not in data:
            if field.default is attrs.NOTHING:
                raise InvalidRecord("missing field", path=_join(path, name))
            continue
        if (cls, name) in _NAMES:
            _check_names(data[name], _join(path, name))
        kwargs[name] = _decode(hints[name], data[name], _join(path, name))
    try:
        return cls(**kwargs)
    except PowerGridError as err:
        where = _join(path, getattr(err, "field", "")) if getattr(err, "field", "") else path
        raise InvalidRecord(str(err), path=where) from None
    except (TypeError, ValueError) as err:  # a record's own check may name its field
        field = getattr(err, "field", "")
        raise InvalidRecord(str(err), path=_join(path, field) if field else path) from None


#: The fields that hold display names (powergrid.outside_text.name_problem), by record type.
_NAMES = {(GameConfig, "names"), (ActorState, "name"), (Deck, "name"), (Deck, "step3")}


def _check_names(value: Any, path: str) -> None:
    """Refuse a bad name (or a bad one of a list of names) before anything else reads it."""
    items = enumerate(value) if isinstance(value, list) else [(None, value)]
    for i, name in items:
        if isinstance(name, str):  # another type is the decoder's to name
            problem = name_problem(name)
            if problem:
                raise InvalidRecord(problem, path=path if i is None else _join(path, i))


def _decode(tp: Any, value: Any, path: str) -> Any:
    origin = typing.get_origin(tp)
    if tp is Action or (origin in (typing.Union, types.UnionType) and tp == Action):
        return _decode_action(value, path)
    if origin in (typing.Union, types.UnionType):
        return _decode_union(typing.get_args(tp), value, path)
    if origin is typing.Annotated and tp == Card:
        return _decode_card(value, path)
    if tp is Any:
        return value
    if tp in _ACTION_MEMBERS:  # one action class (a chance point's Reveals): tagged like any action
        return _decode_one_action(tp, value, path)
    if origin is tuple:
        return _decode_tuple(tp, value, path)
    if origin is frozenset:
        if not isinstance(value, list):
            raise InvalidRecord(f"expected a list, not {_kind(value)}", path=path)
        (arg,) = typing.get_args(tp)
        return frozenset(_decode(arg, v, _join(path, i)) for i, v in enumerate(value))
    if isinstance(tp, type):
        return _decode_type(tp, value, path)
    raise InvalidRecord(f"cannot decode a value of type {tp!r}", path=path)


def _decode_union(args: tuple[Any, ...], value: Any, path: str) -> Any:
    """The first member type that reads ``value`` (``None`` for an optional field)."""
    if value is None and type(None) in args:
        return None
    rest = [a for a in args if a is not type(None)]
    if set(rest) == _ACTION_MEMBERS:  # an optional action, flattened into one union
        return _decode_action(value, path)
    for member in rest[1:]:
        if (member is str and isinstance(value, str)) or (member is int and type(value) is int):
            return _decode_type(member, value, path)
    return _decode(rest[0], value, path)


def _decode_card(value: Any, path: str) -> str:
    """A plant's card label; formats 1 and 2 wrote the plant's number instead."""
    if _NUMBERED_PLANTS.get() and type(value) is int and value >= 0:
        return str(value)
    if not isinstance(value, str):
        raise InvalidRecord(f"expected a plant label string, not {_kind(value)}", path=path)
    try:
        return card_label(value)
    except ValueError as err:
        raise InvalidRecord(str(err), path=path) from None


#: The event kinds whose first value is a plant, in the game being decoded (formats 1-2).
_PLANT_KINDS: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar(
    "plant_kinds", default=PLANT_EVENTS
)


def _numbered_event(event: Event) -> Event:
    """A format-1/2 event: its plant, the first value of a plant event, becomes a label."""
    if event.kind in _PLANT_KINDS.get() and event.values and type(event.values[0]) is int:
        return attrs.evolve(event, values=(str(event.values[0]), *event.values[1:]))
    return event


def _decode_tuple(tp: Any, value: Any, path: str) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise InvalidRecord(f"expected a list, not {_kind(value)}", path=path)
    args = typing.get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_decode(args[0], v, _join(path, i)) for i, v in enumerate(value))
    if len(args) != len(value):
        raise InvalidRecord(f"expected {len(args)} items, not {len(value)}", path=path)
    return tuple(
        _decode(a, v, _join(path, i)) for i, (a, v) in enumerate(zip(args, value, strict=True))
    )


def _decode_type(tp: type, value: Any, path: str) -> Any:
    if tp is bool:
        if not isinstance(value, bool):
            raise InvalidRecord(f"expected true or false, not {_kind(value)}", path=path)
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRecord(f"expected a whole number, not {_kind(value)}", path=path)
        return value
    if tp is str:
        if not isinstance(value, str):
            raise InvalidRecord(f"expected a string, not {_kind(value)}", path=path)
        problem = text_problem(value)
        if problem:
            raise InvalidRecord(problem, path=path)
        return value
    if tp is Phase:
        names = [p.name.lower() for p in Phase]
        if value not in names:
            raise InvalidRecord(f"expected one of {', '.join(names)}", path=path)
        return Phase[value.upper()]
    if issubclass(tp, enum.Enum):
        try:
            return tp(value)
        except (ValueError, TypeError):
            known = ", ".join(str(m.value) for m in tp)
            raise InvalidRecord(f"expected one of {known}, not {shown(value)}", path=path) from None
    if tp is EventLog:
        if not isinstance(value, list):
            raise InvalidRecord(f"expected a list, not {_kind(value)}", path=path)
        events = [_decode_attrs(Event, item, _join(path, i)) for i, item in enumerate(value)]
        if _NUMBERED_PLANTS.get():
            events = [_numbered_event(e) for e in events]
        return log_of(events)
    decoder = _DECODERS.get(tp)
    if decoder is not None:
        return decoder(value, path)
    if attrs.has(tp):
        return _decode_attrs(tp, value, path)
    raise InvalidRecord(f"cannot decode a {tp.__name__}", path=path)


def _decode_action(value: Any, path: str) -> Action:
    if not isinstance(value, dict):
        raise InvalidRecord(f"an action must be an object, not {_kind(value)}", path=path)
    name = value.get("type")
    cls = ACTIONS.get(name) if isinstance(name, str) else None
    cls = cls or module_action_class(name)
    if cls is None:
        raise InvalidRecord(
            f"unknown action {shown(name)}; known: {', '.join(ACTIONS)}", path=_join(path, "type")
        )
    body = {k: v for k, v in value.items() if k != "type"}
    return _decode_attrs(cls, body, path)  # type: ignore[no-any-return]


def _decode_one_action(cls: type, value: Any, path: str) -> Action:
    """An action where the record's type names its class: its ``type`` tag must agree."""
    action = _decode_action(value, path)
    if not isinstance(action, cls):
        raise InvalidRecord(
            f"expected a {cls.__name__} action here, not {type(action).__name__}",
            path=_join(path, "type"),
        )
    return action


def _decode_state(data: Any, path: str) -> GameState:
    from powergrid.rules.ruleset import ruleset_for

    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {_kind(data)}", path=path)
    config = _decode_attrs(GameConfig, data.get("config"), _join(path, "config"))
    regions = _decode(tuple[str, ...], data.get("regions"), _join(path, "regions"))
    try:
        from powergrid.config import validate_regions

        validate_regions(config, regions)
        rules = ruleset_for(config, tuple(sorted(regions)))
    except PowerGridError as err:
        raise InvalidRecord(str(err), path=_join(path, "regions")) from None
    board = _decode_board(data.get("board"), rules, _join(path, "board"))
    data, modules = _module_states(_renamed(data), rules.state_specs, path)
    ready = {"config": config, "regions": regions, "board": board, "rules": rules}
    ready["modules"] = modules
    kinds = _PLANT_KINDS.set(rules.plant_events)
    try:
        state: GameState = _decode_attrs(GameState, data, path, ready)
    finally:
        _PLANT_KINDS.reset(kinds)
    problems = invariant_violations(state)
    if problems:
        raise InvalidRecord(f"the state breaks the rules: {problems[0]}", path=path)
    return state


#: Whether the document being decoded is of a format whose plant market held the
#: fields that are rule modules' own state now (formats 1 to 4).
_MARKET_HELD_MODULES: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "market_held_modules", default=False
)


#: Fields of states and public views that formats 1 to 4 wrote under another name.
_OLD_NAMES = {"discard": "discarding"}


def _renamed(data: dict[str, Any]) -> dict[str, Any]:
    """A state or view document of formats 1 to 4 with its fields under today's names."""
    if not _MARKET_HELD_MODULES.get():
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
    if _MARKET_HELD_MODULES.get() and isinstance(market, dict) and "modules" not in data:
        own = {a.name for a in attrs.fields(PlantMarket)}
        legacy = {k: v for k, v in market.items() if k not in own}
        given, unclaimed = from_market(specs, legacy)
        for key in unclaimed:
            if not is_empty(legacy[key]):
                raise InvalidRecord(
                    f"no rule module of this game keeps {shown(key)}",
                    path=_join(_join(path, "market"), key),
                )
        data = {**data, "market": {k: v for k, v in market.items() if k in own}}
    where = _join(path, "modules")
    if not isinstance(given, dict):
        raise InvalidRecord(f"expected an object of module states, not {_kind(given)}", path=where)
    names = dict(specs)
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise InvalidRecord(
            f"no rule module {shown(unknown[0])} keeps a state in this game",
            path=_join(where, unknown[0]),
        )
    records = {
        name: _decode_attrs(spec.record, given[name], _join(where, name))
        for name, spec in specs
        if name in given
    }
    return {k: v for k, v in data.items() if k != "modules"}, initial(specs, records)


def _decode_board(value: Any, rules: Any, path: str) -> Board:
    if not isinstance(value, dict):
        raise InvalidRecord(f"expected an object of cities, not {_kind(value)}", path=path)
    board = rules.area.board
    houses: list[tuple[int, ...]] = [()] * len(board.cities)
    for city, seats in value.items():
        if city not in board.index:
            raise InvalidRecord(f"unknown city {shown(city)}", path=_join(path, city))
        houses[board.index[city]] = _decode(tuple[int, ...], seats, _join(path, city))
    return Board(houses=tuple(houses))


def _decode_record(data: Any, path: str) -> Any:
    from powergrid.formats.notation import parse_action
    from powergrid.formats.records import GameRecord

    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {_kind(data)}", path=path)
    unknown = sorted(set(data) - {"versions", "config", "seed", "actions"})
    if unknown:
        raise InvalidRecord(f"unknown field {shown(unknown[0])}", path=_join(path, unknown[0]))
    for key in ("config", "seed", "actions", "versions"):
        if key not in data:
            raise InvalidRecord("missing field", path=_join(path, key))
    versions = data["versions"]
    if not isinstance(versions, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in versions.items()
    ):
        raise InvalidRecord(
            "expected an object of name: version strings", path=_join(path, "versions")
        )
    for name, version in versions.items():
        problem = text_problem(name, what="a module name") or text_problem(version)
        if problem:
            raise InvalidRecord(problem, path=_join(_join(path, "versions"), name))
    config = _decode_attrs(GameConfig, data["config"], _join(path, "config"))
    seed = _decode(int, data["seed"], _join(path, "seed"))
    raw = _decode(tuple[str, ...], data["actions"], _join(path, "actions"))
    acts = []
    for i, text in enumerate(raw):
        try:
            acts.append(parse_action(text))
        except InvalidRecord as err:
            raise InvalidRecord(str(err), path=_join(_join(path, "actions"), i)) from None
    return GameRecord(config=config, seed=seed, actions=tuple(acts), versions=versions)


def _decode_public_view(data: Any, path: str) -> Any:
    from powergrid.engine.views import PublicView
    from powergrid.rules.ruleset import plant_events_for, state_specs_for

    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {_kind(data)}", path=path)
    config = _decode_attrs(GameConfig, data.get("config"), _join(path, "config"))
    data, modules = _module_states(_renamed(data), state_specs_for(config), path)
    kinds = _PLANT_KINDS.set(plant_events_for(config))
    try:
        return _decode_attrs(PublicView, data, path, {"config": config, "modules": modules})
    finally:
        _PLANT_KINDS.reset(kinds)


def _decode_player_view(data: Any, path: str) -> Any:
    from powergrid.engine.views import PlayerView, PublicView
    from powergrid.rules.ruleset import state_specs_for

    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {_kind(data)}", path=path)
    public = _decode_public_view(data.get("public"), _join(path, "public"))
    assert isinstance(public, PublicView)
    modules = public.modules
    if "modules" in data:
        own = {"modules": data["modules"]}
        _, modules = _module_states(own, state_specs_for(public.config), path)
    rest = {k: v for k, v in data.items() if k != "modules"}
    return _decode_attrs(PlayerView, rest, path, {"public": public, "modules": modules})


_DECODERS: dict[type, Callable[[Any, str], Any]] = {GameState: _decode_state}


def _register_record_codec() -> None:
    from powergrid.engine.views import PlayerView, PublicView
    from powergrid.formats.records import GameRecord

    _ENCODERS.setdefault(GameRecord, _encode_record)
    _DECODERS.setdefault(GameRecord, _decode_record)
    _DECODERS.setdefault(PublicView, _decode_public_view)
    _DECODERS.setdefault(PlayerView, _decode_player_view)
