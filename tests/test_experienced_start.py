"""The experienced players' starting cities, an optional Recharged rule (RCH-13, RCH-85 g).

Module ``experienced_start``: each player in player order marks a city with a
uranium token from the supply (``MarkStartCity``, notation ``mark``); the
city is closed to the others in Step 1, its owner's first house must go
there, and the token returns when it does (EC-R19, OQ-R14). With the Trust
its start cities come first and a Trust house waits for each marked city's
15 slot, leaving 8 in its supply (RCH-85 g).
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

import powergrid as pg
from powergrid.bots import GreedyBot, HeuristicBot, MCTSBot, RandomBot
from powergrid.cli.human_input import interpret
from powergrid.cli.human_view import decision_lines, menu
from powergrid.engine.invariants import invariant_violations
from powergrid.enums import Phase
from powergrid.errors import Reason
from powergrid.formats.position_text import parse_position, position_text
from powergrid.module_state import with_module
from powergrid.rules.experienced_start import MarkStartCity, StartCities
from powergrid.rules.fund import FUND
from powergrid.state import GameState
from tests.scenario import arrange

AREA = ("red", "yellow", "cyan")  # Kassel is red; red touches yellow and cyan
THREE: dict[str, Any] = {
    "players": 3,
    "components": "recharged",
    "map": "germany_recharged",
    "modules": ("experienced_start",),
    "regions": AREA,
}
TWO: dict[str, Any] = {**THREE, "players": 2}  # with the Trust, the 2-player default (RCH-84)


def uranium_supply(state: GameState) -> int:
    return state.resources.supply[state.rules.kind_index(pg.Resource.URANIUM)]


def mark(state: GameState, *cities: str) -> GameState:
    """The seats on turn mark ``cities`` in turn."""
    for city in cities:
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, MarkStartCity(player=seat, city=city))
    return state


def marked_game(**config: Any) -> tuple[GameState, tuple[int, ...]]:
    """Three players mark Kassel, Erfurt and Koln in player order; round 1's phase 2 begins."""
    state = pg.new_game(pg.GameConfig(**{**THREE, **config}), seed=0)
    order = tuple(s for s in state.order if s >= 0)
    return mark(state, "kassel", "erfurt", "koln"), order


def building(state: GameState, step: int = 1) -> GameState:
    """Phase 4 of round 2, the order as it stands, nobody done."""
    return arrange(
        state, round=2, step=step, build_step=step, phase=Phase.BUILDING, done=[], discount=None
    )


def markable(state: GameState) -> list[str]:
    """The cities the seat on turn may mark, in the engine's order."""
    return [a.city for a in pg.legal_actions(state) if isinstance(a, MarkStartCity)]


def end_turns_until(state: GameState, seat: int) -> GameState:
    """The seats before ``seat`` end their phase-4 turn without building."""
    while (now := pg.current_player(state)) != seat:
        assert now is not None
        state = pg.apply(state, pg.EndBuild(player=now))
    return state


def consistent(state: GameState) -> GameState:
    assert invariant_violations(state) == []
    return state


# --- RCH-13: marking -----------------------------------------------------------------------


def test_rch_13_oq_r14_each_player_marks_in_order_with_supply_uranium() -> None:
    """RCH-13, OQ-R14: 12 uranium - 2 on the market = 10 in supply; 3 markers leave 7."""
    state = pg.new_game(pg.GameConfig(**THREE), seed=0)
    assert state.phase is Phase.SETUP
    assert uranium_supply(state) == 10
    order = tuple(s for s in state.order if s >= 0)
    assert pg.current_player(state) == order[0]
    legal = pg.legal_actions(state)
    assert all(isinstance(a, MarkStartCity) for a in legal)
    assert len(legal) == 21  # every city of the three regions is empty
    state = mark(state, "kassel")
    assert uranium_supply(state) == 9
    assert pg.current_player(state) == order[1]
    assert "kassel" not in markable(state)
    state = mark(state, "erfurt", "koln")
    assert state.phase is Phase.AUCTION
    assert uranium_supply(state) == 7
    record = state.modules["experienced_start"]
    assert (record.seats, record.cities) == (order, ("kassel", "erfurt", "koln"))
    consistent(state)


