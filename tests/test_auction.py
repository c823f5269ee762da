"""Phase 2, the auction (classic): AUC-01..AUC-22, AUC-33, CON-06/07/13, EC-07..EC-20, EC-66.

Seats are named as in RULES.md section 11: A = seat 0, B = 1, C = 2, D = 3, seated
clockwise in that order. Markets and amounts are the ones of the EC scenarios.

A classic game plays the classic rules on either board (CON-02, OQ-31): minimum bid =
plant number, AUC-20's no-purchase removal, the 4 + 4 Step 1 market of the EC
scenarios, no discount token. Most tests play on Europe (the default board). The
map-specific no-purchase rules (EC-07 / AUC-21 on Europe, EC-08 / AUC-33 on North
America) are checked with the ``map_rules`` option ("classic+map_rules").
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import powergrid as pg
from powergrid.engine.phases import discard
from powergrid.enums import Phase
from powergrid.errors import Reason
from powergrid.frozen import evolve
from powergrid.mechanics import fuel_storage as storage
from powergrid.rules.hooks import Hooks
from powergrid.state import GameState
from tests.module_parts import discount
from tests.scenario import arrange, give, held, kinds, labels, new, play, reject, snapshot

A, B, C, D = 0, 1, 2, 3

STEP1_MARKET = dict(actual=(13, 15, 17, 20), future=(22, 25, 27, 30))


def auction(
    players: int = 3,
    *,
    order: Sequence[int] | None = None,
    round: int = 2,
    actual: Sequence[int] = STEP1_MARKET["actual"],
    future: Sequence[int] = STEP1_MARKET["future"],
    deck: Sequence[int] = (33, 34, 36, 38, 39),
    done: Sequence[int] = (),
    bought: Sequence[int] = (),
    **config: Any,
) -> GameState:
    """A phase 2 in Step 1 with a fixed market and deck; every player has 50 Elektro."""
    state = new(players, seed=0, **config)
    return arrange(
        state,
        round=round,
        phase=Phase.AUCTION,
        order=tuple(order) if order is not None else tuple(range(players)),
        actual=actual,
        future=future,
        top=None,
        deck=deck,
        done=done,
        bought=bought,
    )


def bidders(state: GameState, *actions: pg.Action) -> tuple[list[int | None], GameState]:
    """Play ``actions``; return who was to act after each one."""
    seen: list[int | None] = []
    for action in actions:
        state = pg.apply(state, action)
        seen.append(pg.current_player(state))
    return seen, state


# --- AUC-01..AUC-05: the floor and opening an auction --------------------------------------


def test_phase_starts_with_position_1_auc_02() -> None:
    """AUC-02: phase 2 starts with position 1 of the player order, not seat 0."""
    state = auction(4, order=(C, A, D, B))
    assert pg.current_player(state) == C


def test_floor_may_open_any_actual_plant_or_pass_auc_03_con_07() -> None:
    """AUC-03, CON-07: the floor opens one of the 4 actual plants (from its number) or passes."""
    state = auction(3)
    legal = pg.legal_actions(state)
    chosen = {(a.plant, a.bid) for a in legal if isinstance(a, pg.ChoosePlant)}
    assert {plant for plant, _ in chosen} == set(labels(13, 15, 17, 20))
    assert {bid for plant, bid in chosen if plant == "13"} == set(range(13, 51))
    assert {bid for plant, bid in chosen if plant == "20"} == set(range(20, 51))
    assert pg.PassAuction(player=A) in legal


@pytest.mark.parametrize("plant", [22, 30, 33, 99])
def test_future_or_unknown_plant_cannot_be_opened_con_07(plant: int) -> None:
    """CON-07, AUC-03: future-market plants (22..30) and plants not on offer cannot be opened."""
    state = auction(3)
    reject(
        state,
        pg.ChoosePlant(player=A, plant=plant, bid=plant),
        Reason.NOT_ACTUAL_PLANT,
        str(plant),
        "13, 15, 17, 20",
    )


def test_opening_bid_below_plant_number_rejected_auc_04() -> None:
    """AUC-04, CON-08: the opening bid for plant 13 is at least 13."""
    state = auction(3)
    reject(
        state,
        pg.ChoosePlant(player=A, plant=13, bid=12),
        Reason.BID_TOO_LOW,
        "below the minimum 13 for plant 13",
    )


@pytest.mark.parametrize("bid", [13, 16])
def test_opening_bid_at_or_above_number_opens_auction_auc_04(bid: int) -> None:
    """AUC-04: the auctioneer makes the first bid himself, at the number or higher."""
    state = pg.apply(auction(3), pg.ChoosePlant(player=A, plant=13, bid=bid))
    assert state.auction is not None
    assert state.auction.plant == "13"
    assert state.auction.bid == bid
    assert state.auction.high_bidder == A
    assert state.players[A].money == 50  # nothing is paid before the auction ends
    assert pg.current_player(state) == B


def test_done_players_take_no_part_clockwise_bidding_ec_14() -> None:
    """EC-14, AUC-05, AUC-06, AUC-09: B bought, D passed; A opens: bids go A, C, A, C."""
    state = auction(4, done=(B, D), bought=(B,))
    state = give(state, B, plants=(10,))
    seen, state = bidders(
        state,
        pg.ChoosePlant(player=A, plant=13, bid=13),
        pg.Bid(player=C, amount=14),
        pg.Bid(player=A, amount=15),
        pg.Bid(player=C, amount=16),
    )
    assert seen == [C, A, C, A]
    for seat in (B, D):
        reject(state, pg.Bid(player=seat, amount=20), Reason.NOT_YOUR_TURN)
    state = pg.apply(state, pg.PassBid(player=A))
    assert state.players[C].plants == ("13",)
    assert state.players[C].money == 50 - 16


def test_bidding_is_clockwise_not_player_order_con_05_auc_06() -> None:
    """CON-05, AUC-06: order C, A, D, B; C opens: the bids go D, A, B (seating), then C."""
    state = auction(4, order=(C, A, D, B))
    seen, state = bidders(
        state,
        pg.ChoosePlant(player=C, plant=15, bid=15),
        pg.Bid(player=D, amount=16),
        pg.Bid(player=A, amount=17),
        pg.PassBid(player=B),
        pg.Bid(player=C, amount=18),
    )
    assert seen == [D, A, B, C, D]
    seen, state = bidders(state, pg.PassBid(player=D), pg.PassBid(player=A))
    assert seen[0] == A
    assert state.players[C].plants == ("15",)
    assert state.players[C].money == 50 - 18


def test_raise_must_be_strictly_higher_auc_06() -> None:
    """AUC-06: a raise is strictly higher than the current bid; any higher integer will do."""
    state = pg.apply(auction(3), pg.ChoosePlant(player=A, plant=13, bid=13))
    reject(
        state,
        pg.Bid(player=B, amount=13),
        Reason.BID_TOO_LOW,
        "13",
        "higher than the current bid 13 for plant 13",
    )
    reject(state, pg.Bid(player=B, amount=12), Reason.BID_TOO_LOW, "12", "13")
    jumped = pg.apply(state, pg.Bid(player=B, amount=31))
    assert jumped.auction is not None
    assert jumped.auction.bid == 31


def test_no_reentry_after_dropping_out_ec_15() -> None:
    """EC-15, AUC-06: A opens 10 at 10, B drops out, C bids 11: B cannot bid 12, A may."""
    state = auction(3, actual=(10, 11, 13, 15), future=(16, 17, 18, 20))
    seen, state = bidders(
        state,
        pg.ChoosePlant(player=A, plant=10, bid=10),
        pg.PassBid(player=B),
        pg.Bid(player=C, amount=11),
    )
    assert seen == [B, C, A]
    reject(state, pg.Bid(player=B, amount=12), Reason.NOT_YOUR_TURN, "player 0")
    seen, state = bidders(state, pg.Bid(player=A, amount=12), pg.Bid(player=C, amount=13))
    assert seen == [C, A]  # B is skipped every time round
    state = pg.apply(state, pg.PassBid(player=A))
    assert state.players[C].plants == ("10",)
    # B may take part in a later auction of the same phase: A (outbid) opens again.
    assert pg.current_player(state) == A
    state = pg.apply(state, pg.ChoosePlant(player=A, plant=11, bid=11))
    assert pg.current_player(state) == B


def test_bid_above_money_rejected_ec_16() -> None:
    """EC-16, AUC-07, CON-09: C has 20 Elektro: a bid of 21 is rejected, 20 is fine."""
    state = give(auction(3), C, money=20)
    state = play(state, pg.ChoosePlant(player=A, plant=13, bid=13), pg.Bid(player=B, amount=14))
    assert pg.current_player(state) == C
    reject(state, pg.Bid(player=C, amount=21), Reason.BID_ABOVE_MONEY, "21", "20")
    all_in = pg.apply(state, pg.Bid(player=C, amount=20))
    assert all_in.auction is not None
    assert all_in.auction.bid == 20
    assert max(a.amount for a in pg.legal_actions(state) if isinstance(a, pg.Bid)) == 20


def test_opening_bid_above_money_rejected_auc_07() -> None:
    """AUC-07: the auctioneer's own opening bid may not exceed his 20 Elektro either."""
    state = give(auction(3, order=(C, A, B)), C, money=20)
    reject(state, pg.ChoosePlant(player=C, plant=13, bid=21), Reason.BID_ABOVE_MONEY, "21", "20")
    reject(state, pg.ChoosePlant(player=C, plant=17, bid=17 + 4), Reason.BID_ABOVE_MONEY, "21")


