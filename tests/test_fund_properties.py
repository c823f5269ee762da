"""Properties of whole seeded 2-player games against the fund, on both maps (RULES.md §9).

Every test plays seeded random fund games (``pg.GameConfig(players=2)``, the
Deluxe default) to the end and checks each step, the state before and after
every action and the events that action added:

- the fund never pays or earns: each seat's money changes exactly by its own
  purchases, builds, bids and income (FND-02, FND-06, FND-18);
- at most 3 plants, and at the limit it drops its lowest (FND-11, FND-12);
- right after its phase-3 turn it holds one run of fuel for its plants, no
  more, and no less while the market has the kinds (FND-15..FND-17), computed
  here as a transport problem rather than by the module's own function;
- its houses stand on 10 and 15 slots only (FND-05, FND-08);
- conservation counts it as a holder of tokens, plants and 16 houses (CON-10,
  CON-11, FND-02);
- it never counts for Step 2, the game end or the ranking (FND-07, END-06);
- the games end with every invariant kept, survive JSON and pickle, replay
  from their record, and views hide the deck (DESIGN principle 5).
"""

from __future__ import annotations

import functools
import itertools
import json
import pickle
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.actions import Action
from powergrid.chance import RngState
from powergrid.engine.invariants import plant_places
from powergrid.enums import Phase
from powergrid.events import Event
from powergrid.state import ActorState, GameState, Secret, evolve
from powergrid.testing import invariant_violations, playout
from tests.test_views import json_keys

FUND = -1
#: FND-02: the fund's houses, on the board or in its supply.
FUND_HOUSES = 16
#: FND-05: starting houses on 10 slots.
STARTING_HOUSES = 6
#: FND-12: the fund's plant limit.
FUND_PLANT_LIMIT = 3
SEATS = (0, 1)

MAPS = st.sampled_from(["europe", "north_america"])
SEEDS = st.integers(0, 2**16)
#: A random fund game is about 300 actions, played in well under a second.
FEW = settings(max_examples=20, deadline=None)


class Step(NamedTuple):
    """One action of a game: the state before, the action, the state after, its new events."""

    before: GameState
    action: Action
    after: GameState
    events: tuple[Event, ...]


def fund_config(map_id: str) -> pg.GameConfig:
    config = pg.GameConfig(players=2, map=map_id)
    assert config.modules == ("fund",)  # FND-01: the 2-player Deluxe default plays the fund
    return config


@functools.lru_cache(maxsize=8)
def fund_game(map_id: str, seed: int, policy: int) -> tuple[Step, ...]:
    """Every action of a seeded random fund game, with the states around it."""
    pairs = list(playout(fund_config(map_id), seed, policy))
    assert pairs, "a fund game starts with decisions (FND-05)"
    afters = [s for s, _ in pairs[1:]] + [pg.apply(*pairs[-1])]
    out = []
    for (before, action), after in zip(pairs, afters, strict=True):
        added = after.events.as_tuple()[len(before.events) :]
        out.append(Step(before, action, after, added))
    return tuple(out)


def states_of(steps: Sequence[Step]) -> list[GameState]:
    """The start of the game, then the state after each action."""
    return [steps[0].before, *(s.after for s in steps)]


def fund_of(state: GameState) -> ActorState:
    fund = state.actor(FUND)
    assert [a.actor for a in state.actors] == [FUND]
    return fund


# --- FND-02, FND-06, FND-18: money ------------------------------------------------------------


def money_by_events(events: Iterable[Event]) -> list[int]:
    """Each seat's change of money according to the events (docs/concepts.md)."""
    delta = [0, 0]
    for e in events:
        if e.kind == "plant_bought":
            delta[_seat(e)] -= int(e.values[1])
        elif e.kind in ("resources_bought", "house_built"):
            delta[_seat(e)] -= int(e.values[-1])
        elif e.kind == "powered":
            delta[_seat(e)] += int(e.values[1])
    return delta


def _seat(e: Event) -> int:
    """The seat of a money event: always a human, never the fund (FND-02)."""
    seat = e.player
    assert seat is not None, e
    assert seat in SEATS, f"{e.kind} for {seat}: only seats pay or earn (FND-02, FND-06)"
    return seat


