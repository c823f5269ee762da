"""Recharged phase 2: the discount token and the plant market (RULES.md 13.4).

RCH-30..RCH-39 with the edge cases EC-R01..EC-R06, EC-R09 and EC-R20. Every
market, bid and plant number is typed in from section 13; the decks are
stacked so that each draw is the card the scenario names. Markets are written
``actual | future``.
"""

from __future__ import annotations

import pytest

import powergrid as pg
from powergrid.enums import Phase, Resource
from powergrid.errors import Reason
from tests.recharged_parts import (
    RC_DE,
    RC_US,
    A,
    B,
    C,
    D,
    auction,
    buy_alone,
    events_of,
    rc,
    reject,
    token,
)
from tests.scenario import (
    arrange,
    finish_phase,
    give,
    held,
    labels,
    new,
    opening_minimum,
    pass_rest,
    play,
    to_next_auction,
)

NA_EAST = ("mideast", "midwest", "northeast")

# --- RCH-30, RCH-31: where the token lies ----------------------------------------------------


@pytest.mark.parametrize("map", [RC_DE, RC_US])
def test_rch_30_ec_r05_round_one_token_on_the_lowest_plant_opens_at_one(map: str) -> None:
    """RCH-30, EC-R05, AUC-13: round 1 starts with the token on the lowest actual plant (3),
    which may be opened at 1 (on both boards); passing the phase is still illegal; the
    other plants open at their number."""
    s = rc(4, map)
    s = arrange(s, actual=(3, 6, 7, 10), future=(11, 12, 13, 14), top=None)
    s = arrange(s, discount=3)
    first = pg.current_player(s)
    assert first is not None
    assert opening_minimum(s, 3) == 1
    assert opening_minimum(s, 6) == 6
    reject(s, pg.PassAuction(player=first), Reason.PASS_FORBIDDEN_FIRST_ROUND)
    after = play(s, pg.ChoosePlant(player=first, plant=3, bid=1))
    assert after.auction is not None
    assert after.auction.bid == 1


@pytest.mark.parametrize(("map", "seed"), [(RC_DE, 1), (RC_DE, 2), (RC_US, 3)])
def test_rch_30_the_new_game_places_the_token(map: str, seed: int) -> None:
    """RCH-30: the game's first phase 2 begins with the token on its lowest actual plant,
    a plug plant (RCH-20)."""
    s = rc(4, map, seed=seed)
    assert token(s) == s.market.actual[0]
    assert s.rules.number(s.market.actual[0]) <= 15
    assert opening_minimum(s, s.market.actual[0]) == 1


def test_rch_31_token_plant_bought_token_beside_until_next_phase_2() -> None:
    """RCH-31, RCH-30: token on 6 in `6 7 11 14 | 22 26 35 36`; A buys 6 for 1 (49 left);
    the token is beside the market: 7 opens at 7 for the rest of the phase. Next phase 2
    the token lies on the then lowest actual plant, 7."""
    s = auction(actual=(6, 7, 11, 14), future=(22, 26, 35, 36), deck=(18, 19, 20, 21), discount=6)
    s = buy_alone(s, A, 6, 1)
    assert s.players[A].money == 49
    assert token(s) is None
    assert s.market.plants == labels(7, 11, 14, 18, 22, 26, 35, 36)
    assert opening_minimum(s, 7) == 7
    reject(s, pg.ChoosePlant(player=B, plant=7, bid=1), Reason.BID_TOO_LOW, "minimum 7")
    removed = s.market.removed
    s = pass_rest(s)
    assert s.market.removed == removed  # RCH-33 has nothing left to remove
    s = to_next_auction(s)
    assert token(s) == "7"
    assert opening_minimum(s, 7) == 1


# --- RCH-32: a lower plant drawn while the token lies ------------------------------------------


def test_ec_r01_rch_32_lower_plant_drawn_under_the_token_is_boxed() -> None:
    """EC-R01, RCH-32, RCH-33, RCH-30: RC-DE, 4 players, round 2, token on 6, market
    `6 7 11 14 | 22 26 35 36`. A buys 14 for 14; the drawn card is 5: 5 leaves the game,
    the token goes beside the market, 18 is drawn: `6 7 11 18 | 22 26 35 36`. 6 opens
    at 6 for the rest of the phase; nothing is removed at its end. Next round the
    token lies on 6 again and 6 is bought for 1."""
    s = auction(actual=(6, 7, 11, 14), future=(22, 26, 35, 36), deck=(5, 18, 19, 20), discount=6)
    s = buy_alone(s, A, 14, 14)
    assert s.players[A].money == 36
    assert "5" in s.market.removed
    assert "5" not in s.market.plants
    assert token(s) is None
    assert s.market.actual == labels(6, 7, 11, 18)
    assert s.market.future == labels(22, 26, 35, 36)
    assert opening_minimum(s, 6) == 6
    reject(s, pg.ChoosePlant(player=B, plant=6, bid=1), Reason.BID_TOO_LOW, "minimum 6")
    removed = s.market.removed
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.market.removed == removed  # RCH-33: the token no longer lies on 6
    assert "6" in s.market.plants
    s = to_next_auction(s)
    assert s.round == 3
    assert token(s) == "6"
    who = pg.current_player(s)
    assert who is not None
    s = buy_alone(s, who, 6, 1)
    assert "6" in s.players[who].plants


