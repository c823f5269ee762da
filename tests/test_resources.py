"""Phase 3, buying resources: RES-01..RES-09, CON-10, EC-36, EC-38..EC-40 (classic).

Every number below is hand-derived from RULES.md and the classic market layout
(``reference/tables.json``): coal, oil and garbage have 3 slots on each price
1-8 (24 slots), uranium 1 slot on each of 1-8, 10, 12, 14, 16 (12 slots);
tokens lie on the most expensive slots. The initial market holds coal 24 (1-8),
oil 18 (3-8), garbage 6 (7-8), uranium 2 (14, 16). Classic plants used here
(``reference/plants_classic.json``), storage = 2x the resources per run:

    3 oil 4 | 4 coal 4 | 5 hybrid coal/oil 4 | 6 garbage 2 | 7 oil 6
    11 uranium 2 | 13 eco 0 | 17 uranium 2 | 20 coal 6 | 30 garbage 6
    31 coal 6 | 32 oil 6 | 38 garbage 6
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import powergrid as pg
from powergrid.enums import Phase
from powergrid.state import GameState
from tests.scenario import arrange, give, held, kinds, labels, new, play

REGIONS = ("british_isles_low_countries", "central", "france_iberia")
#: Tokens per kind in the classic game (SET-07): coal, oil, garbage 24 each, uranium 12.
TOTALS = {"coal": 24, "oil": 24, "garbage": 24, "uranium": 12}


def shop(
    plants: tuple[int, ...],
    *,
    money: int = 50,
    tokens: Mapping[str, int] | None = None,
    market: Mapping[str, int] | None = None,
) -> GameState:
    """Phase 3 of a 3-player game; seat 2 is last in player order, so it buys first."""
    s = new(players=3, map="europe", regions=REGIONS)
    s = arrange(s, round=2, phase=Phase.RESOURCES, order=(0, 1, 2), done=())
    s = give(s, 2, money=money, plants=plants, resources=dict(tokens or {}))
    if market is not None:
        s = arrange(s, market_tokens=dict(market))
    assert pg.current_player(s) == 2
    return s


def buy(kind: str, count: int, player: int = 2) -> pg.BuyResource:
    return pg.BuyResource(player=player, resource=kind, count=count)


def supply(state: GameState) -> dict[str, int]:
    return {k.value: n for k, n in zip(state.rules.resources, state.resources.supply, strict=True)}


def everywhere(state: GameState) -> dict[str, int]:
    """Tokens per kind on the market, in the supply and on all players' plants (CON-10)."""
    out = {k: kinds(state)[k] + supply(state)[k] for k in TOTALS}
    for seat in range(len(state.players)):
        for k, n in held(state, seat).items():
            out[k] += n
    return out


def rejected(
    state: GameState, action: pg.Action, reason: pg.Reason, *fragments: str
) -> pg.IllegalAction:
    """Assert the action is refused with ``reason``, a message holding ``fragments``,
    and that the input state is unchanged."""
    before = repr(state)
    players, market, res = state.players, kinds(state), state.resources
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, action)
    err = info.value
    assert err.reason is reason
    for fragment in fragments:
        assert fragment in str(err), (fragment, str(err))
    assert repr(state) == before
    assert state.players == players
    assert kinds(state) == market
    assert state.resources == res
    assert action not in pg.legal_actions(state)
    assert not pg.is_legal(state, action)
    return err


# --- turn order and turn structure ------------------------------------------------------------


def test_reverse_order_one_turn_each_then_building() -> None:
    """RES-01, RES-02, RES-09, CON-04, CON-06: player order 1, 2, 0 buys as 0, 2, 1;
    each has one turn with any number of purchases; when all are done phase 4
    starts with the flags reset, again with the last player (BLD-01)."""
    s = new(players=3, map="europe", regions=REGIONS)
    s = arrange(s, round=2, phase=Phase.RESOURCES, order=(1, 2, 0), done=())
    for seat in range(3):
        s = give(s, seat, plants=(), money=50)
    s = give(s, 0, plants=(20,))
    s = give(s, 2, plants=(7,))
    assert pg.current_player(s) == 0
    s = play(s, buy("coal", 2, 0), buy("coal", 1, 0))
    assert pg.current_player(s) == 0  # still 0's turn: any number of purchases
    assert held(s, 0) == {"coal": 3}
    s = play(s, pg.EndPurchase(player=0))
    assert pg.current_player(s) == 2
    assert s.done == frozenset({0})
    rejected(s, buy("coal", 1, 0), pg.Reason.NOT_YOUR_TURN, "player 2's turn", "not player 0")
    s = play(s, buy("oil", 1, 2), pg.EndPurchase(player=2))
    assert pg.current_player(s) == 1
    assert s.phase is Phase.RESOURCES
    s = play(s, pg.EndPurchase(player=1))
    assert s.phase is Phase.BUILDING
    assert s.done == frozenset()
    assert pg.current_player(s) == 0
    assert held(s, 0) == {"coal": 3}
    assert held(s, 2) == {"oil": 1}
    assert held(s, 1) == {}


