"""Player and public views (powergrid.engine.views): hidden information and the UI facts.

DESIGN principle 5: everything a player may not know lives in ``state.secret``
(deck order, plants removed unseen, the random stream), so two states that
differ only there give equal views and equal legal actions. The views also
carry facts a frontend needs without re-implementing rules: minimum bids
(AUC-04, AUC-31), slot costs (BLD-05), build costs (BLD-03, BLD-04), token
prices (RES-06) and, for the viewer on turn only, the legal actions.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.actions import Action
from powergrid.chance import RngState
from powergrid.enums import Phase, Resource
from powergrid.state import Board, GameState, ResourceMarket, Secret, evolve
from powergrid.testing import invariant_violations, playout
from tests.module_parts import discount

CONFIGS = (
    pg.GameConfig(players=2, map="europe", components="classic"),
    pg.GameConfig(players=3, map="north_america", components="deluxe"),
    pg.GameConfig(players=4, map="europe", components="deluxe"),
    pg.GameConfig(players=5, map="north_america", components="classic"),
    pg.GameConfig(players=6, map="europe", components="deluxe"),
)
SEEDS = (3, 8)


def _cid(cfg: pg.GameConfig) -> str:
    return f"{cfg.players}p-{cfg.map}-{cfg.components}"


@functools.cache
def game(cfg: pg.GameConfig, seed: int) -> tuple[GameState, ...]:
    """Every decision point of a seeded random game, then its final state."""
    steps: list[tuple[GameState, Action]] = list(playout(cfg, seed, seed))
    last_state, last_action = steps[-1]
    return (*(s for s, _ in steps), pg.apply(last_state, last_action))


def every_state() -> list[GameState]:
    return [s for cfg in CONFIGS for s in game(cfg, SEEDS[0])]


# --- hidden information (DESIGN principle 5) -----------------------------------------------


def reshuffled(state: GameState, rnd: random.Random) -> GameState:
    """The same state with another deck order, other unseen removals and another RNG."""
    deck = list(state.secret.deck)
    unseen = list(state.secret.removed_unseen)
    rnd.shuffle(deck)
    if deck and unseen:  # swap hidden plants between the deck and the unseen removals
        i, j = rnd.randrange(len(deck)), rnd.randrange(len(unseen))
        deck[i], unseen[j] = unseen[j], deck[i]
    rng = RngState(rnd.randrange(2**32), rnd.randrange(1000))
    return evolve(state, secret=Secret(deck=tuple(deck), removed_unseen=tuple(unseen), rng=rng))


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    cfg=st.sampled_from(CONFIGS),
    seed=st.sampled_from(SEEDS),
    where=st.floats(0, 1),
    shuffle_seed=st.integers(0, 2**32 - 1),
)
def test_states_differing_only_in_secret_look_the_same(
    cfg: pg.GameConfig, seed: int, where: float, shuffle_seed: int
) -> None:
    """Changing only the secret changes no view, no public view and no legal action."""
    states = game(cfg, seed)
    state = states[round(where * (len(states) - 1))]
    other = reshuffled(state, random.Random(shuffle_seed))
    assert invariant_violations(other) == []
    assert pg.public_view(other) == pg.public_view(state)
    assert pg.legal_actions(other) == pg.legal_actions(state)
    assert pg.current_player(other) == pg.current_player(state)
    for seat in range(cfg.players):
        assert pg.view(other, seat) == pg.view(state, seat)
        assert pg.to_json(pg.view(other, seat)) == pg.to_json(pg.view(state, seat))


def json_keys(node: Any) -> set[str]:
    """Every object key anywhere in a parsed JSON document, but inside its config.

    The config is public, and its ``deck`` is the configured deck choice (its
    cards, CDK-20), not the hidden order of the draw deck.
    """
    if isinstance(node, dict):
        inner = (json_keys(v) for k, v in node.items() if k != "config")
        return set(node) | {k for keys in inner for k in keys}
    if isinstance(node, list):
        return {k for v in node for k in json_keys(v)}
    return set()


@pytest.mark.parametrize("cfg", CONFIGS, ids=_cid)
def test_views_carry_no_secret(cfg: pg.GameConfig) -> None:
    """The JSON of every view has no "secret", "deck", "removed_unseen" or "rng" key."""
    states = game(cfg, SEEDS[0])
    for state in states[:: max(1, len(states) // 8)]:
        docs = [pg.to_json(pg.public_view(state))]
        docs += [pg.to_json(pg.view(state, seat)) for seat in range(cfg.players)]
        for doc in docs:
            keys = json_keys(json.loads(doc))
            assert not keys & {"secret", "deck", "removed_unseen", "rng"}
            assert "deck_size" in keys  # the size of the deck is public (CON-07)


def test_view_is_the_state_minus_its_secret() -> None:
    """A public view repeats the state's public fields unchanged."""
    for state in every_state()[::50]:
        v = pg.public_view(state)
        for name in ("config", "regions", "round", "step", "phase", "order", "players"):
            assert getattr(v, name) == getattr(state, name)
        for name in ("market", "resources", "auction", "discarding", "build_step", "events"):
            assert getattr(v, name) == getattr(state, name)
        for name in ("done", "bought"):
            assert getattr(v, name) == getattr(state, name)
        assert v.result == pg.outcome(state)
        board = state.rules.area.board
        assert dict(v.houses) == {board.cities[i]: h for i, h in enumerate(state.board.houses) if h}