def test_rch_32_oq_r05_any_lower_draw_while_the_token_lies_is_boxed() -> None:
    """RCH-32, OQ-R05: not only the first draw counts. Token on 6; A buys 14 and 18 is
    drawn (higher: it enters, the token stays on 6); B buys 11 and 5 is drawn: 5 leaves
    the game, the token goes beside the market and 19 is drawn."""
    s = auction(actual=(6, 7, 11, 14), future=(22, 26, 35, 36), deck=(18, 5, 19, 20), discount=6)
    s = buy_alone(s, A, 14, 14)
    assert token(s) == "6"
    assert s.market.plants == labels(6, 7, 11, 18, 22, 26, 35, 36)
    s = buy_alone(s, B, 11, 11)
    assert "5" in s.market.removed
    assert token(s) is None
    assert s.market.plants == labels(6, 7, 18, 19, 22, 26, 35, 36)


def test_rch_32_differs_from_deluxe_auc_32() -> None:
    """RCH-32 against AUC-32: the same draw of 3 under a token on 6 boxes the 3 in
    Recharged, but in Deluxe on North America 3 enters the market (only the token goes)."""
    actual, future, deck = (6, 7, 11, 14), (22, 26, 35, 36), (3, 18, 19)
    s = auction(actual=actual, future=future, deck=deck, discount=6)
    s = buy_alone(s, A, 14, 14)
    assert "3" not in s.market.plants
    assert "3" in s.market.removed
    assert s.market.actual == labels(6, 7, 11, 18)
    dx = new(3, map="north_america", regions=NA_EAST, components="deluxe")
    dx = arrange(dx, round=2, phase=Phase.AUCTION, order=(A, B, C), done=(), top=None)
    dx = arrange(dx, actual=actual, future=future, deck=deck)
    dx = buy_alone(arrange(dx, discount=6), A, 14, 14)
    assert dx.market.actual == labels(3, 6, 7, 11)
    assert dx.modules["north_america"].plant is None


def test_ec_r02_rch_31_lower_plant_after_the_token_plant_was_bought() -> None:
    """EC-R02, RCH-31, RCH-32: RC-US, token on 8; A buys 8 for 1; the drawn card is 5.
    5 enters the market normally (the token is beside it) and opens at 5; nothing is
    boxed."""
    s = auction(
        map=RC_US, actual=(8, 9, 10, 12), future=(13, 14, 15, 16), deck=(5, 20, 21), discount=8
    )
    s = buy_alone(s, A, 8, 1)
    assert s.players[A].money == 49
    assert s.market.actual == labels(5, 9, 10, 12)
    assert s.market.future == labels(13, 14, 15, 16)
    assert s.market.removed == ()
    assert token(s) is None
    assert opening_minimum(s, 5) == 5


# --- RCH-33, RCH-34: the unsold token plant, and no "nobody buys" removal -----------------


def test_ec_r20_rch_33_replacement_for_the_removed_token_plant_may_be_lower() -> None:
    """EC-R20, RCH-33, RCH-32, RCH-34: RC-DE, round 5, token on 11, market
    `11 17 19 24 | 35 37 39 44`; everyone passes. At the end of phase 2 11 leaves the game,
    the token goes beside the market, and the replacement 8 enters normally:
    `8 17 19 24 | 35 37 39 44`. No second plant is removed for "nobody bought"."""
    s = auction(
        round=5,
        actual=(11, 17, 19, 24),
        future=(35, 37, 39, 44),
        deck=(8, 20, 21),
        discount=11,
    )
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.market.removed == labels(11)
    assert token(s) is None
    assert s.market.actual == labels(8, 17, 19, 24)
    assert s.market.future == labels(35, 37, 39, 44)
    assert s.secret.deck == labels(20, 21)


def test_rch_33_token_plant_unsold_after_purchases() -> None:
    """RCH-33: token on 7 in `7 9 11 14 | 22 26 35 36`; A buys 9 (18 drawn), B, C and D
    pass. At the end of phase 2 7 leaves the game and 19 is drawn."""
    s = auction(actual=(7, 9, 11, 14), future=(22, 26, 35, 36), deck=(18, 19, 20), discount=7)
    s = buy_alone(s, A, 9, 9)
    assert token(s) == "7"
    s = pass_rest(s)
    assert s.market.removed == labels(7)
    assert s.market.plants == labels(11, 14, 18, 19, 22, 26, 35, 36)
    assert token(s) is None
    assert events_of(s, "plant_removed")[-1].values == ("7",)