def test_last_bidder_pays_his_bid_and_takes_the_plant_auc_08() -> None:
    """AUC-08: when all others dropped out, the high bidder pays his last bid to the bank."""
    state = play(
        auction(3),
        pg.ChoosePlant(player=A, plant=15, bid=15),
        pg.Bid(player=B, amount=18),
        pg.PassBid(player=C),
        pg.PassBid(player=A),
    )
    assert state.auction is None
    assert state.players[B].plants == ("15",)
    assert [p.money for p in state.players] == [50, 32, 50]
    assert "15" not in state.market.plants


def test_buyer_is_done_and_takes_no_part_auc_09_con_06() -> None:
    """AUC-09, CON-06, AUC-01: the buyer is done for the phase and cannot act again."""
    state = play(
        auction(3),
        pg.ChoosePlant(player=A, plant=13, bid=13),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
    )
    assert state.players[A].plants == ("13",)
    assert A in state.done
    assert pg.current_player(state) == B
    reject(state, pg.ChoosePlant(player=A, plant=15, bid=15), Reason.NOT_YOUR_TURN)
    state = pg.apply(state, pg.ChoosePlant(player=B, plant=15, bid=15))
    assert pg.current_player(state) == C  # A is skipped in the bidding
    state = pg.apply(state, pg.PassBid(player=C))
    assert state.players[A].plants == ("13",)
    assert state.players[B].plants == ("15",)


