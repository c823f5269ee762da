"""Recharged Steps, phase 5 and the game end (RULES.md 13.5, 13.7, 13.8).

RCH-44, RCH-70..RCH-75, RCH-80, RCH-81 with EC-R04, EC-R10, EC-R11 and EC-R16.
Refill numbers are BUR-06's rows (RCH-40); thresholds are 13.10's. Markets are
written ``actual | future``; the decks are stacked.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import powergrid as pg
from powergrid.enums import Phase
from powergrid.state import GameState
from powergrid.testing import invariant_violations
from tests.recharged_parts import (
    DE_AREAS,
    A,
    B,
    C,
    D,
    auction,
    events_of,
    rc,
    reject,
)
from tests.scenario import arrange, finish_phase, give, labels, play

KINDS = ("coal", "oil", "garbage", "uranium")
EMPTY = dict.fromkeys(KINDS, 0)
# RC-DE cities by region (DE_AREAS): red, cyan, yellow, green, purple.
RED = ("osnabruck", "munster", "essen", "duisburg", "dortmund", "dusseldorf", "kassel")
CYAN = ("aachen", "koln", "trier", "mainz", "frankfurt_m", "saarbrucken", "mannheim")
YELLOW = ("halle", "leipzig", "dresden", "erfurt", "fulda", "wurzburg", "nurnberg")
GREEN = ("flensburg", "kiel", "hamburg", "hannover", "bremen", "wilhelmshaven", "cuxhaven")
PURPLE = ("freiburg", "stuttgart", "konstanz", "augsburg", "regensburg", "munchen", "passau")
AREA_CITIES = (*RED, *CYAN, *YELLOW, *GREEN, *PURPLE)


def building(
    players: int,
    *,
    actual: Sequence[int],
    future: Sequence[int],
    deck: Sequence[int],
    step: int = 1,
    round: int = 5,
    under_step3: Sequence[int] = (),
) -> GameState:
    """Phase 4 of RC-DE, player order A, B, C(, ...): the last seat builds first (BLD-01).

    The resource market is emptied into the supply so that a refill shows its full row.
    """
    s = rc(players)
    s = arrange(
        s,
        round=round,
        step=step,
        phase=Phase.BUILDING,
        order=tuple(range(players)),
        done=(),
        actual=actual,
        future=future,
        top=None,
        deck=deck,
        under_step3=under_step3,
        market_tokens=EMPTY,
    )
    for seat in range(players):
        s = give(s, seat, money=300)
    return s


def refilled(state: GameState, since: int) -> list[tuple[int, ...]]:
    """The tokens each refill since event ``since`` added, as (coal, oil, garbage, uranium)."""
    return [tuple(int(v) for v in e.values) for e in events_of(state, "market_refilled", since)]


def end_building(state: GameState) -> GameState:
    """The seat to build ends its turn."""
    who = pg.current_player(state)
    assert who is not None
    return play(state, pg.EndBuild(player=who))


# --- RCH-70, RCH-71, RCH-72, EC-R10: Step 2 after phase 4 ---------------------------------------


def test_ec_r10_rch_71_step_2_is_checked_after_phase_4() -> None:
    """EC-R10, RCH-71, RCH-72, RCH-36, STP-03: RC-DE, 3 players, phase 4 in reverse order
    C, B, A, market `5 6 9 10 | 11 13 14 15`. C reaches 7 cities with his first house
    (Kassel): no plant is removed yet, nothing is drawn although 5 and 6 are at most 7;
    B cannot build in C's Essen (Step 1, 10 slots only) and pays 10 + 7 for Aachen from
    Koln; A starts in Mainz for 10. After A's turn 5 leaves the game and 20 is drawn:
    `6 9 10 11 | 13 14 15 20`, Step 2; the phase-5 refill uses the Step 2 column
    (3 players: 5 coal, 3 oil, 2 garbage, 1 uranium)."""
    s = building(3, actual=(5, 6, 9, 10), future=(11, 13, 14, 15), deck=(20, 21, 22))
    s = give(s, C, cities=RED[:6])
    s = give(s, B, cities=("koln",))
    market = s.market
    mark = len(s.events)
    assert pg.current_player(s) == C
    s = play(s, pg.Build(player=C, city="kassel"), pg.EndBuild(player=C))
    assert s.players[C].city_count == 7
    assert s.step == 1
    assert s.market == market
    reject(s, pg.Build(player=B, city="essen"), pg.Reason.CITY_FULL, "Step 1")
    after_b = play(s, pg.Build(player=B, city="aachen"))
    assert s.players[B].money - after_b.players[B].money == 17
    s = play(after_b, pg.EndBuild(player=B))
    assert s.market == market
    before_a = s
    s = play(s, pg.Build(player=A, city="mainz"))
    assert before_a.players[A].money - s.players[A].money == 10
    assert s.market == market
    s = play(s, pg.EndBuild(player=A))
    assert s.phase is Phase.BUREAUCRACY
    assert s.step == 2
    assert s.market.removed == labels(5)
    assert s.market.actual == labels(6, 9, 10, 11)
    assert s.market.future == labels(13, 14, 15, 20)
    s = finish_phase(s)
    assert refilled(s, mark) == [(5, 3, 2, 1)]


def test_rch_71_step_1_with_seven_cities_during_phase_4_is_a_sound_position() -> None:
    """RCH-71: after C reaches 7 cities and before phase 4 ends the game is still in
    Step 1; the state invariants hold there."""
    s = building(3, actual=(5, 6, 9, 10), future=(11, 13, 14, 15), deck=(20, 21, 22))
    s = give(s, C, cities=RED[:6])
    s = play(s, pg.Build(player=C, city="kassel"), pg.EndBuild(player=C))
    assert s.step == 1
    assert invariant_violations(s) == []


@pytest.mark.parametrize(("players", "threshold"), [(3, 7), (4, 7), (5, 7), (6, 6)])
def test_rch_70_step_2_threshold(players: int, threshold: int) -> None:
    """RCH-70, RCH-71, 13.10: Step 2 begins after a phase 4 in which a player reached 7
    cities (6 with 6 players); one city fewer leaves Step 1."""
    for reach, step in ((threshold, 2), (threshold - 1, 1)):
        s = building(players, actual=(5, 6, 9, 10), future=(11, 13, 14, 15), deck=(20, 21))
        last = players - 1
        s = give(s, last, cities=AREA_CITIES[: reach - 1])
        s = play(s, pg.Build(player=last, city=AREA_CITIES[reach - 1]))
        s = finish_phase(s)
        assert s.phase is Phase.BUREAUCRACY
        assert s.step == step, reach
        assert ("5" in s.market.removed) is (step == 2)


# --- RCH-73, EC-R16: the Step 3 card as the Step 2 replacement -------------------------------


def _step3_as_step2_replacement() -> tuple[GameState, int]:
    """EC-R16's phase 4: C reaches 7 cities, the Step 3 card is next, 20 21 22 under it."""
    s = building(
        4, actual=(5, 6, 9, 10), future=(11, 13, 14, 15), deck=(), under_step3=(20, 21, 22)
    )
    s = give(s, D, cities=RED[:6])
    mark = len(s.events)
    s = play(s, pg.Build(player=D, city="kassel"))
    return finish_phase(s), mark


