"""Power plants: the printed cards as data (RES-03, RES-04)."""

from __future__ import annotations

import attrs

from powergrid.enums import Resource


@attrs.frozen
class Plant:
    """One power-plant card.

    ``number`` is its minimum bid and sort key (CON-08). It burns ``burn``
    resources of the kinds in ``accepts`` per run (any mix for a hybrid) and
    supplies ``cities`` cities. It stores at most ``capacity`` = 2 x ``burn``
    tokens (RES-03); eco and fusion plants burn and store nothing.
    """

    number: int
    kind: str
    accepts: frozenset[Resource]
    burn: int
    cities: int

    @property
    def capacity(self) -> int:
        """The most tokens the plant may hold, twice its burn (RES-03)."""
        return 2 * self.burn

    @property
    def is_hybrid(self) -> bool:
        """Whether the plant burns a mix of two kinds (RES-04)."""
        return len(self.accepts) > 1

    def __str__(self) -> str:
        fuel = "/".join(sorted(self.accepts)) if self.accepts else self.kind
        return f"{self.number:02d} ({self.burn} {fuel} -> {self.cities})"


def plants_from_json(rows: list[dict[str, object]]) -> dict[int, Plant]:
    """Build the plant catalogue of a deck from its reference rows."""
    out: dict[int, Plant] = {}
    for row in rows:
        number = int(row["number"])  # type: ignore[call-overload]
        out[number] = Plant(
            number=number,
            kind=str(row["kind"]),
            accepts=frozenset(Resource(r) for r in row["accepts"]),  # type: ignore[attr-defined]
            burn=int(row["resources_per_run"]),  # type: ignore[call-overload]
            cities=int(row["cities_powered"]),  # type: ignore[call-overload]
        )
    return out
