"""Issue 32 items 5 and 6: the phases as one table, the decision point a part of the state.

The decision point (who acts, in which phase) is derived from the state alone and
kept in a slot of that one state (:class:`powergrid.state.GameState`): no query
changes anything another state's queries read, no copy carries it over, and it is
never part of the state's value (equality, hashing, ``repr``, JSON, pickle).
"""

from __future__ import annotations

import gc
import itertools
import pickle
import sys

import pytest

import powergrid as pg
import powergrid.engine.game as engine
from powergrid.actions import ACTION_TYPES
from powergrid.engine.phases.table import FLOW
from powergrid.enums import Phase
from powergrid.formats.position import edit_position
from powergrid.state import GameState, evolve
from powergrid.testing import playout


def _fresh(state: GameState) -> tuple[object, ...]:
    """The answers for an equal state the engine never saw (its slot empty)."""
    twin = evolve(state)
    return (pg.current_player(twin), pg.legal_actions(twin))


def _auction_floor(players: int = 4, seed: int = 3) -> GameState:
    state = pg.new_game(pg.GameConfig(players=players), seed=seed)
    assert state.phase is Phase.AUCTION
    assert state.auction is None
    return state


# --- item 6: queries have no side effects ------------------------------------------


def test_queries_leave_the_engine_module_unchanged() -> None:
    """Issue 32 item 6: is_legal, explain_illegal, legal_actions and current_player
    change no module-global state (main's engine._LAST was overwritten by is_legal)."""
    a = _auction_floor(seed=1)
    b = _auction_floor(seed=2)
    before = dict(vars(engine))
    action = pg.legal_actions(b)[0]
    assert pg.is_legal(b, action)
    assert pg.explain_illegal(b, pg.PassAuction(player=99)) is not None
    pg.legal_actions(a)
    pg.current_player(b)
    after = dict(vars(engine))
    assert after.keys() == before.keys()
    assert [k for k in before if after[k] is not before[k]] == []


def test_the_engine_keeps_no_state_of_a_game_alive() -> None:
    """Issue 32 item 6: once the caller drops a game's states they are freed; the
    engine remembers no decision point of its own (main's memo kept the last one)."""
    state = _auction_floor()
    state = pg.apply(state, pg.legal_actions(state)[0])
    gc.collect()
    # Nothing but this name refers to the state (the compiled build's native records
    # take no weak reference, so ask the count).
    assert sys.getrefcount(state) == 2  # the name and getrefcount's own argument


def test_a_query_on_one_state_does_not_change_the_answers_for_another() -> None:
    """Issue 32 item 6: asking about one state, its copies or another game between
    the questions about a state changes none of its answers."""
    a = _auction_floor(seed=5)
    expected = (pg.current_player(a), pg.legal_actions(a))
    first = pg.legal_actions(a)[0]
    b = pg.apply(a, first)  # a later point of the same game
    other = _auction_floor(players=3, seed=8)
    for probe in (b, other, evolve(a), a):
        for action in pg.legal_actions(probe)[:3]:
            pg.is_legal(probe, action)
            pg.explain_illegal(probe, action)
        pg.current_player(probe)
        assert (pg.current_player(a), pg.legal_actions(a)) == expected
        assert pg.apply(a, first) == b


# --- item 6: a state made elsewhere derives its own decision point -----------------


def test_evolve_never_carries_the_decision_point_of_its_source() -> None:
    """Issue 32 item 6: a copy made by evolve asks its own question (CON-06: the next
    seat not done acts), even though its source's decision point was known."""
    state = _auction_floor()
    seat = pg.current_player(state)
    assert seat is not None
    for made in (
        evolve(state, done=state.done | {seat}),
        evolve(state, done=state.done | {seat}),
    ):
        assert pg.current_player(made) != seat
        assert (pg.current_player(made), pg.legal_actions(made)) == _fresh(made)
        assert all(a.player != seat for a in pg.legal_actions(made))


def test_a_state_made_by_edit_position_has_its_own_decision_point() -> None:
    """Issue 32 item 6: edit_position's result answers for itself, not for its source."""
    state = _auction_floor()
    order = state.order
    edited = edit_position(state, done=list(order[:2]))
    assert pg.current_player(edited) == order[2]
    assert (pg.current_player(edited), pg.legal_actions(edited)) == _fresh(edited)


@pytest.mark.parametrize("made", ["json", "pickle", "position"])
def test_a_state_read_back_plays_like_its_source(made: str) -> None:
    """Issue 32 item 6: JSON, pickle and the position text give states whose decision
    point is derived again and agrees with the source's."""
    for state, _ in itertools.islice(playout(pg.GameConfig(players=3), 4, 4), 120):
        if made == "json":
            back = pg.from_json(pg.to_json(state))
        elif made == "pickle":
            back = pickle.loads(pickle.dumps(state))
        else:
            back = pg.parse_position(pg.position_text(state))
        assert back is not state
        assert pg.current_player(back) == pg.current_player(state)
        assert pg.legal_actions(back) == pg.legal_actions(state)


