"""Map graphs, play areas and connection costs (BLD-04, BLD-07, SET-04).

Maps are data (``data/maps/*.json``, read by :mod:`powergrid.catalog`). A
:class:`PlayArea` is a map restricted to the chosen regions; its all-pairs
cheapest connection costs are computed once per (map, regions) and cached, so
building never searches a graph per action.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections.abc import Iterable

import attrs

from powergrid.catalog import MapData, load_map

INF = 10**9


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


@functools.lru_cache(maxsize=256)  # bounded: a city set (CDK-16) may be any subset
def play_area(
    map_id: str, regions: tuple[str, ...], cities: tuple[str, ...] | None = None
) -> PlayArea:
    """The play area of ``regions`` on ``map_id``, with cached all-pairs costs.

    With ``cities`` the area is exactly those cities (CDK-16: every other city
    and its connections are ignored); ``regions`` then lists the regions they
    lie in.
    """
    board = load_map(map_id)
    chosen = set(regions)
    n = len(board.cities)
    if cities is None:
        in_area = tuple(board.city_region[i] in chosen for i in range(n))
    else:
        picked = {board.index[c] for c in cities}
        in_area = tuple(i in picked for i in range(n))
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
def network_costs(area: PlayArea, cities: tuple[str, ...]) -> tuple[int, ...]:
    """Cheapest connection cost from a network (its cities, in build order) to every city.

    An empty network costs 0 everywhere: a first city pays no connection (BLD-03).
    A network grows one city at a time, so its costs are those of the network
    before the last city, lowered by that city's own row: one pass per house
    rather than one per city of the network.
    """
    if not cities:
        return (0,) * len(area.in_area)
    row = area.cost[area.board.index[cities[-1]]]
    if len(cities) == 1:
        return row
    return tuple(map(min, network_costs(area, cities[:-1]), row))


def cities_connected(board: MapData, cities: Iterable[str]) -> bool:
    """Whether ``cities`` form one connected set over the board's connections (CDK-16)."""
    chosen = {board.index[c] for c in cities}
    if not chosen:
        return False
    near: dict[int, set[int]] = {i: set() for i in chosen}
    for a, b, _ in board.edges:
        if a in chosen and b in chosen:
            near[a].add(b)
            near[b].add(a)
    start = next(iter(chosen))
    seen, todo = {start}, [start]
    while todo:
        for nb in near[todo.pop()]:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == chosen
