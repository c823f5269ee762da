"""The JSON Schemas of the documents :func:`powergrid.to_json` writes, ready to use.

The files ship as package data (``data/schema/<name>.schema.json``, draft
2020-12) and refer to each other by ``$id`` (``urn:powergrid:schema:<name>:1``):
a state's config is the record schema's, a view's legal actions are the action
schema's. :func:`schema` returns one of them as a single self-contained
document, the schemas it refers to copied into its ``$defs``, with the map of
a config restricted to the maps installed here and the rule modules' own
actions (:class:`powergrid.rules.ModuleAction`) of the modules known here in
place of the files' generic ``moduleAction`` (which accepts any object with a
``type`` and a ``player``, since a file cannot know which modules are
installed). Validating needs a JSON
Schema library such as ``jsonschema``; this module only reads the files.

>>> from powergrid.formats.schemas import schema
>>> schema("view")["title"]
'powergrid PlayerView'
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

import attrs

from powergrid import catalog
from powergrid.data import load
from powergrid.module_state import field_types
from powergrid.plants import Card

#: A plant card's label in a document (``"13"``, ``"46+"``, ``"5e"``).
LABEL_PATTERN = "^(0|[1-9][0-9]{0,3})([A-Za-z+]{0,8})$"

__all__ = ["SCHEMA_NAMES", "schema"]

#: The schemas :func:`schema` knows, each the file ``data/schema/<name>.schema.json``.
SCHEMA_NAMES = ("record", "action", "deck", "state", "view", "public_view")

_IDS = {f"urn:powergrid:schema:{n}:1": n for n in SCHEMA_NAMES}

#: The files' notation alternative for any module verb: a word that is no base verb.
_ANY_VERB = r"|(?!(choose|pass|bid|fold|discard|buy|endbuy|build|endbuild|power)( |$))[a-z]+( \S+)*"


def schema(name: str) -> dict[str, Any]:
    """The parsed JSON Schema ``name``, self-contained and listing the installed maps.

    The schemas that ``name`` refers to are copied into its ``$defs`` under their
    file names (``"record.schema.json"``) and every ``$ref`` becomes a pointer
    into the one document, so a validator needs no registry of the other files
    and looks nothing up by ``$id``. A config's ``map``, a slug in the files,
    becomes an ``enum`` of :func:`powergrid.catalog.map_ids`; finding the
    installed maps loads the ``powergrid.rules`` entry points. Every call
    returns a new dictionary, free to change.

    Args:
        name: One of :data:`SCHEMA_NAMES`, e.g. ``"state"``.

    Returns:
        The schema as a JSON-ready dictionary.

    Raises:
        ValueError: ``name`` is not one of :data:`SCHEMA_NAMES`.
    """
    if name not in SCHEMA_NAMES:
        raise ValueError(f"unknown schema {name!r}; known: {', '.join(SCHEMA_NAMES)}")
    root = _local(name, name)
    defs = root.setdefault("$defs", {})
    for other in sorted(_referenced(name) - {name}):
        embedded = _local(other, name)
        del embedded["$schema"], embedded["$id"]  # a part of this schema, no resource
        defs[f"{other}.schema.json"] = embedded
    config = defs.get("record.schema.json", root)["$defs"].get("config")
    if config is not None:  # the config is the record schema's, wherever it stands
        config["properties"]["map"] = {
            "enum": list(catalog.map_ids()),
            "description": 'A map installed here (powergrid.catalog.map_ids()); default "europe".',
        }
    state = root if name == "state" else defs.get("state.schema.json")
    if state is not None:
        state["$defs"]["modules"]["properties"] = module_state_schemas()
    _known_actions(root, name)
    return root


def module_state_schemas() -> dict[str, Any]:
    """The schema of each installed rule module's own state record, by module name.

    Generated from the record's field types (powergrid.module_state): whole
    numbers, strings, booleans, plant labels, ``null`` where a field may be
    ``None``, arrays for tuples and frozensets.
    """
    modules = [catalog.map_rule_module(m) for m in catalog.map_ids()]
    maps = set(catalog.map_ids())
    modules += [catalog.extra_module(n) for n in catalog.extra_module_names() if n not in maps]
    out: dict[str, Any] = {}
    for module in modules:
        spec = getattr(module, "state", None)
        if spec is None:
            continue
        types = field_types(spec)
        out[module.name] = {
            "type": "object",
            "properties": {f: _field_schema(types[f]) for f in spec.fields()},
            "additionalProperties": False,
            "description": (spec.record.__doc__ or spec.record.__name__).strip().splitlines()[0],
        }
    return out


def _field_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema of a module state field of type ``hint``."""
    origin = typing.get_origin(hint)
    if hint == Card:
        return {"type": "string", "pattern": LABEL_PATTERN}
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = [_field_schema(a) for a in members]
        if type(None) in typing.get_args(hint):
            inner.append({"type": "null"})
        return {"oneOf": inner}
    if origin in (tuple, frozenset):
        items = _field_schema(typing.get_args(hint)[0])
        return {
            "type": "array",
            "items": items,
            **({"uniqueItems": True} if origin is frozenset else {}),
        }
    simple = {bool: "boolean", int: "integer", str: "string"}
    return {"type": simple[hint]} if hint in simple else {}