@pytest.mark.parametrize(
    ("city", "reason"),
    [
        ("kassel", Reason.CITY_RESERVED),  # marked already
        ("berlin", Reason.OUTSIDE_PLAY_AREA),
        ("atlantis", Reason.UNKNOWN_CITY),
    ],
)
def test_rch_13_a_bad_mark_is_refused_and_changes_nothing(city: str, reason: Reason) -> None:
    """RCH-13: a marked city, one outside the play area or no city is refused with a reason."""
    state = mark(pg.new_game(pg.GameConfig(**THREE), seed=0), "kassel")
    seat = pg.current_player(state)
    assert seat is not None
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, MarkStartCity(player=seat, city=city))
    assert info.value.reason == reason


def test_mark_has_a_notation_a_json_form_and_a_prompt_short_form() -> None:
    """The module's action reads back from ``0:mark kassel``, JSON and ``mark kas``."""
    state = pg.new_game(pg.GameConfig(**THREE), seed=0)
    seat = pg.current_player(state)
    action = MarkStartCity(player=seat or 0, city="kassel")
    assert str(action) == f"{seat}:mark kassel"
    assert pg.parse_action(str(action), state) == action
    assert pg.from_json(pg.to_json(action)) == action
    assert json.loads(pg.to_json(action))["type"] == "MarkStartCity"
    assert interpret("mark kas", state, pg.legal_actions(state)) == action


def test_the_prompt_shows_the_mark_menu_by_region() -> None:
    """The terminal names the decision (the action's first docstring line) and groups cities."""
    state = pg.new_game(pg.GameConfig(**THREE), seed=0)
    seat = pg.current_player(state)
    assert seat is not None
    lines = decision_lines(state, seat, menu(state, seat))
    text = "\n".join(lines)
    assert "Mark a city of the play area as the player's future starting city" in text
    assert "type a number or mark CITY" in text
    assert "  red:" in text
    assert "kassel" in text


# --- EC-R19: a marked city in phase 4 -----------------------------------------------------------


def test_ec_r19_only_the_owner_builds_in_a_marked_city_in_step_1() -> None:
    """EC-R19: A marked Kassel: B may not build there; A's only city is Kassel; it returns."""
    state, (a, b, _) = marked_game()
    state = building(state)
    other = next(s for s in (0, 1, 2) if s not in (a, b))
    state = arrange(state, order=(a, b, other))  # phase 4 runs in reverse order: b before a
    state = end_turns_until(state, b)
    assert {x.city for x in pg.legal_actions(state) if isinstance(x, pg.Build)} == {"erfurt"}
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.Build(player=b, city="kassel"))
    assert info.value.reason is Reason.CITY_RESERVED
    assert "Kassel is player" in str(info.value)
    assert "Step 1 (RCH-13)" in str(info.value)
    state = pg.apply(state, pg.EndBuild(player=b))
    assert pg.current_player(state) == a
    builds = [x for x in pg.legal_actions(state) if isinstance(x, pg.Build)]
    assert [x.city for x in builds] == ["kassel"]
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.Build(player=a, city="fulda"))
    assert "first house must go in the marked starting city, Kassel" in str(info.value)
    before = uranium_supply(state)
    state = pg.apply(state, pg.Build(player=a, city="kassel"))
    assert uranium_supply(state) == before + 1
    assert state.players[a].cities == ("kassel",)
    assert "kassel" not in state.modules["experienced_start"].cities
    assert list(state.events)[-1].kind == "start_city_built"
    consistent(state)


def test_oq_r14_the_owner_may_wait_and_step_2_opens_the_city() -> None:
    """OQ-R14: A ends his turn unbuilt, keeping the mark; from Step 2 B may build in Kassel."""
    state, (a, b, c) = marked_game()
    state = building(state)
    own = {a: None, b: "erfurt", c: "koln"}
    while state.phase is Phase.BUILDING:
        seat = pg.current_player(state)
        assert seat is not None
        if seat == a:
            assert pg.EndBuild(player=a) in pg.legal_actions(state)
        city = own[seat]
        if city is not None:
            state = pg.apply(state, pg.Build(player=seat, city=city))
        state = pg.apply(state, pg.EndBuild(player=seat))
    assert state.modules["experienced_start"].cities == ("kassel",)
    assert state.modules["experienced_start"].seats == (a,)
    state = building(state, step=2)
    state = end_turns_until(state, b)
    assert "kassel" in {x.city for x in pg.legal_actions(state) if isinstance(x, pg.Build)}
    consistent(state)


# --- RCH-85 g: with the Trust -----------------------------------------------------------------