def test_view_shows_who_finished_and_who_bought() -> None:
    """CON-06, AUC-12: who finished the phase and who bought a plant are seen at the table.

    Round 1 of a 3-player game: the first player opens plant 3 at its minimum
    bid 3 and the others fold, so seat ``first`` has bought and is done.
    """
    state = pg.new_game(pg.GameConfig(players=3, map="europe", components="classic"), seed=4)
    first = pg.current_player(state)
    assert first is not None
    assert pg.public_view(state).done == frozenset()
    state = pg.apply(state, pg.ChoosePlant(player=first, plant=3, bid=3))
    while state.auction is not None:
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, pg.PassBid(player=seat))
    v = pg.public_view(state)
    assert v.bought == frozenset({first})
    assert v.done is not None
    assert first in v.done
    assert pg.view(state, (first + 1) % 3).public.bought == frozenset({first})


# --- whose turn, legal actions ----------------------------------------------------------------


def test_legal_actions_only_for_the_viewer_on_turn() -> None:
    """view(state, p).legal is legal_actions(state) for the seat on turn and () for others."""
    for state in every_state()[::7]:
        turn = pg.current_player(state)
        for seat in range(len(state.players)):
            v = pg.view(state, seat)
            assert v.viewer == seat
            assert v.public.turn == turn
            assert v.legal == (pg.legal_actions(state) if seat == turn else ())
            assert all(a.player == seat for a in v.legal)


def test_finished_game_offers_no_actions() -> None:
    """After game end (END-02) nobody is on turn and no view lists legal actions."""
    final = game(CONFIGS[0], SEEDS[0])[-1]
    assert final.phase is Phase.GAME_OVER
    for seat in range(len(final.players)):
        v = pg.view(final, seat)
        assert v.public.turn is None
        assert v.legal == ()
    assert pg.public_view(final).result == pg.outcome(final)


@pytest.mark.parametrize("seat", [-1, 2, 6, 100])
def test_view_of_a_missing_seat_raises_value_error(seat: int) -> None:
    """view() with a seat outside 0..players-1 raises ValueError."""
    state = game(CONFIGS[0], SEEDS[0])[0]
    with pytest.raises(ValueError, match="seat"):
        pg.view(state, seat)


@pytest.mark.parametrize("seat", [True, "0", 1.0, None])
def test_view_of_a_non_seat_raises_type_error(seat: Any) -> None:
    """view() with something that is not a seat number raises TypeError."""
    state = game(CONFIGS[0], SEEDS[0])[0]
    with pytest.raises(TypeError):
        pg.view(state, seat)


# --- minimum bids (AUC-04, AUC-31) -----------------------------------------------------------


def test_initial_min_bids_north_america_and_europe() -> None:
    """AUC-31: at the start the discounted lowest plant bids 1 on North America; AUC-04 else.

    The token is a map rule (CON-02, OQ-31): Deluxe, or classic with ``map_rules``.
    """
    for extra in ({"components": "deluxe"}, {"components": "classic", "options": "map_rules"}):
        na = pg.new_game(pg.GameConfig(players=3, map="north_america", **extra))
        lowest, *rest = na.market.actual
        assert discount(na) == lowest
        number = na.rules.number
        assert pg.public_view(na).min_bids == ((lowest, 1), *((p, number(p)) for p in rest))
        eu = pg.new_game(pg.GameConfig(players=3, map="europe", **extra))
        assert discount(eu) is None
        assert pg.public_view(eu).min_bids == tuple(
            (p, eu.rules.number(p)) for p in eu.market.actual
        )
    plain = pg.new_game(pg.GameConfig(players=3, map="north_america", components="classic"))
    assert discount(plain) is None
    assert pg.public_view(plain).min_bids == (("3", 3), ("4", 4), ("5", 5), ("6", 6))


def test_min_bids_concrete_seed() -> None:
    """North America, Deluxe, seed 1: actual market 4, 5, 6, 8 bids 1, 5, 6, 8 (AUC-31)."""
    state = pg.new_game(pg.GameConfig(players=3, map="north_america"), seed=1)
    assert pg.public_view(state).min_bids == (("4", 1), ("5", 5), ("6", 6), ("8", 8))
    europe = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
    assert pg.public_view(europe).min_bids == (("4", 4), ("5", 5), ("6", 6), ("8", 8))