def _known_actions(root: dict[str, Any], name: str) -> None:
    """Put the known modules' own actions where the files accept any module action."""
    # One entry per class: a module variant (the fund with another build policy) shares it.
    actions = tuple({a.cls: a for a in reversed(catalog.known_module_actions())}.values())[::-1]
    node = root if name == "action" else root["$defs"].get("action.schema.json")
    if node is not None:
        fmt = node["$defs"]["moduleAction"]["properties"]["format"]
        declared: dict[str, Any] = {"oneOf": [_action_schema(a, fmt) for a in actions]}
        node["$defs"]["moduleAction"] = declared if actions else {"not": {}}
    verbs = "|".join(re.escape(a.verb) for a in actions)
    alternative = f"|({verbs})( \\S+)*" if actions else ""
    stack: list[Any] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            pattern = item.get("pattern")
            if isinstance(pattern, str) and _ANY_VERB in pattern:
                item["pattern"] = pattern.replace(_ANY_VERB, alternative)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _action_schema(action: Any, fmt: dict[str, Any]) -> dict[str, Any]:
    """The schema of one module action, from its class's fields (whole numbers, words)."""
    try:
        hints = typing.get_type_hints(action.cls)
    except (NameError, TypeError):  # an annotation this module cannot resolve: any value
        hints = {}
    properties: dict[str, Any] = {"format": fmt, "type": {"const": action.name}}
    for field in attrs.fields(action.cls):
        kind = hints.get(field.name)
        if kind is int:
            properties[field.name] = {"type": "integer", "minimum": 0}
        elif kind is str:
            properties[field.name] = {"type": "string", "pattern": "^\\S+$"}
        elif kind is bool:
            properties[field.name] = {"type": "boolean"}
        else:
            properties[field.name] = {}
    required = [f.name for f in attrs.fields(action.cls) if f.default is attrs.NOTHING]
    return {
        "type": "object",
        "properties": properties,
        "required": ["type", *required],
        "additionalProperties": False,
        "description": f"{action.name}, the action '{action.verb}' of a rule module.",
    }


def _local(name: str, root: str) -> dict[str, Any]:
    """A copy of the file ``name`` whose references point into the bundle of ``root``."""

    def pointer(ref: str) -> str:
        uri, _, fragment = ref.partition("#")
        if uri and uri not in _IDS:
            return ref
        target = _IDS[uri] if uri else name
        return "#" + ("" if target == root else f"/$defs/{target}.schema.json") + fragment

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: pointer(v) if k == "$ref" else walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(load(f"schema/{name}.schema.json"))  # type: ignore[no-any-return]


def _referenced(name: str) -> set[str]:
    """``name`` and every schema it refers to, directly or through another."""
    found, todo = {name}, [name]
    while todo:
        stack: list[Any] = [load(f"schema/{todo.pop()}.schema.json")]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                target = _IDS.get(str(node.get("$ref", "")).partition("#")[0])
                if target is not None and target not in found:
                    found.add(target)
                    todo.append(target)
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return found
