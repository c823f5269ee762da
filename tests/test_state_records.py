"""The state records' copy helper and the event log's storage (DESIGN: State).

``evolve`` derives a record with some fields replaced and never changes the
original; the event log appends without copying its history and keeps entries
shared with every later log, while reading back equal Event values.
"""

from __future__ import annotations

import pickle

import attrs

import powergrid as pg
from powergrid.events import EMPTY_LOG, Event, EventLog, log_of
from powergrid.state import evolve


@attrs.frozen
class _NoFields:
    pass


@attrs.frozen
class _Slotted:
    x: int
    y: str = "a"


def test_evolve_replaces_fields_and_leaves_the_original() -> None:
    state = pg.new_game(pg.GameConfig(players=3), seed=4)
    later = evolve(state, round=5, done=frozenset({1}))
    assert (later.round, later.done) == (5, frozenset({1}))
    assert (state.round, state.done) == (1, frozenset())
    assert later.players is state.players  # unchanged parts are shared
    assert evolve(state) == state


def test_evolve_rebuilds_slotted_records_even_without_fields() -> None:
    assert evolve(_Slotted(1), y="b") == _Slotted(1, "b")
    assert evolve(_NoFields()) == _NoFields()


def test_the_log_reads_back_the_events_it_was_given() -> None:
    events = [Event("bid", 1, "player 0 bids 14.", 0, ("13", 14)), Event("deck_empty", 9, "x")]
    log = EMPTY_LOG.append(events[0]).added("deck_empty", 9, "x", None, ())
    assert log.as_tuple() == tuple(events)
    assert list(log) == events
    assert len(log) == 2
    assert log.event == events[1]
    assert EMPTY_LOG.event is None
    assert log == log_of(events)
    assert hash(log) == hash(log_of(events))
    assert log != log_of(events[:1])
    assert log != log_of([events[0], events[0]])
    assert pickle.loads(pickle.dumps(log)) == log


def test_a_long_log_shares_its_history_with_every_branch() -> None:
    log = EventLog()
    for i in range(2000):
        log = log.added("bid", 1 + i // 100, f"player {i % 4} bids {i}.", i % 4, ("13", i))
    branch = log.added("bid_passed", 20, "player 1 drops out.", 1, ())
    assert branch.as_tuple()[:-1] == log.as_tuple()
    assert branch._chain[5] is log._chain  # the branch holds the 2,000 entries, not a copy
    assert len(branch) == 2001
    assert branch.as_tuple()[-1] == Event("bid_passed", 20, "player 1 drops out.", 1, ())
