"""The append-only event log of a game (automatic steps and decisions).

The log is a persistent linked list: appending shares every earlier entry with
the previous state, so a long game never copies its history per action.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import attrs


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


#: The built-in event kinds whose first value is a plant (a card label).
PLANT_EVENTS = frozenset(
    {
        "auction_opened",
        "bid",
        "plant_bought",
        "plant_discarded",
        "plant_drawn",
        "plant_removed",
        "plant_under_deck",
        "discount_placed",
        "discount_removed",
    }
)


class EventLog:
    """An immutable sequence of :class:`Event`, cheap to extend."""

    __slots__ = ("_len", "_prev", "event")

    def __init__(self, event: Event | None = None, prev: EventLog | None = None) -> None:
        self.event = event
        self._prev = prev
        self._len: int = 0 if event is None else (prev._len if prev else 0) + 1

    def append(self, event: Event) -> EventLog:
        """Return a new log with ``event`` added at the end."""
        return EventLog(event, self)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Event]:
        return iter(self.as_tuple())

    def as_tuple(self) -> tuple[Event, ...]:
        """All events, oldest first."""
        out: list[Event] = []
        node: EventLog | None = self
        while node is not None and node.event is not None:
            out.append(node.event)
            node = node._prev
        out.reverse()
        return tuple(out)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EventLog):
            return NotImplemented
        a: EventLog | None = self
        b: EventLog | None = other
        if a is b:
            return True
        if self._len != other._len:
            return False
        while a is not None and b is not None:
            if a is b:
                return True
            if a.event != b.event:
                return False
            a, b = a._prev, b._prev
        return a is b

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        return f"EventLog(<{self._len} events>)"

    # A log is a value: it pickles as its flat tuple of events (pickling the
    # linked nodes would recurse once per event and overflow the stack in a
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