def test_buying_nothing_is_a_turn() -> None:
    """RES-02: a player may buy no resources at all and is then done."""
    s = shop((4,))
    after = play(s, pg.EndPurchase(player=2))
    assert after.players[2].money == 50
    assert held(after, 2) == {}
    assert kinds(after) == {"coal": 24, "oil": 18, "garbage": 6, "uranium": 2}
    assert after.done == frozenset({2})
    assert pg.current_player(after) == 1


def test_several_purchases_in_one_turn_pay_cheapest_first() -> None:
    """RES-02, RES-06: 2 coal (1+1), 3 oil (3+3+3), 2 coal (1+2) = 2 + 9 + 3 = 14."""
    s = shop((20, 7))
    s = play(s, buy("coal", 2), buy("oil", 3), buy("coal", 2))
    assert s.players[2].money == 50 - 14
    assert held(s, 2) == {"coal": 4, "oil": 3}
    assert kinds(s) == {"coal": 20, "oil": 15, "garbage": 6, "uranium": 2}
    assert pg.current_player(s) == 2


# --- prices -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "count", "cost", "plants"),
    [
        ("coal", 1, 1, (20, 31)),
        ("coal", 3, 3, (20, 31)),
        ("coal", 4, 5, (20, 31)),  # 1+1+1+2
        ("coal", 7, 12, (20, 31)),  # 1+1+1+2+2+2+3
        ("oil", 1, 3, (7, 32)),
        ("oil", 4, 13, (7, 32)),  # 3+3+3+4
        ("oil", 7, 26, (7, 32)),  # 3+3+3+4+4+4+5
        ("garbage", 1, 7, (30, 38)),
        ("garbage", 4, 29, (30, 38)),  # 7+7+7+8
        ("uranium", 1, 14, (11, 17)),
        ("uranium", 2, 30, (11, 17)),  # 14+16
    ],
)
def test_price_of_units_from_the_initial_market(
    kind: str, count: int, cost: int, plants: tuple[int, ...]
) -> None:
    """RES-06, CON-10: k units cost the k cheapest tokens; the money goes to the bank
    and the tokens leave the market (not the general supply)."""
    s = shop(plants)
    start_market = kinds(s)
    start_supply = supply(s)
    after = play(s, buy(kind, count))
    assert after.players[2].money == 50 - cost
    assert held(after, 2) == {kind: count}
    assert kinds(after)[kind] == start_market[kind] - count
    assert supply(after) == start_supply
    assert everywhere(after) == TOTALS


def test_ec39_price_of_several_units() -> None:
    """EC-39, RES-06: coal price-2 space holds 2, price-3 space holds 3 (20 coal on
    the market: 2 + 3 + 15 on prices 4-8). 3 coal cost 2+2+3 = 7; the spaces then
    hold 0 and 2, so the next 2 coal cost 3+3 and the one after 4."""
    s = shop((20, 31), market={"coal": 20})
    s = play(s, buy("coal", 3))
    assert s.players[2].money == 43
    assert kinds(s)["coal"] == 17
    s = play(s, buy("coal", 2))
    assert s.players[2].money == 37
    s = play(s, buy("coal", 1))
    assert s.players[2].money == 33
    assert kinds(s)["coal"] == 14
    assert held(s, 2) == {"coal": 6}


@pytest.mark.parametrize(
    ("on_market", "count", "cost"),
    [
        (12, 2, 3),  # full track: 1 + 2
        (5, 3, 30),  # tokens on 8, 10, 12, 14, 16: 8 + 10 + 12
        (4, 2, 22),  # tokens on 10, 12, 14, 16: 10 + 12
        (1, 1, 16),  # only the 16 slot
    ],
)
def test_uranium_track_prices(on_market: int, count: int, cost: int) -> None:
    """RES-06: the uranium track has one slot on each of 1-8, 10, 12, 14, 16 and
    fills from the most expensive end."""
    s = shop((11, 17), money=60, market={"uranium": on_market})
    after = play(s, buy("uranium", count))
    assert after.players[2].money == 60 - cost
    assert kinds(after)["uranium"] == on_market - count


