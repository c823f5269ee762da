"""Import games played on boardgamers.space: their export becomes a game record.

The boardgamers.space engine (``boardgamers/powergrid``, MIT) saves a game as
one JSON object: its options, players, the map filtered to the regions in
play, and a log of moves and engine events. :func:`import_game` turns such an
export of the engine's ``original`` variant on the USA or Germany board into a
:class:`~powergrid.GameRecord` with explicit chance (:mod:`powergrid.mechanics.chance_points`):
the play area, the round-1 order and every plant drawn come from the export,
so replaying the record plays the very game. What the export's engine logged
is compared with what ours did by :func:`differences`.

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
import unicodedata
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from powergrid.actions import (
    CLOSING,
    Action,
    Bid,
    Build,
    BuyResource,
    ChoosePlant,
    DiscardPlant,
    PassAuction,
    PassBid,
    Power,
    Reveal,
)
from powergrid.catalog import load_map
from powergrid.config import EXPLICIT_CHANCE, GameConfig
from powergrid.engine.game import apply, chance_outcomes, current_player, legal_actions, new_game
from powergrid.enums import Phase
from powergrid.errors import IllegalAction, InvalidRecord, PowerGridError
from powergrid.formats.json_input import load_json
from powergrid.formats.records import GameRecord
from powergrid.interop.boardgamers.log import (
    KNOWN,
    Difference,
    differences,
    events_of,
    field,
    our_events,
)
from powergrid.outside_text import shown

#: The boards of theirs we have, by their map name.
MAPS = {"USA": "usa", "Germany": "germany"}

#: Their spellings of city names that differ from the boards' (MAPS_SOURCES.md).
CITY_SPELLINGS = {"knoxvile": "knoxville", "jacksonvile": "jacksonville"}

_RESOURCES = ("coal", "oil", "garbage", "uranium")

#: Their ``Pass`` outside the auction: the kind that closes a seat's part of the phase.
_CLOSING: dict[Phase | None, type] = {
    k.phase: k.cls for k in CLOSING if k.phase is not Phase.AUCTION
}


@attrs.frozen
class ImportedGame:
    """An imported game: the record, and where in the export's log it stops.

    ``record`` replays the game with explicit chance. ``moves`` is the number
    of log entries the record covers (all of them for a finished game);
    ``stopped`` says why the import stopped early (a player dropped out), or
    is ``None``. ``names`` are the export's player names, seat by seat.
    """

    record: GameRecord
    moves: int
    stopped: str | None
    names: tuple[str, ...]


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
    """The config of an export: players, board, classic components, names, explicit chance.

    A variant other than ``original`` (their ``recharged`` is Power Grid
    Recharged, which this library does not implement), a board we do not
    have, or the ``fastBid`` option raise :class:`~powergrid.InvalidRecord`.
    """
    options = field(export, "options", dict)
    variant = options.get("variant", export.get("variant"))
    if variant != "original":
        raise InvalidRecord(
            f"variant {shown(variant)} is not played by this library: only the original rules "
            "are ('recharged' is Power Grid Recharged, another edition)",
            path="options.variant",
        )
    board = options.get("map")
    if not isinstance(board, str) or board not in MAPS:
        raise InvalidRecord(
            f"board {shown(board)} is not one this library has from boardgamers "
            f"(it has {', '.join(MAPS)})",
            path="options.map",
        )
    if options.get("fastBid"):
        raise InvalidRecord(
            "the fastBid option changes how auctions are played, which this library "
            "does not implement",
            path="options.fastBid",
        )
    players = field(export, "players", list)
    names = tuple(field(p, "name", str, f"players[{i}]") for i, p in enumerate(players))
    try:
        return GameConfig(
            players=len(players),
            map=MAPS[board],
            components="classic",
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
    entry (``log[i]``) and why.
    """
    config = game_config(export)
    log = field(export, "log", list)
    player = _Replay(config, export, log)
    player.run()
    record = GameRecord(config=config, seed=0, actions=tuple(player.actions))
    return ImportedGame(
        record=record, moves=player.done, stopped=player.stopped, names=config.names or ()
    )


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


def _text(value: Any) -> str:
    """A log entry's text field, or ``""`` when it holds no string (never str() of a tree)."""
    return value if isinstance(value, str) else ""


