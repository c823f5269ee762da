"""The export's final state against our replay's: every field where the two differ.

An export is a dump of that engine's state at its end: the players (money,
cities, plants, resources), the plant and resource markets, the supply, the
Step, the round and the player order. :func:`final_differences` compares each
with the state our replay of the imported record ends in, and explains a
difference our rules cause on purpose (docs: "Conformance") by the log entry
where it arose. :func:`difference_lines` words every difference, of the events
(:func:`~powergrid.interop.boardgamers.differences`) and of the final state,
one line each, as the command line numbers them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from powergrid.actions import DiscardPlant
from powergrid.engine.game import outcome
from powergrid.formats.records import replay
from powergrid.interop.boardgamers.log import KNOWN, Difference, differences
from powergrid.interop.boardgamers.setup import city_ids
from powergrid.state import GameState

if TYPE_CHECKING:
    from powergrid.interop.boardgamers import ImportedGame

_KINDS = ("coal", "oil", "garbage", "uranium")

#: Why a final field differs, where our rules differ from that engine's on purpose.
FINAL_KNOWN = {
    "dropped_tokens": (
        "tokens on a scrapped plant that fit on no other plant go to the general supply "
        "(AUC-18, RCH-38); their engine took them out of the game"
    ),
}


@attrs.frozen
class FinalDifference:
    """One field of the final state where the export and our replay differ.

    ``field`` names it (``players[1].money``, ``plant market``,
    ``supply.garbage``, ``winners`` ...); ``theirs`` and ``ours`` are its two
    values; ``known`` explains a documented difference (docs: Conformance)
    and is ``None`` for an unexplained one; ``near`` lists the log entries
    where a known difference arose.
    """

    field: str
    theirs: Any
    ours: Any
    known: str | None = None
    near: tuple[int, ...] = ()


def final_differences(export: Mapping[str, Any], game: ImportedGame) -> list[FinalDifference]:
    """Every field of the export's final state that our replay of ``game`` ends without.

    Compared only for a record that covers the whole log (``game.moves`` is
    its length and nobody dropped out); otherwise the export's final state is
    not the one the record ends in, and the list is empty. Fields the export
    lacks or holds in another form are skipped, not reported.
    """
    return _final(export, game, None)


def _final(
    export: Mapping[str, Any], game: ImportedGame, events: list[Difference] | None
) -> list[FinalDifference]:
    """:func:`final_differences`, given the event differences when the caller has them."""
    log = export.get("log")
    if game.stopped is not None or not isinstance(log, list) or game.moves != len(log):
        return []
    state = replay(game.record)
    found = [
        FinalDifference(name, theirs, ours)
        for name, theirs, ours in _fields(export, game, state)
        if theirs != ours
    ]
    return [_explained(d, export, game, events) for d in found]


def _fields(
    export: Mapping[str, Any], game: ImportedGame, state: GameState
) -> Iterator[tuple[str, Any, Any]]:
    """``(field, theirs, ours)`` for every field the export holds."""
    players = export.get("players")
    for seat, player in enumerate(players if isinstance(players, list) else ()):
        if isinstance(player, dict) and seat < len(state.players):
            yield from _player_fields(seat, player, game, state)
    actual, future = export.get("actualMarket"), export.get("futureMarket")
    if isinstance(actual, list) and isinstance(future, list):
        theirs = tuple(str(p.get("number")) for p in actual + future if isinstance(p, dict))
        yield "plant market", theirs, state.market.actual + state.market.future
    for k, kind in enumerate(_KINDS):
        for where, held in (("Market", state.resources.market), ("Supply", state.resources.supply)):
            if isinstance(export.get(f"{kind}{where}"), int):
                yield f"{where.lower()}.{kind}", export[f"{kind}{where}"], held[k]
    for name, value in (("step", state.step), ("round", state.round)):
        if isinstance(export.get(name), int):
            yield name, export[name], value
    if isinstance(export.get("playerOrder"), list):
        yield "player order", tuple(export["playerOrder"]), tuple(state.order)
    if export.get("phase") == "Game End":
        result = outcome(state)
        yield "winners", _their_winners(export), result.winners if result else ()


def _player_fields(
    seat: int, player: dict[str, Any], game: ImportedGame, state: GameState
) -> Iterator[tuple[str, Any, Any]]:
    ours = state.players[seat]
    at = f"players[{seat}]"
    if isinstance(player.get("money"), int):
        yield f"{at}.money", player["money"], ours.money
    cities = player.get("cities")
    if isinstance(cities, list):
        ids = city_ids({"map": {"cities": cities}}, game.record.config.map)
        yield f"{at}.cities", frozenset(ids.values()), frozenset(ours.cities)
    plants = player.get("powerPlants")
    if isinstance(plants, list):
        numbers = frozenset(str(p.get("number")) for p in plants if isinstance(p, dict))
        yield f"{at}.plants", numbers, frozenset(ours.plants)
    left = [n for k in _KINDS if isinstance(n := player.get(f"{k}Left"), int)]
    if len(left) == len(_KINDS):
        hybrid = player.get("hybridLeft")
        if isinstance(hybrid, int) and hybrid:  # their hybrid store keeps no kind: coal + oil
            left = [left[0] + left[1] + hybrid, *left[2:]]
            mine = [ours.resources[0] + ours.resources[1], *ours.resources[2:]]
            yield f"{at}.resources (coal+oil, garbage, uranium)", tuple(left), tuple(mine)
        else:
            yield f"{at}.resources", tuple(left), tuple(ours.resources)


def _their_winners(export: Mapping[str, Any]) -> tuple[int, ...]:
    """Their ranking: most cities powered, then money, then cities (RCH-81, END-03)."""
    players = export.get("players")
    keys = []
    for seat, p in enumerate(players if isinstance(players, list) else ()):
        if isinstance(p, dict):
            cities = p.get("cities")
            n = len(cities) if isinstance(cities, list) else 0
            keys.append(((_int(p.get("citiesPowered")), _int(p.get("money")), n), seat))
    if not keys:
        return ()
    best = max(k for k, _ in keys)
    return tuple(seat for k, seat in keys if k == best)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _explained(
    d: FinalDifference,
    export: Mapping[str, Any],
    game: ImportedGame,
    events: list[Difference] | None,
) -> FinalDifference:
    """``d`` with its explanation, when the record shows our rules caused it on purpose."""
    if d.field.startswith("supply."):
        kind = _KINDS.index(d.field.removeprefix("supply."))
        drops = _dropped(game, kind)
        if drops and isinstance(d.theirs, int) and d.ours - d.theirs == sum(n for _, n in drops):
            return attrs.evolve(d, known=FINAL_KNOWN["dropped_tokens"], near=_near(drops))
    if d.field == "plant market":
        removed = [
            (e.near, plant)
            for e in (differences(export, game) if events is None else events)
            if e.known == KNOWN["nobody_buys"]
            for _, plant in e.theirs
        ]
        only_ours = set(d.ours) - set(d.theirs)
        if removed and set(d.theirs) <= set(d.ours) and only_ours == {p for _, p in removed}:
            return attrs.evolve(d, known=KNOWN["nobody_buys"], near=_near(removed))
    return d


def _dropped(game: ImportedGame, kind: int) -> list[tuple[int, int]]:
    """``(log entry, tokens)`` of ``kind`` every scrapped plant sent to the supply (AUC-18)."""
    out = []
    for action, entries in zip(game.record.actions, game.entries, strict=False):
        if isinstance(action, DiscardPlant) and entries:
            n = sum(count for k, count in action.drop if k.value == _KINDS[kind])
            if n:
                out.append((entries[0], n))
    return out


def _near(pairs: list[tuple[int, Any]]) -> tuple[int, ...]:
    return tuple(sorted({i for i, _ in pairs}))


def difference_lines(export: Mapping[str, Any], game: ImportedGame) -> list[str]:
    """Every difference of the events and of the final state, one line each, known ones marked.

    Events come first, in log order, then the final fields; a line ends with
    the explanation of a known difference, or says that it is unexplained.
    """
    lines = []
    events = differences(export, game)
    for e in events:
        theirs = ", ".join(_event(x) for x in e.theirs) or "nothing"
        ours = ", ".join(_event(x) for x in e.ours) or "nothing"
        lines.append(f"near log[{e.near}]: their log has {theirs}, ours {ours}; {_why(e.known)}")
    for f in _final(export, game, events):
        where = f" (log[{'], log['.join(map(str, f.near))}])" if f.near else ""
        lines.append(
            f"final {f.field}: theirs {_value(f.theirs)}, ours {_value(f.ours)}{where}; "
            f"{_why(f.known)}"
        )
    return lines


def _event(e: tuple[Any, ...]) -> str:
    kind, value = e
    words = {"drawn": "plant {} drawn", "under": "plant {} under the deck"}
    words |= {"removed": "plant {} removed", "step": "Step {}", "resupply": "refill {}"}
    return str(words[kind].format(value))


def _value(v: Any) -> str:
    if isinstance(v, frozenset):
        return "{" + ", ".join(sorted(map(str, v))) + "}"
    if isinstance(v, tuple):
        return " ".join(map(str, v)) or "none"
    return str(v)


def _why(known: str | None) -> str:
    return f"known: {known}" if known else "unexplained"