@FEW
@given(map_id=MAPS, seed=SEEDS)
def test_the_fund_never_pays_or_receives_money(map_id: str, seed: int) -> None:
    """FND-02, FND-06, FND-18, CON-09: seats' money moves only by their own buys, builds, income.

    After every action each seat's money changed by exactly what that seat's
    own purchase, build or income events say; the fund's takes (plants,
    fuel, houses) change nobody's money, and the fund has no money at all.
    """
    steps = fund_game(map_id, seed, seed)
    start = steps[0].before
    assert "money" not in {f.name for f in attrs.fields(ActorState)}
    total = [p.money for p in start.players]
    for before, action, after, events in steps:
        expected = money_by_events(events)
        actual = [b.money - a.money for a, b in zip(before.players, after.players, strict=True)]
        assert actual == expected, (action, events)
        if before.phase is not Phase.BUREAUCRACY:
            assert all(d <= 0 for d in actual), (action, events)  # nobody earns outside phase 5
        if before.phase is Phase.SETUP:
            assert actual == [0, 0], action  # FND-05: the starting houses are free
        for e in events:
            if e.kind in ("resources_bought", "house_built"):
                assert e.player == action.player, (action, e)  # a seat pays for its own move
        if any(e.kind.startswith("fund_") for e in events):
            took = {e.values[0] for e in events if e.kind == "fund_took_plant"}
            bought = {e.values[0] for e in events if e.kind == "plant_bought"}
            assert not took & bought, events  # the fund's plant is not a seat's purchase
        total = [t + d for t, d in zip(total, expected, strict=True)]
        assert [p.money for p in after.players] == total
    assert any(e.kind == "fund_took_plant" for s in steps for e in s.events)


# --- FND-11, FND-12: the plant limit ----------------------------------------------------------


@FEW
@given(map_id=MAPS, seed=SEEDS)
def test_the_fund_never_holds_more_than_three_plants(map_id: str, seed: int) -> None:
    """FND-11, FND-12: at most 3 plants; a fourth replaces its lowest, only if it is higher."""
    steps = fund_game(map_id, seed, seed)
    dropped_once = False
    for before, action, after, events in steps:
        old, new = fund_of(before).plants, fund_of(after).plants
        assert len(new) <= FUND_PLANT_LIMIT, (action, new)
        took = [str(e.values[0]) for e in events if e.kind == "fund_took_plant"]
        dropped = [str(e.values[0]) for e in events if e.kind == "fund_dropped_plant"]
        assert len(took) <= 1  # once per phase 2 (FND-11), so at most once per action
        if not took:
            assert not dropped
            assert set(new) <= set(old), action  # the fund gains plants only by its take
            continue
        number = after.rules.number
        if len(old) < FUND_PLANT_LIMIT:
            assert not dropped
            assert sorted(new) == sorted((*old, *took))
        else:
            dropped_once = True
            assert number(took[0]) > min(number(p) for p in old)
            assert dropped == [min(old, key=number)]  # its lowest plant leaves the game
            assert sorted(new) == sorted(set(old) - set(dropped) | set(took))
            assert dropped[0] not in after.market.plants  # out of the game, not back in play
    assert any(e.kind == "fund_took_plant" for s in steps for e in s.events)
    assert dropped_once  # seeded games reach the limit (about 8 drops a game)


# --- FND-15..FND-17: one run of fuel ----------------------------------------------------------


def _burns(state: GameState, plants: Iterable[str]) -> list[tuple[frozenset[int], int]]:
    """Each plant as (the kinds it accepts as state indices, its fuel per run)."""
    rules = state.rules
    out = []
    for card in plants:
        plant = rules.plant(card)
        out.append((frozenset(rules.kind_index(k) for k in plant.accepts), plant.burn))
    return out