# --- empty or short market ----------------------------------------------------------------------


def test_ec38_empty_track_cannot_be_bought_from_the_supply() -> None:
    """EC-38, RES-07, CON-10: no oil on the market: oil cannot be bought, although
    the general supply holds all 24 oil tokens."""
    s = shop((3,), market={"oil": 0})
    assert supply(s)["oil"] == 24
    rejected(s, buy("oil", 1), pg.Reason.MARKET_SHORT, "only 0 oil", "general supply")
    assert not any(
        isinstance(a, pg.BuyResource) and a.resource == "oil" for a in pg.legal_actions(s)
    )
    assert pg.legal_actions(s) == (pg.EndPurchase(player=2),)


def test_more_than_the_market_holds() -> None:
    """RES-07, RES-06: the market holds 2 uranium; 3 are refused, 2 are fine."""
    s = shop((11, 17), money=100)
    rejected(s, buy("uranium", 3), pg.Reason.MARKET_SHORT, "only 2 uranium")
    after = play(s, buy("uranium", 2))
    assert after.players[2].money == 70  # 14 + 16
    assert kinds(after)["uranium"] == 0


# --- storage ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("plants", "tokens", "kind", "count", "room"),
    [
        ((4,), {}, "coal", 5, 4),  # RES-03: coal plant 4 stores 2 x 2 coal
        ((13,), {}, "coal", 1, 0),  # RES-03: ecological plant stores nothing
        ((6,), {"garbage": 1}, "garbage", 2, 1),  # RES-03: 2 x 1 garbage, 1 held
        ((4, 3), {}, "oil", 5, 4),  # RES-08: oil cannot stand on coal plant 4
        ((4, 3), {}, "garbage", 1, 0),  # neither plant takes garbage
        ((4, 5), {}, "coal", 9, 8),  # EC-36: 4 + 4 coal
        ((4, 5), {}, "oil", 5, 4),  # EC-36: oil only on hybrid 5
        ((4, 5), {"oil": 3}, "coal", 6, 5),  # EC-36: 4 on plant 4, 1 beside the oil on 5
        ((5,), {"coal": 2}, "oil", 3, 2),  # RES-04: the 4-limit is for coal + oil together
    ],
)
def test_buying_beyond_storage_is_refused(
    plants: tuple[int, ...], tokens: dict[str, int], kind: str, count: int, room: int
) -> None:
    """RES-03, RES-04, RES-05, RES-08, EC-36: a purchase that leaves no valid
    assignment of tokens to plants is refused, naming the free room."""
    s = shop(plants, tokens=tokens)
    rejected(
        s,
        buy(kind, count),
        pg.Reason.NO_STORAGE,
        f"only {room} more {kind}",
        "player 2",
    )
    if room:
        after = play(s, buy(kind, room))
        assert held(after, 2)[kind] == tokens.get(kind, 0) + room


def test_ec36_storage_with_a_hybrid() -> None:
    """EC-36, RES-03, RES-04, RES-05: plants 4 (coal, 2 per run) and 5 (hybrid
    coal/oil, 2 per run), empty: at most 8 coal; after buying 3 oil at most 5 coal,
    so 6 coal are refused; the legal purchases are exactly coal 1..8 and oil 1..4."""
    s = shop((4, 5))
    buys = {
        (a.resource.value, a.count) for a in pg.legal_actions(s) if isinstance(a, pg.BuyResource)
    }
    assert buys == {("coal", n) for n in range(1, 9)} | {("oil", n) for n in range(1, 5)}
    full = play(s, buy("coal", 8))
    assert full.players[2].money == 50 - 15  # 1+1+1+2+2+2+3+3
    rejected(full, buy("oil", 1), pg.Reason.NO_STORAGE, "only 0 more oil")

    s = play(s, buy("oil", 3))
    assert s.players[2].money == 50 - 9
    rejected(s, buy("coal", 6), pg.Reason.NO_STORAGE, "only 5 more coal")
    s = play(s, buy("coal", 5))
    assert held(s, 2) == {"coal": 5, "oil": 3}
    assert s.players[2].money == 41 - 7  # 1+1+1+2+2
    rejected(s, buy("coal", 1), pg.Reason.NO_STORAGE, "only 0 more coal")
    rejected(s, buy("oil", 1), pg.Reason.NO_STORAGE, "only 0 more oil")