# --- AUC-10, CON-13: replacement draws ----------------------------------------------------


def test_drawn_low_plant_joins_actual_market_auc_10() -> None:
    """AUC-10: A buys 15, the draw is 14: market 13 14 17 20 | 22 25 27 30."""
    state = play(
        auction(3, deck=(14, 33)),
        pg.ChoosePlant(player=A, plant=15, bid=15),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
    )
    assert state.market.actual == labels(13, 14, 17, 20)
    assert state.market.future == labels(22, 25, 27, 30)


def test_drawn_high_plant_promotes_lowest_future_auc_10() -> None:
    """AUC-10: A buys 15, the draw is 40: 22 moves up, market 13 17 20 22 | 25 27 30 40."""
    state = play(
        auction(3, deck=(40, 33)),
        pg.ChoosePlant(player=A, plant=15, bid=15),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
    )
    assert state.market.actual == labels(13, 17, 20, 22)
    assert state.market.future == labels(25, 27, 30, 40)
    assert state.secret.deck == labels(33)
    assert state.market.deck_size == 1


def test_step3_market_is_six_actual_plants_con_07() -> None:
    """CON-07, AUC-10: in Step 3 all 6 plants are actual; a purchase is replaced, 6 again."""
    state = auction(3, actual=(20, 22, 25, 27, 30, 31), future=(), deck=(40, 42))
    state = arrange(state, step=3, step3_in_deck=False)
    legal_plants = {a.plant for a in pg.legal_actions(state) if isinstance(a, pg.ChoosePlant)}
    assert legal_plants == set(labels(20, 22, 25, 27, 30, 31))
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=31, bid=31),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
    )
    assert state.market.actual == labels(20, 22, 25, 27, 30, 40)
    assert state.market.future == ()


def test_face_up_13_drawn_before_the_deck_con_13() -> None:
    """CON-13, SET-11: round 1, A buys 3: 13 (face up on top) enters, not the deck's 40."""
    state = arrange(
        new(3, seed=0),
        order=(A, B, C),
        actual=(3, 4, 5, 6),
        future=(7, 8, 9, 10),
        top=13,
        deck=(40, 42),
    )
    assert state.market.top == "13"
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=3, bid=3),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
    )
    assert state.market.actual == labels(4, 5, 6, 7)
    assert state.market.future == labels(8, 9, 10, 13)
    assert state.market.top is None
    assert state.secret.deck == labels(40, 42)
    state = play(state, pg.ChoosePlant(player=B, plant=4, bid=4), pg.PassBid(player=C))
    assert state.market.future == labels(9, 10, 13, 40)
    assert state.secret.deck == labels(42)


# --- AUC-11: who opens next ---------------------------------------------------------------


def test_auctioneer_outbid_keeps_the_floor_ec_12() -> None:
    """EC-12, AUC-11: A opens 5; B wins it: A has the floor again and may open or pass."""
    state = auction(3, actual=(5, 6, 7, 8), future=(9, 10, 11, 12))
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=5, bid=5),
        pg.Bid(player=B, amount=6),
        pg.PassBid(player=C),
        pg.PassBid(player=A),
    )
    assert state.players[B].plants == ("5",)
    assert pg.current_player(state) == A
    legal = pg.legal_actions(state)
    assert pg.PassAuction(player=A) in legal
    assert pg.ChoosePlant(player=A, plant=6, bid=6) in legal


def test_auctioneer_wins_next_in_player_order_not_clockwise_ec_13() -> None:
    """EC-13, AUC-11, CON-05: order C, A, D, B; C opens and wins: A has the floor, not D."""
    state = auction(4, order=(C, A, D, B), actual=(5, 6, 7, 8), future=(9, 10, 11, 12))
    state = play(
        state,
        pg.ChoosePlant(player=C, plant=5, bid=5),
        pg.PassBid(player=D),
        pg.PassBid(player=A),
        pg.PassBid(player=B),
    )
    assert state.players[C].plants == ("5",)
    assert pg.current_player(state) == A


# --- AUC-12, AUC-13: passing ------------------------------------------------------------


def test_passing_player_is_out_for_the_phase_auc_12() -> None:
    """AUC-12: A passes; B opens: only C bids; A never acts again and gets no plant."""
    state = pg.apply(auction(3), pg.PassAuction(player=A))
    assert A in state.done
    assert pg.current_player(state) == B
    seen, state = bidders(
        state,
        pg.ChoosePlant(player=B, plant=13, bid=13),
        pg.Bid(player=C, amount=14),
        pg.Bid(player=B, amount=15),
    )
    assert seen == [C, B, C]
    reject(state, pg.Bid(player=A, amount=16), Reason.NOT_YOUR_TURN)
    state = play(state, pg.PassBid(player=C), pg.PassAuction(player=C))
    assert state.phase is Phase.RESOURCES
    assert state.players[A].plants == ()
    assert state.players[A].money == 50


