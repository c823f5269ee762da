"""Decoding JSON values by their declared field types, naming the path of the first bad one.

:mod:`powergrid.formats.serialize` reads a document's type and hands its body
here: a record is decoded field by field from its type hints (nested records,
tuples, frozensets, enumerations, unions, actions tagged with their ``type``,
card labels), and every problem raises :class:`~powergrid.InvalidRecord` with
its path, e.g. ``players[2].money``. The documents that need their game's
rules first (states, views, records) are decoded by
:mod:`powergrid.formats.documents`, which registers them in
:data:`DOCUMENT_DECODERS`. What depends on the document's format version
(plants by number in formats 1 and 2, the modules' records in the plant market
in formats 1 to 4) is read from the context variables below, which
:func:`powergrid.formats.serialize.from_data` sets per document.
"""

from __future__ import annotations

import contextvars
import enum
import functools
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs

from powergrid import actions as actions_module
from powergrid.actions import ACTION_TYPES, Action, module_action_class
from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.deck import Deck, DeckChoice
from powergrid.enums import Phase, Resource
from powergrid.errors import InvalidRecord, PowerGridError
from powergrid.events import PLANT_EVENTS, Event, EventLog, log_of
from powergrid.mechanics.chance_points import ChancePoint
from powergrid.module_state import ModuleStates
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

#: The base game's action classes by the name a document tags them with.
ACTIONS: dict[str, type] = {cls.__name__: cls for cls in ACTION_TYPES}
#: The member types of :data:`~powergrid.actions.Action`, as an optional action's union lists them.
_ACTION_MEMBERS = frozenset(typing.get_args(Action))


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


#: Whether the document being decoded is of a format that named plants by number.
NUMBERED_PLANTS: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "numbered_plants", default=False
)


#: Whether the document being decoded is of a format whose plant market held the
#: fields that are rule modules' own state now (formats 1 to 4).
MARKET_HELD_MODULES: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "market_held_modules", default=False
)


#: The decoders of whole documents by type, filled by :func:`powergrid.formats.documents.register`.
DOCUMENT_DECODERS: dict[type, Callable[[Any, str], Any]] = {}


def kind_of(value: object) -> str:
    """What a JSON value is, for a message: "an object", "a list", "null", ..."""
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else "a number"
    )


def join(path: str, key: str | int) -> str:
    """The path of a field or list item inside ``path``: ``players[2].money``."""
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


def decode_attrs(cls: type, data: Any, path: str, given: dict[str, Any] | None = None) -> Any:
    """Decode an attrs record field by field; ``given`` fields are passed in ready-made."""
    if not isinstance(data, dict):
        raise InvalidRecord(f"expected an object, not {kind_of(data)}", path=path)
    fields = {a.name: a for a in attrs.fields(cls) if a.name != "rules"}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise InvalidRecord(f"unknown field {shown(unknown[0])}", path=join(path, unknown[0]))
    hints = _hints(cls)
    kwargs: dict[str, Any] = dict(given or {})
    for name, field in fields.items():
        if name in kwargs:
            continue
        if name not in data:
            if field.default is attrs.NOTHING:
                raise InvalidRecord("missing field", path=join(path, name))
            continue
        if (cls, name) in _NAMES:
            _check_names(data[name], join(path, name))
        kwargs[name] = decode(hints[name], data[name], join(path, name))
    try:
        return cls(**kwargs)
    except PowerGridError as err:
        where = join(path, getattr(err, "field", "")) if getattr(err, "field", "") else path
        raise InvalidRecord(str(err), path=where) from None
    except (TypeError, ValueError) as err:  # a record's own check may name its field
        field = getattr(err, "field", "")
        raise InvalidRecord(str(err), path=join(path, field) if field else path) from None


#: The fields that hold display names (powergrid.outside_text.name_problem), by record type.
_NAMES = {(GameConfig, "names"), (ActorState, "name"), (Deck, "name"), (Deck, "step3")}


def _check_names(value: Any, path: str) -> None:
    """Refuse a bad name (or a bad one of a list of names) before anything else reads it."""
    items = enumerate(value) if isinstance(value, list) else [(None, value)]
    for i, name in items:
        if isinstance(name, str):  # another type is the decoder's to name
            problem = name_problem(name)
            if problem:
                raise InvalidRecord(problem, path=path if i is None else join(path, i))