def test_rch_85_g_the_trust_first_then_marks_and_8_trust_houses_in_supply() -> None:
    """RCH-85 g: six Trust start cities, then two marks: 16 - 6 - 2 = 8 houses in its supply."""
    state = pg.new_game(pg.GameConfig(**TWO), seed=0)
    assert state.config.modules == ("trust", "experienced_start")
    while state.actor(FUND).city_count < 6:
        legal = pg.legal_actions(state)
        assert all(isinstance(a, pg.PlaceFundHouse) for a in legal)
        state = pg.apply(state, legal[0])
    assert state.phase is Phase.SETUP
    assert all(isinstance(a, MarkStartCity) for a in pg.legal_actions(state))
    cities = markable(state)
    assert cities
    assert set(state.actor(FUND).cities).isdisjoint(cities)
    state = mark(state, cities[0])
    state = mark(state, markable(state)[0])
    assert state.phase is Phase.AUCTION
    assert state.actor(FUND).houses == 8
    record = state.modules["experienced_start"]
    assert record.trust_houses == record.cities
    consistent(state)


def test_rch_85_g_the_owners_first_house_brings_the_trust_house_to_the_15_slot() -> None:
    """RCH-85 g: building the marked city puts the waiting Trust house on its 15 slot."""
    state = pg.new_game(pg.GameConfig(**TWO), seed=0)
    while state.phase is Phase.SETUP:
        state = pg.apply(state, pg.legal_actions(state)[0])
    record = state.modules["experienced_start"]
    owner, city = record.seats[0], record.cities[0]
    state = building(state)
    state = end_turns_until(state, owner)
    state = pg.apply(state, pg.Build(player=owner, city=city))
    i = state.rules.area.board.index[city]
    assert state.board.houses[i] == (owner, FUND)
    assert state.actor(FUND).houses == 8  # the house came from the one set aside
    assert city not in state.modules["experienced_start"].trust_houses
    consistent(state)


def test_the_trust_comes_before_the_experienced_start() -> None:
    """RCH-85 g: naming the experienced start before the Trust is refused, naming the order."""
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(**{**TWO, "modules": ("experienced_start", "trust")})
    assert "name 'trust' before it" in str(info.value)
    with pytest.raises(pg.RulesConfigError):
        pg.GameConfig(players=3, modules=("experienced_start",))  # Deluxe: no such option


# --- conservation, positions, round trips ------------------------------------------------------


def test_marking_tokens_are_counted_by_the_conservation_check() -> None:
    """CON-10: the markers are neither in the supply nor on the market, yet all 12 are counted."""
    state, _ = marked_game()
    assert consistent(state)
    lost = with_module(state, "experienced_start", StartCities())  # markers forgotten
    assert any("uranium" in v for v in invariant_violations(lost))


def test_a_position_text_keeps_the_marks_and_the_supply() -> None:
    """The position builder leaves the module's markers out of the supply."""
    state, _ = marked_game()
    again = parse_position(position_text(state), seed=1)
    assert again.modules["experienced_start"] == state.modules["experienced_start"]
    assert again.resources == state.resources


def test_states_with_marks_survive_json_and_pickle() -> None:
    """The module's record comes back from JSON and pickle, mid-setup and after."""
    state = mark(pg.new_game(pg.GameConfig(**TWO), seed=2), *())
    for _ in range(8):  # the Trust's six houses and both marks
        for s in (state,):
            assert pg.from_json(pg.to_json(s)) == s
            assert pickle.loads(pickle.dumps(s)) == s
        state = pg.apply(state, pg.legal_actions(state)[0])
    assert state.phase is Phase.AUCTION
    assert pg.from_json(pg.to_json(state)) == state
    assert pickle.loads(pickle.dumps(state)) == state


@pytest.mark.parametrize(
    "config",
    [pg.GameConfig(**TWO), pg.GameConfig(**{**THREE, "map": "usa_recharged", "regions": None})],
    ids=lambda c: c.label,
)
@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, HeuristicBot])
def test_each_bot_plays_an_experienced_start_game_to_its_end(
    config: pg.GameConfig, bot: Any
) -> None:
    """RCH-13: every bot marks a city, builds there first and finishes the game."""
    state = pg.new_game(config, seed=7)
    bots = [bot(seed=i) for i in range(config.players)]
    while pg.outcome(state) is None:
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, bots[seat].choose(state))
    marks = [e for e in state.events if e.kind == "start_city_marked"]
    assert len(marks) == config.players
    consistent(state)


def test_the_mcts_bot_marks_a_start_city() -> None:
    """The search bot hands the mark to its guide: the most central city it may choose."""
    state = pg.new_game(pg.GameConfig(**THREE), seed=1)
    bot = MCTSBot(seed=0, iterations=2, horizon=1)
    action = bot.choose(state)
    assert isinstance(action, MarkStartCity)
    assert action in pg.legal_actions(state)