def test_min_bids_follow_the_rules_along_games() -> None:
    """In phase 2 each actual plant bids its number, the token plant 1 (AUC-04, AUC-31..35).

    Outside phase 2 there are no minimum bids; the lowest legal opening bid of a
    plant the player can afford is its minimum bid.
    """
    checked = 0
    for state in every_state():
        bids = pg.public_view(state).min_bids
        if state.phase is not Phase.AUCTION:
            assert bids == ()
            continue
        m = state.market
        number = state.rules.number
        assert bids == tuple((p, 1 if p == discount(state) else number(p)) for p in m.actual)
        opening: dict[str, int] = {}
        for a in pg.legal_actions(state):
            if isinstance(a, pg.ChoosePlant):
                opening[a.plant] = min(a.bid, opening.get(a.plant, a.bid))
        money = state.players[pg.current_player(state) or 0].money
        for plant, low in bids:
            if plant in opening:
                assert opening[plant] == low
                checked += 1
            elif opening:
                assert low > money  # only an unaffordable plant may be missing
    assert checked > 100


# --- slot costs (BLD-05) and build costs (BLD-03, BLD-04) ------------------------------------


def _with_houses(state: GameState, city: str, seats: tuple[int, ...], build_step: int) -> Any:
    board = state.rules.area.board
    houses = list(state.board.houses)
    houses[board.index[city]] = seats
    return pg.public_view(evolve(state, board=Board(houses=tuple(houses)), build_step=build_step))


def test_slot_costs_concrete() -> None:
    """BLD-05: slots cost 10, 15, 20; Step 1 opens one, Step 2 two, Step 3 three."""
    state = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=4)
    costs = dict(pg.public_view(state).slot_costs)
    assert set(costs) == {state.rules.area.board.cities[i] for i in state.rules.area.cities}
    assert set(costs.values()) == {10}
    city = next(iter(costs))
    cases = [
        ((), 1, 10),
        ((0,), 1, None),
        ((0,), 2, 15),
        ((0, 1), 2, None),
        ((0, 1), 3, 20),
        ((0, 1, 2), 3, None),
    ]
    for seats, build_step, want in cases:
        assert dict(_with_houses(state, city, seats, build_step).slot_costs)[city] == want


def test_slot_costs_along_games() -> None:
    """BLD-05 along seeded games: the k-th house costs the k-th slot while the Step allows it."""
    for state in every_state()[::5]:
        board = state.rules.area.board
        for city, cost in pg.public_view(state).slot_costs:
            k = len(state.board.houses[board.index[city]])
            assert cost == ((10, 15, 20)[k] if k < state.build_step else None)


def test_build_costs_are_what_a_build_costs() -> None:
    """BLD-03/BLD-04: build_costs[city] is exactly the money a legal Build there takes.

    Cities where the viewer already has a house (BLD-06) or that are closed
    (BLD-05) are not offered.
    """
    checked = 0
    for state in every_state():
        seat = pg.current_player(state)
        if state.phase is not Phase.BUILDING or seat is None:
            continue
        v = pg.view(state, seat)
        costs = dict(v.build_costs)
        slots = dict(v.public.slot_costs)
        board = state.rules.area.board
        for city in costs:
            assert seat not in state.board.houses[board.index[city]]
            assert slots[city] is not None
        money = state.players[seat].money
        for a in pg.legal_actions(state):
            if isinstance(a, pg.Build):
                assert costs[a.city] <= money
                assert money - pg.apply(state, a).players[seat].money == costs[a.city]
                checked += 1
    assert checked > 20


# --- resource prices (RES-06) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("map_", "components", "prices"),
    [
        ("europe", "deluxe", {"coal": 2, "gas": 3, "oil": 3, "uranium": 8}),  # SET-27
        ("north_america", "deluxe", {"coal": 2, "gas": 3, "oil": 4, "uranium": 9}),  # SET-27
        ("europe", "classic", {"coal": 1, "oil": 3, "garbage": 7, "uranium": 14}),  # SET-10
    ],
)
def test_initial_prices(map_: str, components: str, prices: dict[str, int]) -> None:
    """RES-06: the price shown is the cheapest token on the initial market."""
    state = pg.new_game(pg.GameConfig(players=4, map=map_, components=components), seed=9)
    shown = {kind.value: price for kind, price in pg.public_view(state).prices}
    assert shown == prices


def test_price_of_an_empty_track_is_none() -> None:
    """RES-07: a kind with no token on the market has no price."""
    state = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=2)
    market = list(state.resources.market)
    supply = list(state.resources.supply)
    supply[0], market[0] = supply[0] + market[0], 0
    empty = evolve(state, resources=ResourceMarket(market=tuple(market), supply=tuple(supply)))
    assert invariant_violations(empty) == []
    prices = dict(pg.public_view(empty).prices)
    assert prices[Resource.COAL] is None
    assert prices[Resource.GAS] == 3


def test_prices_are_what_one_token_costs() -> None:
    """RES-06 along games: buying one token of a kind costs exactly the price shown."""
    checked = 0
    for state in every_state():
        seat = pg.current_player(state)
        if state.phase is not Phase.RESOURCES or seat is None:
            continue
        prices = dict(pg.public_view(state).prices)
        for a in pg.legal_actions(state):
            if isinstance(a, pg.BuyResource) and a.count == 1:
                after = pg.apply(state, a)
                assert state.players[seat].money - after.players[seat].money == prices[a.resource]
                checked += 1
    assert checked > 20