def test_ec_r16_rch_73_step_3_card_as_step_2_replacement_resolved_at_once() -> None:
    """EC-R16, RCH-73, RCH-71: phase 4 ends with D at 7 cities; Step 2 removes 5, and its
    replacement is the Step 3 card: at once 6 and the card leave the game, nothing is
    drawn, the deck (20 21 22) is shuffled. Phase 5 shows `9 10 11 13 14 15` while it is
    still Step 2."""
    s, _ = _step3_as_step2_replacement()
    assert s.phase is Phase.BUREAUCRACY
    assert s.step == 2
    assert not s.market.step3_in_market
    assert s.market.plants == labels(9, 10, 11, 13, 14, 15)
    assert s.market.removed == labels(5, 6)


def test_ec_r16_rch_73_end_of_phase_5() -> None:
    """EC-R16, RCH-73: the phase 5 that follows refills with the Step 2 column (4 players:
    6 coal, 4 oil, 3 garbage, 2 uranium), and Step 3 plays the next round with
    `9 10 11 13 14 15`, all actual; 5 and 6 left the game, 20 21 22 are the deck."""
    s, mark = _step3_as_step2_replacement()
    s = finish_phase(s)
    assert refilled(s, mark) == [(6, 4, 3, 2)]
    assert s.round == 6
    assert s.phase is Phase.AUCTION
    assert s.step == 3
    assert s.market.actual == labels(9, 10, 11, 13, 14, 15)
    assert s.market.future == ()
    assert s.market.removed == labels(5, 6)
    assert sorted(s.secret.deck) == sorted(labels(20, 21, 22))


