"""Europe map rules: the 4 + 5 market of Step 1 and the no-purchase removal.

Covers SET-26, SET-21, CON-07, STP-02, STP-10, AUC-21, AUC-15, BUR-07 and EC-07,
EC-64, EC-67. The map rules are Deluxe rules (CON-02, OQ-31): they apply to the
Deluxe game, whose deck draws 9 dark plants for the Step 1 market, and to a classic
game only with the ``map_rules`` option ("classic+map_rules"), where SET-11's 3-10
is filled to 4 + 5 with the face-up 13 (design reading). A plain classic game on
this board plays the classic rules (EC-61: 4 + 4 market with 13 face up on the
deck, AUC-20, STP-02 with a replacement); the last section checks that contrast.
Seats: A = 0, B = 1, C = 2, player order A, B, C. Markets are written
``actual | future``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import powergrid as pg
from powergrid.enums import Phase
from powergrid.state import GameState
from powergrid.testing import invariant_violations
from tests.module_parts import discount
from tests.scenario import (
    MAP_RULES,
    arrange,
    give,
    labels,
    new,
    pass_rest,
    play,
    to_next_auction,
)

A, B, C = 0, 1, 2
# The variants that play the Europe map rules (CON-02, OQ-31).
COMPONENTS = MAP_RULES
EU_WEST = ("british_isles_low_countries", "central", "france_iberia")
# Six Central cities; the seventh, katowice, costs 10 + 8 from praha.
SIX = ("bremen", "berlin", "rhein_main", "stuttgart", "munchen", "praha")
ACTUAL = (13, 15, 17, 20)
FUTURE_STEP1 = (22, 25, 27, 30, 33)
FUTURE_STEP2 = (22, 25, 27, 30)


def europe(
    components: str,
    *,
    phase: Phase,
    deck: Sequence[int],
    actual: Sequence[int] = ACTUAL,
    future: Sequence[int] = FUTURE_STEP1,
    step: int = 1,
    round: int = 4,
    under_step3: Sequence[int] = (),
    done: Sequence[int] = (),
) -> GameState:
    """3 players on Europe (British, Central, France) with a fully known plant market."""
    s = new(3, map="europe", regions=EU_WEST, components=components)
    return arrange(
        s,
        round=round,
        step=step,
        phase=phase,
        order=(A, B, C),
        done=done,
        actual=actual,
        future=future,
        top=None,
        deck=deck,
        under_step3=under_step3,
    )


def buy_alone(state: GameState, seat: int, plant: int) -> GameState:
    """``seat`` opens ``plant`` at its number and every other bidder drops out."""
    state = pg.apply(state, pg.ChoosePlant(player=seat, plant=plant, bid=plant))
    while state.auction is not None:
        who = pg.current_player(state)
        assert who is not None
        state = pg.apply(state, pg.PassBid(player=who))
    return state


def removal_texts(state: GameState) -> list[str]:
    """The texts of the plant_removed events, oldest first (they name the rule)."""
    return [e.text for e in state.events if e.kind == "plant_removed"]


# --- SET-26: the Step 1 market ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 7, 2024])
def test_deluxe_step1_market_is_4_plus_5_dark_plants_set_26_set_21(players: int, seed: int) -> None:
    """SET-26, SET-21, CON-07: Deluxe Europe starts with 9 dark plants (03-15), the 4
    lowest actual and the 5 highest future; the next dark plant lies on top of the
    deck. North America keeps 4 + 4 (SET-21 step 2)."""
    s = pg.new_game(pg.GameConfig(players=players, map="europe", components="deluxe"), seed=seed)
    m = s.market
    assert len(m.actual) == 4
    assert len(m.future) == 5
    plants = m.plants
    assert plants == s.rules.ranked(set(plants))
    assert all(3 <= s.rules.number(p) <= 15 for p in plants)
    assert 3 <= s.rules.number(s.secret.deck[0]) <= 15
    assert invariant_violations(s) == []
    na = pg.new_game(
        pg.GameConfig(players=players, map="north_america", components="deluxe"), seed=seed
    )
    assert (len(na.market.actual), len(na.market.future)) == (4, 4)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_classic_map_rules_step1_market_fills_to_nine_with_13_set_26_set_11_oq_31(
    players: int,
) -> None:
    """SET-26, SET-11, CON-13, OQ-31: with the classic components and the ``map_rules``
    option Europe's market is SET-11's 3 4 5 6 | 7 8 9 10 filled to 4 + 5 by the
    face-up 13: 3 4 5 6 | 7 8 9 10 13; no face-up card remains on the deck and the
    Step 3 card is still under it."""
    cfg = pg.GameConfig(players=players, map="europe", components="classic", options={"map_rules"})
    s = pg.new_game(cfg, seed=5)
    assert s.market.actual == labels(3, 4, 5, 6)
    assert s.market.future == labels(7, 8, 9, 10, 13)
    assert s.market.top is None
    assert s.market.step3_in_deck
    assert invariant_violations(s) == []


# --- STP-02 / SET-26: Step 2 removal without replacement -------------------------------------


@pytest.mark.parametrize("components", COMPONENTS)
def test_step2_removes_lowest_without_replacement_set_26_stp_02(components: str) -> None:
    """SET-26, STP-02, STP-01, CON-07: 3 players (Step 2 at 7 cities). C owns six
    Central cities and builds Katowice (praha -8- katowice: 10 + 8): Step 2 begins,
    13 is removed and nothing drawn: 9 cards become 8, 15 17 20 22 | 25 27 30 33; the
    deck is untouched."""
    s = europe(components, phase=Phase.BUILDING, round=5, deck=(35, 36, 38))
    s = give(s, C, money=100, cities=SIX)
    assert pg.current_player(s) == C
    s = play(s, pg.Build(player=C, city="katowice"))
    assert s.players[C].money == 82
    assert s.step == 2
    assert s.market.removed[-1] == "13"
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 33)
    assert s.secret.deck == labels(35, 36, 38)
    assert invariant_violations(s) == []


@pytest.mark.parametrize("components", COMPONENTS)
def test_after_step2_the_market_stays_4_plus_4_set_26_bur_07_auc_10(components: str) -> None:
    """SET-26, BUR-07, AUC-10, CON-07: after the Step 2 start above, phase 5 pushes the
    highest future plant 33 under the deck and draws 35: 15 17 20 22 | 25 27 30 35
    (8 cards); in the next phase 2 A buys 15 and 36 is drawn: 17 20 22 25 | 27 30 35
    36, still 4 + 4."""
    s = europe(components, phase=Phase.BUILDING, round=5, deck=(35, 36, 38))
    s = give(s, C, money=100, cities=SIX)
    s = play(s, pg.Build(player=C, city="katowice"))
    s = to_next_auction(s)
    assert s.round == 6
    assert s.step == 2
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 35)
    assert "33" in s.market.under_step3
    first = pg.current_player(s)
    assert first is not None
    s = buy_alone(s, first, 15)
    assert s.market.actual == labels(17, 20, 22, 25)
    assert s.market.future == labels(27, 30, 35, 36)


# --- AUC-21 / EC-07: nobody buys ------------------------------------------------------------


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_07_nobody_buys_step1_lowest_removed_one_drawn(components: str) -> None:
    """EC-07, AUC-21, AUC-15: Europe, round 4, Step 1, all pass: 13 is removed from the
    game and one plant (35) drawn: 15 17 20 22 | 25 27 30 33 35 (4 + 5 again)."""
    s = europe(components, phase=Phase.AUCTION, deck=(35, 36))
    removed = s.market.removed
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.market.removed == labels(*removed, 13)
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 33, 35)
    assert s.secret.deck == labels(36)
    assert "AUC-21" in removal_texts(s)[-1]


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_07_nobody_buys_step2(components: str) -> None:
    """EC-07, AUC-21, AUC-15: Europe, Step 2, all pass: 13 removed, 35 drawn:
    15 17 20 22 | 25 27 30 35."""
    s = europe(components, phase=Phase.AUCTION, step=2, deck=(35, 36), future=FUTURE_STEP2)
    s = pass_rest(s)
    assert s.market.removed[-1] == "13"
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 35)


@pytest.mark.parametrize("components", COMPONENTS)
def test_someone_bought_no_removal_auc_21(components: str) -> None:
    """AUC-21, AUC-10: the removal only happens if nobody bought. A buys 15 (35 drawn);
    B and C pass: nothing is removed at phase end."""
    s = europe(components, phase=Phase.AUCTION, deck=(35, 36))
    removed = s.market.removed
    s = buy_alone(s, A, 15)
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.market.removed == removed
    assert s.market.actual == labels(13, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 33, 35)


# --- EC-64, EC-67: the Step 3 card -----------------------------------------------------------


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_64_nobody_buys_replacement_is_step3_card(components: str) -> None:
    """EC-64, AUC-21, STP-06, STP-05, STP-09: Europe, Step 2, nobody buys; 13 is removed
    and the replacement is the Step 3 card: the deck (33, 35 pushed under it) is
    reshuffled, then 15 and the Step 3 card are removed without replacement:
    17 20 22 25 27 30, all actual; Step 3 begins with phase 3."""
    s = europe(
        components, phase=Phase.AUCTION, step=2, deck=(), under_step3=(33, 35), future=FUTURE_STEP2
    )
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.step == 3
    assert s.market.removed[-2:] == labels(13, 15)
    assert s.market.actual == labels(17, 20, 22, 25, 27, 30)
    assert s.market.future == ()
    assert not s.market.step3_in_market
    assert not s.market.step3_in_deck
    assert s.rules.ranked(s.secret.deck) == labels(33, 35)
    assert s.market.under_step3 == ()
    assert invariant_violations(s) == []


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_64_in_step1_runs_step2_start_first(components: str) -> None:
    """EC-64, EC-67, STP-10, SET-26, AUC-21: the same in Step 1 (4 + 5): nobody buys,
    13 removed, the replacement is the Step 3 card; Step 2 starts first (15 removed,
    no replacement on Europe), then Step 3 (17 and the card removed):
    20 22 25 27 30 33."""
    s = europe(components, phase=Phase.AUCTION, deck=(), under_step3=(35, 36))
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.step == 3
    assert s.market.removed[-3:] == labels(13, 15, 17)
    assert s.market.actual == labels(20, 22, 25, 27, 30, 33)
    assert s.market.future == ()
    assert s.rules.ranked(s.secret.deck) == labels(35, 36)


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_67_step3_before_step2_in_phase5(components: str) -> None:
    """EC-67, STP-10, STP-02, SET-26, STP-08, BUR-07: Europe, Step 1 (4 + 5). Phase 5
    pushes 33 under the Step 3 card and draws the card: 8 plants + S3. Step 2 start:
    13 removed, no replacement (7 + S3); Step 3: 15 and the card removed: 6 plants
    17 20 22 25 27 30. The next round is Step 3 with a 6-plant, all-actual market."""
    s = europe(components, phase=Phase.BUREAUCRACY, deck=(), under_step3=(35,), done=())
    s = to_next_auction(s)
    assert s.round == 5
    assert s.step == 3
    assert s.market.removed[-2:] == labels(13, 15)
    assert s.market.actual == labels(17, 20, 22, 25, 27, 30)
    assert s.market.future == ()
    assert s.rules.ranked(s.secret.deck) == labels(33, 35)
    assert not s.market.step3_in_deck
    assert invariant_violations(s) == []


# --- BUR-07 on the 4 + 5 market -------------------------------------------------------------


@pytest.mark.parametrize("components", COMPONENTS)
def test_bur_07_highest_of_five_future_goes_under_the_deck(components: str) -> None:
    """BUR-07, SET-26, CON-07: Europe, Step 1, market 13 15 17 20 | 22 25 27 30 33:
    phase 5 puts 33 (the highest of the 5 future plants) under the Step 3 card and
    draws 35: 13 15 17 20 | 22 25 27 30 35."""
    s = europe(components, phase=Phase.BUREAUCRACY, deck=(35, 36))
    s = to_next_auction(s)
    assert s.market.under_step3 == labels(33)
    assert s.market.actual == labels(13, 15, 17, 20)
    assert s.market.future == labels(22, 25, 27, 30, 35)
    assert s.secret.deck == labels(36)


@pytest.mark.parametrize("components", COMPONENTS)
def test_bur_07_low_draw_resorts_four_plus_five(components: str) -> None:
    """BUR-07, AUC-10, SET-26: as above but the draw is 14: 33 goes under the deck and
    14 sorts into the actual market, pushing 20 to the future: 13 14 15 17 | 20 22 25
    27 30."""
    s = europe(components, phase=Phase.BUREAUCRACY, deck=(14, 36))
    s = to_next_auction(s)
    assert s.market.under_step3 == labels(33)
    assert s.market.actual == labels(13, 14, 15, 17)
    assert s.market.future == labels(20, 22, 25, 27, 30)


# --- CON-02, OQ-31: the classic rules on this board (no map_rules option) ---------------------


def test_classic_step2_start_draws_a_replacement_stp_02_con_02_oq_31() -> None:
    """STP-02, STP-01, CON-02, OQ-31, BUR-07: a plain classic game on Europe has the 4 + 4
    market 13 15 17 20 | 22 25 27 30. C builds Katowice (7th city, 10 + 8): Step 2
    begins, 13 is removed AND a replacement (35) drawn: 15 17 20 22 | 25 27 30 35, still
    8 plants (the map-rules game above draws none). Phase 5 then pushes 35 under the
    deck and draws 36: 15 17 20 22 | 25 27 30 36."""
    s = europe("classic", phase=Phase.BUILDING, round=5, future=FUTURE_STEP2, deck=(35, 36, 38))
    s = give(s, C, money=100, cities=SIX)
    assert pg.current_player(s) == C
    s = play(s, pg.Build(player=C, city="katowice"))
    assert s.players[C].money == 82
    assert s.step == 2
    assert s.market.removed[-1] == "13"
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 35)
    assert s.secret.deck == labels(36, 38)
    assert invariant_violations(s) == []
    s = to_next_auction(s)
    assert s.round == 6
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 36)
    assert s.market.under_step3 == labels(35)
    assert discount(s) is None


def test_classic_nobody_buys_auc_20_con_02_oq_31() -> None:
    """EC-09, AUC-20, AUC-15, CON-02, OQ-31: plain classic on Europe, round 4, market
    13 15 17 20 | 22 25 27 30, all pass: AUC-20 (not the Europe AUC-21) removes 13 and
    draws 35: 15 17 20 22 | 25 27 30 35, still 8 plants."""
    s = europe("classic", phase=Phase.AUCTION, future=FUTURE_STEP2, deck=(35, 36))
    removed = s.market.removed
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.market.removed == labels(*removed, 13)
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 35)
    assert s.secret.deck == labels(36)
    texts = removal_texts(s)
    assert "AUC-20" in texts[-1]
    assert not any("AUC-21" in t for t in texts)


def test_ec_63_classic_step2_replacement_is_step3_card_stp_07_con_02() -> None:
    """EC-63, STP-02, STP-07, CON-02: plain classic on Europe draws a Step 2 replacement,
    so EC-63 can happen here. Step 1, market 13 15 17 20 | 22 25 27 30, nothing above the
    Step 3 card, 35 under it. C's 7th house (Katowice) starts Step 2: 13 is removed and
    the replacement is the Step 3 card: the deck (35) is reshuffled at once and the card
    sits in the market until the end of phase 4 (classic moment 2). Then 15 and the card
    are removed without replacement: 17 20 22 25 27 30, all actual; Step 3 from phase 5."""
    s = europe(
        "classic", phase=Phase.BUILDING, round=5, future=FUTURE_STEP2, deck=(), under_step3=(35,)
    )
    s = give(s, C, money=100, cities=SIX)
    s = play(s, pg.Build(player=C, city="katowice"))
    assert s.step == 2
    assert s.market.removed[-1] == "13"
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30)
    assert s.market.step3_in_market
    assert not s.market.step3_in_deck
    assert s.secret.deck == labels(35)
    assert s.step3_pending
    s = play(s, pg.EndBuild(player=C), pg.EndBuild(player=B), pg.EndBuild(player=A))
    assert s.phase is Phase.BUREAUCRACY
    assert s.step == 3
    assert s.market.removed[-2:] == labels(13, 15)
    assert s.market.actual == labels(17, 20, 22, 25, 27, 30)
    assert s.market.future == ()
    assert not s.market.step3_in_market
    assert s.secret.deck == labels(35)
    assert invariant_violations(s) == []
