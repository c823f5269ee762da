"""Reading older JSON formats: what each upgrade changes in a document's config.

The format history is in :mod:`powergrid.version`. Plant numbers of formats 1
and 2 become labels while decoding (:mod:`powergrid.formats.typed_decoding`); the upgrades
here change a document's config before it is decoded, so that an old record
replays to the game it recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from powergrid.catalog import default_modules
from powergrid.config import GameConfig

# The field defaults a config document may leave out.
_DEFAULT = {a.name: a.default for a in attrs.fields(GameConfig)}


def upgrade(fmt: int, name: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body of a document of format ``fmt`` and type ``name``, as today's format reads it."""
    if fmt == 1:
        body = _each_config(name, body, _classic_opt_in)
    if fmt < 4:
        body = _each_config(name, body, _no_default_modules)
    if fmt < 5:
        body = _each_config(name, body, _defaults_left_out)
    return body


def _each_config(
    name: str, body: dict[str, Any], upgrade: Callable[[dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    """Apply a format upgrade to the config a document holds (itself, or its part).

    A config, a state or a record holds it as ``config``; a player view in
    its public part.
    """
    if name == "GameConfig":
        return upgrade(body)
    config = body.get("config")
    if isinstance(config, dict):
        return {**body, "config": upgrade(config)}
    public = body.get("public")
    if isinstance(public, dict):  # a PlayerView holds its config in the public part
        return {**body, "public": _each_config("PublicView", public, upgrade)}
    return body


def _no_default_modules(config: dict[str, Any]) -> dict[str, Any]:
    """Formats 1-3: a config without ``modules`` played none (no fund by default then)."""
    return config if "modules" in config else {**config, "modules": []}


def _defaults_left_out(config: dict[str, Any]) -> dict[str, Any]:
    """Formats 1-4: a config that names ``modules`` played exactly those.

    Format 5 adds the defaults to the named modules, so each default the old
    config does not name is left out explicitly (``without``). A config without
    ``modules`` played the defaults then as now; malformed fields are left as
    they are, for the decoder to report.
    """
    modules = config.get("modules")
    if not isinstance(modules, list) or "without" in config:
        return config
    players = config.get("players", _DEFAULT["players"])
    components = config.get("components", _DEFAULT["components"])
    try:
        defaults = default_modules(components, players)  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError):
        return config  # not a game the tables know: the decoder names the field
    left_out = [d for d in defaults if d not in modules]
    return {**config, "without": left_out} if left_out else config


def _classic_opt_in(config: dict[str, Any]) -> dict[str, Any]:
    """Format 1: a classic config played the board's map rules, now the ``map_rules`` option.

    Format 2 plays them only with that option (CON-02, OQ-31), so every
    classic config of a format-1 document gains it and replays to the same
    outcome.
    """
    if config.get("components") != "classic":
        return config
    options = config.get("options", [])
    if not isinstance(options, list) or "map_rules" in options:
        return config  # malformed options are reported by the decoder as before
    return {**config, "options": [*options, "map_rules"]}  # unsorted: items may be any JSON