# --- RCH-74, RCH-75, RCH-44: phase 5 ---------------------------------------------------------


def _phase5(
    *,
    step: int,
    actual: Sequence[int],
    future: Sequence[int],
    deck: Sequence[int],
    under_step3: Sequence[int] = (),
) -> GameState:
    """Phase 5 of RC-DE, 4 players, empty resource market, nobody powering anything yet."""
    s = rc(4)
    return arrange(
        s,
        round=7,
        step=step,
        phase=Phase.BUREAUCRACY,
        order=(A, B, C, D),
        done=(),
        actual=actual,
        future=future,
        top=None,
        deck=deck,
        under_step3=under_step3,
        step3_in_deck=step < 3,
        market_tokens=EMPTY,
    )


def test_rch_74_step_3_card_drawn_in_phase_5() -> None:
    """RCH-74, STP-08, BUR-07: Step 2, market `9 10 11 13 | 14 15 16 18`, the Step 3 card
    next, 20 and 21 under it. Phase 5 refills with the Step 2 column (6 4 3 2), then 18
    goes under the deck and the Step 3 card comes up: 9 and the card leave the game, no
    replacement, the deck (20 21 18) is shuffled: Step 3 with `10 11 13 14 15 16`."""
    s = _phase5(
        step=2, actual=(9, 10, 11, 13), future=(14, 15, 16, 18), deck=(), under_step3=(20, 21)
    )
    mark = len(s.events)
    s = finish_phase(s)
    assert refilled(s, mark) == [(6, 4, 3, 2)]
    assert s.step == 3
    assert s.market.actual == labels(10, 11, 13, 14, 15, 16)
    assert s.market.removed[-1:] == labels(9)
    assert sorted(s.secret.deck) == sorted(labels(18, 20, 21))


def test_rch_75_deck_exhausted_phase_5_removes_the_lowest_without_a_draw() -> None:
    """RCH-75, STP-12, BUR-07: Step 3, deck empty, market `20 22 24 26 28 30`: phase 5
    removes 20 and draws nothing: `22 24 26 28 30`; the refill is the Step 3 column
    (4 5 4 2)."""
    s = _phase5(step=3, actual=(20, 22, 24, 26, 28, 30), future=(), deck=())
    mark = len(s.events)
    s = finish_phase(s)
    assert refilled(s, mark) == [(4, 5, 4, 2)]
    assert s.market.removed[-1:] == labels(20)
    assert s.market.actual == labels(22, 24, 26, 28, 30)
    assert events_of(s, "deck_empty", mark)


def test_rch_44_phase_5_order_income_refill_market_update() -> None:
    """RCH-44, BUR-08: phase 5 pays every income first, then refills, then updates the plant
    market (Step 1: 15 goes under the deck and 20 is drawn)."""
    s = _phase5(step=1, actual=(9, 10, 11, 13), future=(14, 15, 16, 18), deck=(20, 21))
    mark = len(s.events)
    s = finish_phase(s)
    order = [e.kind for e in s.events.as_tuple()[mark:]]
    kinds_seen = [k for k in order if k in {"powered", "market_refilled", "plant_under_deck"}]
    assert kinds_seen == ["powered"] * 4 + ["market_refilled", "plant_under_deck"]
    assert order[order.index("plant_under_deck") + 1] == "plant_drawn"
    assert s.market.plants == labels(9, 10, 11, 13, 14, 15, 16, 20)