def test_ec_r03_rch_34_everyone_passes_deck_empty_step_3() -> None:
    """EC-R03, RCH-33, RCH-34, RCH-75: RC-DE, round 9, Step 3, market `37 39 40 42 44 46`,
    token on 37, deck empty, all four players pass. 37 leaves the game, nothing is drawn:
    `39 40 42 44 46`; no second plant is removed for "nobody bought"."""
    s = auction(
        round=9,
        step=3,
        actual=(37, 39, 40, 42, 44, 46),
        future=(),
        deck=(),
        discount=37,
        step3_in_deck=False,
    )
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.market.actual == labels(39, 40, 42, 44, 46)
    assert s.market.future == ()
    assert s.market.removed[-1] == "37"
    assert "39" not in s.market.removed


# --- RCH-35: the last player ------------------------------------------------------------------


def test_ec_r06_rch_35_last_player_takes_the_discounted_plant_for_one() -> None:
    """EC-R06, RCH-35, AUC-14: 3 players, A and B have bought, C remains, token on 9. C may
    take 9 for 1 without an auction (not for 2), or another actual plant at its number."""
    s = auction(
        3,
        actual=(9, 10, 11, 12),
        future=(13, 14, 15, 16),
        deck=(17, 18, 19),
        discount=9,
        done=(A, B),
        bought=(A, B),
    )
    assert pg.current_player(s) == C
    legal = pg.legal_actions(s)
    assert pg.ChoosePlant(player=C, plant=9, bid=1) in legal
    assert pg.ChoosePlant(player=C, plant=11, bid=11) in legal
    reject(
        s, pg.ChoosePlant(player=C, plant=9, bid=2), Reason.LAST_PLAYER_PAYS_MINIMUM, "minimum 1"
    )
    after = play(s, pg.ChoosePlant(player=C, plant=9, bid=1))
    assert after.players[C].plants == labels(9)
    assert after.players[C].money == 49
    assert after.phase is Phase.RESOURCES
    assert after.market.removed == ()
    other = play(s, pg.ChoosePlant(player=C, plant=11, bid=11))
    assert other.players[C].money == 39
    assert other.market.removed == labels(9)  # RCH-33: 9 unsold


# --- RCH-36: no too-small rule ----------------------------------------------------------------

# RC-DE red and cyan cities for a 9-city network: D owns eight, then builds Aachen from Koln.
NINE = ("osnabruck", "munster", "essen", "duisburg", "dortmund", "dusseldorf", "kassel", "koln")


def _ninth_house(options: frozenset[str]) -> tuple[pg.GameState, pg.GameState]:
    """Phase 4 of Step 2: D (8 cities) builds a 9th, Aachen; plant 8 is the lowest actual."""
    s = rc(4, options=options)
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
        deck=(20, 21, 22),
    )
    s = give(s, D, cities=NINE[:8], money=200)
    s = give(s, A, cities=("hamburg",))
    s = give(s, B, cities=("bremen",))
    s = give(s, C, cities=("kiel",))
    assert pg.current_player(s) == D
    return s, play(s, pg.Build(player=D, city="aachen"))


def test_ec_r09_rch_36_too_small_plant_stays() -> None:
    """EC-R09, RCH-36, RCH-72, OQ-R01: Recharged default, 4 players, Step 2, largest city
    count 9, plant 8 the lowest actual: 8 stays, nothing is drawn, and the next phase 2
    puts the token on 8. With the option ``too_small_rule``: 8 leaves at once and 20 is
    drawn."""
    before, s = _ninth_house(frozenset())
    assert s.players[D].city_count == 9
    assert s.market == before.market
    s = to_next_auction(finish_phase(s))
    assert "8" in s.market.plants
    assert token(s) == "8"
    _, on = _ninth_house(frozenset({"too_small_rule"}))
    assert "8" not in on.market.plants
    assert on.market.removed == labels(8)
    assert on.market.plants == labels(17, 19, 20, 24, 35, 37, 39, 44)


# --- RCH-37, RCH-38: three plants, scrap an old one -----------------------------------------


