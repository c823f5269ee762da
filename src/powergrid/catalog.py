"""What this installation can play: boards and component sets, read from package data.

This is the layer a :class:`~powergrid.GameConfig` checks itself against. It
reads JSON only and imports nothing of the engine, the rule modules or the
config, so validating a config never reaches into the code that plays it (the
package's import graph has no cycles; ``tests/test_imports.py`` checks it).

- :data:`MAPS`: the boards that have both a board file (``data/maps/<id>.json``)
  and a rule module (``rules/<id>.py``); adding a map is one of each.
- :data:`COMPONENT_SETS`: ``classic`` and ``deluxe``.
- :func:`load_map`: a board's cities, regions and connections (:class:`MapData`).
- :func:`component_maps` and :func:`regions_needed`: the facts of a component
  set's tables that decide whether a game can be set up at all.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib import resources
from typing import Any

import attrs

from powergrid.data import load


def _discover_maps() -> tuple[str, ...]:
    """Maps that have both a board file and a rule module, sorted by id."""
    root = resources.files("powergrid")
    boards = {
        p.name[:-5] for p in root.joinpath("data", "maps").iterdir() if p.name.endswith(".json")
    }
    modules = {p.name[:-3] for p in root.joinpath("rules").iterdir() if p.name.endswith(".py")}
    return tuple(sorted(boards & modules))


#: The maps this installation can play (discovered from package data, see above).
MAPS = _discover_maps()
#: The component sets, each with its own deck, resources and tables (CON-01).
COMPONENT_SETS = ("classic", "deluxe")


@attrs.frozen(eq=False)
class MapData:
    """A whole board: cities, regions and connections, as read from package data."""

    id: str
    name: str
    cities: tuple[str, ...]
    city_names: tuple[str, ...]
    city_region: tuple[str, ...]
    regions: tuple[str, ...]
    edges: tuple[tuple[int, int, int], ...]
    region_neighbours: dict[str, frozenset[str]]
    index: dict[str, int]

    def regions_connected(self, regions: Iterable[str]) -> bool:
        """Whether the given regions form one connected group (SET-04)."""
        chosen = set(regions)
        if not chosen:
            return False
        start = next(iter(chosen))
        seen = {start}
        todo = [start]
        while todo:
            for nb in self.region_neighbours[todo.pop()]:
                if nb in chosen and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return seen == chosen


@functools.cache
def load_map(map_id: str) -> MapData:
    """Return the board ``map_id`` (``data/maps/<map_id>.json``), cached per map."""
    raw = load(f"maps/{map_id}.json")
    cities = tuple(c["id"] for c in raw["cities"])
    index = {c: i for i, c in enumerate(cities)}
    regions = tuple(r["id"] for r in raw["regions"])
    edges = tuple((index[e["a"]], index[e["b"]], int(e["cost"])) for e in raw["connections"])
    city_region = tuple(c["region"] for c in raw["cities"])
    neighbours: dict[str, set[str]] = {r: set() for r in regions}
    for a, b, _ in edges:
        ra, rb = city_region[a], city_region[b]
        if ra != rb:
            neighbours[ra].add(rb)
            neighbours[rb].add(ra)
    return MapData(
        id=map_id,
        name=raw["name"],
        cities=cities,
        city_names=tuple(c["name"] for c in raw["cities"]),
        city_region=city_region,
        regions=regions,
        edges=edges,
        region_neighbours={r: frozenset(n) for r, n in neighbours.items()},
        index=index,
    )


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


def regions_needed(components: str, players: int) -> int:
    """How many regions the play area has, from the component set's player-count table.

    SET-12 (classic) and SET-23 (Deluxe) give the same counts today; each set's
    own table is read so neither silently borrows the other's.
    """
    rows = {row["players"]: row for row in tables(components)["setup_by_players"]}
    return int(rows[players]["regions"])
