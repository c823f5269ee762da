"""What an export's setup was: its edition, and for Recharged the random starting market.

The boardgamers.space engine plays two variants, ``original`` and
``recharged`` (:data:`~powergrid.interop.boardgamers.EDITIONS`). Its export
holds the game's state at the end and the log, not the setup, so the importer
reads the setup back:

- the play area is the regions of the export's map (SET-04), and the round-1
  order is seat order (that engine's ``playerOrder`` starts as 0, 1, ...);
- the original game starts with the market 3-10 and plant 13 face up (SET-11);
- Recharged deals a random market of 8 plug plants (RCH-20).
  :func:`initial_market` finds it: a plant whose first appearance in the log
  is not a draw from the deck was in the starting market (every plant that
  leaves the market is named by a move or an event, and the ones still there
  are in the export's final market).

That engine's Recharged setup differs from RCH-20 where the importer cannot
follow it, and those exports are refused (:func:`check_setup`): 2 players
(played without the Trust, with the original game's 10 / 21 / 4 values,
OQ-R03, and 2 plug and 6 socket plants removed as for 3 players, where our
2-player Recharged is the Trust game with 1 and 5 removed, RCH-84, RCH-20), and 5 or 6
players without the option ``useNewRechargedSetup`` (that engine then leaves
the 4 plug plants not dealt out of the deck, where RCH-20 removes none).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from powergrid.catalog import load_map
from powergrid.errors import InvalidRecord
from powergrid.interop.boardgamers.log import field
from powergrid.outside_text import shown


@attrs.frozen
class Edition:
    """One variant of theirs the importer plays, and what it is called here.

    ``variant`` is their name (``options.variant``); ``components`` our
    component set; ``maps`` their board names -> our map ids; ``players`` the
    player counts that import.
    """

    variant: str
    components: str
    maps: Mapping[str, str]
    players: tuple[int, ...]


#: The editions the importer plays, by their variant name.
EDITIONS: Mapping[str, Edition] = {
    "original": Edition(
        variant="original",
        components="classic",
        maps={"USA": "usa", "Germany": "germany"},
        players=(2, 3, 4, 5, 6),
    ),
    "recharged": Edition(
        variant="recharged",
        components="recharged",
        maps={"USA": "usa_recharged", "Germany": "germany_recharged"},
        players=(3, 4, 5, 6),
    ),
}

#: Their spellings of city names that differ from the boards' (MAPS_SOURCES.md).
CITY_SPELLINGS = {"knoxvile": "knoxville", "jacksonvile": "jacksonville"}

#: The size of a Recharged starting market, and its plug plants (RCH-03, RCH-20).
MARKET_SIZE = 8
PLUG_PLANTS = range(3, 16)
#: Their ``PowerPlantType`` of the Step 3 card.
_STEP3_TYPE = 7


def edition_of(export: Mapping[str, Any]) -> Edition:
    """The export's :class:`~powergrid.interop.boardgamers.Edition` (``options.variant``).

    Without ``options.variant`` the top-level ``variant`` counts. A variant the
    importer does not play raises :class:`~powergrid.InvalidRecord`.
    """
    options = export.get("options")
    variant = options.get("variant") if isinstance(options, dict) else None
    variant = export.get("variant") if variant is None else variant
    if not isinstance(variant, str) or variant not in EDITIONS:
        raise InvalidRecord(
            f"variant {shown(variant)} is not one this library imports "
            f"(it imports {', '.join(EDITIONS)})",
            path="options.variant",
        )
    return EDITIONS[variant]


def check_setup(export: Mapping[str, Any], edition: Edition, players: int) -> None:
    """Refuse an export whose setup our rules cannot replay (see the module docstring)."""
    if players not in edition.players:
        why = (
            "boardgamers.space plays it without the Trust, with the original game's "
            "Step 2, game end and plant limit and the 3-player removals (2 plug, 6 socket), "
            "where this library's 2-player Recharged is the game against the Trust "
            "(RCH-84, OQ-R03, RCH-20: 1 plug, 5 socket)"
            if edition.variant == "recharged"
            else f"{edition.variant} is played by 2 to 6 players"
        )
        raise InvalidRecord(
            f"a {players}-player {edition.variant} game does not import: {why}", path="players"
        )
    options = export.get("options")
    new_setup = isinstance(options, dict) and options.get("useNewRechargedSetup") is True
    if edition.variant == "recharged" and players >= 5 and not new_setup:
        raise InvalidRecord(
            f"a {players}-player Recharged game without useNewRechargedSetup does not import: "
            "that setup left 4 plug plants out of the deck, where RCH-20 removes none "
            "with 5 or 6 players",
            path="options.useNewRechargedSetup",
        )


_PLANT_EVENTS = (
    re.compile(r"^Power Plant ([0-9]+) drawn from the deck"),
    re.compile(r"^Putting Power Plant ([0-9]+) on the bottom"),
    re.compile(r"^Discarding Power Plant ([0-9]+)"),
    re.compile(r"^Everyone passed, removing lowest numbered Power Plant \(([0-9]+)\)"),
    re.compile(r"^Starting Step [23], [Pp]ower [Pp]lant ([0-9]+) discarded"),
)


def _plants_named(entry: Any) -> Iterator[tuple[int, bool]]:
    """The plants a log entry names, each with whether it is a draw from the deck."""
    if not isinstance(entry, dict):
        return
    text = entry.get("event")
    if isinstance(text, str):
        for k, pattern in enumerate(_PLANT_EVENTS):
            m = pattern.match(text)
            if m:
                yield int(m[1]), k == 0
    move = entry.get("move")
    if isinstance(move, dict):
        data = move.get("data")
        if move.get("name") in ("ChoosePowerPlant", "DiscardPowerPlant"):
            if isinstance(data, int) and not isinstance(data, bool):
                yield data, False
        elif move.get("name") == "UsePowerPlant" and isinstance(data, dict):
            plant = data.get("powerPlant")
            if isinstance(plant, int) and not isinstance(plant, bool):
                yield plant, False


def _final_plants(export: Mapping[str, Any]) -> Iterator[int]:
    """The plants of the export's final market and hands (their ``number`` fields)."""
    players = export.get("players")
    holders = [export.get("actualMarket"), export.get("futureMarket")]
    if isinstance(players, list):
        holders += [p.get("powerPlants") for p in players if isinstance(p, dict)]
    for holder in holders:
        for plant in holder if isinstance(holder, list) else ():
            # The Step 3 card is not a plant of the deal.
            if not isinstance(plant, dict) or plant.get("type") == _STEP3_TYPE:
                continue
            number = plant.get("number")
            if isinstance(number, int) and not isinstance(number, bool):
                yield number