def test_rch_37_rch_38_a_fourth_plant_scraps_an_old_one() -> None:
    """RCH-37, RCH-38, AUC-18: A holds 10, 13 and 15 (3 plants, the limit) and buys 20;
    A must scrap one of 10, 13, 15; scrapping the new 20 is illegal."""
    s = auction(actual=(20, 22, 24, 26), future=(28, 30, 31, 32), deck=(33, 34), discount=20)
    s = give(s, A, plants=(10, 13, 15))
    s = buy_alone(s, A, 20, 1)
    assert s.discarding == A
    choices = {a.plant for a in pg.legal_actions(s) if isinstance(a, pg.DiscardPlant)}
    assert choices == set(labels(10, 13, 15))
    reject(s, pg.DiscardPlant(player=A, plant=20), Reason.DISCARD_NEW_PLANT)
    s = play(s, pg.DiscardPlant(player=A, plant=10))
    assert s.players[A].plants == labels(13, 15, 20)
    assert "10" in s.market.removed


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_rch_37_three_plants_for_every_player_count(players: int) -> None:
    """RCH-37, 13.10: the limit is 3 plants with 3 to 6 players."""
    assert rc(players).rules.max_plants == 3


# --- RCH-39: the Step 3 card drawn in phase 2 ------------------------------------------------


def test_rch_39_step_3_card_in_phase_2_as_deluxe() -> None:
    """RCH-39, STP-05, RCH-33: Step 2, token on 13, market `13 15 16 18 | 20 22 24 26`, the
    Step 3 card next, 30, 31 and 33 under it. A buys 16: the Step 3 card is drawn and lies
    in the market as its highest card; the deck (30 31 33) is shuffled. B buys 18: the
    replacement comes from the shuffled deck. C and D pass. At the end of phase 2 13 goes
    first (RCH-33) and is replaced, then 15 and the Step 3 card leave the game: Step 3
    from phase 3, six actual plants, 20 22 24 26 and two of 30 31 33."""
    s = auction(
        step=2,
        actual=(13, 15, 16, 18),
        future=(20, 22, 24, 26),
        deck=(),
        discount=13,
    )
    s = arrange(s, under_step3=(30, 31, 33))
    s = buy_alone(s, A, 16, 16)
    assert s.market.step3_in_market
    assert s.step3_pending
    assert s.step == 2
    assert s.market.plants == labels(13, 15, 18, 20, 22, 24, 26)
    assert sorted(s.secret.deck) == sorted(labels(30, 31, 33))
    s = buy_alone(s, B, 18, 18)
    assert len(s.market.plants) == 7
    drawn = set(s.market.plants) - set(labels(13, 15, 20, 22, 24, 26))
    assert len(drawn) == 1
    assert drawn <= set(labels(30, 31, 33))
    s = pass_rest(s)
    assert s.phase is Phase.RESOURCES
    assert s.step == 3
    assert not s.market.step3_in_market
    assert s.market.removed[-2:] == labels(13, 15)
    assert len(s.market.actual) == 6
    assert s.market.future == ()
    assert s.market.actual[:4] == labels(20, 22, 24, 26)
    assert set(s.market.actual[4:]) <= set(labels(30, 31, 33))
    assert len(s.secret.deck) == 1


def test_rch_30_token_placed_in_a_step_3_phase_2() -> None:
    """RCH-30: the token is placed at the start of every phase 2, Step 3 included: after
    phase 5 of Step 3 removed 20 (`20 22 24 26 28 30`, 31 drawn), the next phase 2 puts
    it on 22, which opens at 1."""
    s = auction(
        round=8,
        step=3,
        actual=(20, 22, 24, 26, 28, 30),
        future=(),
        deck=(31, 32, 33),
        discount=None,
        step3_in_deck=False,
    )
    s = arrange(s, phase=Phase.BUREAUCRACY, done=())
    s = to_next_auction(s)
    assert s.round == 9
    assert s.market.actual == labels(22, 24, 26, 28, 30, 31)
    assert token(s) == "22"
    assert opening_minimum(s, 22) == 1


def test_rch_38_scrapped_plant_tokens_go_to_the_supply() -> None:
    """RCH-38, AUC-18: A holds 10 and 15 (coal, 4 each) with 8 coal, and 13; A buys 16 (oil)
    and scraps 10: only 4 coal still fit (on 15), so 4 go to the general supply, never to
    the market. Scrapping without dropping them is refused."""
    s = auction(actual=(16, 22, 24, 26), future=(28, 30, 31, 32), deck=(33, 34), discount=16)
    s = give(s, A, plants=(10, 13, 15), resources={"coal": 8})
    s = buy_alone(s, A, 16, 1)
    reject(s, pg.DiscardPlant(player=A, plant=10), Reason.BAD_RESOURCE_DROP)
    market, supply = s.resources.market, s.resources.supply
    s = play(s, pg.DiscardPlant(player=A, plant=10, drop=((Resource.COAL, 4),)))
    assert s.players[A].plants == labels(13, 15, 16)
    assert held(s, A) == {"coal": 4}
    assert s.resources.market == market
    assert s.resources.supply[0] == supply[0] + 4