@pytest.mark.parametrize(
    ("tokens", "kind", "legal_count", "refused_count", "room"),
    [
        # 4 coal on plant 4, 4 oil on plant 3: hybrid 5 is free for 4 more of either.
        ({"coal": 4, "oil": 4}, "coal", 4, 5, 4),
        ({"coal": 4, "oil": 4}, "oil", 4, 5, 4),
        # 6 oil need plant 3 and 2 slots of the hybrid: only 2 coal fit, not the
        # 4 a per-kind sum (coal plants + hybrids - coal held = 8 - 4) would allow.
        ({"coal": 4, "oil": 6}, "coal", 2, 3, 2),
        # 8 coal fill plant 4 and the hybrid: only plant 3 is left for oil (4, not 8).
        ({"coal": 8}, "oil", 4, 5, 4),
        # 2 oil (wherever they stand now) move to plant 3, freeing the hybrid for coal.
        ({"oil": 2}, "coal", 8, 9, 8),
        # 2 coal stand on plant 4, so oil has plant 3 + the whole hybrid = 8.
        ({"coal": 2}, "oil", 8, 9, 8),
        # 6 coal: 4 on plant 4, 2 on the hybrid; oil gets plant 3 + 2 hybrid slots.
        ({"coal": 6}, "oil", 6, 7, 6),
    ],
)
def test_purchase_legal_exactly_when_an_assignment_exists(
    tokens: dict[str, int], kind: str, legal_count: int, refused_count: int, room: int
) -> None:
    """RES-05, RES-08, RES-04: holdings are per kind and may be redistributed at any
    time, so a purchase is legal exactly when some assignment of all tokens to the
    plants 4 (coal 4), 5 (hybrid coal/oil 4) and 3 (oil 4) respects every plant."""
    s = shop((3, 4, 5), money=80, tokens=tokens)
    after = play(s, buy(kind, legal_count))
    assert held(after, 2)[kind] == tokens.get(kind, 0) + legal_count
    rejected(s, buy(kind, refused_count), pg.Reason.NO_STORAGE, f"only {room} more {kind}")


def test_ec40_redistribution_between_plants() -> None:
    """EC-40, RES-08, RES-03: 4 oil stand on oil plant 3 (full); oil plant 7 has room
    6, so 2 of them may move over and 6 more oil fit in total (10 = 4 + 6). Oil can
    never move onto coal plant 4: with plants 3 and 4 no further oil fits."""
    s = shop((3, 7), money=80, tokens={"oil": 4})
    after = play(s, buy("oil", 6))
    assert held(after, 2) == {"oil": 10}
    rejected(s, buy("oil", 7), pg.Reason.NO_STORAGE, "only 6 more oil")

    s = shop((3, 4), tokens={"oil": 4})
    rejected(s, buy("oil", 1), pg.Reason.NO_STORAGE, "only 0 more oil")
    after = play(s, buy("coal", 4))  # the coal plant is still free for coal
    assert held(after, 2) == {"coal": 4, "oil": 4}


def test_hybrid_takes_either_kind_up_to_its_total() -> None:
    """RES-04, RES-03: hybrid 5 (2 per run) holds 4 coal and/or oil in any mix."""
    s = shop((5,))
    mixed = play(s, buy("coal", 2), buy("oil", 2))
    assert held(mixed, 2) == {"coal": 2, "oil": 2}
    rejected(mixed, buy("coal", 1), pg.Reason.NO_STORAGE, "only 0 more coal")
    assert held(play(s, buy("oil", 4)), 2) == {"oil": 4}
    assert held(play(s, buy("coal", 4)), 2) == {"coal": 4}
    rejected(s, buy("garbage", 1), pg.Reason.NO_STORAGE, "only 0 more garbage")


# --- money, count, turn, phase ------------------------------------------------------------------


def test_unaffordable_purchase() -> None:
    """RES-06, CON-09: 3 oil cost 3+3+3 = 9; with 8 Elektro they are refused; with
    exactly 9 they are bought and the player is left with 0."""
    s = shop((7,), money=8)
    rejected(s, buy("oil", 3), pg.Reason.CANNOT_AFFORD, "3 oil cost 9 Elektro", "has 8")
    assert play(s, buy("oil", 2)).players[2].money == 2
    exact = play(shop((7,), money=9), buy("oil", 3))
    assert exact.players[2].money == 0
    assert held(exact, 2) == {"oil": 3}


def test_bad_count() -> None:
    """RES-02: a purchase is of at least one token."""
    s = shop((4,))
    rejected(s, buy("coal", 0), pg.Reason.BAD_COUNT, "not 0")