def test_the_decision_point_is_not_part_of_the_value() -> None:
    """Issue 32 item 6: a known decision point changes no equality, hash, repr,
    instance dictionary or pickle (pickles stay what earlier releases wrote)."""
    state = _auction_floor()
    state = pg.apply(state, pg.legal_actions(state)[0])  # its slot is filled
    twin = evolve(state)  # its slot is empty
    assert state._decision is not None
    with pytest.raises(AttributeError):
        twin._decision  # noqa: B018 (the slot is filled by the first query only)
    assert state == twin
    assert hash(state) == hash(twin)
    assert repr(state) == repr(twin)
    assert state.__getstate__() == twin.__getstate__()  # what a pickle stores
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.dumps(state, protocol) == pickle.dumps(twin, protocol)
    assert pg.to_json(state) == pg.to_json(twin)
    with pytest.raises(AttributeError):
        pickle.loads(pickle.dumps(state))._decision  # noqa: B018


def test_every_state_of_a_game_answers_like_a_fresh_copy() -> None:
    """Issue 32 item 6: the decision point the engine sets on the states it returns is
    the one derived from the state alone, through a whole game with an actor (fund)."""
    config = pg.GameConfig(players=2, components="deluxe")
    for state, _ in playout(config, 6, 6):
        assert (pg.current_player(state), pg.legal_actions(state)) == _fresh(state)


def test_a_chance_point_and_a_finished_game_answer_from_their_state() -> None:
    """Issue 32 item 6: at a chance point CHANCE acts; a finished game has nobody to act."""
    config = pg.GameConfig(players=3, options=frozenset({"explicit_chance"}))
    point = pg.new_game(config, seed=2)
    assert pg.current_player(point) == pg.CHANCE
    assert pg.current_player(evolve(point)) == pg.CHANCE
    *_, (last, action) = playout(pg.GameConfig(players=3), 1, 1)
    over = pg.apply(last, action)
    assert over.phase is Phase.GAME_OVER
    assert pg.current_player(over) is None
    assert pg.legal_actions(over) == ()
    assert pg.current_player(evolve(over)) is None


def test_a_hand_built_state_between_phases_refuses_actions_with_a_reason() -> None:
    """A phase whose players are all done but not yet ended (only a hand-built state)
    has nobody to act: an action is illegal with a stable reason, not a crash."""
    state = _auction_floor()
    stuck = evolve(state, done=frozenset(state.order))
    assert pg.current_player(stuck) is None
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(stuck, pg.PassAuction(player=state.order[0]))
    assert err.value.reason is pg.Reason.NOT_YOUR_TURN


# --- item 5: the phase table ------------------------------------------------------


def test_every_phase_has_one_record_at_its_index() -> None:
    """Issue 32 item 5 (CON-03): FLOW has one record per Phase, at the phase's value."""
    assert [r.phase for r in FLOW] == list(Phase)
    for record in FLOW:
        assert FLOW[record.phase] is record


def test_every_transition_of_the_table_names_a_phase_it_has() -> None:
    """Issue 32 item 5: every phase a record may be followed by exists, every phase
    but the setup is reached, and only the game's end is followed by nothing."""
    reached = {target for r in FLOW for target in r.follows_any}
    assert reached <= set(Phase)
    assert reached == set(Phase) - {Phase.SETUP}
    assert [r.phase for r in FLOW if not r.follows_any] == [Phase.GAME_OVER]


def test_each_action_class_belongs_to_one_deciding_phase() -> None:
    """Issue 32 item 5: a phase that asks players names its actions; no action is
    played in two phases, and phases that ask nobody name none."""
    named = [a for r in FLOW for a in r.actions]
    assert len(named) == len(set(named))
    assert set(named) <= set(ACTION_TYPES)
    for record in FLOW:
        assert bool(record.actions) == record.decides or record.phase is Phase.SETUP
        assert record.action_set == frozenset(record.actions)


def test_a_game_moves_between_phases_only_as_the_table_says() -> None:
    """Issue 32 item 5: consecutive decision points of whole games lie in the same
    phase or one the table reaches through phases that ask nobody."""

    def reachable(start: Phase) -> set[Phase]:
        seen: set[Phase] = set()
        todo = list(FLOW[start].follows_any)
        while todo:
            phase = todo.pop()
            if phase not in seen:
                seen.add(phase)
                if not FLOW[phase].decides:
                    todo.extend(FLOW[phase].follows_any)
        return seen

    for config in (pg.GameConfig(players=4), pg.GameConfig(players=2, components="deluxe")):
        moves = list(playout(config, 7, 7))
        phases = [s.phase for s, _ in moves] + [pg.apply(*moves[-1]).phase]
        for before, after in itertools.pairwise(phases):
            assert after is before or after in reachable(before), (before, after)