# --- EC-R04: the token plant's replacement is the Step 3 card -----------------------------------


def test_ec_r04_token_plant_unsold_replacement_is_the_step_3_card() -> None:
    """EC-R04, RCH-33, RCH-39, STP-06: RC-DE, Step 2, round 7, token on 19, market at the
    end of the auctions `19 24 27 33 | 35 37 38 39` (A, B, C bought; D passes). At the
    end of phase 2: 19 leaves the game, its replacement is the Step 3 card; then 24 and
    the card leave, nothing is drawn: `27 33 35 37 38 39`, all actual, Step 3 from
    phase 3; the phase-5 refill uses the Step 3 column (4 players: 4 5 4 2)."""
    s = auction(
        round=7,
        step=2,
        actual=(19, 24, 27, 33),
        future=(35, 37, 38, 39),
        deck=(),
        discount=19,
        done=(A, B, C),
        bought=(A, B, C),
    )
    s = arrange(s, under_step3=(40, 42), market_tokens=EMPTY)
    mark = len(s.events)
    s = play(s, pg.PassAuction(player=D))
    assert s.phase is Phase.RESOURCES
    assert s.step == 3
    assert s.market.actual == labels(27, 33, 35, 37, 38, 39)
    assert s.market.future == ()
    assert s.market.removed == labels(19, 24)
    assert not s.market.step3_in_market
    s = finish_phase(finish_phase(finish_phase(s)))
    assert refilled(s, mark) == [(4, 5, 4, 2)]


# --- RCH-80, RCH-81, EC-R11: the game end ----------------------------------------------------


@pytest.mark.parametrize(("players", "threshold"), [(3, 17), (4, 17), (5, 15), (6, 14)])
def test_rch_80_game_end_threshold(players: int, threshold: int) -> None:
    """RCH-80, END-01, 13.10: the game ends after a phase 4 in which a player reached 17
    cities (3-4 players), 15 (5), 14 (6); one fewer plays on to phase 5."""
    for reach, over in ((threshold, True), (threshold - 1, False)):
        s = building(players, step=3, actual=(20, 22, 24, 26, 28, 30), future=(), deck=(31, 32))
        s = arrange(s, step3_in_deck=False)
        last = players - 1
        cities = AREA_CITIES[: len(DE_AREAS[players]) * 7]
        s = give(s, last, cities=cities[: reach - 1])
        s = play(s, pg.Build(player=last, city=cities[reach - 1]))
        s = finish_phase(s)
        assert (s.phase is Phase.GAME_OVER) is over, reach


def test_rch_80_two_players_end_at_18() -> None:
    """RCH-80, OQ-R03: with 2 players the game ends at 18 cities (21 with the option
    ``two_player_boardgamers``)."""
    assert rc(2).rules.end_cities == 18
    assert rc(2, options={"two_player_boardgamers"}).rules.end_cities == 21


def test_ec_r11_step_2_and_game_end_in_the_same_phase_4() -> None:
    """EC-R11, RCH-71, RCH-80, END-02: Step 1, 4 players; A (6 cities, plants 50, 44, 37:
    15 cities without fuel) builds 11 more to 17. The game ends after phase 4: no phase 5,
    no refill, no plant-market update; A wins powering 15."""
    s = building(4, actual=(5, 6, 9, 10), future=(11, 13, 14, 15), deck=(20, 21, 22))
    s = give(s, D, cities=RED[:6], plants=(37, 44, 50), money=1000)
    mark = len(s.events)
    tokens = s.resources
    for city in (RED[6], *CYAN, *YELLOW[:3]):
        s = play(s, pg.Build(player=D, city=city))
    assert s.players[D].city_count == 17
    s = finish_phase(s)
    assert s.phase is Phase.GAME_OVER
    assert not events_of(s, "market_refilled", mark)
    assert not events_of(s, "plant_under_deck", mark)
    assert s.resources == tokens
    assert s.result is not None
    assert s.result.winner == D
    assert s.result.scores[D].powered == 15


