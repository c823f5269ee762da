"""The log of a boardgamers.space export, read and compared with our events.

Both sides are reduced to one normal form, in order: ``("drawn", plant)``,
``("under", plant)``, ``("removed", plant)``, ``("step", n)`` and
``("resupply", (coal, oil, garbage, uranium))``. :func:`differences` lines
them up and says which differences are documented (docs: Conformance).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from powergrid.errors import InvalidRecord
from powergrid.formats.records import replay
from powergrid.state import GameState

if TYPE_CHECKING:
    from powergrid.interop.boardgamers import ImportedGame


def field(obj: Any, key: str, kind: type, path: str = "") -> Any:
    """``obj[key]`` of type ``kind``; InvalidRecord naming ``path.key`` otherwise."""
    where = f"{path}.{key}" if path else key
    if not isinstance(obj, dict) or key not in obj:
        raise InvalidRecord("missing field", path=where)
    value = obj[key]
    if not isinstance(value, kind):
        raise InvalidRecord(f"expected {kind.__name__}, not {type(value).__name__}", path=where)
    return value


def events_of(
    export: Mapping[str, Any], upto: int | None = None
) -> Iterator[tuple[int, tuple[Any, ...]]]:
    """The export's engine events that ours must match, with their log index, in order.

    Each is ``("drawn", plant)``, ``("under", plant)``, ``("removed", plant)``,
    ``("step", n)`` or ``("resupply", (coal, oil, garbage, uranium))``.
    """
    log = field(export, "log", list)
    for i, entry in enumerate(log[:upto]):
        if isinstance(entry, dict) and entry.get("type") == "event":
            text = entry.get("event")
            yield from ((i, e) for e in _normal(text if isinstance(text, str) else ""))


_PATTERNS = (
    (re.compile(r"^Power Plant ([0-9]+) drawn from the deck\.?$"), lambda m: [("drawn", m[1])]),
    (  # BLD-12: a drawn plant too small for the market
        re.compile(r"^Power Plant ([0-9]+) drawn from the deck and discarded\.?$"),
        lambda m: [("drawn", m[1]), ("removed", m[1])],
    ),
    (  # AUC-20: nobody bought a plant this round
        re.compile(r"^Everyone passed, removing lowest numbered Power Plant \(([0-9]+)\)\.?$"),
        lambda m: [("removed", m[1])],
    ),
    (
        re.compile(r"^Putting Power Plant ([0-9]+) on the bottom of the deck\.?$"),
        lambda m: [("under", m[1])],
    ),
    (re.compile(r"^Discarding Power Plant ([0-9]+)\.?$"), lambda m: [("removed", m[1])]),
    (
        re.compile(r"^Starting Step 2, [Pp]ower [Pp]lant ([0-9]+) discarded\.?$"),
        lambda m: [("step", 2), ("removed", m[1])],
    ),
    (
        re.compile(r"^Starting Step 3, [Pp]ower [Pp]lant ([0-9]+) discarded\.?$"),
        lambda m: [("removed", m[1]), ("step", 3)],
    ),
    (
        re.compile(r"^Resupplying resources: \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\]$"),
        lambda m: [("resupply", tuple(int(m[k]) for k in range(1, 5)))],
    ),
)


def _normal(text: str) -> list[tuple[Any, ...]]:
    for pattern, make in _PATTERNS:
        m = pattern.match(text)
        if m:
            return make(m)
    return []


@attrs.frozen
class Difference:
    """One place where the export's events and ours differ.

    ``near`` is the log index of the export's event (or of the next one, for an
    event only ours has); ``theirs`` and ``ours`` are the events in the normal
    form of :func:`events_of` that only one side has; ``known`` explains a
    documented difference (docs: Conformance) and is ``None`` for an
    unexplained one.
    """

    near: int
    theirs: tuple[tuple[Any, ...], ...]
    ours: tuple[tuple[Any, ...], ...]
    known: str | None


#: What their old logs leave out, by our event that has no counterpart there.
KNOWN = {
    "too_small_in_market": (
        "their log does not record a market plant removed because it is not above the "
        "largest city count (BLD-12); it records the plant drawn to replace it"
    ),
    "nobody_buys": (
        "when every player passed in Recharged, their 2021 engine removed a second plant "
        "after the unsold token plant; Recharged has no 'nobody buys' removal (RCH-33, "
        "RCH-34, OQ-R02)"
    ),
}

_ALL_PASSED = re.compile(r"^Everyone passed, removing lowest numbered Power Plant")


def differences(export: Mapping[str, Any], game: ImportedGame) -> list[Difference]:
    """Every difference between the export's events and those of the imported game.

    Both sides are compared in order as draws, plants put under the deck, plants
    removed, Step starts and resupplies (:func:`events_of`, :func:`our_events`),
    over the log entries the record covers.
    """
    state = replay(game.record)
    theirs = list(events_of(export, game.moves))
    tagged = _tagged_events(state)
    ours = [e for e, _ in tagged]
    matcher = difflib.SequenceMatcher(a=[e for _, e in theirs], b=ours, autojunk=False)
    out = []
    log = field(export, "log", list)
    recharged = game.edition.variant == "recharged"
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        near = theirs[a0][0] if a0 < len(theirs) else game.moves
        only_theirs = tuple(e for _, e in theirs[a0:a1])
        unlogged = op == "insert" and all(small for _, small in tagged[b0:b1])
        known = KNOWN["too_small_in_market"] if unlogged else None
        if recharged and op == "delete" and all(e[0] == "removed" for e in only_theirs):
            after_pass = all(_after_all_pass(log, i) for i, _ in theirs[a0:a1])
            known = KNOWN["nobody_buys"] if after_pass else None
        out.append(Difference(near, only_theirs, tuple(ours[b0:b1]), known))
    return out


def _after_all_pass(log: list[Any], i: int) -> bool:
    """Whether log entry ``i`` follows their "Everyone passed" removal with only events between."""
    for entry in reversed(log[:i]):
        if not isinstance(entry, dict) or entry.get("type") != "event":
            return False
        text = entry.get("event")
        if isinstance(text, str) and _ALL_PASSED.match(text):
            return True
    return False


def our_events(state: GameState) -> list[tuple[Any, ...]]:
    """Our game's events in the same normal form as :func:`events_of`."""
    return [e for e, _ in _tagged_events(state)]


def _tagged_events(state: GameState) -> list[tuple[tuple[Any, ...], bool]]:
    """Our events in normal form, each marked when it removes a market plant as too small."""
    out: list[tuple[tuple[Any, ...], bool]] = []
    for e in state.events.as_tuple():
        if e.kind == "plant_drawn":
            out.append((("drawn", str(e.values[0])), False))
        elif e.kind == "plant_under_deck":
            out.append((("under", str(e.values[0])), False))
        elif e.kind == "plant_removed":
            drawn = e.text.startswith("Drawn plant")  # BLD-12: drawn, then removed at once
            if drawn:
                out.append((("drawn", str(e.values[0])), False))
            small = not drawn and "too small" in e.text  # BLD-12 in the market
            out.append((("removed", str(e.values[0])), small))
        elif e.kind == "step_started":
            out.append((("step", int(e.values[0])), False))
        elif e.kind == "market_refilled":
            out.append((("resupply", tuple(int(v) for v in e.values)), False))
    return out
