"""North America map rules: the discount token and the metropoles.

Covers AUC-22, AUC-30..AUC-35, AUC-14 (OQ-03), SET-24, BLD-10, BLD-11, BLD-06 and
EC-01..EC-06, EC-08, EC-69. The discount token is a Deluxe rule (CON-02, OQ-31): it
applies to the Deluxe game and to a classic game only with the ``map_rules`` option,
so the token scenarios run with "classic+map_rules" and "deluxe" (both decks hold
the plants 03-40, 42, 44, 46, 50 used here). A plain classic game on this board
never shows the token (last section). The metropoles are map data, not map rules:
they hold with "classic" and "deluxe". Seats: A = 0, B = 1, C = 2, seated
clockwise; player order A, B, C unless stated. Markets are written
``actual | future``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import powergrid as pg
from powergrid.enums import Phase
from powergrid.errors import Reason
from powergrid.plants import card_label
from powergrid.state import GameState
from powergrid.testing import invariant_violations, playout
from tests import scenario
from tests.module_parts import discount
from tests.scenario import (
    MAP_RULES,
    arrange,
    do_nothing,
    give,
    labels,
    new,
    opening_minimum,
    pass_rest,
    play,
    reject,
    to_next_auction,
    variant,
)

A, B, C = 0, 1, 2
# The variants that play the discount token (CON-02, OQ-31).
COMPONENTS = MAP_RULES
# Map data (the metropoles) holds with either component set.
BOTH = ("classic", "deluxe")
NA_EAST = ("mideast", "midwest", "northeast")
# Six cities of the Northeast for a largest city count of 6 (both New York halves).
SIX = ("boston", "new_york_s", "new_york_n", "philadelphia", "washington", "pittsburgh")


def with_token(state: GameState, plant: int | str | None) -> GameState:
    """Put the discount token on ``plant`` (``None``: beside the market)."""
    return arrange(state, discount=plant)


def na_auction(
    components: str = "deluxe",
    *,
    actual: Sequence[int],
    future: Sequence[int],
    deck: Sequence[int],
    token: int | None,
    round: int = 2,
    step: int = 1,
    order: Sequence[int] = (A, B, C),
    done: Sequence[int] = (),
    bought: Sequence[int] = (),
    under_step3: Sequence[int] = (),
    cities: Sequence[str] = (),
) -> GameState:
    """Phase 2 on North America, 3 players with 50 Elektro each; seat C owns ``cities``."""
    s = new(3, map="north_america", regions=NA_EAST, components=components)
    s = arrange(
        s,
        round=round,
        step=step,
        phase=Phase.AUCTION,
        order=order,
        done=done,
        bought=bought,
        actual=actual,
        future=future,
        top=None,
        deck=deck,
        under_step3=under_step3,
    )
    if cities:
        s = give(s, C, cities=cities)
    return with_token(s, token)


def buy_alone(state: GameState, seat: int, plant: int | str, bid: int) -> GameState:
    """``seat`` opens ``plant`` at ``bid``, every other bidder drops out, ``seat`` owns it."""
    state = scenario.buy_alone(state, seat, plant, bid)
    assert card_label(plant) in state.players[seat].plants
    return state


# --- SET-24, AUC-30, AUC-31: where the token lies ------------------------------------------


@pytest.mark.parametrize("components", COMPONENTS)
def test_token_on_lowest_actual_plant_at_game_start_set_24_auc_31(components: str) -> None:
    """SET-24, AUC-31, AUC-04: the first phase 2 begins with the token on the lowest
    actual plant, which opens at 1; the other plants open at their number. Europe
    has no token (SET-24)."""
    s = pg.new_game(pg.GameConfig(players=3, map="north_america", **variant(components)), seed=3)
    lowest = s.market.actual[0]
    assert discount(s) == lowest
    if components == "classic+map_rules":
        assert lowest == "3"  # SET-11: the classic market starts 3 4 5 6 | 7 8 9 10
    assert opening_minimum(s, lowest) == 1
    for plant in s.market.actual[1:]:
        assert opening_minimum(s, plant) == s.rules.number(plant)
    eu = pg.new_game(pg.GameConfig(players=3, map="europe", **variant(components)), seed=3)
    assert discount(eu) is None
    assert opening_minimum(eu, eu.market.actual[0]) == eu.rules.number(eu.market.actual[0])


@pytest.mark.parametrize("components", COMPONENTS)
def test_token_placed_at_each_phase_2_and_beside_outside_it_auc_30_auc_31(
    components: str,
) -> None:
    """AUC-30, AUC-31, AUC-15: after a phase 2 in which the token's plant 13 was not
    sold it is removed (AUC-33), the token lies beside the market in phases 3-5, and
    the next phase 2 puts it on the new lowest actual plant (here 15)."""
    s = na_auction(
        components,
        actual=(13, 15, 17, 20),
        future=(22, 25, 27, 30),
        deck=(33, 34, 35, 36),
        token=13,
    )
    s = pass_rest(s)
    phases = []
    while s.phase is not Phase.AUCTION:
        phases.append(s.phase)
        assert discount(s) is None
        s = do_nothing(s)
    assert set(phases) == {Phase.RESOURCES, Phase.BUILDING, Phase.BUREAUCRACY}
    # AUC-33 removed 13 and drew 33; phase 5 pushed 33 under the deck and drew 34.
    assert s.market.actual == labels(15, 17, 20, 22)
    assert discount(s) == "15"
    assert opening_minimum(s, 15) == 1
    assert opening_minimum(s, 17) == 17


# --- EC-01..EC-06, EC-08 ------------------------------------------------------------------


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_01_token_removed_not_moved_by_a_lower_plant(components: str) -> None:
    """EC-01, AUC-31, AUC-32, AUC-33, AUC-10: market 8 9 10 11 | 12 13 14 15, token on
    8, largest city count 2. A buys 10 for 10; the draw is 5. Market 5 8 9 11 | 12 13
    14 15; the token is removed, not moved to 5; 8 opens at 8 again and 5 at 5; at
    the end of phase 2 nothing is removed."""
    s = na_auction(
        components,
        actual=(8, 9, 10, 11),
        future=(12, 13, 14, 15),
        deck=(5, 20, 21, 22),
        token=8,
        cities=("boston", "new_york_s"),
    )
    assert opening_minimum(s, 8) == 1
    s = buy_alone(s, A, 10, 10)
    assert s.players[A].money == 40
    assert s.market.actual == labels(5, 8, 9, 11)
    assert s.market.future == labels(12, 13, 14, 15)
    assert discount(s) is None
    assert pg.current_player(s) == B
    assert opening_minimum(s, 8) == 8
    assert opening_minimum(s, 5) == 5
    reject(s, pg.ChoosePlant(player=B, plant=8, bid=1), Reason.BID_TOO_LOW, "minimum 8")
    removed = s.market.removed
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.market.removed == removed
    assert s.market.actual == labels(5, 8, 9, 11)
    assert s.market.future == labels(12, 13, 14, 15)


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_02_too_small_draw_leaves_the_token(components: str) -> None:
    """EC-02, AUC-34, BLD-12, CON-13: largest city count 6 (C holds both New York
    halves among six cities), token on 8. A buys 10; the draw is 4: removed at once,
    another card (20) is drawn; the token stays on 8, which still opens at 1."""
    s = na_auction(
        components,
        actual=(8, 9, 10, 11),
        future=(12, 13, 14, 15),
        deck=(4, 20, 21, 22),
        token=8,
        cities=SIX,
    )
    assert s.players[C].city_count == 6
    s = buy_alone(s, A, 10, 10)
    assert "4" in s.market.removed
    assert s.market.actual == labels(8, 9, 11, 12)
    assert s.market.future == labels(13, 14, 15, 20)
    assert discount(s) == "8"
    assert opening_minimum(s, 8) == 1
    s = buy_alone(s, B, 8, 1)
    assert s.players[B].money == 49
    assert discount(s) is None


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_03_unsold_discounted_plant_removed_at_phase_end(components: str) -> None:
    """EC-03, AUC-33, AUC-30, AUC-15: token on 7; A buys 9, B buys 10, C passes.
    At phase end 7 is removed from the game, one replacement (18) is drawn and
    sorted, and the token lies beside the market."""
    s = na_auction(
        components,
        actual=(7, 9, 10, 11),
        future=(12, 13, 14, 15),
        deck=(16, 17, 18, 19),
        token=7,
    )
    s = buy_alone(s, A, 9, 9)
    assert s.market.actual == labels(7, 10, 11, 12)
    assert discount(s) == "7"
    s = buy_alone(s, B, 10, 10)
    assert s.market.plants == labels(7, 11, 12, 13, 14, 15, 16, 17)
    assert discount(s) == "7"
    s = play(s, pg.PassAuction(player=C))
    assert s.phase is Phase.RESOURCES
    assert s.market.removed[-1] == "7"
    assert "7" not in s.market.plants
    assert s.market.actual == labels(11, 12, 13, 14)
    assert s.market.future == labels(15, 16, 17, 18)
    assert discount(s) is None
    assert s.secret.deck == labels(19)


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_04_opening_at_one_elektro(components: str) -> None:
    """EC-04, AUC-31, AUC-04, AUC-08: token on 12. A opens 12 at 1; B and C drop out:
    A pays 1 and owns 12. An opening bid of 0 is rejected naming the minimum 1."""
    s = na_auction(
        components,
        actual=(12, 13, 14, 15),
        future=(16, 17, 18, 19),
        deck=(20, 21, 22),
        token=12,
    )
    reject(s, pg.ChoosePlant(player=A, plant=12, bid=0), Reason.BID_TOO_LOW, "minimum 1")
    reject(s, pg.ChoosePlant(player=A, plant=13, bid=12), Reason.BID_TOO_LOW, "minimum 13")
    s = play(s, pg.ChoosePlant(player=A, plant=12, bid=1))
    assert s.auction is not None
    assert s.auction.bid == 1
    s = play(s, pg.PassBid(player=B), pg.PassBid(player=C))
    assert s.players[A].plants == labels(12)
    assert s.players[A].money == 49
    assert discount(s) is None  # AUC-35


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_04_discounted_auction_can_be_raised(components: str) -> None:
    """AUC-31, AUC-06, AUC-08: the token lowers only the opening bid: after A opens
    12 at 1, B raises to 2 and wins; B pays 2."""
    s = na_auction(
        components, actual=(12, 13, 14, 15), future=(16, 17, 18, 19), deck=(20,), token=12
    )
    s = play(
        s,
        pg.ChoosePlant(player=A, plant=12, bid=1),
        pg.Bid(player=B, amount=2),
        pg.PassBid(player=C),
        pg.PassBid(player=A),
    )
    assert s.players[B].plants == labels(12)
    assert s.players[B].money == 48
    assert pg.current_player(s) == A  # AUC-11: the auctioneer keeps the floor


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_05_last_player_buys_the_discounted_plant_at_one(components: str) -> None:
    """EC-05, AUC-14, AUC-31, OQ-03: A and B have bought, C remains, token on 9. C may
    buy 9 for 1 without an auction, or any other actual plant at its number; C may
    not pay more than the minimum."""
    s = na_auction(
        components,
        actual=(9, 10, 11, 12),
        future=(13, 14, 15, 16),
        deck=(17, 18, 19),
        token=9,
        done=(A, B),
        bought=(A, B),
    )
    assert pg.current_player(s) == C
    legal = pg.legal_actions(s)
    assert pg.ChoosePlant(player=C, plant=9, bid=1) in legal
    for plant in (10, 11, 12):
        assert pg.ChoosePlant(player=C, plant=plant, bid=plant) in legal
    reject(
        s,
        pg.ChoosePlant(player=C, plant=9, bid=2),
        Reason.LAST_PLAYER_PAYS_MINIMUM,
        "minimum 1",
    )
    reject(s, pg.ChoosePlant(player=C, plant=9, bid=0), Reason.BID_TOO_LOW, "minimum 1")
    after = play(s, pg.ChoosePlant(player=C, plant=9, bid=1))
    assert after.players[C].plants == labels(9)
    assert after.players[C].money == 49
    assert after.phase is Phase.RESOURCES
    # The token left with its plant: nothing else is removed at phase end (AUC-33).
    assert after.market.actual == labels(10, 11, 12, 13)
    assert after.market.future == labels(14, 15, 16, 17)
    assert discount(after) is None
    other = play(s, pg.ChoosePlant(player=C, plant=11, bid=11))
    assert other.players[C].money == 39
    # 9 was not sold: AUC-33 removes it at phase end and draws 18.
    assert "9" in other.market.removed
    assert other.market.actual == labels(10, 12, 13, 14)
    assert other.market.future == labels(15, 16, 17, 18)


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_06_token_beside_after_sale_then_on_next_lowest(components: str) -> None:
    """EC-06, AUC-35, AUC-31, AUC-33: token on 6; A buys 6 (at 1); the draw is 3, now
    the lowest. The token is beside the market, 3 opens at 3 (an opening of 1 on 3
    names the minimum 3), nothing is removed at phase end. In the next phase 2 the
    token lies on the then-lowest actual plant, 3."""
    s = na_auction(
        components,
        actual=(6, 7, 8, 9),
        future=(10, 11, 12, 13),
        deck=(3, 20, 21, 22),
        token=6,
    )
    s = buy_alone(s, A, 6, 1)
    assert s.players[A].money == 49
    assert s.market.actual == labels(3, 7, 8, 9)
    assert discount(s) is None
    assert opening_minimum(s, 3) == 3
    reject(s, pg.ChoosePlant(player=B, plant=3, bid=1), Reason.BID_TOO_LOW, "minimum 3")
    removed = s.market.removed
    s = pass_rest(s)
    assert s.market.removed == removed
    assert s.market.plants == labels(3, 7, 8, 9, 10, 11, 12, 13)
    s = to_next_auction(s)
    # BUR-07: 13 went under the deck, 20 was drawn.
    assert s.round == 3
    assert s.market.plants == labels(3, 7, 8, 9, 10, 11, 12, 20)
    assert discount(s) == "3"
    first = pg.current_player(s)
    assert first is not None
    assert opening_minimum(s, 3) == 1


@pytest.mark.parametrize("components", COMPONENTS)
def test_ec_08_nobody_buys_exactly_one_removal(components: str) -> None:
    """EC-08, AUC-22, AUC-33, AUC-20: round 4, all pass, token on the lowest plant 11.
    Exactly one plant (11) is removed, by AUC-33, and one (19) drawn; neither the
    Europe rule AUC-21 nor, with classic+map_rules, AUC-20 removes a second."""
    s = na_auction(
        components,
        actual=(11, 12, 13, 14),
        future=(15, 16, 17, 18),
        deck=(19, 20, 21),
        token=11,
        round=4,
    )
    removed = s.market.removed
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.market.removed == (*removed, "11")
    assert s.market.actual == labels(12, 13, 14, 15)
    assert s.market.future == labels(16, 17, 18, 19)
    assert s.secret.deck == labels(20, 21)
    assert discount(s) is None


# --- AUC-32 without a lower plant, bad input ----------------------------------------------


@pytest.mark.parametrize("components", COMPONENTS)
def test_higher_plant_entering_leaves_the_token_auc_32(components: str) -> None:
    """AUC-32, AUC-10: only a lower plant removes the token. Token on 8; A buys 10, the
    draw 16 enters the future market and 12 moves up: the token stays on 8."""
    s = na_auction(
        components,
        actual=(8, 9, 10, 11),
        future=(12, 13, 14, 15),
        deck=(16, 17),
        token=8,
    )
    s = buy_alone(s, A, 10, 10)
    assert s.market.actual == labels(8, 9, 11, 12)
    assert discount(s) == "8"
    assert opening_minimum(s, 8) == 1


@pytest.mark.parametrize("components", COMPONENTS)
def test_bid_below_minimum_after_token_removed_auc_32(components: str) -> None:
    """AUC-32, AUC-04, EC-01: after the token was removed by the drawn 5, an opening of
    7 on plant 8 is rejected (BID_TOO_LOW, minimum 8) and the state is unchanged; 8 at
    8 is legal."""
    s = na_auction(
        components,
        actual=(8, 9, 10, 11),
        future=(12, 13, 14, 15),
        deck=(5, 20),
        token=8,
    )
    s = buy_alone(s, A, 10, 10)
    assert discount(s) is None
    reject(s, pg.ChoosePlant(player=B, plant=8, bid=7), Reason.BID_TOO_LOW, "minimum 8", "8")
    assert pg.is_legal(s, pg.ChoosePlant(player=B, plant=8, bid=8))


@pytest.mark.parametrize("components", COMPONENTS)
def test_zero_bid_on_discounted_plant_rejected_auc_31(components: str) -> None:
    """AUC-31, AUC-04, CON-09: 0 on the discounted plant is below the minimum 1
    (BID_TOO_LOW, message names 1) and leaves the state unchanged."""
    s = na_auction(components, actual=(6, 7, 8, 9), future=(10, 11, 12, 13), deck=(20,), token=6)
    reject(s, pg.ChoosePlant(player=A, plant=6, bid=0), Reason.BID_TOO_LOW, "minimum 1", "6")
    assert opening_minimum(s, 6) == 1


# --- EC-69: end-of-phase order --------------------------------------------------------------


def test_ec_69_token_plant_removed_before_step_3() -> None:
    """EC-69, AUC-15, AUC-33, STP-05, OQ-05: Deluxe NA, Step 2, round 6, largest city
    count 8, market 10 13 15 17 | 20 22 25 27, token on 10. A buys 15; the draw is
    the Step 3 card (deck reshuffled). B buys 13; the draw is 30. C passes. At phase
    end AUC-33 first removes 10 and draws 24, then STP-05 removes 17 and the Step 3
    card: 20 22 24 25 27 30, all actual, Step 3 from phase 3."""
    eight = (*SIX, "montreal", "ottawa")
    s = na_auction(
        "deluxe",
        actual=(10, 13, 15, 17),
        future=(20, 22, 25, 27),
        deck=(),
        under_step3=(30, 24),
        token=10,
        round=6,
        step=2,
        cities=eight,
    )
    assert s.players[C].city_count == 8
    s = buy_alone(s, A, 15, 15)
    assert s.market.step3_in_market
    assert s.market.actual == labels(10, 13, 17, 20)
    assert s.market.future == labels(22, 25, 27)
    assert discount(s) == "10"
    assert s.rules.ranked(s.secret.deck) == labels(24, 30)
    s = arrange(s, deck=(30, 24))  # fix the reshuffled order for the scenario
    s = buy_alone(s, B, 13, 13)
    assert s.market.actual == labels(10, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30)
    assert discount(s) == "10"
    s = play(s, pg.PassAuction(player=C))
    assert s.phase is Phase.RESOURCES
    assert s.step == 3
    assert s.market.actual == labels(20, 22, 24, 25, 27, 30)
    assert s.market.future == ()
    assert not s.market.step3_in_market
    assert s.market.removed[-2:] == labels(10, 17)
    assert discount(s) is None


# --- metropoles ------------------------------------------------------------------------------


def phase4(components: str = "deluxe", *, step: int = 1, cities: Sequence[str] = ()) -> GameState:
    """Phase 4 of round 3 on NA_EAST; C (last in order) builds first with 100 Elektro."""
    s = new(3, map="north_america", regions=NA_EAST, components=components)
    s = arrange(s, round=3, step=step, phase=Phase.BUILDING, order=(A, B, C), done=())
    s = give(s, C, money=100, cities=cities)
    assert pg.current_player(s) == C
    return s


@pytest.mark.parametrize("components", BOTH)
def test_second_house_in_same_new_york_half_rejected_bld_06_bld_10(components: str) -> None:
    """BLD-06, BLD-10, BLD-11, EC-33 (New York variant): C owns new_york_n; a second
    house there is rejected (ALREADY_IN_CITY, state unchanged) in Steps 1-3;
    new_york_s is legal at 10 + 0."""
    for step in (1, 2, 3):
        s = phase4(components, step=step, cities=("new_york_n",))
        reject(s, pg.Build(player=C, city="new_york_n"), Reason.ALREADY_IN_CITY, "New York N")
        after = play(s, pg.Build(player=C, city="new_york_s"))
        assert after.players[C].money == 90
        assert after.players[C].cities == ("new_york_n", "new_york_s")
        reject(after, pg.Build(player=C, city="new_york_s"), Reason.ALREADY_IN_CITY)


@pytest.mark.parametrize("components", BOTH)
def test_both_metropole_halves_count_for_step_2_bld_10(components: str) -> None:
    """BLD-10, BLD-11, CON-12, STP-01, STP-02, EC-31: 3 players, Step 2 at 7 cities. C owns five
    cities (boston, philadelphia, washington, pittsburgh, columbus) and builds
    new_york_s (6 cities: still Step 1) then new_york_n (7 cities): Step 2 begins at
    once, the lowest plant 13 is removed and 33 drawn (North America draws a
    replacement, STP-02)."""
    five = ("boston", "philadelphia", "washington", "pittsburgh", "columbus")
    s = phase4(components, cities=five)
    s = arrange(s, actual=(13, 15, 17, 20), future=(22, 25, 27, 30), top=None, deck=(33, 34))
    # philadelphia -3- new_york_s = 3
    s = play(s, pg.Build(player=C, city="new_york_s"))
    assert s.players[C].city_count == 6
    assert s.step == 1
    assert s.players[C].money == 100 - 13
    # new_york_s -0- new_york_n = 0
    s = play(s, pg.Build(player=C, city="new_york_n"))
    assert s.players[C].city_count == 7
    assert s.players[C].money == 100 - 13 - 10
    assert s.step == 2
    assert s.market.removed[-1] == "13"
    assert s.market.actual == labels(15, 17, 20, 22)
    assert s.market.future == labels(25, 27, 30, 33)


def test_ec_69_classic_freeze_loses_no_plant() -> None:
    """EC-69, AUC-33, STP-05, STP-06, CON-11, OQ-31: as EC-69 with the classic components
    and the ``map_rules`` option (the only classic game with a token).
    After the Step 3 card shows, B's purchase draws nothing (classic freeze). At phase
    end AUC-33 removes 10 and STP-05 removes 17 and the Step 3 card. Whether or not
    the AUC-33 replacement is drawn while frozen, every plant must stay in exactly one
    place: 30 is in the market or still in the deck."""
    eight = (*SIX, "montreal", "ottawa")
    s = na_auction(
        "classic+map_rules",
        actual=(10, 13, 15, 17),
        future=(20, 22, 25, 27),
        deck=(),
        under_step3=(30, 24),
        token=10,
        round=6,
        step=2,
        cities=eight,
    )
    s = buy_alone(s, A, 15, 15)
    s = arrange(s, deck=(30, 24))
    s = buy_alone(s, B, 13, 13)
    assert s.market.actual == labels(10, 17, 20)  # frozen: no draw, no promotion
    s = play(s, pg.PassAuction(player=C))
    assert s.step == 3
    assert s.market.removed[-2:] == labels(10, 17)
    # The freeze also holds for the end-of-phase replacement: 30 stays in the deck.
    assert "30" in s.secret.deck
    assert "30" not in s.market.plants
    assert invariant_violations(s) == []


# --- CON-02, OQ-31: no token in a plain classic game -------------------------------------------


def _play_through(config: pg.GameConfig, seed: int, policy_seed: int) -> tuple[int, int]:
    """Play a seeded random game to its end, checking the token after every action.

    Returns (phase-2 starts with a non-empty actual market, discount_placed events).
    """
    map_rules = config.components == "deluxe" or "map_rules" in config.options
    starts = 0
    last: tuple[GameState, pg.Action] | None = None
    for state, action in playout(config, seed, policy_seed):
        fresh = state.phase is Phase.AUCTION and not state.done and state.auction is None
        if fresh and not state.bought and state.discarding is None and state.market.actual:
            starts += 1
        if not map_rules:
            assert discount(state) is None
            if state.phase is Phase.AUCTION and state.auction is None:
                # CON-08, AUC-04: every actual plant opens at its number.
                m = state.market.actual
                assert pg.public_view(state).min_bids == tuple(
                    (p, state.rules.number(p)) for p in m
                )
        last = (state, action)
    assert last is not None
    final = pg.apply(*last)
    assert final.result is not None
    assert final.step == 3
    if not map_rules:
        assert discount(final) is None
    placed = sum(1 for e in final.events if e.kind == "discount_placed")
    return starts, placed


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [11, 2024])
def test_classic_game_never_shows_the_token_con_02_oq_31(players: int, seed: int) -> None:
    """CON-02, OQ-31, SET-24, AUC-30, AUC-31: a plain classic game on North America, played
    to its end with random legal actions, never has the discount token: ``discount`` is
    None after every action, no ``discount_placed`` event is logged, and in every phase 2
    each actual plant opens at its number. With the ``map_rules`` option the same seeded
    game places the token at every phase 2 that starts with plants in the actual market
    (AUC-31)."""
    cfg = pg.GameConfig(players=players, map="north_america", components="classic")
    starts, placed = _play_through(cfg, seed, seed + 1)
    assert starts > 0
    assert placed == 0
    opted = pg.GameConfig(
        players=players, map="north_america", components="classic", options={"map_rules"}
    )
    starts, placed = _play_through(opted, seed, seed + 1)
    assert starts > 0
    assert placed == starts