def test_negative_count_is_not_an_action() -> None:
    """RES-02, CON-09: a negative count cannot even be built (ValueError)."""
    with pytest.raises(ValueError, match="not be negative"):
        buy("coal", -2)


def test_unknown_resource() -> None:
    """CON-01, RES-02: the classic game has no gas."""
    s = shop((4,))
    rejected(s, buy("gas", 1), pg.Reason.UNKNOWN_RESOURCE, "no gas", "coal, oil, garbage, uranium")


def test_not_your_turn() -> None:
    """RES-01: with order 0, 1, 2 seat 2 buys first; seat 0 and seat 1 must wait."""
    s = shop((4,))
    s = give(s, 0, plants=(8,))
    rejected(s, buy("coal", 1, 0), pg.Reason.NOT_YOUR_TURN, "player 2's turn", "not player 0")
    rejected(s, pg.EndPurchase(player=1), pg.Reason.NOT_YOUR_TURN, "player 2's turn")


def test_wrong_phase() -> None:
    """RES-01, BLD-01: resources are bought only in phase 3; phase-3 actions are
    refused in phase 4 and phase 2, phase-4 actions in phase 3."""
    s = shop((4,))
    building = arrange(s, phase=Phase.BUILDING)
    rejected(building, buy("coal", 1), pg.Reason.WRONG_PHASE, "BuyResource", "phase 4")
    auction = arrange(s, phase=Phase.AUCTION, done=())
    rejected(auction, pg.EndPurchase(player=1), pg.Reason.WRONG_PHASE, "EndPurchase", "phase 2")
    rejected(s, pg.Build(player=2, city="berlin"), pg.Reason.WRONG_PHASE, "Build", "phase 3")


# --- token locations ----------------------------------------------------------------------------


def test_tokens_are_conserved_across_a_phase() -> None:
    """CON-10, RES-06, RES-09: every token is on the market, on a plant or in the
    supply; purchases move tokens from the market to plants only."""
    s = new(players=3, map="europe", regions=REGIONS)
    s = arrange(s, round=2, phase=Phase.RESOURCES, order=(0, 1, 2), done=())
    s = give(s, 0, plants=(11,), money=50)
    s = give(s, 1, plants=(5, 6), money=50)
    s = give(s, 2, plants=(20,), money=50)
    assert everywhere(s) == TOTALS
    s = play(
        s,
        buy("coal", 6, 2),
        pg.EndPurchase(player=2),
        buy("garbage", 2, 1),
        buy("oil", 4, 1),
        pg.EndPurchase(player=1),
        buy("uranium", 1, 0),
        pg.EndPurchase(player=0),
    )
    assert s.phase is Phase.BUILDING
    assert everywhere(s) == TOTALS
    assert kinds(s) == {"coal": 18, "oil": 14, "garbage": 4, "uranium": 1}
    assert supply(s) == {"coal": 0, "oil": 6, "garbage": 18, "uranium": 10}
    assert [p.money for p in s.players] == [50 - 14, 50 - 14 - 13, 50 - 9]


def test_ec18_tokens_without_a_home_go_to_the_supply() -> None:
    """EC-18, CON-10, AUC-18: A owns coal 4, coal 10 and oil 3 holding 4 oil, and
    buys garbage plant 6; discarding 3 sends the 4 oil to the general supply,
    the resource market is unchanged. Keeping the oil is impossible."""
    s = new(players=3, map="europe", regions=REGIONS)
    s = arrange(
        s,
        round=2,
        phase=Phase.AUCTION,
        actual=(6, 7, 8, 9),
        future=(11, 12, 13, 14),
        order=(0, 1, 2),
        done=(1, 2),
    )
    s = give(s, 0, money=50, plants=(3, 4, 10), resources={"oil": 4})
    market_before = kinds(s)
    oil_supply = supply(s)["oil"]
    s = play(s, pg.ChoosePlant(player=0, plant=6, bid=6))
    assert s.discarding == 0
    rejected(
        s,
        pg.DiscardPlant(player=0, plant=3, drop={"oil": 0}),
        pg.Reason.BAD_RESOURCE_DROP,
    )
    s = play(s, pg.DiscardPlant(player=0, plant=3, drop={"oil": 4}))
    assert s.players[0].plants == labels(4, 6, 10)
    assert held(s, 0) == {}
    assert supply(s)["oil"] == oil_supply + 4
    assert kinds(s) == market_before
    assert everywhere(s) == TOTALS
