"""What this installation can play: boards and component sets, read from package data.

This is the layer a :class:`~powergrid.GameConfig` checks itself against. It
reads JSON only and imports nothing of the engine, the rule modules or the
config, so validating a config never reaches into the code that plays it (the
package's import graph has no cycles; ``tests/test_imports.py`` checks it).

- :data:`MAPS`: the boards that have both a board file (``data/maps/<id>.json``)
  and a rule module (``rules/maps/<id>.py``); adding a map is one of each.
- :data:`COMPONENT_SETS`: ``classic``, ``deluxe`` and ``recharged``.
- :func:`load_map`: a board's cities, regions and connections
  (:class:`~powergrid.data.boards.MapData`).
- :func:`component_maps`, :func:`map_components` and :func:`regions_needed`:
  the facts of a component set's tables and a board's file that decide whether
  a game can be set up at all.
- :func:`map_ids` and :func:`map_rule_module`: the built-in maps and those
  another package installs: a ``powergrid.rules`` entry point whose module
  carries its board as ``data["board"]`` (the format of ``data/maps``).
- :func:`extra_module` and :func:`check_modules`: the extra rule modules a
  config may name, built in (``powergrid/rules/<name>/``) or installed by
  another package under the entry-point group :data:`ENTRY_POINT_GROUP`, and
  the checks of their declared needs. A module is loaded by name (dynamically)
  only when a config names it.
- Installed packages fail alone: an entry point whose import raises is warned
  about once (:class:`PluginWarning`) and left out of every listing; only a
  config that names it is refused, with the error (:func:`broken_plugin`).
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Callable
from importlib import metadata, resources
from typing import Any

import attrs

from powergrid.data import load
from powergrid.data.boards import MapData as MapData  # where 0.1.0 code found it
from powergrid.data.boards import board_from_data
from powergrid.errors import RulesConfigError
from powergrid.version import MODULE_API, __version__


def _discover_maps() -> tuple[str, ...]:
    """Maps that have both a board file and a rule module, sorted by id."""
    root = resources.files("powergrid")
    boards = {
        p.name[:-5] for p in root.joinpath("data", "maps").iterdir() if p.name.endswith(".json")
    }
    maps = root.joinpath("rules", "maps")
    modules = {p.name[:-3] for p in maps.iterdir() if p.name.endswith(".py") and p.name[0] != "_"}
    return tuple(sorted(boards & modules))


#: The maps this installation can play (discovered from package data, see above).
MAPS = _discover_maps()
#: The component sets, each with its own deck, resources and tables (CON-01, RCH-01).
COMPONENT_SETS = ("classic", "deluxe", "recharged")
#: The entry-point group through which other packages add rule modules.
ENTRY_POINT_GROUP = "powergrid.rules"
_CORE_MODULES = frozenset({"__init__", "base", *COMPONENT_SETS})


@functools.cache  # the package's files do not change while it runs; encoders ask often
def _builtin_extras() -> tuple[str, ...]:
    """The extra rule modules that ship with the package: the folders of ``powergrid/rules``.

    The core modules and component sets are files there, and the maps' modules
    live in ``rules/maps``; an extra module is a package of its own (``fund/``,
    ``custom_deck/``), its helpers inside it.
    """
    root = resources.files("powergrid").joinpath("rules")
    names = {
        p.name
        for p in root.iterdir()
        if p.is_dir() and p.joinpath("__init__.py").is_file() and p.name[0] != "_"
    }
    return tuple(sorted(names - {"maps"}))


@functools.cache
def _entry_points() -> dict[str, metadata.EntryPoint]:
    # Names only: reading the metadata imports nothing of the installed packages.
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


class PluginWarning(UserWarning):
    """An installed rule module could not be loaded: it is left out, and the rest plays.

    Issued once per entry point and process (again only after :func:`refresh`),
    when loading a :data:`ENTRY_POINT_GROUP` entry point raises. The message
    names the module, its distribution, the entry point and the error. Filter it
    with ``warnings.filterwarnings("ignore", category=PluginWarning)``.
    """


@attrs.frozen
class BrokenPlugin:
    """An installed entry point of :data:`ENTRY_POINT_GROUP` whose loading raised.

    ``name`` is the module name a config would use, ``target`` what the entry
    point loads (``"package.module:ATTRIBUTE"``), ``distribution`` the installed
    distribution that declares it and ``error`` the exception, one line.
    """

    name: str
    target: str
    distribution: str
    error: str

    def describe(self) -> str:
        """One sentence naming the module, its distribution, the entry point and the error."""
        return (
            f"rule module {self.name!r} of the distribution {self.distribution} "
            f"(entry point {self.name} = {self.target} of group {ENTRY_POINT_GROUP!r}) "
            f"could not be loaded: {self.error}"
        )


def _distribution_name(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return name if isinstance(name, str) and name else "(unknown)"


def _one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, its unprintable characters escaped, cut after ``limit`` characters."""
    text = " ".join(text.split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else f"{text[:limit]}..."


def api_problem(module: Any) -> str | None:
    """Why this library cannot play ``module``'s module API, or ``None`` when it can.

    A module declares the API it was written for (``RuleModule.api``); one
    newer than ``powergrid.version.MODULE_API`` needs a newer library.
    """
    api = getattr(module, "api", 1)
    name = getattr(module, "name", "?")
    if isinstance(api, bool) or not isinstance(api, int) or api < 1:
        return f"module {name!r} declares module API {api!r}; an API version is a whole number >= 1"
    if api > MODULE_API:
        return (
            f"module {name!r} was written for module API {api}; this powergrid-rules "
            f"{__version__} supports up to {MODULE_API}: upgrade powergrid-rules"
        )
    return None


@functools.cache
def _loaded(name: str) -> Any:
    """What entry point ``name`` loads, or a :class:`BrokenPlugin` after one warning.

    Any exception of the import counts (a missing module, a syntax error, an
    error raised by the package's own import); KeyboardInterrupt and SystemExit
    pass. So does a module written for a newer module API (``api_problem``).
    The cache makes the warning once per process.
    """
    ep = _entry_points()[name]
    try:
        module = ep.load()
    except Exception as err:
        return _broken(name, ep, f"{type(err).__name__}: {err}")
    problem = api_problem(module)
    return module if problem is None else _broken(name, ep, problem)


def _broken(name: str, ep: metadata.EntryPoint, error: str) -> BrokenPlugin:
    """The :class:`BrokenPlugin` of entry point ``name``, warned about once."""
    broken = BrokenPlugin(
        name=name, target=ep.value, distribution=_distribution_name(ep), error=_one_line(error)
    )
    warnings.warn(f"{broken.describe()}; it is left out", PluginWarning, stacklevel=1)
    return broken


def _working_entry_points() -> tuple[str, ...]:
    """The entry-point names whose loading succeeded (loading each one the first time)."""
    return tuple(n for n in _entry_points() if not isinstance(_loaded(n), BrokenPlugin))


def broken_plugin(name: object) -> BrokenPlugin | None:
    """Why the installed module or map ``name`` could not be loaded, or ``None``.

    ``None`` when ``name`` is no installed entry point or when it loaded. A
    config check calls it on a name it does not know, to name the failure
    instead of "unknown": ``RulesConfigError(broken.describe(), field=...)``.
    """
    if not isinstance(name, str) or name not in _entry_points():
        return None
    loaded = _loaded(name)
    return loaded if isinstance(loaded, BrokenPlugin) else None


def broken_plugins() -> tuple[BrokenPlugin, ...]:
    """The installed entry points that could not be loaded, by name (each one tried once).

    They are missing from :func:`extra_module_names` and :func:`map_ids`; a
    config naming one raises :class:`~powergrid.RulesConfigError` with
    :meth:`BrokenPlugin.describe`. The first try of each warns
    (:class:`PluginWarning`).
    """
    found = (_loaded(name) for name in sorted(_entry_points()))
    return tuple(b for b in found if isinstance(b, BrokenPlugin))


_REGISTERED: dict[str, Any] = {}


def register_module(module: Any) -> None:
    """Make a rule module available by name in this process, without packaging it.

    A module written for a newer module API than this library's
    (``api_problem``) is refused with ``RulesConfigError``.

    For trying a module out (a notebook, a test, the docs' example). It is
    known only to this process: a state of a game that uses it cannot be
    unpickled in another process, and a record of it replays only where the
    module is registered or installed. Publish a module as a package with a
    ``powergrid.rules`` entry point to make it available everywhere. A name
    that a built-in or installed module already has is refused.
    """
    name = getattr(module, "name", None)
    if not isinstance(name, str) or not hasattr(module, "hooks"):
        raise TypeError(f"register_module takes a RuleModule, not {module!r}")
    if name in _builtin_extras() or name in _entry_points() or name in _CORE_MODULES | set(MAPS):
        raise RulesConfigError(f"a rule module called {name!r} exists already", field="modules")
    problem = api_problem(module)
    if problem is not None:
        raise RulesConfigError(problem, field="modules")
    _REGISTERED[name] = module
    extra_module.cache_clear()


def extra_module_names() -> tuple[str, ...]:
    """Every extra rule module a config may name (built in, installed, registered), sorted.

    Listing loads each installed entry point (once per process); one that fails
    to load is left out (:func:`broken_plugins`).
    """
    installed = set(_working_entry_points())
    return tuple(sorted(set(_builtin_extras()) | installed | set(_REGISTERED)))


def refresh() -> None:
    """Forget the installed modules found so far (after installing one at run time).

    The next listing loads the entry points again, and warns again about any
    that still fails.
    """
    _entry_points.cache_clear()
    _loaded.cache_clear()
    _installed_maps.cache_clear()
    load_map.cache_clear()
    extra_module.cache_clear()


@functools.cache
def extra_module(name: str) -> Any:
    """The ``RuleModule`` called ``name``, or ``RulesConfigError`` naming the choices.

    A built-in module is ``powergrid.rules.<name>.MODULE``; an installed one is
    what its ``powergrid.rules`` entry point loads. Either must be a rule module
    whose ``name`` is ``name``. An installed one that fails to load raises
    ``RulesConfigError`` naming its distribution and the error.
    """
    if name in _builtin_extras():
        module = importlib.import_module(f"powergrid.rules.{name}").MODULE
    elif name in _entry_points():
        module = _loaded(name)
        if isinstance(module, BrokenPlugin):
            raise RulesConfigError(module.describe(), field="modules")
    elif name in _REGISTERED:
        module = _REGISTERED[name]
    else:
        known = ", ".join(extra_module_names()) or "none are installed"
        raise RulesConfigError(
            f"unknown rule module {name!r}; known modules: {known}", field="modules"
        )
    if name in _installed_maps():
        raise RulesConfigError(
            f"{name!r} is a map: name it as GameConfig(map={name!r})", field="modules"
        )
    if getattr(module, "name", None) != name or not hasattr(module, "hooks"):
        raise RulesConfigError(
            f"entry point {name!r} of group {ENTRY_POINT_GROUP!r} must load a RuleModule "
            f"named {name!r}, not {module!r}",
            field="modules",
        )
    return module


def _known_modules(*, installed: bool, registered: bool = True) -> list[Any]:
    """The rule modules this process knows: built in (extras and maps), registered, installed.

    Installed ones (``installed``) are loaded only when asked for: loading an
    entry point imports its package and may warn about a broken one.
    """
    found = [extra_module(n) for n in _builtin_extras()]
    found += [map_rule_module(m) for m in MAPS]
    if registered:
        found += list(_REGISTERED.values())
    if installed:
        for name in _working_entry_points():
            module = _loaded(name)
            if getattr(module, "name", None) == name:
                found.append(module)
    return found


def known_module_actions(*, installed: bool = True, registered: bool = True) -> tuple[Any, ...]:
    """Every :class:`~powergrid.rules.ModuleAction` of the rule modules this process knows.

    Built-in modules first, then (with ``registered``) registered and (with
    ``installed``) installed ones; JSON documents, the notation and pickles find
    a module's actions here when no game says which modules are in play.
    """
    modules = _known_modules(installed=installed, registered=registered)
    return tuple(a for m in modules for a in getattr(m, "actions", ()))


def module_action_named(name: str) -> Any:
    """The module action whose class is called ``name``, or ``None`` (built-in modules first)."""
    return _find_action(lambda a: a.name == name)


def module_action_verb(verb: str) -> Any:
    """The module action whose notation verb is ``verb``, or ``None`` (built-in modules first)."""
    return _find_action(lambda a: a.verb == verb)


def _find_action(match: Callable[[Any], bool]) -> Any:
    for installed in (False, True):  # load installed packages only when needed
        for action in known_module_actions(installed=installed):
            if match(action):
                return action
    return None


def check_modules(players: int, components: str, modules: tuple[str, ...]) -> None:
    """Raise RulesConfigError unless every extra module can play this game.

    Each module's declared component sets, player counts and required modules
    (which must come earlier in the list) are checked; the error names the
    module and the rule it cites.
    """
    if len(set(modules)) != len(modules):
        raise RulesConfigError(f"a rule module is named twice in {modules}", field="modules")
    for i, name in enumerate(modules):
        module = extra_module(name)
        because = f" ({module.rule})" if module.rule else ""
        if module.components is not None and components not in module.components:
            allowed = " or ".join(sorted(module.components))
            raise RulesConfigError(
                f"rule module {name!r} plays with the {allowed} components, not "
                f"{components}{because}",
                field="modules",
            )
        if module.players is not None and players not in module.players:
            allowed = ", ".join(map(str, sorted(module.players)))
            raise RulesConfigError(
                f"rule module {name!r} is for {allowed} players, not {players}{because}",
                field="modules",
            )
        missing = [r for r in module.requires if r not in modules[:i]]
        if missing:
            raise RulesConfigError(
                f"rule module {name!r} needs {', '.join(map(repr, missing))} named before "
                f"it in modules{because}",
                field="modules",
            )


def check_module_configs(config: Any) -> None:
    """Raise RulesConfigError unless every extra module accepts the whole config.

    Each module's ``check_config(config)`` (if it has one) raises for what it
    cannot play; a config part that only a module reads (``deck``, ``cities``)
    is refused unless one of its modules declares that it reads it
    (``RuleModule.reads``).
    """
    modules = [extra_module(name) for name in config.modules]
    read = {part for m in modules for part in getattr(m, "reads", ())}
    for part in ("deck", "cities"):
        if getattr(config, part) is not None and part not in read:
            raise RulesConfigError(
                f"no rule module of this config plays a {part!r}; the customised deck "
                "does (modules=('custom_deck',), RULES.md section 10)",
                field=part,
            )
    for module in modules:
        check = getattr(module, "check_config", None)
        if check is not None:
            check(config)


@functools.cache
def _installed_maps() -> dict[str, Any]:
    # Loading an entry point imports its package, so this runs only when a map
    # outside the built-in ones is asked for, never at import of powergrid.
    found = {}
    for name in _working_entry_points():
        module = _loaded(name)
        data = getattr(module, "data", None)
        if isinstance(data, dict) and "board" in data and getattr(module, "name", None) == name:
            found[name] = module
    return found


def map_ids() -> tuple[str, ...]:
    """Every map a config may name: the built-in :data:`MAPS` and installed ones, sorted."""
    return tuple(sorted(set(MAPS) | set(_installed_maps())))


def map_rule_module(map_id: str) -> Any:
    """The rule module of a map: ``powergrid.rules.maps.<map_id>.MODULE`` or the installed one."""
    if map_id in MAPS:
        return importlib.import_module(f"powergrid.rules.maps.{map_id}").MODULE
    return _installed_maps()[map_id]


@functools.cache
def load_map(map_id: str) -> MapData:
    """Return the board ``map_id`` (``data/maps/<map_id>.json`` or an installed map's)."""
    raw = load(f"maps/{map_id}.json") if map_id in MAPS else _installed_maps()[map_id].data["board"]
    return board_from_data(map_id, raw)


def tables(components: str) -> dict[str, Any]:
    """The component set's part of ``data/tables.json`` (shared; do not mutate)."""
    return load("tables.json")[components]  # type: ignore[no-any-return]


def per_map_keys(table: Any) -> frozenset[str] | None:
    """The maps a table is printed for, or ``None`` when it is the same on every map.

    A per-map table is an object whose map entries are objects (other keys,
    such as a ``format`` note, are strings).
    """
    if not isinstance(table, dict):
        return None
    return frozenset(k for k, v in table.items() if isinstance(v, dict))


def component_maps(components: str) -> frozenset[str] | None:
    """The maps a component set has tables for, or ``None`` when it plays on any map.

    The Deluxe initial fill and refill cards are printed per map (SET-22,
    SET-27), so only maps with both can be played with them.
    """
    t = tables(components)
    refill = per_map_keys(t["refill_table"])
    fill = per_map_keys(t["resource_market"].get("initial_fill_by_map"))
    if refill is None:
        return fill
    return refill if fill is None else refill & fill


def map_components(map_id: str) -> frozenset[str] | None:
    """The component sets a built-in board is printed for, or ``None`` when any may use it.

    A board file names them in ``components``: the Recharged boards play only
    with the Recharged edition (RCH-55); an installed map names none.
    """
    if map_id not in MAPS:
        return None
    named = load(f"maps/{map_id}.json").get("components")
    return None if named is None else frozenset(named)


def default_modules(components: str, players: int) -> tuple[str, ...]:
    """The extra rule modules a config plays when it names none (SET-25).

    The Deluxe rules have no 2-player plant-limit exception because two
    players play against the fund (FND-01), so a 2-player Deluxe game plays
    ``("fund",)``; every other game plays none. The table is package data
    (``tables.json``, ``default_modules_by_players``).
    """
    table = tables(components).get("default_modules_by_players", {})
    return tuple(table.get(str(players), ()))


def regions_needed(components: str, players: int) -> int:
    """How many regions the play area has, from the component set's player-count table.

    SET-12 (classic) and SET-23 (Deluxe) give the same counts today; each set's
    own table is read so neither silently borrows the other's.
    """
    rows = {row["players"]: row for row in tables(components)["setup_by_players"]}
    return int(rows[players]["regions"])
