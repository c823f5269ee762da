"""The component tables of a game: the printed numbers a rule module may change.

:class:`ComponentTables` holds every table the engine reads while a game is
played: the resource market's price track, its tokens and refill rows, the
income table, the house costs, the starting money, and the player-count row
(:class:`PlayerCountRow`: Step 2 and game-end thresholds, plant limit,
removals). The component set prints them (``powergrid.rules.classic``,
``powergrid.rules.deluxe``, ``data/tables.json``); a rule module changes them
through the ``component_tables`` composition hook (:mod:`powergrid.rules.hooks`),
which receives the config and the tables in force and returns changed ones
with ``attrs.evolve``. The composed tables are ``state.rules.tables``
(:class:`powergrid.rules.ruleset.Ruleset`); every reader uses them.

Per-kind tables are tuples in the order of the game's resource kinds
(``state.rules.resources``). Every field's metadata holds its meaning and rule
IDs, from which the module authors' guide's table is generated
(:func:`table_markdown`), as the hook table is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

import attrs

from powergrid.enums import Resource
from powergrid.errors import RulesConfigError

__all__ = [
    "ROW_KEYS",
    "ComponentTables",
    "PlayerCountRow",
    "checked_tables",
    "row_from_mapping",
    "row_keys_markdown",
    "table_markdown",
]


def _doc(meaning: str, rules: tuple[str, ...]) -> dict[str, object]:
    """The metadata of one documented field: what it means and the rule IDs it serves."""
    return {"meaning": meaning, "rules": rules}


@attrs.frozen
class PlayerCountRow:
    """The component set's row for the game's player count (SET-12, SET-23, CDK-15).

    The values are those in force: the seed's simplified thresholds option
    (``seed_thresholds``) is already applied to ``step2_cities`` and
    ``max_plants``. ``regions`` is read when the play area is chosen, before
    the rules are composed, so a module cannot change it (the composition
    refuses a changed one).
    """

    players: int = attrs.field(metadata=_doc("the player count the row is for", ("SET-01",)))
    regions: int = attrs.field(
        metadata=_doc(
            "regions in the play area; read before composition, so a module may not change it",
            ("SET-04", "SET-12", "SET-23"),
        )
    )
    plants_removed: int | Mapping[str, int] = attrs.field(
        metadata=_doc(
            "plants removed at setup (classic: a number, removed unseen; Deluxe: "
            "`{'dark': n, 'light': m}`); a module may remove them later instead (CDK-07)",
            ("SET-11", "SET-12", "SET-21", "SET-23", "CDK-07"),
        )
    )
    step2_cities: int = attrs.field(
        metadata=_doc(
            "the city count at which Step 2 begins (with `seed_thresholds`, the seed's value)",
            ("SET-12", "SET-23", "STP-01", "CDK-15"),
        )
    )
    game_end_cities: int = attrs.field(
        metadata=_doc(
            "the city count that triggers the game end", ("SET-12", "SET-23", "END-01", "CDK-15")
        )
    )
    max_plants: int = attrs.field(
        metadata=_doc(
            "the plant limit: the most plants a player may keep (with `seed_thresholds`, "
            "the seed's value)",
            ("AUC-16", "SET-12", "SET-25"),
        )
    )
    cities_used: int | None = attrs.field(
        default=None,
        metadata=_doc(
            "a customised deck's Variant P: cities in play (None: the play area decides)",
            ("CDK-15",),
        ),
    )


@attrs.frozen(eq=False)
class ComponentTables:
    """The component tables in force in a game (``state.rules.tables``).

    Built from the component set for the config's map and player count, then
    passed through the ``component_tables`` composition hook. Per-kind tables
    follow ``state.rules.resources``. It hashes by identity (the engine keys
    its lookup tables on it); compare two by their fields.
    """

    resources: tuple[Resource, ...] = attrs.field(
        metadata=_doc(
            "the resource kinds, in the order of every per-kind table (the component "
            "set's; a module may not change them)",
            ("CON-01", "SET-08"),
        )
    )
    slot_prices: tuple[tuple[int, ...], ...] = attrs.field(
        metadata=_doc(
            "per kind, the price of every token space of its market track, cheapest first "
            "(the track fills from its dearest space down); its length is the track's room",
            ("SET-07", "SET-27", "RES-06"),
        )
    )
    totals: tuple[int, ...] = attrs.field(
        metadata=_doc(
            "per kind, the tokens in the game (market, general supply and plants together)",
            ("SET-08", "CON-10"),
        )
    )
    initial_market: tuple[int, ...] = attrs.field(
        metadata=_doc(
            "per kind, the tokens on the market at setup, on its dearest spaces; the rest "
            "start in the general supply",
            ("SET-10", "SET-22"),
        )
    )
    refill: tuple[tuple[int, int, int], ...] = attrs.field(
        metadata=_doc(
            "per kind, the tokens phase 5 moves from the supply to the market in Steps 1, 2 "
            "and 3 (capped by the supply and the track's room)",
            ("BUR-05", "BUR-06", "SET-22"),
        )
    )
    income: tuple[int, ...] = attrs.field(
        metadata=_doc(
            "Elektro paid by cities powered (index 0, 1, ...); more cities than the table "
            "has pay its last entry",
            ("BUR-03", "BUR-04"),
        )
    )
    house_costs: tuple[int, int, int] = attrs.field(
        metadata=_doc(
            "the cost of a city's first, second and third house (slot n opens in Step n), "
            "before connection costs",
            ("BLD-04", "BLD-05", "STP-11"),
        )
    )
    starting_money: int = attrs.field(
        metadata=_doc("the Elektro each player starts with", ("SET-02",))
    )
    row: PlayerCountRow = attrs.field(
        metadata=_doc(
            "the player-count row in force (a `PlayerCountRow`, below)",
            ("SET-12", "SET-23", "CDK-15"),
        )
    )
    supply_prices: tuple[int | None, ...] = attrs.field(
        default=attrs.Factory(lambda self: (None,) * len(self.resources), takes_self=True),
        metadata=_doc(
            "per kind, the price of a token bought from the general supply once the market "
            "holds none of the kind, or None: never (RES-07; the Recharged USA coal "
            "storage at 8, RCH-43)",
            ("RES-07", "RCH-43"),
        ),
    )


#: The keys a ``setup_row`` hook's row may hold (module API 1), with their meaning.
ROW_KEYS: Mapping[str, str] = {
    "players": "the player count the row is for (SET-01)",
    "regions": "regions in the play area; read before composition (SET-04, SET-12, SET-23)",
    "plants_removed": "plants removed at setup: a number (classic) or "
    "`{'dark': n, 'light': m}` (Deluxe) (SET-12, SET-23, CDK-07)",
    "step2_cities": "the city count at which Step 2 begins (SET-12, SET-23, STP-01)",
    "step2_cities_seed": "Step 2 under the `seed_thresholds` option; absent: `step2_cities` "
    "(SET-12)",
    "game_end_cities": "the city count that triggers the game end (SET-12, SET-23, END-01)",
    "max_plants": "the plant limit; absent: the component set's (3) (AUC-16, SET-12, SET-25)",
    "max_plants_seed": "the plant limit under the `seed_thresholds` option; absent: "
    "`max_plants` (SET-12)",
    "cities_used": "a customised deck's Variant P: cities in play (CDK-15)",
    "step2_cities_verified": "a data note: whether the printed Step 2 value is confirmed "
    "(Deluxe, 2 players, SET-23); not read",
    "step2_cities_note": "a data note explaining `step2_cities`; not read",
}


def row_from_mapping(
    row: Mapping[str, Any], *, default_max_plants: int, seed_values: bool
) -> PlayerCountRow:
    """The typed row of a ``setup_row`` mapping (:data:`ROW_KEYS`), seed option applied.

    A missing required key raises :class:`~powergrid.RulesConfigError` naming it;
    keys it does not know (notes, ``step2_cities_verified``) are ignored.
    """
    missing = [k for k in ("players", "regions", "step2_cities", "game_end_cities") if k not in row]
    if missing:
        raise RulesConfigError(
            f"the player-count row lacks {', '.join(missing)} (setup_row hook)", field="modules"
        )
    step2 = row["step2_cities"]
    max_plants = row.get("max_plants", default_max_plants)
    if seed_values:
        step2 = row.get("step2_cities_seed", step2)
        max_plants = row.get("max_plants_seed", max_plants)
    removed = row.get("plants_removed", 0)
    cities_used = row.get("cities_used")
    return PlayerCountRow(
        players=int(row["players"]),
        regions=int(row["regions"]),
        plants_removed=dict(removed) if isinstance(removed, Mapping) else int(removed),
        step2_cities=int(step2),
        game_end_cities=int(row["game_end_cities"]),
        max_plants=int(max_plants),
        cities_used=None if cities_used is None else int(cities_used),
    )


def checked_tables(tables: object, before: ComponentTables, module: str) -> ComponentTables:
    """``tables`` when it is a consistent :class:`ComponentTables` like ``before``.

    ``before`` is what the hook received; ``module`` names the hook's owner for
    the message. Shapes must match (one track, total, fill and refill row per
    kind, three house costs), numbers be whole and not negative, the initial
    market fit its track and the totals, and the regions stay unchanged;
    otherwise :class:`~powergrid.RulesConfigError` (``field`` ``"modules"``)
    names the table.
    """
    if not isinstance(tables, ComponentTables):
        _refuse(module, "component_tables", f"returned {type(tables).__name__}, not tables")
    if tables.resources != before.resources:
        _refuse(module, "resources", "may not change the resource kinds")
    kinds = len(before.resources)
    for name in ("slot_prices", "totals", "initial_market", "refill", "supply_prices"):
        if len(getattr(tables, name)) != kinds:
            _refuse(module, name, f"needs one entry per resource kind ({kinds})")
    for track in tables.slot_prices:
        if not track or not _whole(track):
            _refuse(module, "slot_prices", "needs non-negative whole prices on every track")
    if any(len(r) != 3 or not _whole(r) for r in tables.refill):
        _refuse(module, "refill", "needs three non-negative whole numbers per kind")
    fills = zip(tables.initial_market, tables.totals, tables.slot_prices, strict=True)
    for on, total, track in fills:
        if not _whole((on, total)) or on > min(total, len(track)):
            _refuse(module, "initial_market", "must fit the track and the totals")
    if not _whole(tuple(p for p in tables.supply_prices if p is not None)):
        _refuse(module, "supply_prices", "needs a non-negative whole price or None per kind")
    if len(tables.house_costs) != 3 or not _whole(tables.house_costs):
        _refuse(module, "house_costs", "needs three non-negative whole costs")
    if not tables.income or not _whole(tables.income):
        _refuse(module, "income", "needs non-negative whole amounts")
    if not _whole((tables.starting_money,)):
        _refuse(module, "starting_money", "must be a non-negative whole number")
    row = tables.row
    if row.regions != before.row.regions or row.players != before.row.players:
        _refuse(module, "row", "may not change the player count or the regions")
    if min(row.step2_cities, row.game_end_cities, row.max_plants) < 1:
        _refuse(module, "row", "needs thresholds and a plant limit of at least 1")
    return tables


def _whole(values: tuple[object, ...]) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)


def _refuse(module: str, name: str, why: str) -> NoReturn:
    raise RulesConfigError(
        f"rule module {module!r}: component table {name!r} {why}", field="modules"
    )


def _rows(record: type[Any], prefix: str) -> list[str]:
    return [
        f"| `{prefix}{f.name}` | {f.metadata['meaning']} | {', '.join(f.metadata['rules'])} |"
        for f in attrs.fields(record)
    ]


def table_markdown() -> str:
    """The component tables as a Markdown table (the module authors' guide includes it)."""
    lines = ["| table | meaning | rules |", "|---|---|---|"]
    lines += _rows(ComponentTables, "")
    lines += _rows(PlayerCountRow, "row.")
    return "\n".join(lines) + "\n"


def row_keys_markdown() -> str:
    """The keys of a ``setup_row`` hook's row (:data:`ROW_KEYS`) as a Markdown table."""
    lines = ["| key | meaning |", "|---|---|"]
    lines += [f"| `{key}` | {meaning} |" for key, meaning in ROW_KEYS.items()]
    return "\n".join(lines) + "\n"
