"""The append-only event log of a game (automatic steps and decisions).

The log is a persistent linked list: appending shares every earlier entry with
the previous state, so a long game never copies its history per action.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import attrs

from powergrid.record import is_native


@attrs.frozen
class Event:
    """Something that happened: a stable ``kind`` code, the round, and a sentence.

    ``player`` is the seat concerned (``None`` for market and setup events);
    ``values`` holds what is involved, as documented per kind in the docs
    (:ref:`events`): plants as card labels (strings, the first value of the
    kinds in :data:`~powergrid.events.PLANT_EVENTS`), amounts, seats and indices as numbers.
    ``text`` is for people and may be reworded.
    """

    kind: str
    round: int
    text: str
    player: int | None = None
    values: tuple[int | str, ...] = ()


#: The core's event kinds whose first value is a plant (a card label); a rule module
#: names its own (``RuleModule.plant_events``, ``Ruleset.plant_events``).
PLANT_EVENTS = frozenset(
    {
        "auction_opened",
        "bid",
        "plant_bought",
        "plant_discarded",
        "plant_drawn",
        "plant_removed",
        "plant_under_deck",
    }
)


#: The core's event kinds a round's summary lists (the terminal prints them after each
#: round); a rule module names its own (``RuleModule.notable_events``,
#: ``Ruleset.notable_events``).
NOTABLE_EVENTS = frozenset(
    {
        "step_started",
        "step3_card_shown",
        "plant_removed",
        "plant_discarded",
        "plant_under_deck",
        "deck_reshuffled",
        "deck_empty",
        "game_end_triggered",
    }
)


#: An event's fields in order (kind, round, text, player, values), as read from the log.
Entry = tuple[str, int, str, "int | None", "tuple[int | str, ...]"]


class EventLog:
    """An immutable sequence of :class:`Event`, cheap to extend.

    Appending shares every earlier entry. Each entry is one plain tuple, the
    event's fields followed by the previous entry: one small object per event,
    where a linked node and an :class:`Event` made two. The :class:`Event`
    objects are built when the log is read.
    """

    __slots__ = ("_chain", "_len")
    _chain: tuple[Any, ...]
    _len: int

    def __init__(self, event: Event | None = None, prev: EventLog | None = None) -> None:
        chain: tuple[Any, ...] = prev._chain if prev is not None else ()
        length = prev._len if prev is not None else 0
        if event is not None:
            chain = (event.kind, event.round, event.text, event.player, event.values, chain)
            length += 1
        self._chain = chain
        self._len = length

    @property
    def event(self) -> Event | None:
        """The newest event, or ``None`` for the empty log."""
        return Event(*self._chain[:5]) if self._chain else None

    def append(self, event: Event) -> EventLog:
        """Return a new log with ``event`` added at the end."""
        return self.added(event.kind, event.round, event.text, event.player, event.values)

    def added(
        self, kind: str, round: int, text: str, player: int | None, values: tuple[int | str, ...]
    ) -> EventLog:
        """Return a new log with the event of these fields added (no Event is built)."""
        # An empty log, then filled (no Event is built): natively a plain call, in
        # pure Python the allocation alone, without running __init__.
        new = EventLog() if _NATIVE else _new(EventLog)
        new._chain = (kind, round, text, player, values, self._chain)
        new._len = self._len + 1
        return new

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Event]:
        return iter(self.as_tuple())

    def _entries(self) -> list[Entry]:
        """The entries, newest first."""
        out = []
        node: Any = self._chain
        while node:
            out.append(node[:5])
            node = node[5]
        return out

    def as_tuple(self) -> tuple[Event, ...]:
        """All events, oldest first."""
        entries = self._entries()
        entries.reverse()
        return tuple(Event(*e) for e in entries)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EventLog):
            return NotImplemented
        if self._len != other._len:
            return False
        a: Any = self._chain
        b: Any = other._chain
        while a and b:  # shared tails compare by identity, so equal logs stop early
            if a is b:
                return True
            if a[:5] != b[:5]:
                return False
            a, b = a[5], b[5]
        return True

    def __hash__(self) -> int:
        return hash(tuple(self._entries()))

    def __repr__(self) -> str:
        return f"EventLog(<{self._len} events>)"

    # A log is a value: it pickles as its flat tuple of events (pickling the
    # chained entries would recurse once per event and overflow the stack in a
    # long game), and copying an immutable log may return the log itself.
    def __reduce__(self) -> tuple[Any, ...]:
        return (log_of, (self.as_tuple(),))

    def __copy__(self) -> EventLog:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> EventLog:
        return self


def log_of(events: Iterable[Event]) -> EventLog:
    """The log holding ``events`` in order (the inverse of :meth:`EventLog.as_tuple`)."""
    log = EMPTY_LOG
    for event in events:
        log = log.append(event)
    return log


EMPTY_LOG = EventLog()
_new = object.__new__
_NATIVE = is_native(EventLog)  # the compiled build
