"""Step 2 and Step 3 (RULES.md section 7), classic components only.

Classic specifics under test: STP-05 freeze after the Step 3 card shows in phase 2,
and STP-07 classic timing (the card sits in the market until the end of phase 4,
the deck is reshuffled at once).

A classic game plays the classic rules on either board (CON-02, OQ-31): the Step 1
market is 4 + 4, the Step 2 start draws a replacement (STP-02), nobody buying
removes the lowest plant (AUC-20), and there is no discount token. Many Step 1 -> 2
tests play on North America, tests that start in Step 2 or 3 on Europe. The Europe
map rules (4 + 5 Step 1 market, Step 2 without replacement, SET-26, EC-67) and the
North America token are opted in with the ``map_rules`` option
("classic+map_rules") where a test checks them.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import pytest

import powergrid as pg
from powergrid.enums import Phase
from powergrid.frozen import evolve
from powergrid.mechanics import market
from powergrid.rules.hooks import Hooks
from powergrid.state import GameState
from tests.module_parts import discount
from tests.scenario import R3, R4, arrange, give, kinds, labels, new, play

# Six central cities; the 7th (katowice) costs 10 + 8 from praha.
C6 = ("bremen", "berlin", "rhein_main", "stuttgart", "munchen", "praha")
# North America: the same roles for the rules that hold there but not on Europe.
NA3 = ("midwest", "mideast", "northeast")
NA4 = (*NA3, "south")
# Six Midwest cities; the 7th (oklahoma_city) costs 10 + 10 from kansas_city
# (memphis 15; dallas_fort_worth 7 is not in C's network).
NA6 = ("milwaukee", "chicago", "indianapolis", "st_louis", "kansas_city", "memphis")
NA7 = "oklahoma_city"
# Six Northeast cities for a second player; philadelphia is his 7th.
NE6 = ("quebec", "montreal", "ottawa", "boston", "new_york_n", "new_york_s")
A, B, C, D = 0, 1, 2, 3

# BUR-06 (coal, oil, garbage, uranium) for 3 and 4 players by Step.
REFILL3 = {1: (4, 2, 1, 1), 2: (5, 3, 2, 1), 3: (3, 4, 3, 1)}
REFILL4 = {1: (5, 3, 2, 1), 2: (6, 4, 3, 2), 3: (4, 5, 4, 2)}
TOKENS = {"coal": 10, "oil": 10, "garbage": 10, "uranium": 5}


def game(
    players: int = 3,
    *,
    step: int,
    phase: Phase,
    actual: Sequence[int],
    future: Sequence[int],
    deck: Sequence[int] = (),
    under_step3: Sequence[int] = (),
    step3_in_deck: bool = True,
    order: Sequence[int] | None = None,
    done: Sequence[int] = (),
    round: int = 4,
    map_id: str = "europe",
    components: str = "classic",
) -> GameState:
    """A classic game at a chosen phase with a fully known plant market and deck.

    No discount token (CON-02). With ``components="classic+map_rules"`` on North America
    the token lies on the lowest actual plant in phase 2 (AUC-31, placed when the phase
    began) and beside the market otherwise (AUC-30).
    """
    areas = {"europe": (R3, R4), "north_america": (NA3, NA4)}[map_id]
    region = areas[0] if players == 3 else areas[1]
    state = new(players, map=map_id, regions=region, components=components)
    state = arrange(
        state,
        round=round,
        step=step,
        phase=phase,
        order=tuple(range(players)) if order is None else order,
        done=done,
        actual=actual,
        future=future,
        deck=deck,
        top=None,
        step3_in_deck=step3_in_deck,
        under_step3=under_step3,
        market_tokens=TOKENS,
    )
    if "north_america" in state.modules:  # the token is the module's own state
        token = labels(actual[0])[0] if phase is Phase.AUCTION and actual else None
        state = arrange(state, discount=token)
    for seat in range(players):
        state = give(state, seat, money=300)
    return state


def after_refill(refill: tuple[int, int, int, int]) -> dict[str, int]:
    names = ("coal", "oil", "garbage", "uranium")
    return {k: TOKENS[k] + n for k, n in zip(names, refill, strict=True)}


def kinds_of(state: GameState) -> list[str]:
    return [e.kind for e in state.events]


def finish_phase(state: GameState) -> GameState:
    """Let every remaining player end the current phase (3, 4 or 5) doing nothing."""
    while state.phase in (Phase.RESOURCES, Phase.BUILDING, Phase.BUREAUCRACY):
        seat = pg.current_player(state)
        assert seat is not None
        phase = state.phase
        if phase is Phase.RESOURCES:
            state = pg.apply(state, pg.EndPurchase(player=seat))
        elif phase is Phase.BUILDING:
            state = pg.apply(state, pg.EndBuild(player=seat))
        else:
            state = pg.apply(state, pg.Power(player=seat))
        if state.phase is not phase:
            break
    return state


# --- Step 2 ----------------------------------------------------------------------------


def test_step2_trigger_mid_phase4() -> None:
    """EC-26, STP-01, STP-02, STP-03: C builds his 7th city (3 players, threshold 7).

    North America (STP-02 draws a replacement). Immediately the lowest plant (11)
    is removed and a replacement (20) drawn; B and A may still only use the 10 slots in
    this phase 4; the phase-5 refill uses the Step 2 column; the next phase 4 allows the
    15 slots.
    """
    state = game(
        step=1,
        phase=Phase.BUILDING,
        actual=(11, 12, 13, 14),
        future=(15, 16, 17, 18),
        deck=(20, 21, 22, 23, 24, 25),
        order=(A, B, C),
        map_id="north_america",
    )
    state = give(state, C, cities=NA6)
    assert pg.current_player(state) == C
    state = play(state, pg.Build(player=C, city=NA7))
    assert state.players[C].money == 300 - 10 - 10  # slot 10, kansas_city -> oklahoma_city 10
    assert state.step == 2
    assert state.market.actual == labels(12, 13, 14, 15)
    assert state.market.future == labels(16, 17, 18, 20)
    assert state.market.removed == labels(11)
    assert discount(state) is None  # CON-02: no discount token in a classic game
    assert pg.current_player(state) == C  # C's turn goes on until he ends it
    state = play(state, pg.EndBuild(player=C))
    assert pg.current_player(state) == B
    # STP-03: the 15 slot is not usable for the rest of this phase 4.
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Build(player=B, city=NA7))
    assert err.value.reason is pg.Reason.CITY_FULL
    assert pg.Build(player=B, city=NA7) not in pg.legal_actions(state)
    state = play(state, pg.EndBuild(player=B), pg.EndBuild(player=A))
    assert state.phase is Phase.BUREAUCRACY
    state = finish_phase(state)
    assert kinds(state) == after_refill(REFILL3[2])
    # Next round: everybody passes phase 2 and 3; phase 4 now has the 15 slots.
    assert state.phase is Phase.AUCTION
    for _ in range(3):
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, pg.PassAuction(player=seat))
    state = finish_phase(state)
    assert state.phase is Phase.BUILDING
    assert state.build_step == 2
    seat = pg.current_player(state)
    assert seat in (A, B)
    money = state.players[seat].money
    state = play(state, pg.Build(player=seat, city=NA7))
    assert state.players[seat].money == money - 15  # first house: slot cost only
    assert len(state.board.houses[state.rules.area.board.index[NA7]]) == 2


def test_step2_not_triggered_below_threshold() -> None:
    """STP-01, SET-12: 6 cities with 3 players (threshold 7) do not start Step 2 (North
    America, Step 1 market 4 + 4)."""
    state = game(
        step=1,
        phase=Phase.BUILDING,
        actual=(11, 12, 13, 14),
        future=(15, 16, 17, 18),
        deck=(20, 21),
        order=(A, B, C),
        map_id="north_america",
    )
    state = give(state, C, cities=NA6[:5])
    state = play(state, pg.Build(player=C, city=NA6[5]))
    assert state.players[C].city_count == 6
    assert state.step == 1
    assert state.market.plants == labels(11, 12, 13, 14, 15, 16, 17, 18)


def test_step2_threshold_uses_player_count() -> None:
    """STP-01, STP-02, SET-12: with 4 players Step 2 also starts at 7 cities (not earlier);
    North America: 11 removed, 20 drawn."""
    state = game(
        4,
        step=1,
        phase=Phase.BUILDING,
        actual=(11, 12, 13, 14),
        future=(15, 16, 17, 18),
        deck=(20, 21),
        order=(A, B, C, D),
        map_id="north_america",
    )
    state = give(state, D, cities=NA6)
    assert state.step == 1
    state = play(state, pg.Build(player=D, city=NA7))
    assert state.step == 2
    assert state.market.removed == labels(11)
    assert state.market.plants == labels(12, 13, 14, 15, 16, 17, 18, 20)


def test_step2_fires_only_once() -> None:
    """STP-04: a second player reaching 7 cities in Step 2 removes nothing (North America)."""
    state = game(
        step=1,
        phase=Phase.BUILDING,
        actual=(11, 12, 13, 14),
        future=(15, 16, 17, 18),
        deck=(20, 21, 22),
        order=(A, B, C),
        map_id="north_america",
    )
    state = give(state, C, cities=NA6)
    state = give(state, B, cities=NE6)
    state = play(state, pg.Build(player=C, city=NA7))
    assert state.market.removed == labels(11)
    assert state.market.plants == labels(12, 13, 14, 15, 16, 17, 18, 20)
    state = play(state, pg.EndBuild(player=C), pg.Build(player=B, city="philadelphia"))
    assert state.players[B].city_count == 7
    assert state.step == 2
    assert state.market.removed == labels(11)
    assert state.market.plants == labels(12, 13, 14, 15, 16, 17, 18, 20)
    assert state.market.deck_size == 2


def test_step2_ignored_once_step3_began() -> None:
    """STP-04, STP-10: in Step 3 reaching the Step 2 threshold changes nothing."""
    state = game(
        step=3,
        phase=Phase.BUILDING,
        actual=(20, 21, 22, 23, 24, 25),
        future=(),
        deck=(30, 31),
        step3_in_deck=False,
        order=(A, B, C),
    )
    state = give(state, C, cities=C6)
    state = play(state, pg.Build(player=C, city="katowice"))
    assert state.step == 3
    assert state.market.plants == labels(20, 21, 22, 23, 24, 25)
    assert state.market.removed == ()


def test_step2_start_runs_before_too_small_check() -> None:
    """OQ-32, STP-01, STP-02, BLD-12, BLD-02: the 7th house starts Step 2 first.

    North America, market `7 8 12 13 | 15 16 17 18`, largest count 6. The 7th house first
    runs the Step 2 removal (lowest plant 7, replacement 20), then the too-small check,
    which finds nothing (8 > 7). Too-small first would remove 7 *and* 8 and draw twice.
    """
    state = game(
        step=1,
        phase=Phase.BUILDING,
        actual=(7, 8, 12, 13),
        future=(15, 16, 17, 18),
        deck=(20, 21, 22),
        order=(A, B, C),
        map_id="north_america",
    )
    state = give(state, C, cities=NA6)
    state = play(state, pg.Build(player=C, city=NA7))
    assert state.step == 2
    assert state.market.removed == labels(7)
    assert state.market.actual == labels(8, 12, 13, 15)
    assert state.market.future == labels(16, 17, 18, 20)
    assert state.market.deck_size == 2
    names = kinds_of(state)
    assert names.index("step_started") < names.index("plant_removed")


def test_step2_start_on_europe_removes_without_replacement_set_26() -> None:
    """SET-26, STP-02, STP-01, CON-07, OQ-31: Europe with the ``map_rules`` option, 3 players,
    Step 1 market 4 + 5 `11 12 13 14 | 15 16 17 18 19`. C's 7th house (katowice: slot 10 + 8
    from praha)
    starts Step 2: the lowest plant 11 is removed and nothing is drawn, so the market is
    4 + 4 `12 13 14 15 | 16 17 18 19` and the deck is untouched."""
    state = game(
        step=1,
        phase=Phase.BUILDING,
        actual=(11, 12, 13, 14),
        future=(15, 16, 17, 18, 19),
        deck=(20, 21, 22),
        order=(A, B, C),
        components="classic+map_rules",
    )
    state = give(state, C, cities=C6)
    state = play(state, pg.Build(player=C, city="katowice"))
    assert state.players[C].money == 300 - 10 - 8
    assert state.step == 2
    assert state.market.removed == labels(11)
    assert state.market.actual == labels(12, 13, 14, 15)
    assert state.market.future == labels(16, 17, 18, 19)
    assert state.market.deck_size == 3
    assert state.secret.deck == labels(20, 21, 22)
    # From Step 2 on the market stays 4 + 4: phase 5 puts the highest plant (19) under
    # the deck and draws 20 (BUR-07); no discount token on Europe (next phase 2).
    state = finish_phase(finish_phase(state))
    assert state.phase is Phase.AUCTION
    assert state.market.actual == labels(12, 13, 14, 15)
    assert state.market.future == labels(16, 17, 18, 20)
    assert discount(state) is None


# --- Step 3, moment 1 (phase 2), classic freeze -------------------------------------------


def classic_phase2_step3() -> GameState:
    """EC-22 set-up: 4 players, Step 2, market `13 15 16 17 | 18 20 21 22`; the deck above
    the Step 3 card is empty, 4 plants lie under it."""
    return game(
        4,
        step=2,
        phase=Phase.AUCTION,
        actual=(13, 15, 16, 17),
        future=(18, 20, 21, 22),
        deck=(),
        under_step3=(25, 26, 27, 28),
        order=(A, B, C, D),
        round=5,
    )


def test_classic_step3_card_in_phase2_freezes_market() -> None:
    """EC-22, STP-05, STP-09, OQ-06: classic Step 3 card drawn in phase 2.

    A buys 13; the draw is S3: one re-sort (`15 16 17 18 | 20 21 22 S3`), deck
    reshuffled. B buys 16, C buys 17, D passes: no draw and no promotion, the actual
    market shrinks to `15 18`. Phase-2 end: remove 15 and S3, no replacement ->
    `18 20 21 22`; Step 3 from phase 3; next phase 2 first fills the market to 6.
    """
    state = classic_phase2_step3()
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=13, bid=13),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
        pg.PassBid(player=D),
    )
    m = state.market
    assert m.actual == labels(15, 16, 17, 18)
    assert m.future == labels(20, 21, 22)
    assert m.step3_in_market
    assert not m.step3_in_deck
    assert m.under_step3 == ()
    assert m.deck_size == 4  # reshuffled at once: the four plants from under the card
    assert state.step3_pending
    assert state.step == 2
    state = play(
        state,
        pg.ChoosePlant(player=B, plant=16, bid=16),
        pg.PassBid(player=C),
        pg.PassBid(player=D),
    )
    assert state.market.actual == labels(15, 17, 18)
    assert state.market.future == labels(20, 21, 22)
    assert state.market.deck_size == 4
    state = play(state, pg.ChoosePlant(player=C, plant=17, bid=17), pg.PassBid(player=D))
    assert state.market.actual == labels(15, 18)
    assert state.market.future == labels(20, 21, 22)
    assert state.market.deck_size == 4
    # D may only choose from the shrunken actual market.
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.ChoosePlant(player=D, plant=20, bid=20))
    assert err.value.reason is pg.Reason.NOT_ACTUAL_PLANT
    state = play(state, pg.PassAuction(player=D))
    # End of phase 2: 15 and the Step 3 card go, nothing is drawn.
    assert state.phase is Phase.RESOURCES
    assert state.step == 3
    assert state.market.plants == labels(18, 20, 21, 22)
    assert state.market.actual == labels(18, 20, 21, 22)
    assert state.market.future == ()
    assert not state.market.step3_in_market
    assert not state.step3_pending
    assert "15" in state.market.removed
    assert state.market.deck_size == 4
    # Phase 4 of this round already uses the Step 3 slots; phase 5 the Step 3 refill.
    state = finish_phase(state)
    assert state.phase is Phase.BUILDING
    assert state.build_step == 3
    state = finish_phase(state)
    assert state.phase is Phase.BUREAUCRACY
    state = finish_phase(state)
    assert kinds(state) == after_refill(REFILL4[3])
    # Phase 5 (Step 3): 18 removed, one drawn -> 4 plants; phase 2 then draws 2 more.
    assert state.phase is Phase.AUCTION
    assert "18" in state.market.removed
    assert len(state.market.plants) == 6
    assert len(state.market.actual) == 6
    assert state.market.future == ()
    assert state.market.plants[:3] == labels(20, 21, 22)
    assert set(state.market.plants[3:]) < set(labels(25, 26, 27, 28))
    assert state.market.deck_size == 1


def test_classic_step3_card_replacing_the_end_of_phase2_removal() -> None:
    """EC-64, STP-06, AUC-20, AUC-15, STP-05, CON-02: classic on Europe, nobody buys; the
    replacement for the lowest plant (13) removed by AUC-20 is the Step 3 card. It is
    placed, the deck reshuffled, then at once the lowest plant (15) and the card are
    removed without replacement: 6 plants, Step 3 from phase 3."""
    state = classic_phase2_step3()
    state = play(state, *(pg.PassAuction(player=s) for s in (A, B, C, D)))
    assert state.phase is Phase.RESOURCES
    assert state.step == 3
    assert state.market.removed[-2:] == labels(13, 15)
    assert state.market.actual == labels(16, 17, 18, 20, 21, 22)
    assert state.market.future == ()
    assert not state.market.step3_in_market
    assert not state.step3_pending
    assert state.market.deck_size == 4
    names = kinds_of(state)
    assert names.index("deck_reshuffled") < names.index("step_started")
    removals = [e.text for e in state.events if e.kind == "plant_removed"]
    assert "AUC-20" in removals[-2]


def test_phase2_step3_card_with_draw_deck_left_is_not_drawn() -> None:
    """STP-05, AUC-10: while plants lie above the Step 3 card a purchase draws a plant."""
    state = classic_phase2_step3()
    state = arrange(state, deck=(30,))
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=13, bid=13),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
        pg.PassBid(player=D),
    )
    assert state.market.plants == labels(15, 16, 17, 18, 20, 21, 22, 30)
    assert not state.market.step3_in_market
    assert state.market.step3_in_deck
    assert state.step == 2


# --- Step 3, moment 2 (phase 4), classic timing ----------------------------------------------


def test_step2_replacement_is_step3_card_classic_moment2() -> None:
    """EC-63, STP-02, STP-07, STP-12, BLD-12, STP-03, STP-11: classic phase 4.

    North America (EC-63; Europe with the map rules draws no Step 2 replacement, plain
    classic Europe does, see tests/test_europe.py). Step 1, market
    `8 9 10 13 | 14 15 16 17`, deck above S3 empty, 30 under it. C's
    7th house starts Step 2: 8 removed, the replacement is S3 -> deck reshuffled at
    once, S3 sits in the market until the end of phase 4. C's 9th house removes 9;
    its replacement (30) comes from the reshuffled deck. C's 10th house removes 10;
    the deck is empty, nothing is drawn. End of phase 4: 13 and S3 removed, no draw.
    Step 3 from phase 5 (Step 3 refill); the 20 slots from the next phase 4.
    """
    state = game(
        step=1,
        phase=Phase.BUILDING,
        actual=(8, 9, 10, 13),
        future=(14, 15, 16, 17),
        deck=(),
        under_step3=(30,),
        order=(A, B, C),
        map_id="north_america",
    )
    state = give(state, C, cities=NA6)
    state = play(state, pg.Build(player=C, city=NA7))
    m = state.market
    assert state.step == 2
    assert m.removed == labels(8)
    assert m.actual == labels(9, 10, 13, 14)
    assert m.future == labels(15, 16, 17)
    assert m.step3_in_market
    assert not m.step3_in_deck
    assert m.deck_size == 1  # reshuffled at once
    assert state.step3_pending
    state = play(state, pg.Build(player=C, city="detroit"))  # 8th city
    assert state.market.removed == labels(8)
    state = play(state, pg.Build(player=C, city="columbus"))  # 9th city
    assert state.market.removed == labels(8, 9)
    assert state.market.actual == labels(10, 13, 14, 15)
    assert state.market.future == labels(16, 17, 30)
    assert state.market.step3_in_market
    assert state.market.deck_size == 0
    state = play(state, pg.Build(player=C, city="pittsburgh"))  # 10th city
    assert state.market.removed == labels(8, 9, 10)
    assert state.market.actual == labels(13, 14, 15, 16)  # STP-12: the lowest 4 stay actual
    assert state.market.future == labels(17, 30)
    assert state.step == 2
    assert "deck_empty" in kinds_of(state)
    state = play(state, pg.EndBuild(player=C))
    # STP-03: B may not use the 15 slot in this phase 4.
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Build(player=B, city="detroit"))
    assert err.value.reason is pg.Reason.CITY_FULL
    state = play(state, pg.EndBuild(player=B), pg.EndBuild(player=A))
    assert state.phase is Phase.BUREAUCRACY
    assert state.step == 3
    assert state.market.plants == labels(14, 15, 16, 17, 30)
    assert state.market.actual == labels(14, 15, 16, 17, 30)
    assert state.market.future == ()
    assert state.market.removed[-1] == "13"
    assert not state.market.step3_in_market
    assert not state.step3_pending
    state = finish_phase(state)
    assert kinds(state) == after_refill(REFILL3[3])
    # Phase 5 of Step 3 removed 14; the empty deck draws nothing (STP-12, STP-09).
    assert state.phase is Phase.AUCTION
    assert state.market.plants == labels(15, 16, 17, 30)
    assert state.market.removed[-1] == "14"
    assert discount(state) is None  # CON-02: no discount token in a classic game


def test_step3_card_as_too_small_replacement_in_phase4_classic() -> None:
    """STP-07, BLD-12, STP-11: Step 2, C reaches 12 cities; 12 is too small and its
    replacement is S3. Classic: S3 stays in the market until the end of phase 4, then
    the lowest plant (13) and S3 are removed without replacement -> 6 plants."""
    cities = (*C6, "katowice", "wien", "zurich", "budapest", "zagreb")
    state = game(
        step=2,
        phase=Phase.BUILDING,
        actual=(12, 13, 14, 15),
        future=(16, 17, 18, 19),
        deck=(),
        under_step3=(30, 31),
        order=(A, B, C),
    )
    state = give(state, C, cities=cities)
    state = play(state, pg.Build(player=C, city="milano"))
    assert state.market.removed == labels(12)
    assert state.market.actual == labels(13, 14, 15, 16)
    assert state.market.future == labels(17, 18, 19)
    assert state.market.step3_in_market
    assert state.step == 2
    assert state.market.deck_size == 2
    state = play(state, pg.EndBuild(player=C), pg.EndBuild(player=B), pg.EndBuild(player=A))
    assert state.step == 3
    assert state.market.actual == labels(14, 15, 16, 17, 18, 19)
    assert state.market.removed == labels(12, 13)
    assert state.market.deck_size == 2


def test_step3_before_step2_in_phase4_classic() -> None:
    """STP-10, STP-07, STP-02, BLD-12, OQ-08: North America, Step 1, C builds his 6th city;
    plant 6 is too small and its replacement is S3. First the Step 2 start (12 removed, 30
    drawn from the reshuffled deck), S3 stays until the end of phase 4; then 13 and S3 are
    removed."""
    state = game(
        step=1,
        phase=Phase.BUILDING,
        actual=(6, 12, 13, 14),
        future=(15, 16, 17, 18),
        deck=(),
        under_step3=(30,),
        order=(A, B, C),
        map_id="north_america",
    )
    state = give(state, C, cities=NA6[:5])
    state = play(state, pg.Build(player=C, city=NA6[5]))
    assert state.step == 2
    assert state.market.removed == labels(6, 12)
    assert state.market.actual == labels(13, 14, 15, 16)
    assert state.market.future == labels(17, 18, 30)
    assert state.market.step3_in_market
    assert state.step3_pending
    state = play(state, pg.EndBuild(player=C), pg.EndBuild(player=B), pg.EndBuild(player=A))
    assert state.phase is Phase.BUREAUCRACY
    assert state.step == 3
    assert state.market.actual == labels(14, 15, 16, 17, 18, 30)
    assert state.market.removed == labels(6, 12, 13)


@pytest.mark.parametrize("components", ["classic", "classic+map_rules"])
def test_step3_before_step2_in_phase2_classic(components: str) -> None:
    """STP-10, STP-02, STP-05, OQ-06, AUC-33, OQ-31: North America, Step 1, phase 2: A
    buys 11, the draw is S3. The Step 2 start first removes 10 and draws 30 from the
    reshuffled deck, S3 joins the market, then the classic freeze: B buys 12, nothing is
    drawn. Phase-2 end: 13 and S3 go (someone bought: no AUC-20). Plain classic has no
    token; with ``map_rules`` the token lies on 10 and leaves with it, so no token plant
    is left for AUC-33. The market ends the same either way."""
    state = game(
        step=1,
        phase=Phase.AUCTION,
        actual=(10, 11, 12, 13),
        future=(14, 15, 16, 17),
        deck=(),
        under_step3=(30,),
        order=(A, B, C),
        round=3,
        map_id="north_america",
        components=components,
    )
    assert discount(state) == ("10" if components == "classic+map_rules" else None)
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=11, bid=11),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
    )
    assert state.step == 2
    assert state.market.removed == labels(10)
    assert state.market.actual == labels(12, 13, 14, 15)
    assert state.market.future == labels(16, 17, 30)
    assert state.market.step3_in_market
    assert discount(state) is None
    state = play(state, pg.ChoosePlant(player=B, plant=12, bid=12), pg.PassBid(player=C))
    assert state.market.actual == labels(13, 14, 15)
    assert state.market.future == labels(16, 17, 30)
    state = play(state, pg.PassAuction(player=C))
    assert state.phase is Phase.RESOURCES
    assert state.step == 3
    assert state.market.actual == labels(14, 15, 16, 17, 30)
    assert state.market.removed == labels(10, 13)


# --- Step 3, moment 3 (phase 5) ----------------------------------------------------------------


def test_step3_card_in_phase5() -> None:
    """EC-24, STP-08, BUR-07, BUR-08: Step 2; the refill uses the Step 2 column; the market
    update puts 22 under the deck and draws S3: 13 and S3 are removed, the deck (25, 22) is
    reshuffled, 6 plants remain; Step 3 from the next round."""
    state = game(
        step=2,
        phase=Phase.BUREAUCRACY,
        actual=(13, 15, 16, 17),
        future=(18, 20, 21, 22),
        deck=(),
        under_step3=(25,),
        done=(A, B),
    )
    state = play(state, pg.Power(player=C))
    assert kinds(state) == after_refill(REFILL3[2])
    assert state.step == 3
    assert state.phase is Phase.AUCTION
    assert state.round == 5
    assert state.market.actual == labels(15, 16, 17, 18, 20, 21)
    assert state.market.future == ()
    assert state.market.removed[-1] == "13"
    assert not state.market.step3_in_deck
    assert not state.market.step3_in_market
    assert state.market.deck_size == 2
    assert state.rules.ranked(state.secret.deck) == labels(22, 25)
    names = kinds_of(state)
    assert names.index("market_refilled") < names.index("deck_reshuffled")


def test_step3_before_step2_in_phase5() -> None:
    """EC-25, STP-10, STP-02, STP-08, OQ-08: classic on North America, Step 1, largest
    city count 5, S3 drawn in phase 5. First the Step 2 start (10 removed, replacement
    drawn from the reshuffled deck -> 7 + S3), then Step 3 (11 and S3 removed -> 6
    plants). Europe: EC-67 below."""
    state = game(
        step=1,
        phase=Phase.BUREAUCRACY,
        actual=(10, 11, 12, 13),
        future=(14, 15, 16, 17),
        deck=(),
        under_step3=(30,),
        done=(A, B),
        map_id="north_america",
    )
    state = give(state, A, cities=NA6[:5])
    state = play(state, pg.Power(player=C))
    assert kinds(state) == after_refill(REFILL3[1])  # refill before the update
    assert state.step == 3
    assert state.market.removed[-2:] == labels(10, 11)
    plants = state.market.plants
    assert len(plants) == 6
    assert plants[:5] == labels(12, 13, 14, 15, 16)
    assert plants[5] in labels(17, 30)
    assert state.market.actual == plants
    assert state.market.deck_size == 1
    assert set(state.secret.deck) | {plants[5]} == set(labels(17, 30))
    steps = [e.values for e in state.events if e.kind == "step_started"]
    assert steps[-2:] == [(2,), (3,)]
    names = kinds_of(state)
    reshuffle = names.index("deck_reshuffled")
    drawn = max(i for i, k in enumerate(names) if k == "plant_drawn")
    assert reshuffle < drawn  # the Step 2 replacement comes from the reshuffled deck
    assert discount(state) is None  # CON-02: no discount token in a classic game


def test_step3_before_step2_in_phase5_europe_ec_67() -> None:
    """EC-67, STP-10, SET-26, STP-02, STP-08, BUR-07, OQ-31: Europe with the ``map_rules``
    option, Step 1 with the 4 + 5 market
    `10 11 12 13 | 14 15 16 17 18`, largest city count 5, deck above S3 empty, 30 under it.
    Phase 5 puts 18 under the deck and draws S3 -> 8 + S3. Step 2 start: 10 removed, no
    replacement -> 7 + S3; then Step 3: 11 and S3 removed -> 6 plants `12 13 14 15 16 17`.
    The deck (18, 30) is reshuffled and nothing is drawn from it."""
    state = game(
        step=1,
        phase=Phase.BUREAUCRACY,
        actual=(10, 11, 12, 13),
        future=(14, 15, 16, 17, 18),
        deck=(),
        under_step3=(30,),
        done=(A, B),
        components="classic+map_rules",
    )
    state = give(state, A, cities=C6[:5])
    before = len(state.events)
    state = play(state, pg.Power(player=C))
    assert kinds(state) == after_refill(REFILL3[1])
    assert state.step == 3
    assert state.phase is Phase.AUCTION
    assert state.market.removed[-2:] == labels(10, 11)
    assert state.market.plants == labels(12, 13, 14, 15, 16, 17)
    assert state.market.actual == labels(12, 13, 14, 15, 16, 17)
    assert state.market.future == ()
    assert not state.market.step3_in_market
    assert not state.market.step3_in_deck
    assert state.market.deck_size == 2
    assert state.rules.ranked(state.secret.deck) == labels(18, 30)
    steps = [e.values for e in state.events if e.kind == "step_started"]
    assert steps[-2:] == [(2,), (3,)]
    # Only S3 was drawn: no Step 2 replacement, no STP-09 top-up (6 plants already).
    names = kinds_of(state)[before:]
    assert "plant_drawn" not in names
    assert names.count("plant_removed") == 2


def test_next_round_after_phase5_step3_has_three_slots() -> None:
    """EC-25, STP-11, BLD-05: after S3 in phase 5 the next round is Step 3: a city with
    two houses takes a third for 20."""
    state = game(
        step=2,
        phase=Phase.BUREAUCRACY,
        actual=(13, 15, 16, 17),
        future=(18, 20, 21, 22),
        deck=(),
        under_step3=(25, 26, 27),
        done=(A, B),
    )
    state = give(state, A, cities=("wien",))
    state = give(state, B, cities=("wien",))
    state = play(state, pg.Power(player=C))
    assert state.step == 3
    for _ in range(3):
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, pg.PassAuction(player=seat))
    state = finish_phase(state)
    assert state.phase is Phase.BUILDING
    assert state.build_step == 3
    money = state.players[C].money
    while pg.current_player(state) != C:
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, pg.EndBuild(player=seat))
    state = play(state, pg.Build(player=C, city="wien"))
    assert state.players[C].money == money - 20


# --- STP-09, STP-11, STP-12 ---------------------------------------------------------------------


def test_step3_market_refilled_to_six_at_phase2() -> None:
    """STP-09, BUR-07: Step 3 with only 4 plants: phase 5 removes 20 and draws 30 (still
    4), then the first phase 2 draws 31 and 32 to reach 6."""
    state = game(
        step=3,
        phase=Phase.BUREAUCRACY,
        actual=(20, 22, 25, 27),
        future=(),
        deck=(30, 31, 32, 33),
        step3_in_deck=False,
        done=(A, B),
    )
    state = play(state, pg.Power(player=C))
    assert state.phase is Phase.AUCTION
    assert state.market.actual == labels(22, 25, 27, 30, 31, 32)
    assert state.market.future == ()
    assert state.market.deck_size == 1


def test_step3_slot_20_and_closed_in_step2() -> None:
    """STP-11, BLD-05: a city with two houses is closed in Step 2 and costs 20 in Step 3."""
    for step, ok in ((2, False), (3, True)):
        state = game(
            step=step,
            phase=Phase.BUILDING,
            actual=(20, 22, 25, 27, 30, 31) if step == 3 else (20, 22, 25, 27),
            future=() if step == 3 else (30, 31, 32, 33),
            deck=(35,),
            step3_in_deck=step < 3,
            order=(A, B, C),
        )
        state = give(state, A, cities=("wien",))
        state = give(state, B, cities=("wien",))
        action = pg.Build(player=C, city="wien")
        if ok:
            assert play(state, action).players[C].money == 300 - 20
        else:
            with pytest.raises(pg.IllegalAction) as err:
                pg.apply(state, action)
            assert err.value.reason is pg.Reason.CITY_FULL


def test_empty_deck_draws_nothing_in_step3_phase5() -> None:
    """STP-12, BUR-07: Step 3, empty deck: the lowest plant is removed, nothing drawn."""
    state = game(
        step=3,
        phase=Phase.BUREAUCRACY,
        actual=(20, 22, 25, 27, 30, 33),
        future=(),
        deck=(),
        step3_in_deck=False,
        done=(A, B),
    )
    state = play(state, pg.Power(player=C))
    assert state.phase is Phase.AUCTION
    assert state.market.actual == labels(22, 25, 27, 30, 33)
    assert "20" in state.market.removed
    assert "deck_empty" in kinds_of(state)


def test_empty_deck_after_purchase_in_step3() -> None:
    """STP-12, AUC-10: Step 3, A buys 22, the deck is empty: 5 plants remain."""
    state = game(
        step=3,
        phase=Phase.AUCTION,
        actual=(20, 22, 25, 27, 30, 33),
        future=(),
        deck=(),
        step3_in_deck=False,
        order=(A, B, C),
        round=8,
    )
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=22, bid=22),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
    )
    assert state.market.actual == labels(20, 25, 27, 30, 33)
    assert state.players[A].plants == labels(22)


def _general(state: GameState) -> GameState:
    """``state`` with its market hooks wrapped: the same rules, but no fast path applies."""
    hooks = attrs.asdict(state.rules.hooks, recurse=False)
    for hook in ("draw_filter", "leave_play", "after_market_entry", "market_shape"):
        hooks[hook] = (lambda fn: lambda *args: fn(*args))(hooks[hook])
    return evolve(state, rules=attrs.evolve(state.rules, hooks=Hooks(**hooks)))


def _eleven_cities(
    deck: tuple[int, ...], step3_in_deck: bool, phase: Phase, step: int
) -> GameState:
    """Plants 12 and up in the market, ``deck`` to draw, and C with 11 cities (BLD-12)."""
    state = game(
        step=step,
        phase=phase,
        actual=(12, 13, 14, 15) if step == 2 else (12, 13, 14, 15, 16, 17),
        future=(16, 17, 18, 19) if step == 2 else (),
        deck=deck,
        under_step3=(30, 31) if step3_in_deck else (),
        step3_in_deck=step3_in_deck,
        order=(A, B, C),
    )
    return give(state, C, cities=(*C6, "katowice", "wien", "zurich", "budapest", "zagreb"))


@pytest.mark.parametrize("deck", [(5, 6, 33), (5, 6), (33,), ()])
@pytest.mark.parametrize("step3_in_deck", [True, False])
@pytest.mark.parametrize("phase", [Phase.AUCTION, Phase.BUILDING, Phase.BUREAUCRACY])
@pytest.mark.parametrize("step", [2, 3])
def test_fast_draws_match_the_general_path(
    deck: tuple[int, ...], step3_in_deck: bool, phase: Phase, step: int
) -> None:
    """BLD-12, STP-05, STP-12, BUR-07: the base-hook draws, removals and phase-5 update
    leave the state the hooks would (too-small draws, the Step 3 card, an empty deck)."""
    state = _eleven_cities(deck, step3_in_deck, phase, step)
    for rule in (market.draw, market.enforce_too_small, market.market_update):
        assert rule(state) == rule(_general(state))
    for why in ("a test",):
        assert market.remove_lowest(state, why) == market.remove_lowest(_general(state), why)


def test_a_drawn_plant_too_small_says_where_it_went() -> None:
    """BLD-12, CON-11: with 11 cities connected, drawn plants 5 and 6 are laid beside the
    game, and the log says so (it once said "leaves play", read before the card moved)."""
    state = _eleven_cities((5, 6, 33), False, Phase.BUREAUCRACY, 2)
    for after in (market.draw(state), market.draw(_general(state))):
        removed = [e for e in after.events if e.kind == "plant_removed"]
        assert [e.values for e in removed] == [("5",), ("6",)]
        assert [e.text for e in removed] == [
            f"Drawn plant {n} is too small and is removed from the game (BLD-12)." for n in (5, 6)
        ]
        assert after.market.removed[-2:] == ("5", "6")
        assert "33" in after.market.plants