def decode(tp: Any, value: Any, path: str) -> Any:
    """Decode a JSON value as type ``tp`` (a type hint); a bad value raises naming ``path``."""
    origin = typing.get_origin(tp)
    if tp is Action or (origin in (typing.Union, types.UnionType) and tp == Action):
        return decode_action(value, path)
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
            raise InvalidRecord(f"expected a list, not {kind_of(value)}", path=path)
        (arg,) = typing.get_args(tp)
        return frozenset(decode(arg, v, join(path, i)) for i, v in enumerate(value))
    if isinstance(tp, type):
        return _decode_type(tp, value, path)
    raise InvalidRecord(f"cannot decode a value of type {tp!r}", path=path)


def _decode_union(args: tuple[Any, ...], value: Any, path: str) -> Any:
    """The first member type that reads ``value`` (``None`` for an optional field)."""
    if value is None and type(None) in args:
        return None
    rest = [a for a in args if a is not type(None)]
    if set(rest) == _ACTION_MEMBERS:  # an optional action, flattened into one union
        return decode_action(value, path)
    for member in rest[1:]:
        if (member is str and isinstance(value, str)) or (member is int and type(value) is int):
            return _decode_type(member, value, path)
    return decode(rest[0], value, path)


def _decode_card(value: Any, path: str) -> str:
    """A plant's card label; formats 1 and 2 wrote the plant's number instead."""
    if NUMBERED_PLANTS.get() and type(value) is int and value >= 0:
        return str(value)
    if not isinstance(value, str):
        raise InvalidRecord(f"expected a plant label string, not {kind_of(value)}", path=path)
    try:
        return card_label(value)
    except ValueError as err:
        raise InvalidRecord(str(err), path=path) from None


#: The event kinds whose first value is a plant, in the game being decoded (formats 1-2).
PLANT_KINDS: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar(
    "plant_kinds", default=PLANT_EVENTS
)


def _numbered_event(event: Event) -> Event:
    """A format-1/2 event: its plant, the first value of a plant event, becomes a label."""
    if event.kind in PLANT_KINDS.get() and event.values and type(event.values[0]) is int:
        return attrs.evolve(event, values=(str(event.values[0]), *event.values[1:]))
    return event


def _decode_tuple(tp: Any, value: Any, path: str) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise InvalidRecord(f"expected a list, not {kind_of(value)}", path=path)
    args = typing.get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(decode(args[0], v, join(path, i)) for i, v in enumerate(value))
    if len(args) != len(value):
        raise InvalidRecord(f"expected {len(args)} items, not {len(value)}", path=path)
    return tuple(
        decode(a, v, join(path, i)) for i, (a, v) in enumerate(zip(args, value, strict=True))
    )


def _decode_type(tp: type, value: Any, path: str) -> Any:
    if tp is bool:
        if not isinstance(value, bool):
            raise InvalidRecord(f"expected true or false, not {kind_of(value)}", path=path)
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRecord(f"expected a whole number, not {kind_of(value)}", path=path)
        return value
    if tp is str:
        if not isinstance(value, str):
            raise InvalidRecord(f"expected a string, not {kind_of(value)}", path=path)
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
            raise InvalidRecord(f"expected a list, not {kind_of(value)}", path=path)
        events = [decode_attrs(Event, item, join(path, i)) for i, item in enumerate(value)]
        if NUMBERED_PLANTS.get():
            events = [_numbered_event(e) for e in events]
        return log_of(events)
    decoder = DOCUMENT_DECODERS.get(tp)
    if decoder is not None:
        return decoder(value, path)
    if attrs.has(tp):
        return decode_attrs(tp, value, path)
    raise InvalidRecord(f"cannot decode a {tp.__name__}", path=path)


def decode_action(value: Any, path: str) -> Action:
    """Decode an action object, tagged with its class name under ``type``."""
    if not isinstance(value, dict):
        raise InvalidRecord(f"an action must be an object, not {kind_of(value)}", path=path)
    name = value.get("type")
    cls = ACTIONS.get(name) if isinstance(name, str) else None
    cls = cls or module_action_class(name)
    if cls is None:
        raise InvalidRecord(
            f"unknown action {shown(name)}; known: {', '.join(ACTIONS)}", path=join(path, "type")
        )
    body = {k: v for k, v in value.items() if k != "type"}
    return decode_attrs(cls, body, path)  # type: ignore[no-any-return]


def _decode_one_action(cls: type, value: Any, path: str) -> Action:
    """An action where the record's type names its class: its ``type`` tag must agree."""
    action = decode_action(value, path)
    if not isinstance(action, cls):
        raise InvalidRecord(
            f"expected a {cls.__name__} action here, not {type(action).__name__}",
            path=join(path, "type"),
        )
    return action