def _slug(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")


_DRAWN = re.compile(r"^Power Plant ([0-9]+) drawn from the deck( and discarded)?\.?$")
_DROPPED = re.compile(r"^Player ([0-9]+) was dropped$")


class _Replay:
    """Drives our engine through the export's log (one instance per import)."""

    def __init__(self, config: GameConfig, export: Mapping[str, Any], log: list[Any]) -> None:
        self.log = log
        self.cities = city_ids(export, config.map)
        self.area = ",".join(regions(export))
        self.state = new_game(config, seed=0)
        self.actions: list[Action] = []
        self.draws = [
            (i, m.group(1))
            for i, e in enumerate(log)
            if isinstance(e, dict) and (m := _DRAWN.match(_text(e.get("event"))))
        ]
        # The face-up top card (SET-11) is the export's first draw, taken without a chance point.
        self.top = 1 if self.state.market.top is not None else 0
        self.done = 0  # log entries covered
        self.stopped: str | None = None
        self.power: dict[int, list[tuple[int, dict[str, Any]]]] = {}

    def run(self) -> None:
        """Play every log entry in order, resolving chance points as the export did."""
        i = 0
        while i < len(self.log):
            self._resolve_chance(i)
            entry = self.log[i]
            if not isinstance(entry, dict) or entry.get("type") not in ("move", "event"):
                raise InvalidRecord("a log entry is a move or an event", path=f"log[{i}]")
            if entry["type"] == "event":
                dropped = _DROPPED.match(_text(entry.get("event")))
                if dropped:
                    self.stopped = (
                        f"player {dropped.group(1)} dropped out at log[{i}]; a drop-out is not "
                        "part of the rules, so the record ends before it"
                    )
                    self._end(i)
                    return
                i += 1
                continue
            i = self._move(i)
        self._end(len(self.log))

    def _end(self, i: int) -> None:
        """The record ends before entry ``i``, or before a powering left unfinished there."""
        self._flush_power()
        self._resolve_chance(i)
        unfinished = [k for moves in self.power.values() for k, _ in moves]
        self.done = min([i, *unfinished])

    def _apply(self, action: Action, i: int) -> None:
        try:
            self.state = apply(self.state, action)
        except IllegalAction as err:
            raise InvalidRecord(f"{action} is illegal here: {err}", path=f"log[{i}]") from None
        self.actions.append(action)
        self._resolve_chance(i)

    def _resolve_chance(self, i: int) -> None:
        """Answer every pending chance point from the export (area, order, draws)."""
        while self.state.chance is not None:
            event = chance_outcomes(self.state)[0][0].event
            if event == "area":
                reveal = Reveal(event="area", outcome=self.area)
            elif event == "order":  # their first round starts with player 0 (SET-05)
                order = ",".join(str(s) for s in range(len(self.state.players)))
                reveal = Reveal(event="order", outcome=order)
            else:
                reveal = self._next_draw(i)
            try:
                self.state = apply(self.state, reveal)
            except IllegalAction as err:
                raise InvalidRecord(f"{reveal}: {err}", path=f"log[{i}]") from None
            self.actions.append(reveal)

    def _next_draw(self, i: int) -> Reveal:
        # Every hidden card drawn so far is a Reveal of ours; the top card came first.
        k = self.top + sum(1 for a in self.actions if isinstance(a, Reveal) and a.event == "draw")
        if k >= len(self.draws):
            raise InvalidRecord(
                "our game draws a plant here, and the export logs no further draw",
                path=f"log[{i}]",
            )
        return Reveal(event="draw", outcome=self.draws[k][1])

    def _move(self, i: int) -> int:
        entry = self.log[i]
        seat = entry.get("player")
        move = entry.get("move")
        if not isinstance(move, dict):
            raise InvalidRecord("a move has a move object", path=f"log[{i}].move")
        players = len(self.state.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise InvalidRecord(
                f"the player of a move is a seat 0 to {players - 1}, not {shown(seat)}",
                path=f"log[{i}].player",
            )
        name, data = move.get("name"), move.get("data")
        if self.state.phase is Phase.BUREAUCRACY:
            return self._power_move(i, seat, name, data)
        if self.power:
            k = min(k for moves in self.power.values() for k, _ in moves)
            raise InvalidRecord(
                f"this powering is not played: our phase 5 ended before it (at log[{i}])",
                path=f"log[{k}]",
            )
        if name == "ChoosePowerPlant":
            return self._choose(i, seat, data, _text(entry.get("simple")))
        action = self._simple(i, seat, name, data)
        self._apply(action, i)
        return i + 1

    def _simple(self, i: int, seat: int, name: Any, data: Any) -> Action:
        phase = self.state.phase
        if name == "Bid":
            return Bid(player=seat, amount=_whole(data, i))
        if name == "BuyResource":
            kind = data.get("resource") if isinstance(data, dict) else None
            if not isinstance(kind, str) or kind not in _RESOURCES:
                raise InvalidRecord(f"unknown resource {shown(kind)}", path=f"log[{i}].move.data")
            return BuyResource(player=seat, resource=kind, count=1)
        if name == "Build":
            city = data.get("name") if isinstance(data, dict) else None
            if not isinstance(city, str) or city not in self.cities:
                raise InvalidRecord(f"unknown city {shown(city)}", path=f"log[{i}].move.data")
            return Build(player=seat, city=self.cities[city])
        if name == "DiscardPowerPlant":
            return self._discard(i, seat, _whole(data, i))
        if name == "Pass":
            if phase is Phase.AUCTION:  # two passes: leave the running auction, or the phase
                return PassBid(player=seat) if self.state.auction else PassAuction(player=seat)
            closing = _CLOSING.get(phase)
            if closing is not None:
                made: Action = closing(player=seat)
                return made
        raise InvalidRecord(
            f"move {shown(name)} cannot be mapped onto an action in {phase.name.lower()}",
            path=f"log[{i}].move",
        )

    def _choose(self, i: int, seat: int, data: Any, simple: str) -> int:
        plant = str(_whole(data, i))
        nxt = self.log[i + 1] if i + 1 < len(self.log) else {}
        bid = nxt.get("move") if isinstance(nxt, dict) else None
        opening = (
            "initiate an auction" in simple
            and isinstance(nxt, dict)
            and nxt.get("player") == seat
            and isinstance(bid, dict)
            and bid.get("name") == "Bid"
        )
        offers = [
            a
            for a in legal_actions(self.state)
            if isinstance(a, ChoosePlant) and a.plant == plant and a.player == seat
        ]
        if opening:
            assert isinstance(bid, dict)
            action: Action = ChoosePlant(
                player=seat, plant=plant, bid=_whole(bid.get("data"), i + 1)
            )
        elif offers:  # no one else left: bought at the minimum bid (AUC-14)
            action = min(offers, key=lambda a: a.bid)
        else:
            action = ChoosePlant(player=seat, plant=plant, bid=0)
        self._apply(action, i)
        return i + 2 if opening else i + 1

    def _discard(self, i: int, seat: int, number: int) -> Action:
        """DiscardPowerPlant: the export names no drop; keep every token that fits (AUC-18)."""
        offers = [
            a
            for a in legal_actions(self.state)
            if isinstance(a, DiscardPlant) and a.plant == str(number) and a.player == seat
        ]
        if not offers:
            return DiscardPlant(player=seat, plant=str(number))
        return min(offers, key=lambda a: (sum(n for _, n in a.drop), str(a)))

    def _power_move(self, i: int, seat: int, name: Any, data: Any) -> int:
        used = self.power.setdefault(seat, [])
        if name == "UsePowerPlant":
            if not isinstance(data, dict):
                raise InvalidRecord("UsePowerPlant names a plant", path=f"log[{i}].move.data")
            used.append((i, data))
        elif name == "Pass":
            used.append((i, {}))
        else:
            raise InvalidRecord(
                f"move {shown(name)} cannot be mapped onto an action in bureaucracy",
                path=f"log[{i}].move",
            )
        self._flush_power()
        return i + 1

    def _flush_power(self) -> None:
        """Play every finished Power (a Pass closes it) in the order our phase 5 asks."""
        while self.state.phase is Phase.BUREAUCRACY and self.state.chance is None:
            seat = current_player(self.state)
            if seat is None or seat < 0:
                return
            moves = self.power.get(seat, [])
            if not moves or moves[-1][1]:
                return
            del self.power[seat]
            self._apply(_power(seat, moves), moves[-1][0])


def _power(seat: int, moves: list[tuple[int, dict[str, Any]]]) -> Power:
    plants, mix = [], Counter[str]()
    for i, data in moves[:-1]:
        plants.append(str(_whole(data.get("powerPlant"), i)))
        spent = data.get("resourcesSpent", [])
        if not isinstance(spent, list) or any(
            not isinstance(r, str) or r not in _RESOURCES for r in spent
        ):
            raise InvalidRecord("resourcesSpent lists resources", path=f"log[{i}].move.data")
        mix.update(spent)
    return Power(player=seat, plants=plants, mix=dict(mix))


def _whole(value: Any, i: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidRecord(
            f"expected a whole number, not {shown(value)}", path=f"log[{i}].move.data"
        )
    return value


__all__ = [
    "CITY_SPELLINGS",
    "KNOWN",
    "MAPS",
    "Difference",
    "ImportedGame",
    "city_ids",
    "differences",
    "events_of",
    "game_config",
    "import_game",
    "our_events",
    "read_export",
    "regions",
]