def initial_market(export: Mapping[str, Any]) -> tuple[str, ...]:
    """RCH-20: the Recharged starting market of an export, its 8 plants by number.

    A plant the log first names in a move or an event other than a draw (or
    never names, but the final market or a hand holds) was in the market from
    the start. When that does not give 8 plug plants (03-15), the export does
    not show its setup: :class:`~powergrid.InvalidRecord` on ``log``.
    """
    log = export.get("log")
    first: dict[int, bool] = {}
    for entry in log if isinstance(log, list) else ():
        for plant, drawn in _plants_named(entry):
            first.setdefault(plant, drawn)
    for plant in _final_plants(export):
        first.setdefault(plant, False)
    market = sorted(p for p, drawn in first.items() if not drawn)
    if len(market) != MARKET_SIZE or any(p not in PLUG_PLANTS for p in market):
        raise InvalidRecord(
            f"the starting market cannot be read from the log: the plants it names before "
            f"any draw are {', '.join(map(str, market)) or 'none'}, not 8 plug plants 03-15 "
            "(RCH-20)",
            path="log",
        )
    return tuple(str(p) for p in market)


def city_ids(export: Mapping[str, Any], board: str) -> dict[str, str]:
    """Their city names (as in the export's map) -> our city ids on ``board``."""
    ours = set(load_map(board).cities)
    out: dict[str, str] = {}
    cities = field(field(export, "map", dict), "cities", list, "map")
    for i, city in enumerate(cities):
        name = field(city, "name", str, f"map.cities[{i}]")
        slug = _slug(name)
        slug = CITY_SPELLINGS.get(slug, slug)
        if slug not in ours:
            raise InvalidRecord(
                f"city {shown(name)} is not on the {board} board", path=f"map.cities[{i}]"
            )
        out[name] = slug
    return out


def regions(export: Mapping[str, Any]) -> tuple[str, ...]:
    """The play area: the regions of the export's map, which holds only the cities in play.

    A city without a region id (a string) raises :class:`~powergrid.InvalidRecord`.
    """
    cities = field(field(export, "map", dict), "cities", list, "map")
    return tuple(
        sorted({field(c, "region", str, f"map.cities[{i}]") for i, c in enumerate(cities)})
    )


def _slug(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")
