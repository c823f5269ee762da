"""Map graphs, play areas and connection costs (BLD-04, BLD-07, SET-04).

Maps are data (``data/maps/*.json``). A :class:`PlayArea` is a map restricted to
the chosen regions; its all-pairs cheapest connection costs are computed once per
(map, regions) and cached, so building never searches a graph per action.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections.abc import Iterable, Sequence

import attrs

from powergrid.config import GameConfig
from powergrid.data import load
from powergrid.errors import RulesConfigError

INF = 10**9


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
    """Return the board ``map_id`` (``data/maps/<map_id>.json``), cached."""
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


def regions_needed(config: GameConfig) -> int:
    """How many regions the play area has, from the component set's player-count table.

    SET-12 (classic) and SET-23 (Deluxe) give the same counts today; each set's
    own table is read so neither silently borrows the other's.
    """
    from powergrid.rules import components_for  # rules imports this module

    return int(components_for(config.components).setup_rows[config.players]["regions"])


@functools.cache
def connected_region_sets(map_id: str, size: int) -> tuple[tuple[str, ...], ...]:
    """Every connected set of ``size`` regions of the map, each sorted, in sorted order."""
    board = load_map(map_id)
    found = [
        combo
        for combo in itertools.combinations(sorted(board.regions), size)
        if board.regions_connected(combo)
    ]
    return tuple(found)


def validate_regions(config: GameConfig, regions: Sequence[str]) -> None:
    """Raise RulesConfigError unless ``regions`` is a valid play area (SET-04)."""
    board = load_map(config.map)
    players = config.players
    valid = ", ".join(board.regions)
    need = regions_needed(config)
    unknown = [r for r in regions if r not in board.regions]
    if unknown:
        raise RulesConfigError(
            f"unknown region(s) {', '.join(map(repr, unknown))} on {board.name}; "
            f"valid regions: {valid}",
            field="regions",
        )
    if len(set(regions)) != len(regions):
        raise RulesConfigError(
            f"a region is named twice in {', '.join(regions)}; valid regions: {valid}",
            field="regions",
        )
    if len(regions) != need:
        raise RulesConfigError(
            f"{players} players play in {need} regions, not {len(regions)} (SET-12); "
            f"valid regions: {valid}",
            field="regions",
        )
    if not board.regions_connected(regions):
        raise RulesConfigError(
            f"regions {', '.join(regions)} are not connected to each other (SET-04); "
            f"valid regions: {valid}",
            field="regions",
        )


@attrs.frozen(eq=False)
class PlayArea:
    """A board restricted to its chosen regions, with cheapest connection costs.

    ``cost[a][b]`` is the cheapest total connection cost between city indices
    ``a`` and ``b`` using only cities and connections inside the play area
    (BLD-07); ``INF`` when unreachable or either city lies outside.
    """

    board: MapData
    regions: tuple[str, ...]
    in_area: tuple[bool, ...]
    cities: tuple[int, ...]
    cost: tuple[tuple[int, ...], ...]

    def contains(self, city: str) -> bool:
        """Whether the city id exists and lies inside the play area."""
        i = self.board.index.get(city)
        return i is not None and self.in_area[i]


@functools.cache
def play_area(map_id: str, regions: tuple[str, ...]) -> PlayArea:
    """The play area of ``regions`` on ``map_id``, with cached all-pairs costs."""
    board = load_map(map_id)
    chosen = set(regions)
    n = len(board.cities)
    in_area = tuple(board.city_region[i] in chosen for i in range(n))
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for a, b, c in board.edges:
        if in_area[a] and in_area[b]:
            adj[a].append((b, c))
            adj[b].append((a, c))
    rows = []
    for src in range(n):
        rows.append(tuple(_dijkstra(adj, src, n)) if in_area[src] else (INF,) * n)
    return PlayArea(
        board=board,
        regions=tuple(sorted(regions)),
        in_area=in_area,
        cities=tuple(i for i in range(n) if in_area[i]),
        cost=tuple(rows),
    )


def _dijkstra(adj: list[list[tuple[int, int]]], src: int, n: int) -> list[int]:
    dist = [INF] * n
    dist[src] = 0
    heap = [(0, src)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, c in adj[u]:
            nd = d + c
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


@functools.lru_cache(maxsize=8192)
def network_costs(area: PlayArea, owned: frozenset[int]) -> tuple[int, ...]:
    """Cheapest connection cost from a network (city indices) to every city.

    An empty network costs 0 everywhere: a first city pays no connection (BLD-03).
    """
    if not owned:
        return (0,) * len(area.in_area)
    rows = [area.cost[i] for i in owned]
    return tuple(map(min, *rows)) if len(rows) > 1 else rows[0]