def test_first_round_pass_forbidden_ec_10() -> None:
    """EC-10, AUC-13: in round 1 the player with the floor may not pass the phase."""
    state = auction(3, round=1)
    msg = reject(state, pg.PassAuction(player=A), Reason.PASS_FORBIDDEN_FIRST_ROUND, "first round")
    assert "player 0" in msg


def test_first_round_pass_allowed_when_nothing_is_affordable_oq_33() -> None:
    """OQ-33, AUC-13: in round 1 a player who can afford no actual plant may pass.

    Market 13 15 17 20 | ...; A has 12 Elektro, below every minimum bid, so AUC-13 cannot
    be met: A may pass, and only passing is legal. B, with 13, must still buy (EC-10).
    """
    state = give(auction(3, round=1), A, money=12)
    assert pg.legal_actions(state) == (pg.PassAuction(player=A),)
    state = pg.apply(state, pg.PassAuction(player=A))
    assert A in state.done
    assert state.players[A].money == 12
    state = give(state, B, money=13)
    assert pg.current_player(state) == B
    reject(state, pg.PassAuction(player=B), Reason.PASS_FORBIDDEN_FIRST_ROUND, "first round")
    assert pg.ChoosePlant(player=B, plant=13, bid=13) in pg.legal_actions(state)


def test_first_round_dropping_out_is_legal_ec_10() -> None:
    """EC-10, AUC-06, AUC-13: in round 1, dropping out of another's auction is legal."""
    state = pg.apply(auction(3, round=1), pg.ChoosePlant(player=A, plant=13, bid=13))
    assert pg.PassBid(player=B) in pg.legal_actions(state)
    state = play(state, pg.PassBid(player=B), pg.PassBid(player=C))
    assert state.players[A].plants == ("13",)
    assert pg.current_player(state) == B
    reject(state, pg.PassAuction(player=B), Reason.PASS_FORBIDDEN_FIRST_ROUND, "first round")


# --- AUC-14: the last player --------------------------------------------------------------


def test_last_player_buys_at_face_value_without_auction_ec_20() -> None:
    """EC-20, AUC-14, AUC-08: 4 players, three bought/passed; D takes 17 paying exactly 17."""
    state = auction(4, done=(A, B, C), bought=(A, B))
    assert pg.current_player(state) == D
    legal = pg.legal_actions(state)
    assert set(legal) == {
        pg.ChoosePlant(player=D, plant=13, bid=13),
        pg.ChoosePlant(player=D, plant=15, bid=15),
        pg.ChoosePlant(player=D, plant=17, bid=17),
        pg.ChoosePlant(player=D, plant=20, bid=20),
        pg.PassAuction(player=D),
    }
    after = pg.apply(state, pg.ChoosePlant(player=D, plant=17, bid=17))
    assert after.players[D].plants == ("17",)
    assert after.players[D].money == 50 - 17
    assert after.phase is Phase.RESOURCES  # no bidding happened; phase 2 is over


def test_last_player_may_not_bid_above_minimum_auc_14() -> None:
    """AUC-14: the last player pays the plant's number; an opening of 18 for 17 is rejected."""
    state = auction(4, done=(A, B, C), bought=(A, B))
    reject(
        state,
        pg.ChoosePlant(player=D, plant=17, bid=18),
        Reason.LAST_PLAYER_PAYS_MINIMUM,
        "17",
        "minimum",
    )


def test_last_player_may_pass_after_round_1_ec_20() -> None:
    """EC-20, AUC-14: the last player may pass instead (not in round 1)."""
    state = auction(4, done=(A, B, C), bought=(A, B))
    after = pg.apply(state, pg.PassAuction(player=D))
    assert after.phase is Phase.RESOURCES
    assert after.players[D].plants == ()
    first = auction(4, round=1, done=(A, B, C), bought=(A, B, C))
    reject(first, pg.PassAuction(player=D), Reason.PASS_FORBIDDEN_FIRST_ROUND, "first round")


# --- AUC-15, AUC-20, CON-06: end of the phase ---------------------------------------------


def test_phase_end_resets_done_flags_auc_15_con_06() -> None:
    """AUC-15, CON-06: when all bought or passed the phase ends and the done flags reset."""
    state = play(
        auction(3),
        pg.ChoosePlant(player=A, plant=13, bid=13),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
        pg.PassAuction(player=B),
    )
    assert state.phase is Phase.AUCTION
    assert state.done == {A, B}
    state = pg.apply(state, pg.PassAuction(player=C))
    assert state.phase is Phase.RESOURCES
    assert state.done == frozenset()
    assert state.auction is None
    # Somebody bought: no AUC-20 removal; the market is 13's replacement only.
    assert state.market.removed == ()
    assert state.market.plants == labels(15, 17, 20, 22, 25, 27, 30, 33)


