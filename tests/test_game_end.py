"""Game end and winner (RULES.md section 8, BUR-09), classic components.

A classic 3-player game ends at 17 cities (SET-12). Outcome figures are computed
by hand from the printed classic plants and the RULES.md tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import powergrid as pg
from powergrid.enums import Phase
from powergrid.state import GameState
from tests.scenario import CITIES_21, REGIONS, arrange, give, kinds, new, play

A, B, C = 0, 1, 2

# SET-12 game end (cities) by player count, classic.
END_AT = {2: 21, 3: 17, 4: 17, 5: 15, 6: 14}


def phase4(
    players: int = 3,
    *,
    order: Sequence[int] = (A, B, C),
    done: Sequence[int] = (),
    end_triggered: bool = False,
) -> GameState:
    """A classic game in phase 4 of round 9, Step 3, with plants too big for BLD-12."""
    state = new(players, regions=REGIONS[players])
    return arrange(
        state,
        round=9,
        step=3,
        phase=Phase.BUILDING,
        order=order,
        done=done,
        actual=(25, 26, 27, 28, 29, 30),
        future=(),
        deck=(31, 34, 35),
        top=None,
        step3_in_deck=False,
        end_triggered=end_triggered,
    )


def final_turn(state: GameState) -> GameState:
    """The last player of phase 4 (seat C here) ends building: the game ends."""
    assert state.end_triggered
    assert pg.current_player(state) == C
    return play(state, pg.EndBuild(player=C))


# --- END-01, BUR-09, END-02: timing ------------------------------------------------------------


def test_game_end_timing_classic_3_players() -> None:
    """EC-45, END-01, END-02, END-03, BUR-09: C reaches 17 (and goes on to 18) in phase 4;
    B and A still take their turns; then no phase 5: no income, no refill, no market
    update; the money tie-break between A and B uses the money after phase 4.
    """
    state = phase4(order=(A, B, C))
    # C: 16 cities, plants 50 (fusion -> 6) and 44 (eco -> 5): powers 11.
    state = give(state, C, money=100, plants=[44, 50], cities=CITIES_21[:16])
    # B: 7 cities, 37 (eco -> 4) + 22 (eco -> 2): powers 6, 52 Elektro.
    state = give(state, B, money=52, plants=[22, 37], cities=CITIES_21[:7])
    # A: 6 cities, 33 (eco -> 4) + 18 (eco -> 2): powers 6, 60 Elektro before building.
    state = give(state, A, money=60, plants=[18, 33], cities=CITIES_21[7:13])
    market_before = state.market
    tokens_before = kinds(state)
    assert pg.current_player(state) == C
    state = play(state, pg.Build(player=C, city="wien"))  # 10 + 7 (praha-wien)
    assert state.players[C].city_count == 17
    assert state.end_triggered
    assert state.phase is Phase.BUILDING
    state = play(state, pg.Build(player=C, city="budapest"))  # may exceed: 10 + 5
    assert state.players[C].money == 100 - 17 - 15
    state = play(state, pg.EndBuild(player=C))
    # The remaining players still build.
    assert state.phase is Phase.BUILDING
    assert pg.current_player(state) == B
    state = play(state, pg.EndBuild(player=B))
    assert pg.current_player(state) == A
    # A builds rhein_ruhr (1 house there): 15 + 4 from vlaanderen = 19 -> 41 Elektro.
    state = play(state, pg.Build(player=A, city="rhein_ruhr"), pg.EndBuild(player=A))
    assert state.phase is Phase.GAME_OVER
    result = pg.outcome(state)
    assert result is not None
    assert result is state.result
    assert result.scores == (
        pg.Score(seat=A, powered=6, money=41, cities=7),
        pg.Score(seat=B, powered=6, money=52, cities=7),
        pg.Score(seat=C, powered=11, money=68, cities=18),
    )
    assert result.winner == C
    assert result.winners == (C,)
    assert result.ranking == (C, B, A)
    assert result.reason
    # BUR-09 / END-02: no income, no refill, no plant-market update.
    assert [p.money for p in state.players] == [41, 52, 68]
    assert kinds(state) == tokens_before
    assert state.market == market_before
    names = [e.kind for e in state.events]
    end_at = names.index("game_end_triggered")
    assert not {"powered", "market_refilled", "plant_under_deck", "plant_drawn"} & set(
        names[end_at:]
    )
    assert names[-1] == "game_over"
    assert state.round == 9


def test_finished_game_accepts_no_action() -> None:
    """END-01, BUR-09: after the final evaluation no phase 5 follows: every action is
    rejected with GAME_OVER and nobody is to act."""
    state = phase4(order=(C, A, B), done=(A, B), end_triggered=True)
    state = give(state, C, cities=CITIES_21[:17])
    state = final_turn(state)
    assert state.phase is Phase.GAME_OVER
    assert pg.current_player(state) is None
    assert pg.legal_actions(state) == ()
    for action in (pg.Power(player=A), pg.EndBuild(player=A), pg.PassAuction(player=A)):
        with pytest.raises(pg.IllegalAction) as err:
            pg.apply(state, action)
        assert err.value.reason is pg.Reason.GAME_OVER


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_game_end_threshold_per_player_count(players: int) -> None:
    """END-01, SET-12: the game end triggers at 21/17/17/15/14 cities, not one earlier."""
    end = END_AT[players]
    last = players - 1  # the first to build in reverse order
    state = phase4(players, order=tuple(range(players)))
    area = state.rules.area
    cities = [area.board.cities[i] for i in area.cities]
    state = give(state, last, money=1000, cities=cities[: end - 2])
    state = play(state, pg.Build(player=last, city=cities[end - 2]))
    assert state.players[last].city_count == end - 1
    assert not state.end_triggered
    state = play(state, pg.Build(player=last, city=cities[end - 1]))
    assert state.players[last].city_count == end
    assert state.end_triggered
    assert state.phase is Phase.BUILDING


def test_no_game_end_without_threshold_goes_to_phase5() -> None:
    """END-01, BUR-08: 16 cities (3 players) do not end the game: phase 5 follows."""
    state = phase4(order=(C, A, B), done=(A, B))
    state = give(state, C, cities=CITIES_21[:16])
    state = play(state, pg.EndBuild(player=C))
    assert state.phase is Phase.BUREAUCRACY
    assert state.result is None
    assert pg.outcome(state) is None


# --- END-02: what a player can power ----------------------------------------------------------


def test_final_evaluation_counts_only_runnable_plants() -> None:
    """END-02, BUR-02, BUR-03: A holds only 3 coal for 36 (3 coal -> 7) and hybrid 46
    (3 coal/oil -> 7): one of them runs, 7 powered. B's 32 (3 oil -> 6) holds only
    2 oil and cannot run; eco 13 powers 1. C powers min(6, 4 cities) = 4 with 50."""
    state = phase4(order=(C, A, B), done=(A, B), end_triggered=True)
    state = give(state, A, money=5, plants=[36, 46], resources={"coal": 3}, cities=CITIES_21[:10])
    state = give(state, B, money=5, plants=[13, 32], resources={"oil": 2}, cities=CITIES_21[:17])
    state = give(state, C, money=5, plants=[50], cities=CITIES_21[:4])
    result = pg.outcome(final_turn(state))
    assert result is not None
    assert [s.powered for s in result.scores] == [7, 1, 4]
    assert result.winner == A
    assert result.ranking == (A, C, B)


# --- END-03 / END-04 / END-05: ranking -------------------------------------------------------


def ranked(a_money: int, b_money: int, a_cities: int, b_cities: int) -> pg.Outcome:
    """A and B each power 17 cities; C powers 1.

    A: 36 (3 coal -> 7), 38 (3 garbage -> 7), 23 (1 uranium -> 3).
    B: 46 (3 coal/oil -> 7, holding oil), 32 (3 oil -> 6), 33 (eco -> 4).
    """
    state = phase4(order=(C, A, B), done=(A, B), end_triggered=True)
    state = give(
        state,
        A,
        money=a_money,
        plants=[23, 36, 38],
        resources={"coal": 3, "garbage": 3, "uranium": 1},
        cities=CITIES_21[:a_cities],
    )
    state = give(
        state,
        B,
        money=b_money,
        plants=[32, 33, 46],
        resources={"oil": 6},
        cities=CITIES_21[21 - b_cities :],
    )
    state = give(state, C, money=200, plants=[13], cities=CITIES_21[:1])
    result = pg.outcome(final_turn(state))
    assert result is not None
    return result


def test_tie_on_powered_and_money_broken_by_cities() -> None:
    """EC-44, END-03: both power 17, both have 30; A has 18 cities, B 17 -> A wins."""
    result = ranked(30, 30, 18, 17)
    assert result.scores[A] == pg.Score(seat=A, powered=17, money=30, cities=18)
    assert result.scores[B] == pg.Score(seat=B, powered=17, money=30, cities=17)
    assert result.scores[C] == pg.Score(seat=C, powered=1, money=200, cities=1)
    assert result.winner == A
    assert result.winners == (A,)
    assert result.ranking == (A, B, C)


def test_tie_on_powered_broken_by_money() -> None:
    """EC-44, END-03: both power 17; A 30 Elektro, B 31 -> B wins despite fewer cities."""
    result = ranked(30, 31, 18, 17)
    assert result.winner == B
    assert result.winners == (B,)
    assert result.ranking == (B, A, C)


def test_money_does_not_beat_powered_cities() -> None:
    """END-03: C, with by far the most money (200), powers least and ranks last."""
    result = ranked(30, 31, 18, 17)
    assert result.ranking[-1] == C


def test_full_tie_is_a_shared_win() -> None:
    """END-04, OQ-23: equal powered (17), money (30) and cities (17): A and B share."""
    result = ranked(30, 30, 17, 17)
    assert result.winner is None
    assert result.winners == (A, B)
    assert set(result.ranking[:2]) == {A, B}
    assert result.ranking[2] == C


def test_most_cities_is_not_enough() -> None:
    """EC-46, END-05, END-03: A has 18 cities but powers 15; B has 17 and powers 16 -> B."""
    state = phase4(order=(C, A, B), done=(A, B), end_triggered=True)
    # A: 36 (7) + 38 (7) + 13 (1) = 15, and much more money.
    state = give(
        state,
        A,
        money=100,
        plants=[13, 36, 38],
        resources={"coal": 3, "garbage": 3},
        cities=CITIES_21[:18],
    )
    # B: 46 (7) + 32 (6) + 27 (eco 3) = 16.
    state = give(
        state, B, money=10, plants=[27, 32, 46], resources={"oil": 6}, cities=CITIES_21[4:]
    )
    state = give(state, C, money=10, plants=[18], cities=CITIES_21[:2])
    result = pg.outcome(final_turn(state))
    assert result is not None
    assert result.scores[A] == pg.Score(seat=A, powered=15, money=100, cities=18)
    assert result.scores[B] == pg.Score(seat=B, powered=16, money=10, cities=17)
    assert result.winner == B
    assert result.ranking == (B, A, C)