def fuel_problems(state: GameState) -> list[str]:
    """Why the fund's fuel is not one run of its plants (FND-15), if it is not.

    Independent of the module: plants are sinks of ``burn`` tokens of the
    kinds they accept, so a holding is used up by one run iff, for every set
    S of kinds, the tokens of S are at most what the plants accepting a kind
    of S burn (Hall's condition); and it runs every plant iff the tokens of
    S are at least what the plants accepting only kinds of S burn. The fund
    may fall short only of kinds the market has run out of (FND-15's "as many
    as possible"): the lower bound is checked for every S whose kinds the
    market still offers.
    """
    fund = fund_of(state)
    burns = _burns(state, fund.plants)
    held = fund.resources
    market = state.resources.market
    kinds = range(len(held))
    out = []
    for size in range(1, len(held) + 1):
        for group in map(frozenset, itertools.combinations(kinds, size)):
            tokens = sum(held[k] for k in group)
            can_use = sum(b for acc, b in burns if acc & group)
            if tokens > can_use:
                out.append(f"holds {tokens} of kinds {sorted(group)}, its plants burn {can_use}")
            needs = sum(b for acc, b in burns if acc and acc <= group)
            offered = all(market[k] for k in group)
            if offered and tokens < needs:
                out.append(
                    f"holds {tokens} of kinds {sorted(group)}, its plants need {needs} "
                    "and the market still has them"
                )
    total = sum(b for _, b in burns)
    if sum(held) > total:
        out.append(f"holds {sum(held)} tokens, one run of its plants burns {total}")
    return out


@FEW
@given(map_id=MAPS, seed=SEEDS)
def test_the_fund_takes_exactly_one_run_of_fuel(map_id: str, seed: int) -> None:
    """FND-15, FND-16, FND-17, RES-10: after its phase-3 turn it holds one run of fuel.

    Never more than its plants burn in one run, per kind and in all; never
    less while the market still holds the kinds; free (the seats' money is
    unchanged by it) and straight from the market (what it took left the
    market and is on the fund).
    """
    steps = fund_game(map_id, seed, seed)
    turns = 0
    for before, action, after, events in steps:
        takes = [e for e in events if e.kind == "fund_took_resources"]
        if not takes:
            # outside its turn the fund's fuel only burns or leaves (FND-12, FND-18)
            held, was = fund_of(after).resources, fund_of(before).resources
            assert all(h <= w for h, w in zip(held, was, strict=True)), action
            continue
        turns += 1
        assert len(takes) == 1
        assert after.phase is Phase.RESOURCES  # a seat still buys after it (reverse order)
        assert pg.current_player(after) in SEATS
        took = tuple(int(v) for v in takes[0].values)
        assert all(t >= 0 for t in took)
        fund_before, fund_after = fund_of(before), fund_of(after)
        gained = tuple(
            b - a for a, b in zip(fund_before.resources, fund_after.resources, strict=True)
        )
        assert gained == took, (action, events)
        bought = [0] * len(took)
        for e in events:
            if e.kind == "resources_bought":
                bought[int(e.values[0])] += int(e.values[1])
        left = [
            b - a - t - s
            for a, b, t, s in zip(
                after.resources.market, before.resources.market, took, bought, strict=True
            )
        ]
        assert left == [0] * len(took), (action, events)  # taken from the market
        assert fuel_problems(after) == [], (action, fund_after)
    assert turns >= 2


# --- FND-05, FND-08: the fund's slots ---------------------------------------------------------


@FEW
@given(map_id=MAPS, seed=SEEDS)
def test_fund_houses_never_stand_on_a_20_slot(map_id: str, seed: int) -> None:
    """FND-05, FND-08, FND-09: fund houses on 10 slots (its six) and 15 slots (answers) only.

    A 15-slot fund house always follows a seat's house in a city that was
    empty before, and appears only while the fund has houses in its supply.
    """
    steps = fund_game(map_id, seed, seed)
    for state in states_of(steps):
        houses = state.board.houses
        for i, city in enumerate(houses):
            assert FUND not in city[2:], (i, city)  # never the 20 slot
            if FUND in city[1:2]:
                assert city[0] in SEATS  # the fund answers a seat on the 15 slot
        on_ten = sum(1 for city in houses if city[:1] == (FUND,))
        if state.phase is not Phase.SETUP:
            assert on_ten == STARTING_HOUSES
    for before, action, after, _ in steps:
        old, new = before.board.houses, after.board.houses
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            assert FUND not in a or FUND in b, (i, action)  # a fund house never leaves
            if FUND in b and FUND not in a:
                if before.phase is Phase.SETUP:
                    assert (a, b) == ((), (FUND,))
                else:
                    assert a == (), (i, a, b, action)  # a city empty before the build
                    assert b == (action.player, FUND), (i, a, b, action)
                    assert fund_of(before).houses > 0