def test_nobody_buys_lowest_plant_removed_ec_09() -> None:
    """EC-09, AUC-20, AUC-15: classic, round 4, all pass: 13 removed, one plant drawn."""
    state = auction(3, round=4, deck=(33, 34))
    state = play(
        state,
        pg.PassAuction(player=A),
        pg.PassAuction(player=B),
        pg.PassAuction(player=C),
    )
    assert state.phase is Phase.RESOURCES
    assert state.market.removed == labels(13)
    assert state.market.actual == labels(15, 17, 20, 22)
    assert state.market.future == labels(25, 27, 30, 33)
    assert state.secret.deck == labels(34)


@pytest.mark.parametrize("map_id", ["europe", "north_america"])
def test_nobody_buys_after_round_1_on_either_board_auc_20_con_02(map_id: str) -> None:
    """EC-09, AUC-20, AUC-15, BUR-07, CON-02, OQ-31: plain classic, round 4 reached normally
    on Europe or North America, all pass: the lowest plant 13 is removed and one plant (36)
    drawn, so the market stays 8 plants.

    Step 1 is 4 + 4 on both boards: `13 15 17 20 | 22 25 27 30`. Phase 5 of round 3 pushes
    30 under the deck and draws 34 (BUR-07); phase 2 of round 4 starts with no discount
    token, 13 opens only at 13. The removal is AUC-20's (not AUC-21 or AUC-33).
    """
    state = auction(2, round=3, map=map_id, deck=(34, 36, 38))
    state = arrange(state, phase=Phase.BUREAUCRACY)
    state = play(state, pg.Power(player=A), pg.Power(player=B))
    assert state.round == 4
    assert state.phase is Phase.AUCTION
    assert state.market.plants == labels(13, 15, 17, 20, 22, 25, 27, 34)
    assert state.market.under_step3 == labels(30)
    assert discount(state) is None
    assert pg.public_view(state).min_bids == (("13", 13), ("15", 15), ("17", 17), ("20", 20))
    floor = pg.current_player(state)
    assert floor is not None
    assert not pg.is_legal(state, pg.ChoosePlant(player=floor, plant=13, bid=1))
    state = play(state, pg.PassAuction(player=A), pg.PassAuction(player=B))
    assert state.phase is Phase.RESOURCES
    assert state.market.removed == labels(13)
    assert state.market.plants == labels(15, 17, 20, 22, 25, 27, 34, 36)
    assert state.secret.deck == labels(38)
    assert discount(state) is None
    removals = [e for e in state.events if e.kind == "plant_removed"]
    assert len(removals) == 1
    assert "AUC-20" in removals[0].text
    assert "discount_placed" not in [e.kind for e in state.events]


def test_nobody_buys_on_europe_ec_07_auc_21() -> None:
    """EC-07, EC-09, AUC-21 (= AUC-20), OQ-31: classic on Europe with the ``map_rules``
    option, round 4 reached normally, all pass: the lowest plant 13 is removed and one
    plant (36) drawn.

    Step 1 on Europe is 4 + 5 (SET-26): `13 15 17 20 | 22 25 27 30 32`. Phase 5 of round 3
    pushes 32 under the deck and draws 34 (BUR-07); phase 2 of round 4 then starts as in a
    real game. No discount token on this board.
    """
    state = auction(
        2,
        round=3,
        map="europe",
        future=(22, 25, 27, 30, 32),
        deck=(34, 36, 38),
        components="classic+map_rules",
    )
    state = arrange(state, phase=Phase.BUREAUCRACY)
    state = play(state, pg.Power(player=A), pg.Power(player=B))
    assert state.round == 4
    assert state.phase is Phase.AUCTION
    assert state.market.plants == labels(13, 15, 17, 20, 22, 25, 27, 30, 34)
    assert discount(state) is None
    state = play(state, pg.PassAuction(player=A), pg.PassAuction(player=B))
    assert state.phase is Phase.RESOURCES
    assert state.market.removed == labels(13)
    assert state.market.plants == labels(15, 17, 20, 22, 25, 27, 30, 34, 36)


def test_nobody_buys_on_north_america_token_plant_removed_once_ec_08_auc_33() -> None:
    """EC-08, AUC-22, AUC-33, AUC-31, AUC-30, OQ-31: classic on North America with the
    ``map_rules`` option, round 4 reached normally, all pass: the token lies on the lowest
    plant 13 and is removed once (AUC-33 replaces the classic AUC-20 here), one plant (36)
    drawn; the token goes beside the market.

    Phase 5 of round 3 pushes 30 under the deck and draws 34 (BUR-07); phase 2 of round 4
    then starts with the token on 13 (minimum bid 1).
    """
    state = auction(
        2, round=3, map="north_america", deck=(34, 36, 38), components="classic+map_rules"
    )
    state = arrange(state, phase=Phase.BUREAUCRACY)
    state = play(state, pg.Power(player=A), pg.Power(player=B))
    assert state.round == 4
    assert state.phase is Phase.AUCTION
    assert state.market.plants == labels(13, 15, 17, 20, 22, 25, 27, 34)
    assert discount(state) == "13"
    floor = pg.current_player(state)
    assert floor is not None
    assert pg.is_legal(state, pg.ChoosePlant(player=floor, plant=13, bid=1))
    state = play(state, pg.PassAuction(player=A), pg.PassAuction(player=B))
    assert state.phase is Phase.RESOURCES
    # Exactly one removal: AUC-20 on top of AUC-33 would also remove 15 and draw 38.
    assert state.market.removed == labels(13)
    assert state.market.plants == labels(15, 17, 20, 22, 25, 27, 34, 36)
    assert state.secret.deck == labels(38)
    assert state.market.under_step3 == labels(30)
    assert discount(state) is None
    removals = [e for e in state.events if e.kind == "plant_removed"]
    assert "AUC-33" in removals[-1].text


