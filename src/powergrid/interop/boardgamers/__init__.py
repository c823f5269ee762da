"""Import games played on boardgamers.space: their export becomes a game record.

The boardgamers.space engine (``boardgamers/powergrid``, MIT) saves a game as
one JSON object: its options, players, the map filtered to the regions in
play, and a log of moves and engine events. :func:`import_game` turns an
export of the engine's ``original`` variant (our classic game) or its
``recharged`` variant (Power Grid Recharged, RULES.md section 13) on the USA
or Germany board (:data:`EDITIONS`) into a :class:`~powergrid.GameRecord` with
explicit chance (:mod:`powergrid.mechanics.chance_points`): the play area,
the Recharged starting market (:mod:`~powergrid.interop.boardgamers.setup`),
the round-1 order and every plant drawn come from the export, so replaying
the record plays the very game. What the export's engine logged is compared
with what ours did by :func:`differences`, and the export's final state with
ours by :func:`final_differences`.

Their moves map onto ours as follows (docs: "Conformance"): an auction's
``ChoosePowerPlant`` and the chooser's first ``Bid`` are one
:class:`~powergrid.ChoosePlant`; each one-token ``BuyResource`` is a
``BuyResource`` of 1; each ``Build`` is a ``Build``; a player's
``UsePowerPlant`` moves up to their ``Pass`` are one :class:`~powergrid.Power`;
``Pass`` is whichever pass the phase has. A dropped player is not part of the
rules: the import stops before the first drop-out and says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from powergrid.config import EXPLICIT_CHANCE, GameConfig
from powergrid.errors import InvalidRecord, PowerGridError
from powergrid.formats.json_input import load_json
from powergrid.formats.records import GameRecord
from powergrid.interop.boardgamers.final import FinalDifference, final_differences
from powergrid.interop.boardgamers.log import (
    KNOWN,
    Difference,
    differences,
    events_of,
    field,
    our_events,
)
from powergrid.interop.boardgamers.replay import Replay
from powergrid.interop.boardgamers.setup import (
    CITY_SPELLINGS,
    Edition,
    check_setup,
    city_ids,
    edition_of,
    initial_market,
    regions,
)
from powergrid.interop.boardgamers.setup import EDITIONS as _EDITIONS
from powergrid.outside_text import shown

#: The editions the importer plays, by their variant name (the export's ``options.variant``):
#: ``original`` as the classic components on ``usa`` and ``germany``, ``recharged`` as the
#: Recharged edition on ``usa_recharged`` and ``germany_recharged``.
EDITIONS: Mapping[str, Edition] = _EDITIONS

#: The boards of theirs the original game is played on here, by their map name.
MAPS = EDITIONS["original"].maps


@attrs.frozen
class ImportedGame:
    """An imported game: the record, and where in the export's log it stops.

    ``record`` replays the game with explicit chance. ``moves`` is the number
    of log entries the record covers (all of them for a finished game);
    ``stopped`` says why the import stopped early (a player dropped out), or
    is ``None``. ``names`` are the export's player names, seat by seat.
    ``entries`` holds, for each action of the record, the indices of the log
    entries it was made from (``()`` for the setup's area, market and order);
    ``edition`` is the export's :class:`Edition`.
    """

    record: GameRecord
    moves: int
    stopped: str | None
    names: tuple[str, ...]
    entries: tuple[tuple[int, ...], ...] = ()
    edition: Edition = EDITIONS["original"]


def read_export(path: str | Path) -> Mapping[str, Any]:
    """The export in a file; malformed JSON raises :class:`~powergrid.InvalidRecord`.

    Bytes that are not UTF-8 and nesting too deep to parse are malformed JSON
    too; a file that cannot be read raises :class:`OSError`.
    """
    raw = Path(path).read_bytes()
    try:
        data = load_json(raw)
    except InvalidRecord as err:
        raise InvalidRecord(f"{path}: {err}") from None
    if not isinstance(data, dict):
        raise InvalidRecord(f"{path}: an export is a JSON object")
    return data


def game_config(export: Mapping[str, Any]) -> GameConfig:
    """The config of an export: players, edition, board, names, explicit chance.

    A variant the importer does not play (:data:`EDITIONS`), a board we do not
    have for it, the ``fastBid`` option, or a setup our rules cannot replay
    (:func:`~powergrid.interop.boardgamers.setup.check_setup`: a 2-player
    Recharged game, 5-6 players in that engine's old Recharged setup) raise
    :class:`~powergrid.InvalidRecord`.
    """
    options = field(export, "options", dict)
    edition = edition_of(export)
    board = options.get("map")
    if not isinstance(board, str) or board not in edition.maps:
        raise InvalidRecord(
            f"board {shown(board)} is not one this library has from boardgamers for "
            f"{edition.variant} (it has {', '.join(edition.maps)})",
            path="options.map",
        )
    if options.get("fastBid"):
        raise InvalidRecord(
            "the fastBid option changes how auctions are played, which this library "
            "does not implement",
            path="options.fastBid",
        )
    players = field(export, "players", list)
    check_setup(export, edition, len(players))
    names = tuple(field(p, "name", str, f"players[{i}]") for i, p in enumerate(players))
    try:
        return GameConfig(
            players=len(players),
            map=edition.maps[board],
            components=edition.components,
            names=names,
            options={EXPLICIT_CHANCE},
        )
    except PowerGridError as err:
        seat = re.fullmatch(r"names\[([0-9]+)\]", getattr(err, "field", ""))
        where = f"players[{seat[1]}].name" if seat else "players"
        raise InvalidRecord(str(err), path=where) from None


def import_game(export: Mapping[str, Any]) -> ImportedGame:
    """The export as a record with explicit chance (see the module docstring).

    A log entry that cannot be mapped onto this library's actions, or that
    our rules refuse, raises :class:`~powergrid.InvalidRecord` naming the
    entry (``log[i]``) and why; so does a Recharged export whose starting
    market the log does not show.
    """
    config = game_config(export)
    edition = edition_of(export)
    log = field(export, "log", list)
    market = ",".join(initial_market(export)) if edition.variant == "recharged" else None
    player = Replay(config, log, city_ids(export, config.map), ",".join(regions(export)), market)
    player.run()
    record = GameRecord(config=config, seed=0, actions=tuple(player.actions))
    return ImportedGame(
        record=record,
        moves=player.done,
        stopped=player.stopped,
        names=config.names or (),
        entries=tuple(player.entries),
        edition=edition,
    )


__all__ = [
    "CITY_SPELLINGS",
    "EDITIONS",
    "KNOWN",
    "MAPS",
    "Difference",
    "Edition",
    "FinalDifference",
    "ImportedGame",
    "city_ids",
    "differences",
    "events_of",
    "final_differences",
    "game_config",
    "import_game",
    "our_events",
    "read_export",
    "regions",
]