# --- CON-10, CON-11, FND-02: conservation with the fund as a holder ---------------------------


def conservation_problems(state: GameState) -> list[str]:
    """Tokens, plant cards and the fund's houses, each counted once (independently)."""
    out = []
    rules = state.rules
    fund = fund_of(state)
    for k, kind in enumerate(rules.resources):
        tokens = state.resources.market[k] + state.resources.supply[k]
        tokens += sum(p.resources[k] for p in state.players)
        tokens += sum(a.resources[k] for a in state.actors)
        if tokens != rules.components.totals[k]:
            out.append(f"{kind.value}: {tokens} tokens, {rules.components.totals[k]} exist")
    places = plant_places(state)
    if set(places) != set(rules.plants) or set(places.values()) != {1}:
        out.append(f"plants not each in one place: {[c for c, n in places.items() if n != 1]}")
    held = Counter(fund.plants)
    if held and max(held.values()) > 1:
        out.append("the fund holds a plant twice")
    if fund.city_count + fund.houses != FUND_HOUSES:
        out.append(f"fund: {fund.city_count} cities + {fund.houses} in supply")
    on_board = sum(city.count(FUND) for city in state.board.houses)
    if on_board != len(fund.cities):
        out.append(f"fund: {on_board} houses on the board, {len(fund.cities)} cities listed")
    board = rules.area.board
    where = {board.cities[i] for i, city in enumerate(state.board.houses) if FUND in city}
    if where != set(fund.cities) or len(set(fund.cities)) != len(fund.cities):
        out.append("fund: its city list is not where its houses stand")
    return out


@FEW
@given(map_id=MAPS, seed=SEEDS)
def test_conservation_counts_the_fund_as_a_holder(map_id: str, seed: int) -> None:
    """CON-10, CON-11, FND-02, FND-05, FND-12, FND-18: tokens, plants and 16 fund houses.

    Tokens per kind on the market, in the supply, on the seats and on the
    fund equal the component totals; every plant card is in one place (the
    fund's plants included); the fund's cities plus its supply are 16, and
    its cities are exactly the board's fund houses.
    """
    steps = fund_game(map_id, seed, seed)
    for state in states_of(steps):
        assert conservation_problems(state) == [], state.events.as_tuple()[-3:]
    first = steps[0].before
    assert first.phase is Phase.SETUP
    assert fund_of(first).houses == FUND_HOUSES


# --- FND-07, END-06: the fund never counts ----------------------------------------------------


@FEW
@given(map_id=MAPS, seed=SEEDS)
def test_the_fund_is_never_ranked_and_never_counts(map_id: str, seed: int) -> None:
    """END-06, END-03, FND-07, FND-20: the ranking holds the two seats; the fund counts nowhere.

    Step 2 starts by a seat's cities (or the Step 3 card, STP-10), the game
    ends when a seat has 18 cities, and winners, ranking and scores name
    seats 0 and 1 only.
    """
    steps = fund_game(map_id, seed, seed)
    rules = steps[0].before.rules
    assert rules.end_cities == 18  # FND-20, SET-23
    for before, action, after, events in steps:
        largest = max(p.city_count for p in after.players)
        if before.step == 1 and after.step >= 2:
            by_card = any(e.kind == "deck_reshuffled" for e in events)
            assert by_card or largest >= rules.step2_cities, (action, largest)  # FND-07
        if not before.end_triggered and after.end_triggered:
            assert largest >= rules.end_cities, (action, largest)
        if after.phase is not Phase.GAME_OVER:
            assert after.end_triggered == (largest >= rules.end_cities)
    final = steps[-1].after
    result = pg.outcome(final)
    assert result is not None
    assert result.winners
    assert set(result.winners) <= set(SEATS)
    assert sorted(result.ranking) == list(SEATS)
    assert len(result.scores) == len(SEATS)
    assert max(p.city_count for p in final.players) >= rules.end_cities
    assert all(int(w) in SEATS for e in final.events if e.kind == "game_over" for w in e.values)


# --- FND-01, CON-10, CON-11: whole games ------------------------------------------------------