# --- AUC-16..AUC-19, EC-66: plant limit and discarding -----------------------------------


def _over_limit(players: int = 3, owned: Sequence[int] = (8, 10, 16), **config: Any) -> GameState:
    """A (last player) owns ``owned`` and buys 20 at 20 (AUC-14)."""
    others = tuple(range(1, players))
    state = auction(players, done=others, **config)
    state = give(state, A, plants=owned)
    return pg.apply(state, pg.ChoosePlant(player=A, plant=20, bid=20))


def test_fourth_plant_forces_a_discard_auc_16_auc_17() -> None:
    """AUC-16, AUC-17: 3 players: A with 3 plants buys a 4th and must discard an old one."""
    state = _over_limit(3)
    assert state.players[A].plants == labels(8, 10, 16, 20)
    assert state.players[A].money == 30
    assert state.discarding == A
    assert pg.current_player(state) == A
    discards = {a.plant for a in pg.legal_actions(state) if isinstance(a, pg.DiscardPlant)}
    assert discards == set(labels(8, 10, 16))
    assert all(isinstance(a, pg.DiscardPlant) for a in pg.legal_actions(state))
    after = pg.apply(state, pg.DiscardPlant(player=A, plant=10))
    assert after.players[A].plants == labels(8, 16, 20)
    assert "10" in after.market.removed  # removed from the game (CON-11)
    assert "10" not in after.market.plants
    assert after.discarding is None


def test_discarding_the_new_plant_rejected_in_classic_ec_19() -> None:
    """EC-19 (classic half), AUC-17: the plant just bought (20) cannot be discarded."""
    state = _over_limit(3)
    reject(
        state,
        pg.DiscardPlant(player=A, plant=20),
        Reason.DISCARD_NEW_PLANT,
        "20",
    )


def test_other_actions_wait_for_the_discard_auc_17() -> None:
    """AUC-17: the discard comes first ("immediately"): other actions are rejected."""
    state = _over_limit(3)
    reject(state, pg.PassAuction(player=A), Reason.DISCARD_REQUIRED, "discard")
    reject(state, pg.ChoosePlant(player=A, plant=13, bid=13), Reason.DISCARD_REQUIRED)
    reject(state, pg.PassAuction(player=B), Reason.NOT_YOUR_TURN)
    reject(state, pg.DiscardPlant(player=A, plant=33), Reason.NOT_OWN_PLANT, "33")


def test_replacement_drawn_after_the_discard_auc_19() -> None:
    """AUC-19: pay, take the plant, discard, then draw the replacement (33)."""
    state = _over_limit(3)
    assert state.market.plants == labels(13, 15, 17, 22, 25, 27, 30)
    assert state.secret.deck[0] == "33"
    after = pg.apply(state, pg.DiscardPlant(player=A, plant=10))
    assert "33" in after.market.plants
    assert len(after.market.plants) == 8


def test_two_players_keep_a_fourth_plant_ec_66() -> None:
    """EC-66 (classic), AUC-16, SET-12: 2 players: a 4th plant is kept without discarding."""
    state = _over_limit(2)
    assert state.discarding is None
    assert state.players[A].plants == labels(8, 10, 16, 20)
    assert state.phase is Phase.RESOURCES


def test_two_players_discard_on_a_fifth_plant_ec_66() -> None:
    """EC-66 (classic), AUC-17: 2 players: with 4 plants, a 5th forces a discard."""
    state = _over_limit(2, owned=(8, 10, 12, 16))
    assert state.discarding == A
    after = pg.apply(state, pg.DiscardPlant(player=A, plant=12))
    assert after.players[A].plants == labels(8, 10, 16, 20)


def test_two_players_seed_thresholds_limit_three_ec_66() -> None:
    """EC-66 (classic), AUC-16, SET-12: with seed_thresholds the 2-player limit is 3."""
    state = _over_limit(2, options={"seed_thresholds"})
    assert state.discarding == A
    discards = {a.plant for a in pg.legal_actions(state) if isinstance(a, pg.DiscardPlant)}
    assert discards == set(labels(8, 10, 16))


def _ec18() -> GameState:
    """EC-18: A owns coal 10, coal 15, oil 16 (holding 4 oil) and buys garbage plant 14."""
    state = auction(3, actual=(13, 14, 17, 18), future=(20, 22, 25, 27), done=(B, C))
    state = give(state, A, plants=(10, 15, 16), resources={"oil": 4})
    state = pg.apply(state, pg.ChoosePlant(player=A, plant=14, bid=14))
    assert state.discarding == A
    return state


def test_unhoused_tokens_go_to_the_general_supply_ec_18() -> None:
    """EC-18, AUC-18, CON-10: discarding oil plant 16 sends its 4 oil to the supply."""
    state = _ec18()
    oil = state.rules.resources.index(pg.Resource.OIL)
    market_before = kinds(state)
    supply_before = state.resources.supply[oil]
    after = pg.apply(state, pg.DiscardPlant(player=A, plant=16, drop={"oil": 4}))
    assert after.players[A].plants == labels(10, 14, 15)
    assert held(after, A) == {}
    assert after.resources.supply[oil] == supply_before + 4
    assert kinds(after) == market_before  # never back onto the market


