"""Drive our engine through a boardgamers.space export's log (internal to the importer).

:class:`Replay` plays the log entry by entry and answers every chance point
from the export: the play area, the Recharged starting market, the round-1
order and each plant drawn. It keeps, for every action it makes, the log
entries it came from.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

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
from powergrid.config import GameConfig
from powergrid.engine.game import apply, chance_outcomes, current_player, legal_actions
from powergrid.engine.start import new_game
from powergrid.enums import Phase
from powergrid.errors import IllegalAction, InvalidRecord
from powergrid.outside_text import shown

_RESOURCES = ("coal", "oil", "garbage", "uranium")

#: Their ``Pass`` outside the auction: the kind that closes a seat's part of the phase.
_CLOSING: dict[Phase | None, type] = {
    k.phase: k.cls for k in CLOSING if k.phase is not Phase.AUCTION
}


def _text(value: Any) -> str:
    """A log entry's text field, or ``""`` when it holds no string (never str() of a tree)."""
    return value if isinstance(value, str) else ""


_DRAWN = re.compile(r"^Power Plant ([0-9]+) drawn from the deck( and discarded)?\.?$")
_DROPPED = re.compile(r"^Player ([0-9]+) was dropped$")


class Replay:
    """Drives our engine through the export's log (one instance per import).

    ``cities`` maps their city names to ours; ``area`` is the play area's
    outcome (regions joined by commas); ``market`` the starting market's
    outcome where the setup deals one (Recharged, RCH-20), else ``None``.
    After :meth:`run`, ``actions`` is the record's actions, ``entries`` the
    log entries of each (empty for the setup's outcomes), ``done`` the number
    of log entries covered and ``stopped`` why the replay stopped early.
    """

    def __init__(
        self,
        config: GameConfig,
        log: list[Any],
        cities: dict[str, str],
        area: str,
        market: str | None = None,
    ) -> None:
        self.log = log
        self.cities = cities
        self.area = area
        self.market = market
        self.state = new_game(config, seed=0)
        self.actions: list[Action] = []
        self.entries: list[tuple[int, ...]] = []
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

    def _apply(self, action: Action, entries: tuple[int, ...]) -> None:
        """Play ``action``, made from the log ``entries`` (the last one is named on refusal)."""
        i = entries[-1]
        try:
            self.state = apply(self.state, action)
        except IllegalAction as err:
            raise InvalidRecord(f"{action} is illegal here: {err}", path=f"log[{i}]") from None
        self.actions.append(action)
        self.entries.append(entries)
        self._resolve_chance(i)

    def _resolve_chance(self, i: int) -> None:
        """Answer every pending chance point from the export (area, order, draws)."""
        while self.state.chance is not None:
            event = chance_outcomes(self.state)[0][0].event
            source: tuple[int, ...] = ()
            if event == "area":
                reveal = Reveal(event="area", outcome=self.area)
            elif event == "order":  # their first round starts with player 0 (SET-05)
                order = ",".join(str(s) for s in range(len(self.state.players)))
                reveal = Reveal(event="order", outcome=order)
            elif event == "market" and self.market is not None:  # RCH-20, read by setup.py
                reveal = Reveal(event="market", outcome=self.market)
            elif event == "draw":
                source, reveal = self._next_draw(i)
            else:
                raise InvalidRecord(
                    f"the export does not say the outcome of the {event}", path="log"
                )
            try:
                self.state = apply(self.state, reveal)
            except IllegalAction as err:
                raise InvalidRecord(f"{reveal}: {err}", path=f"log[{i}]") from None
            self.actions.append(reveal)
            self.entries.append(source)

    def _next_draw(self, i: int) -> tuple[tuple[int, ...], Reveal]:
        # Every hidden card drawn so far is a Reveal of ours; the top card came first.
        k = self.top + sum(1 for a in self.actions if isinstance(a, Reveal) and a.event == "draw")
        if k >= len(self.draws):
            raise InvalidRecord(
                "our game draws a plant here, and the export logs no further draw",
                path=f"log[{i}]",
            )
        return (self.draws[k][0],), Reveal(event="draw", outcome=self.draws[k][1])

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
        self._apply(action, (i,))
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
        self._apply(action, (i, i + 1) if opening else (i,))
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
            self._apply(_power(seat, moves), tuple(k for k, _ in moves))


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
