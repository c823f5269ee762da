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
The decoding itself is :mod:`powergrid.formats.typed_decoding` (field by field) and
:mod:`powergrid.formats.documents` (states, views and records, which need their
game's rules first); this module reads a document's format and type and writes JSON.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from typing import Any

import attrs

from powergrid.actions import ACTION_TYPES, is_action_type, module_action_class
from powergrid.config import GameConfig
from powergrid.deck import Deck
from powergrid.enums import Phase
from powergrid.errors import InvalidRecord, PowerGridError
from powergrid.events import EventLog
from powergrid.formats import documents
from powergrid.formats.json_input import load_json
from powergrid.formats.typed_decoding import (
    ACTIONS,
    DOCUMENT_DECODERS,
    MARKET_HELD_MODULES,
    NUMBERED_PLANTS,
    decode_action,
    decode_attrs,
    kind_of,
)
from powergrid.formats.upgrades import upgrade
from powergrid.module_state import ModuleStates
from powergrid.outside_text import shown
from powergrid.state import (
    GameState,
)
from powergrid.version import FORMAT, READABLE_FORMATS


def _records() -> dict[str, type]:
    from powergrid.engine.views import PlayerView, PublicView
    from powergrid.formats.records import GameRecord

    _register_documents()
    return {
        "GameConfig": GameConfig,
        "Deck": Deck,
        "GameState": GameState,
        "GameRecord": GameRecord,
        "PlayerView": PlayerView,
        "PublicView": PublicView,
        **ACTIONS,
    }


def _register_documents() -> None:
    """Register the codecs of states, views and records (idempotent; on first use)."""
    from powergrid.formats.records import GameRecord

    documents.register()
    _ENCODERS.setdefault(GameRecord, _encode_record)


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


def from_data(data: Any) -> Any:
    """Decode a dictionary as produced by :func:`to_data` (see :func:`from_json`)."""
    fmt = data.get("format") if isinstance(data, dict) else None
    token = NUMBERED_PLANTS.set(fmt in (1, 2))
    legacy = MARKET_HELD_MODULES.set(fmt in (1, 2, 3, 4))
    try:
        return _from_data(data)
    except InvalidRecord:
        raise
    except PowerGridError as err:
        raise InvalidRecord(str(err)) from None
    except RecursionError:
        raise InvalidRecord("the document is nested too deeply") from None
    finally:
        NUMBERED_PLANTS.reset(token)
        MARKET_HELD_MODULES.reset(legacy)


def _from_data(data: Any) -> Any:
    if not isinstance(data, dict):
        raise InvalidRecord(f"a document must be a JSON object, not {kind_of(data)}")
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
        return decode_action({"type": name, **body}, "")
    decoder = DOCUMENT_DECODERS.get(cls)
    if decoder is not None:
        return decoder(body, "")
    return decode_attrs(cls, body, "")