@pytest.mark.parametrize("drop", [{}, {"oil": 3}, {"oil": 5}, {"oil": 4, "coal": 1}])
def test_bad_resource_drop_rejected_ec_18(drop: dict[str, int]) -> None:
    """EC-18, AUC-18: the 4 oil have no other home: every token must go to the supply."""
    state = _ec18()
    reject(
        state,
        pg.DiscardPlant(player=A, plant=16, drop=drop),
        Reason.BAD_RESOURCE_DROP,
        "supply",
    )


def _ec17() -> GameState:
    """EC-17 (classic): A owns oil 7 (3 oil), garbage 6 (2 garbage), uranium 11; buys hybrid 12."""
    state = auction(
        3, order=(B, C, A), actual=(12, 13, 14, 15), future=(17, 18, 20, 22), done=(B, C)
    )
    state = give(state, A, plants=(6, 7, 11), resources={"oil": 3, "garbage": 2})
    state = pg.apply(state, pg.ChoosePlant(player=A, plant=12, bid=12))
    assert state.discarding == A
    return state


def test_tokens_move_onto_the_new_hybrid_ec_17() -> None:
    """EC-17 (classic half), AUC-18, RES-04: 3 oil move from 7 onto hybrid 12 (coal/oil, 4)."""
    state = _ec17()
    after = pg.apply(state, pg.DiscardPlant(player=A, plant=7))
    assert after.players[A].plants == labels(6, 11, 12)
    assert held(after, A) == {"oil": 3, "garbage": 2}
    # Phase 3 starts with A (last in player order): 12 has room for 1 more coal or oil.
    assert after.phase is Phase.RESOURCES
    assert pg.current_player(after) == A
    for kind in ("coal", "oil"):
        reject(after, pg.BuyResource(player=A, resource=kind, count=2), Reason.NO_STORAGE, "1")
        one = pg.apply(after, pg.BuyResource(player=A, resource=kind, count=1))
        assert held(one, A)[kind] == (3 if kind == "oil" else 0) + 1


def test_owner_may_choose_not_to_move_tokens_auc_18() -> None:
    """AUC-18: moving is optional: A may send some or all of the 3 oil to the supply."""
    state = _ec17()
    for n in (1, 3):
        after = pg.apply(state, pg.DiscardPlant(player=A, plant=7, drop={"oil": n}))
        assert after.players[A].resources == (0, 3 - n, 2, 0)  # coal, oil, garbage, uranium
    reject(state, pg.DiscardPlant(player=A, plant=7, drop={"oil": 4}), Reason.BAD_RESOURCE_DROP)
    # Garbage did not stand on oil plant 7: it cannot be dropped with it.
    reject(state, pg.DiscardPlant(player=A, plant=7, drop={"garbage": 1}), Reason.BAD_RESOURCE_DROP)


# --- other bad input ------------------------------------------------------------------------


def test_wrong_player_rejected() -> None:
    """AUC-02: only the player with the floor may open; the message names whose turn it is."""
    state = auction(3, order=(B, C, A))
    reject(
        state,
        pg.ChoosePlant(player=A, plant=13, bid=13),
        Reason.NOT_YOUR_TURN,
        "player 1",
    )
    reject(state, pg.PassAuction(player=C), Reason.NOT_YOUR_TURN, "player 1")


@pytest.mark.parametrize(
    "action",
    [
        pg.BuyResource(player=A, resource="coal", count=1),
        pg.EndPurchase(player=A),
        pg.Build(player=A, city="berlin"),
        pg.EndBuild(player=A),
        pg.Power(player=A),
    ],
)
def test_action_of_another_phase_rejected_con_03(action: pg.Action) -> None:
    """CON-03: phase 2 accepts only auction actions; others name the phase."""
    state = auction(3)
    reject(state, action, Reason.WRONG_PHASE, type(action).__name__, "phase 2")


def test_bid_without_running_auction_rejected_auc_03() -> None:
    """AUC-03: with no auction running, the floor must open or pass; bids are rejected."""
    state = auction(3)
    reject(state, pg.Bid(player=A, amount=20), Reason.NOT_IN_AUCTION)
    reject(state, pg.PassBid(player=A), Reason.NOT_IN_AUCTION)
    reject(state, pg.DiscardPlant(player=A, plant=13), Reason.NOTHING_TO_DISCARD, "AUC-17")


def test_open_or_pass_during_running_auction_rejected_auc_06() -> None:
    """AUC-06: inside an auction a bidder raises or drops out; he cannot open or pass."""
    state = pg.apply(auction(3), pg.ChoosePlant(player=A, plant=13, bid=13))
    reject(state, pg.ChoosePlant(player=B, plant=15, bid=15), Reason.AUCTION_RUNNING, "13")
    reject(state, pg.PassAuction(player=B), Reason.AUCTION_RUNNING)