@FEW
@given(map_id=MAPS, seed=SEEDS, policy=SEEDS)
def test_fund_games_end_and_keep_every_invariant(map_id: str, seed: int, policy: int) -> None:
    """FND-01..FND-20, CON-10, CON-11, END-01: every fund game ends; no invariant ever breaks.

    The fund never gets a decision: every turn is a seat's, and every fund
    event is something apply did for it.
    """
    steps = fund_game(map_id, seed, policy)
    assert len(steps) < 2_000  # far below the playout bound
    for state in states_of(steps):
        assert invariant_violations(state) == [], state.events.as_tuple()[-3:]
        assert len(state.order) == 3
        assert state.order[1] == FUND  # FND-03, ORD-06
        assert fund_of(state).plants == state.rules.ranked(fund_of(state).plants)
    for step in steps:
        assert step.action.player in SEATS
        assert pg.current_player(step.before) == step.action.player
    final = steps[-1].after
    assert final.phase is Phase.GAME_OVER
    assert pg.current_player(final) is None
    assert pg.legal_actions(final) == ()
    kinds = {e.kind for e in final.events if e.kind.startswith("fund_")}
    assert {"fund_joined", "fund_house_placed", "fund_took_plant"} <= kinds
    assert {"fund_took_resources", "fund_ran_plants"} <= kinds


# --- serialization and replay -----------------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(map_id=MAPS, seed=SEEDS)
def test_fund_states_round_trip_and_replay(map_id: str, seed: int) -> None:
    """JSON and pickle keep fund states (its actor included); the record replays the game."""
    steps = fund_game(map_id, seed, seed)
    states = states_of(steps)
    picked = states[:: max(1, len(states) // 6)] + [states[-1]]
    for state in picked:
        again = pg.from_json(pg.to_json(state))
        assert again == state
        assert again.actor(FUND) == state.actor(FUND)
        assert invariant_violations(again) == []
    for state in states[::7]:
        assert pickle.loads(pickle.dumps(state)) == state
    config = fund_config(map_id)
    record = pg.GameRecord(config=config, seed=seed, actions=tuple(s.action for s in steps))
    assert pg.replay(record) == states[-1]
    assert pg.from_json(pg.to_json(record)) == record
    k = len(steps) // 2
    assert pg.replay(record, upto=k) == states[k]


# --- hidden information -----------------------------------------------------------------------


def _reshuffled(state: GameState, rnd: random.Random) -> GameState:
    """The same state with another deck order, other unseen removals and another RNG."""
    deck = list(state.secret.deck)
    unseen = list(state.secret.removed_unseen)
    rnd.shuffle(deck)
    if deck and unseen:
        i, j = rnd.randrange(len(deck)), rnd.randrange(len(unseen))
        deck[i], unseen[j] = unseen[j], deck[i]
    rng = RngState(rnd.randrange(2**32), rnd.randrange(1000))
    return evolve(state, secret=Secret(deck=tuple(deck), removed_unseen=tuple(unseen), rng=rng))


@settings(max_examples=8, deadline=None)
@given(map_id=MAPS, seed=SEEDS, shuffle_seed=SEEDS)
def test_fund_views_do_not_show_the_deck(map_id: str, seed: int, shuffle_seed: int) -> None:
    """Hidden information (DESIGN principle 5) in fund games: views never hold the deck order.

    A state with another deck order, other unseen removals and another
    random stream gives equal views and legal actions, and no view's JSON has
    a secret key, also in setup and while the fund plays.
    """
    steps = fund_game(map_id, seed, seed)
    states = states_of(steps)
    rnd = random.Random(shuffle_seed)
    for state in states[:: max(1, len(states) // 10)]:
        other = _reshuffled(state, rnd)
        assert invariant_violations(other) == []
        assert pg.public_view(other) == pg.public_view(state)
        assert pg.legal_actions(other) == pg.legal_actions(state)
        for seat in SEATS:
            mine = pg.view(state, seat)
            assert pg.view(other, seat) == mine
            assert mine.public.actors == state.actors  # the fund is public
            doc = pg.to_json(mine)
            assert doc == pg.to_json(pg.view(other, seat))
            assert not json_keys(json.loads(doc)) & {"secret", "deck", "removed_unseen", "rng"}
