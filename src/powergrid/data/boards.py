"""A board read from its data: cities, regions, connections, drawing positions, metropoles.

The format is that of ``data/maps/<id>.json``, which an installed map also uses
for its ``data["board"]`` (:func:`powergrid.catalog.load_map` finds either and
caches the result). A malformed position or metropole raises
:class:`~powergrid.RulesConfigError` naming the map.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import attrs

from powergrid.errors import RulesConfigError


@attrs.frozen(eq=False)
class MapData:
    """A whole board: cities, regions and connections, as read from package data.

    ``positions`` gives each city's drawing position ``(x, y)`` (in the order of
    ``cities``; y grows downwards, as in SVG), or ``None`` when the board ships
    none. These are drawing coordinates, not a rule fact: no rule reads them,
    and a board without them plays the same (:mod:`powergrid.svg` computes a
    layout for it). ``metropoles`` lists the city indices of each metropole
    (North America's New York and Mexico City: two cities joined by a
    0-cost connection), empty on a board without.
    """

    id: str
    name: str
    cities: tuple[str, ...]
    city_names: tuple[str, ...]
    city_region: tuple[str, ...]
    regions: tuple[str, ...]
    edges: tuple[tuple[int, int, int], ...]
    region_neighbours: dict[str, frozenset[str]]
    index: dict[str, int]
    positions: tuple[tuple[float, float], ...] | None = None
    metropoles: tuple[tuple[int, ...], ...] = ()

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


def board_from_data(map_id: str, raw: Any) -> MapData:
    """The :class:`MapData` of a board document (the format of ``data/maps``)."""
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
        positions=_positions(map_id, raw["cities"]),
        metropoles=_metropoles(map_id, raw.get("metropoles", ()), index),
    )


def _metropoles(map_id: str, raw: Any, index: dict[str, int]) -> tuple[tuple[int, ...], ...]:
    """Each metropole's city indices; a city the board lacks raises ``RulesConfigError``."""
    out = []
    for group in raw:
        unknown = [c for c in group if c not in index]
        if unknown or isinstance(group, str):
            raise RulesConfigError(
                f"map {map_id!r}: metropole {group!r} names no list of the board's cities",
                field="map",
            )
        out.append(tuple(index[c] for c in group))
    return tuple(out)


def _positions(map_id: str, cities: list[dict[str, Any]]) -> tuple[tuple[float, float], ...] | None:
    """Each city's ``pos`` as ``(x, y)``, or ``None`` when no city of the board has one.

    A board gives a position to every city or to none; a position is two
    finite numbers. Anything else raises ``RulesConfigError`` (field ``map``).
    """
    given = [c.get("pos") for c in cities]
    if all(p is None for p in given):
        return None
    out = []
    for city, pos in zip(cities, given, strict=True):
        ok = isinstance(pos, list | tuple) and len(pos) == 2
        ok = ok and all(_finite(v) for v in pos)  # type: ignore[union-attr]
        if not ok:
            raise RulesConfigError(
                f"map {map_id!r}: city {city.get('id')!r} has pos {pos!r}; a drawing "
                "position is two numbers [x, y], given for every city or for none",
                field="map",
            )
        out.append((float(pos[0]), float(pos[1])))  # type: ignore[index]
    return tuple(out)


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