def test_fractional_opening_bid_rejected_con_09() -> None:
    """CON-09, AUC-04: Elektro amounts are integers: an opening bid of 13.5 cannot even be
    constructed (TypeError), so it never reaches the game.

    A plant is named by its card label or its number: the string "13" is plant 13, a
    string that is no label ("x", "4.5") raises ValueError, a float or None TypeError."""
    state = auction(3)
    fields = snapshot(state)
    with pytest.raises(TypeError, match="bid"):
        pg.ChoosePlant(player=A, plant=13, bid=13.5)  # type: ignore[arg-type]
    assert pg.ChoosePlant(player=A, plant="13", bid=13) == pg.ChoosePlant(
        player=A, plant=13, bid=13
    )
    for text in ("x", "4.5"):
        with pytest.raises(ValueError, match="plant"):
            pg.ChoosePlant(player=A, plant=text, bid=13)
    for wrong in (13.5, None):
        with pytest.raises(TypeError, match="plant"):
            pg.ChoosePlant(player=A, plant=wrong, bid=13)
    assert snapshot(state) == fields
    # The whole-number opening bid is legal.
    assert pg.is_legal(state, pg.ChoosePlant(player=A, plant=13, bid=14))


def test_fractional_raise_rejected_auc_06_con_09() -> None:
    """AUC-06, CON-09: a raise is 'any integer amount': a Bid of 13.5 (or True) over 13 raises
    TypeError at construction; the auction is untouched and 14 is still a legal raise."""
    state = pg.apply(auction(3), pg.ChoosePlant(player=A, plant=13, bid=13))
    fields = snapshot(state)
    with pytest.raises(TypeError, match="amount"):
        pg.Bid(player=B, amount=13.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="amount"):
        pg.Bid(player=B, amount=True)
    assert snapshot(state) == fields
    after = pg.apply(state, pg.Bid(player=B, amount=14))
    assert after.auction is not None
    assert after.auction.bid == 14
    assert after.auction.high_bidder == B


_RULESETS = {
    comp: pg.new_game(pg.GameConfig(players=4, components=comp), seed=1).rules
    for comp in ("classic", "deluxe")
}


@st.composite
def _discard_hands(draw: st.DrawFn) -> tuple[Any, tuple[str, ...], tuple[int, ...]]:
    """A ruleset, a hand of four plants (one over the limit) and tokens that fit on it."""
    rules = _RULESETS[draw(st.sampled_from(sorted(_RULESETS)))]
    owned = rules.ranked(
        draw(st.lists(st.sampled_from(sorted(rules.plants)), min_size=4, max_size=4, unique=True))
    )
    held = tuple(draw(st.lists(st.integers(0, 6), min_size=4, max_size=4)))
    fitting = storage.fits(storage.plant_slots(rules, owned), held)
    return rules, owned, held if fitting else (0, 0, 0, 0)


@given(_discard_hands())
def test_discard_options_are_every_plant_with_every_legal_drop_auc_18(
    case: tuple[Any, tuple[str, ...], tuple[int, ...]],
) -> None:
    """AUC-18: the listed discards and the drop check both agree with the drops per plant."""
    rules, owned, held = case
    expected = tuple(
        pg.DiscardPlant(player=1, plant=plant, drop=dict(zip(rules.resources, drop, strict=True)))
        for plant in owned
        for drop in discard.drops(rules, owned, held, plant)
    )
    assert discard.discards(rules, 1, owned, held, owned) == expected
    for plant in owned:
        drops = set(discard.drops(rules, owned, held, plant))
        for drop in itertools.product(*(range(-1, h + 2) for h in held)):
            assert discard.drop_allowed(rules, owned, held, plant, drop) == (drop in drops)


#: The hooks the market's and the auction's fast paths leave out when the base one rules.
_SKIPPED_HOOKS = (
    "min_bid",
    "draw_filter",
    "leave_play",
    "after_market_entry",
    "market_shape",
    "after_purchase",
    "after_purchase_settled",
    "after_pass",
    "player_order",
)


def _delegating(fn: Any) -> Any:
    """A hook that only calls ``fn``: the same rule, but not the base function itself."""
    return lambda *args: fn(*args)


@pytest.mark.parametrize(
    ("components", "map_name", "players", "seed"),
    [("deluxe", "europe", 4, 1), ("classic", "germany", 3, 2), ("classic", "usa", 5, 1)],
)
def test_fast_paths_play_as_the_general_path(
    components: str, map_name: str, players: int, seed: int
) -> None:
    """With the base hooks wrapped (so the fast paths stand aside) a game plays the same."""
    cfg = pg.GameConfig(players=players, map=map_name, components=components)
    fast = pg.new_game(cfg, seed=seed)
    hooks = attrs.asdict(fast.rules.hooks, recurse=False)
    for hook in _SKIPPED_HOOKS:
        hooks[hook] = _delegating(hooks[hook])
    rules = attrs.evolve(fast.rules, hooks=Hooks(**hooks))
    slow = evolve(fast, rules=rules)
    rng = random.Random(seed)
    steps = 0
    while pg.outcome(fast) is None and steps < 3000:
        legal = pg.legal_actions(fast)
        assert pg.legal_actions(slow) == legal
        action = rng.choice(legal)
        fast, slow = pg.apply(fast, action), pg.apply(slow, action)
        assert slow.rules is rules
        assert fast == slow
        steps += 1
    assert pg.outcome(fast) is not None
    assert pg.outcome(fast) == pg.outcome(slow)
