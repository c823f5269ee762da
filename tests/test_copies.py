"""``powergrid.frozen.evolve``, the engine's one way to change a record (issue 33 item 5).

It must behave as ``attrs.evolve`` does for every record of a state, misspelt names
included: a name that is not a field raises ``TypeError`` instead of being kept.
"""

from __future__ import annotations

import attrs
import pytest

import powergrid as pg
from powergrid.frozen import evolve


def test_evolve_refuses_a_name_the_record_does_not_have() -> None:
    """A misspelt field raises, on dict-based records and slotted ones, naming it."""
    state = pg.new_game(pg.GameConfig(players=3), seed=1)
    with pytest.raises(TypeError, match="GameState has no field 'phse'"):
        evolve(state, phse=None)
    with pytest.raises(TypeError, match="Secret has no field 'dek'"):
        evolve(state.secret, dek=())
    with pytest.raises(TypeError):
        attrs.evolve(state.secret, dek=())  # type: ignore[call-arg]  # what it imitates


def test_evolve_changes_what_it_is_told_and_nothing_else() -> None:
    """The copy has the new values; the original and the other fields are unchanged."""
    state = pg.new_game(pg.GameConfig(players=3), seed=1)
    later = evolve(state, round=4, step=2)
    assert (later.round, later.step, state.round, state.step) == (4, 2, 1, 1)
    assert later == attrs.evolve(state, round=4, step=2)  # type: ignore[misc]  # attrs' own copy, to compare with
    secret = evolve(state.secret, deck=state.secret.deck[1:])
    assert secret == attrs.evolve(state.secret, deck=state.secret.deck[1:])
