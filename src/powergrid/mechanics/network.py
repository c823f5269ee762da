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
import operator
from collections.abc import Iterable

import attrs

from powergrid.catalog import load_map
from powergrid.data.boards import MapData
from powergrid.errors import Reason, illegal

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

    def city_index(self, city: object, action: object, outside: str) -> int:
        """The index of a city of the play area named by an action; IllegalAction otherwise.

        An unknown id raises ``Reason.UNKNOWN_CITY``; a city outside the area raises
        ``Reason.OUTSIDE_PLAY_AREA`` with "<City> lies outside the play area" and then
        ``outside``, the caller's words and rule (" (SET-04, BLD-07)").
        """
        i = self.board.index.get(city) if isinstance(city, str) else None
        if i is None:
            illegal(f"There is no city {city!r} on {self.board.name}", Reason.UNKNOWN_CITY, action)
        if not self.in_area[i]:
            name = self.board.city_names[i]
            illegal(f"{name} lies outside the play area{outside}", Reason.OUTSIDE_PLAY_AREA, action)
        return i


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
    return PlayArea(
        board=board,
        regions=tuple(sorted(regions)),
        in_area=in_area,
        cities=tuple(i for i in range(n) if in_area[i]),
        cost=_all_pairs(board, in_area),
    )


def _all_pairs(board: MapData, in_area: tuple[bool, ...]) -> tuple[tuple[int, ...], ...]:
    """Cheapest costs between the cities of the area, one row per city index of the board.

    Worked on the area's cities alone (renumbered), then spread to board
    indices; paid once per region set (22 of them for four regions of Europe).
    """
    n = len(in_area)
    cities = [i for i in range(n) if in_area[i]]
    local = {c: k for k, c in enumerate(cities)}
    near: list[list[tuple[int, int]]] = [[] for _ in cities]
    for a, b, c in board.edges:
        if in_area[a] and in_area[b] and a != b:  # a loop never shortens a route
            near[local[a]].append((local[b], c))
            near[local[b]].append((local[a], c))
    rows = _local_rows([tuple(x) for x in near])
    # Each local row gets an INF sentinel last, where every outside city points.
    where = [local.get(i, len(cities)) for i in range(n)]
    spread = operator.itemgetter(*where) if n > 1 else lambda row: (row[where[0]],)
    out = [(INF,) * n] * n
    for k, src in enumerate(cities):
        rows[k].append(INF)
        out[src] = spread(rows[k])
    return tuple(out)


def _local_rows(adj: list[tuple[tuple[int, int], ...]]) -> list[list[int]]:
    """All-pairs cheapest costs over the adjacency lists ``adj``.

    Dijkstra runs from the cities outside an independent set; a city of the set
    has every neighbour solved already, so its row is the elementwise minimum of
    its neighbours' rows plus the connection (Bellman's equation): a few list
    passes instead of a search, a fifth less work in all.
    """
    rows: list[list[int]] = [[] for _ in adj]
    derived = _independent(adj)
    for src in range(len(adj)):
        if src not in derived:
            rows[src] = _dijkstra(adj, src)
    for src in derived:
        (v, c), *rest = adj[src]
        best = [c + x for x in rows[v]]
        for v, c in rest:
            best = [x if x <= y + c else y + c for x, y in zip(best, rows[v], strict=True)]
        best = [x if x < INF else INF for x in best]  # no INF + a connection
        best[src] = 0
        rows[src] = best
    return rows


def _independent(adj: list[tuple[tuple[int, int], ...]]) -> set[int]:
    """A maximal set of cities no two of which are connected, fewest connections first.

    Cities without a connection stay out: their row needs no neighbour.
    """
    chosen: set[int] = set()
    blocked: set[int] = set()
    for k in sorted(range(len(adj)), key=lambda k: len(adj[k])):
        if adj[k] and k not in blocked:
            chosen.add(k)
            blocked.add(k)
            blocked.update(v for v, _ in adj[k])
    return chosen


def _dijkstra(adj: list[tuple[tuple[int, int], ...]], src: int) -> list[int]:
    """Cheapest costs from ``src`` to every city of ``adj`` (``INF``: unreachable).

    The heap holds ``cost << shift | city`` as one int: comparing ints is much
    cheaper than comparing ``(cost, city)`` tuples, and the order is the same.
    """
    shift = len(adj).bit_length()
    mask = (1 << shift) - 1
    dist = [INF] * len(adj)
    dist[src] = 0
    heap = [src]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        key = pop(heap)
        d, u = key >> shift, key & mask
        if d > dist[u]:
            continue
        for v, c in adj[u]:
            nd = d + c
            if nd < dist[v]:
                dist[v] = nd
                push(heap, nd << shift | v)
    return dist


@functools.lru_cache(maxsize=512)  # a game's networks: other games' rarely recur
def network_costs(area: PlayArea, cities: tuple[str, ...]) -> tuple[int, ...]:
    """Cheapest connection cost from a network (its cities, in build order) to every city.

    An empty network costs 0 everywhere: a first city pays no connection (BLD-03).
    A network grows one city at a time, so its costs are those of the network
    before the last city, lowered by that city's own row: one pass per house
    rather than one per city of the network. The pass is a comprehension, not
    ``map(min, ...)``: calling the builtin ``min`` per city costs three times more.
    """
    if not cities:
        return (0,) * len(area.in_area)
    row = area.cost[area.board.index[cities[-1]]]
    if len(cities) == 1:
        return row
    before = network_costs(area, cities[:-1])
    return tuple([a if a <= b else b for a, b in zip(before, row, strict=True)])


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