def test_rch_81_tie_on_cities_powered_money_decides() -> None:
    """RCH-81, END-02: B and D both power 17 cities; D has 22 Elektro, B 10: D wins,
    B is second."""
    s = building(4, step=2, actual=(20, 22, 24, 26), future=(28, 30, 31, 32), deck=(35, 38))
    ring = AREA_CITIES[:17]
    # B: 50 (6) + 44 (5) + 36 (3 coal, 7) = 18; D: 46 (3 coal, 7) + 40 (2 oil, 6) + 33 (4) = 17
    s = give(s, B, cities=ring, plants=(36, 44, 50), resources={"coal": 3}, money=10)
    s = give(s, D, cities=ring, plants=(33, 40, 46), resources={"coal": 3, "oil": 2}, money=22)
    s = arrange(s, end_triggered=True)
    s = finish_phase(s)
    assert s.phase is Phase.GAME_OVER
    assert s.result is not None
    assert s.result.scores[B].powered == 17
    assert s.result.scores[D].powered == 17
    assert s.result.winner == D
    assert s.result.ranking[:2] == (D, B)


def test_rch_72_with_the_too_small_option_stp_07_applies() -> None:
    """RCH-72, STP-07, RCH-36 (option ``too_small_rule``): Step 2, phase 4, market
    `8 17 19 24 | 35 37 39 44`, the Step 3 card next, 20 and 21 under it. D builds a 9th
    city: 8 is too small and leaves, its replacement is the Step 3 card. By the end of
    phase 4 the lowest plant (17) and the card are gone with no replacement, and Step 3
    begins with phase 5: `19 24 35 37 39 44`, refill from the Step 3 column (4 5 4 2)."""
    s = rc(4, options={"too_small_rule"})
    s = arrange(
        s,
        round=6,
        step=2,
        phase=Phase.BUILDING,
        order=(A, B, C, D),
        done=(),
        actual=(8, 17, 19, 24),
        future=(35, 37, 39, 44),
        top=None,
        deck=(),
        under_step3=(20, 21),
        market_tokens=EMPTY,
    )
    s = give(s, D, cities=(*RED, "koln"), money=200)
    mark = len(s.events)
    s = play(s, pg.Build(player=D, city="aachen"))
    assert "8" in s.market.removed
    s = finish_phase(s)
    assert s.phase is Phase.BUREAUCRACY
    assert s.step == 3
    assert s.market.removed[-2:] == labels(8, 17)
    assert s.market.actual == labels(19, 24, 35, 37, 39, 44)
    assert sorted(s.secret.deck) == sorted(labels(20, 21))
    s = finish_phase(s)
    assert refilled(s, mark) == [(4, 5, 4, 2)]


def test_rch_74_oq_r12_step_3_card_in_a_step_1_phase_5() -> None:
    """RCH-74, OQ-R12, STP-10, STP-08: Step 1, market `5 6 9 10 | 11 13 14 15`, the Step 3
    card next, 20 21 22 under it. Phase 5 refills with the Step 1 column (4 players:
    5 3 2 1; no look-ahead), then 15 goes under the deck and the Step 3 card comes up:
    the deck (15 20 21 22) is shuffled, Step 2 starts (5 leaves, a replacement is drawn
    from the shuffled deck), then 6 and the card leave without replacement: Step 3 with
    9 10 11 13 14 and the replacement."""
    s = _phase5(
        step=1, actual=(5, 6, 9, 10), future=(11, 13, 14, 15), deck=(), under_step3=(20, 21, 22)
    )
    mark = len(s.events)
    s = finish_phase(s)
    assert refilled(s, mark) == [(5, 3, 2, 1)]
    assert s.step == 3
    assert s.market.removed[-2:] == labels(5, 6)
    assert s.market.actual[:5] == labels(9, 10, 11, 13, 14)
    assert len(s.market.actual) == 6
    assert s.market.actual[5] in labels(15, 20, 21, 22)
    assert len(s.secret.deck) == 3
