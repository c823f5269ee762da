"""Automatic actors: a module's robot holds a place in the order and plays inside apply.

The ``robot`` module of ``tests/plugins`` adds an actor at position 2 of the
player order (where the 2-player fund will stand). Each round it takes one token in
phase 3, and once it puts a house in phase 4. It is never a seat:
``current_player`` and ``legal_actions`` never act for it, it takes no part in
the auction, and the human-only counts (AUC-14's last player, the bidders,
Step 2, BLD-12, the game end, the ranking) ignore it.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.enums import Phase
from powergrid.formats.text import show_lines
from powergrid.testing import check_game, check_ruleset, maps_of, playout

ROBOT = -1
# Each component set on the boards it plays (Deluxe: Europe, North America).
BOARDS = [(c, m) for c in pg.config.COMPONENT_SETS for m in maps_of(c)]


pytestmark = pytest.mark.usefixtures("plugins_installed")


def robot_game(players: int = 3, **config: object) -> pg.GameConfig:
    # The robot replaces the fund's setup: a 2-player Deluxe game leaves the fund out
    # explicitly (issue 32 item 8), a 2-player Recharged game the Trust (RCH-84: only as
    # boardgamers.space's 2-player game, OQ-R03).
    if players == 2 and config.get("components", "deluxe") == "deluxe":
        config.setdefault("without", {"fund"})
    if players == 2 and config.get("components") == "recharged":
        config.setdefault("options", {"two_player_boardgamers"})
    return pg.GameConfig(players=players, modules=("robot",), **config)  # type: ignore[arg-type]


def play_until(state: pg.GameState, phase: Phase, rnd: random.Random) -> pg.GameState:
    while state.phase is not phase:
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    return state


def test_the_robot_stands_at_position_2_and_never_gets_a_decision() -> None:
    """The actor is in the order at position 2, after every re-order (phase 1) too."""
    cfg = robot_game(4)
    rounds_seen = set()
    for state, action in playout(cfg, 5, 5):
        assert state.order[1] == ROBOT
        assert sorted(s for s in state.order if s >= 0) == [0, 1, 2, 3]
        assert pg.current_player(state) in (0, 1, 2, 3)
        assert all(a.player >= 0 for a in pg.legal_actions(state))
        assert action.player >= 0
        rounds_seen.add(state.round)
    assert len(rounds_seen) > 3


def test_the_robot_takes_one_token_a_round_between_the_seats() -> None:
    """RES-01: its phase-3 turn falls between the seats, in reverse player order."""
    rnd = random.Random(0)
    state = play_until(pg.new_game(robot_game(3), seed=2), Phase.RESOURCES, rnd)
    first, robot_place, second, third = state.order  # ORD-04 re-ordered after phase 2
    assert robot_place == ROBOT
    state = play_until(state, Phase.BUILDING, rnd)
    bought = [e for e in state.events if e.kind in ("resources_bought", "robot_took")]
    takers = list(dict.fromkeys(e.player for e in bought))  # first purchase of each
    # reverse order: third, second, then the robot, then the first seat
    expected = [p for p in (third, second, ROBOT, first) if p in takers]
    assert ROBOT in takers
    assert takers == expected
    robot = state.actor(ROBOT)
    assert sum(robot.resources) == 1
    assert robot.name == "the robot"


def test_the_robot_builds_a_house_that_blocks_its_city_in_step_1() -> None:
    """BLD-05: its house fills the city's only Step 1 slot; it is on the board and in views."""
    state = pg.new_game(robot_game(3), seed=3)
    rnd = random.Random(3)
    while state.round == 1 or state.phase is not Phase.AUCTION:
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    robot = state.actor(ROBOT)
    assert len(robot.cities) == 1
    city = robot.cities[0]
    i = state.rules.area.board.index[city]
    assert state.board.houses[i] == (ROBOT,)
    houses = dict(pg.public_view(state).houses)
    assert houses[city] == (ROBOT,)
    assert pg.public_view(state).actors == state.actors
    assert any("the robot (automatic)" in line for line in show_lines(state))


def test_the_auction_is_human_only() -> None:
    """AUC-05, AUC-14: the robot never bids; the last seat still buys at the minimum."""
    state = pg.new_game(robot_game(2), seed=4)
    assert ROBOT in state.done  # actors start phase 2 done
    first = pg.current_player(state)
    assert first is not None
    state = pg.apply(state, pg.legal_actions(state)[0])  # opens an auction
    while state.auction is not None:
        assert ROBOT not in state.auction.active
        state = pg.apply(
            state, next(a for a in pg.legal_actions(state) if isinstance(a, pg.PassBid))
        )
    last = pg.current_player(state)
    assert last is not None
    assert last != first
    chooses = [a for a in pg.legal_actions(state) if isinstance(a, pg.ChoosePlant)]
    assert chooses
    # AUC-14: at its number, no auction
    assert all(a.bid == state.rules.number(a.plant) for a in chooses)


@settings(max_examples=12)
@given(
    players=st.integers(2, 6),
    board=st.sampled_from(BOARDS),
    seed=st.integers(0, 2**32 - 1),
)
def test_robot_games_keep_every_invariant(players: int, board: tuple[str, str], seed: int) -> None:
    """CON-10, CON-11: conservation counts the robot as a holder of tokens and houses."""
    components, map_id = board
    cfg = robot_game(players, map=map_id, components=components)
    final = check_game(cfg, seed, seed)
    result = pg.outcome(final)
    assert result is not None
    assert sorted(result.ranking) == list(range(players))  # END-03: seats only
    robot = final.actor(ROBOT)
    took = sum(1 for e in final.events if e.kind == "robot_took")
    assert sum(robot.resources) == took
    assert took <= final.round


@settings(max_examples=5)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_robot_states_round_trip_and_replay(players: int, seed: int) -> None:
    """JSON, pickle and deepcopy keep the actor; records replay; check_ruleset passes."""
    cfg = robot_game(players, map="north_america")
    states = [s for s, _ in playout(cfg, seed, seed)]
    for state in states[:: max(1, len(states) // 5)]:
        assert pg.from_json(pg.to_json(state)) == state
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.deepcopy(state) == state
    check_ruleset(cfg, games=1, seed=seed % 1000)


def test_a_decoded_state_must_list_its_actors() -> None:
    """A document whose order names an actor the state does not hold is refused."""
    state = pg.new_game(robot_game(3), seed=1)
    doc = pg.to_json(state).replace('"actors": [{', '"actors_": [{')
    with pytest.raises(pg.InvalidRecord):
        pg.from_json(doc)
    plain = pg.new_game(pg.GameConfig(players=3), seed=1)
    text = pg.to_json(plain)
    order = list(plain.order)
    bad = text.replace(f'"order": {order}'.replace("'", ""), f'"order": {[*order, -1]}')
    assert bad != text
    with pytest.raises(pg.InvalidRecord, match="order"):
        pg.from_json(bad)
