"""Properties of whole seeded games, for 2-6 players on both maps.

Invariants checked after every action (powergrid.testing.invariant_violations):
conservation of tokens (SET-08, CON-10) and plants (CON-11), the plant limit
(AUC-16), storage (RES-05), one house per city and player (BLD-06), slot limits
(BLD-05), no too-small plant in the market (BLD-12) and the market size (CON-07).
"""

from __future__ import annotations

import random
import sys
import threading
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.enums import Resource
from powergrid.errors import Reason
from powergrid.events import EventLog
from powergrid.frozen import evolve
from powergrid.state import GameState
from powergrid.testing import all_configs, check_game, config_label, configs, playout, seeds


def snapshot(value: Any) -> Any:
    """A deep, plain copy of a state, to detect any mutation."""
    if attrs.has(type(value)):
        return tuple(
            (a.name, snapshot(getattr(value, a.name)))
            for a in attrs.fields(type(value))
            if a.name != "rules"
        )
    if isinstance(value, tuple | list | frozenset):
        return tuple(
            snapshot(v) for v in (sorted(value) if isinstance(value, frozenset) else value)
        )
    if isinstance(value, EventLog):
        # The log is an append-only linked list shared with earlier states: its length
        # and last event show any change, and walking all of it per action would make
        # these tests quadratic in the length of a game.
        return ("log", len(value), value.event)
    return value


@given(config=configs(), seed=seeds(), policy=seeds())
def test_invariants_hold_after_every_action(config: pg.GameConfig, seed: int, policy: int) -> None:
    """CON-10, CON-11, SET-08, AUC-16, RES-05, BLD-05, BLD-06, BLD-12, CON-07, END-01."""
    final = check_game(config, seed, policy)
    result = pg.outcome(final)
    assert result is not None
    assert pg.current_player(final) is None
    assert pg.legal_actions(final) == ()
    assert sorted(result.ranking) == list(range(config.players))


@pytest.mark.parametrize("config", all_configs(), ids=config_label)
def test_every_configuration_finishes(config: pg.GameConfig) -> None:
    """END-01..END-03: seeded random games of every configuration end with a winner."""
    for seed in range(2):
        final = check_game(config, seed, seed + 100)
        result = pg.outcome(final)
        assert result is not None
        assert result.winners
        top = result.scores[result.winners[0]]
        assert max(p.city_count for p in final.players) >= final.rules.end_cities
        assert all(s.key <= top.key for s in result.scores)


@settings(max_examples=10)
@given(config=configs(), seed=seeds(), policy=seeds())
def test_same_seed_and_actions_give_equal_states(
    config: pg.GameConfig, seed: int, policy: int
) -> None:
    """Determinism: same config + seed + actions -> equal states, step by step."""
    actions = []
    states = []
    for state, action in playout(config, seed, policy):
        states.append(state)
        actions.append(action)
    replayed = pg.new_game(config, seed=seed)
    for state, action in zip(states, actions, strict=True):
        assert replayed == state
        replayed = pg.apply(replayed, action)
    assert pg.outcome(replayed) is not None


@settings(max_examples=5)
@given(config=configs(), seed=seeds(), policy=seeds())
def test_any_state_gets_the_answers_it_got_when_it_was_the_newest(
    config: pg.GameConfig, seed: int, policy: int
) -> None:
    """Purity: the player to act, the legal actions and the next state of a state do
    not depend on which state the engine returned last (it remembers that one's turn).

    Every state of a game is asked again in reverse order, so none is the newest,
    and an equal copy that the engine never returned is asked too.
    """
    seen = []
    for state, action in playout(config, seed, policy):
        answers = (pg.current_player(state), pg.legal_actions(state), pg.apply(state, action))
        seen.append((state, action, answers))
    for state, action, answers in reversed(seen):
        for asked in (state, evolve(state)):
            again = (pg.current_player(asked), pg.legal_actions(asked), pg.apply(asked, action))
            assert again == answers


def test_games_played_side_by_side_in_threads_are_the_games_played_alone() -> None:
    """Determinism: games interleaved in threads (each step may follow another game's,
    so the engine's remembered decision point is often another game's) play exactly as
    each does alone."""

    def play(seed: int) -> list[pg.Action]:
        return [action for _, action in playout(pg.GameConfig(players=4), seed, seed)]

    alone = {seed: play(seed) for seed in range(4)}
    together: dict[int, list[pg.Action]] = {}
    threads = [
        threading.Thread(target=lambda s=seed: together.__setitem__(s, play(s))) for seed in alone
    ]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads every few steps, not every 5 ms
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert together == alone


@settings(max_examples=5)
@given(config=configs(), seed=seeds(), policy=seeds())
def test_apply_never_changes_its_input(config: pg.GameConfig, seed: int, policy: int) -> None:
    """Purity: the state passed to apply is unchanged, field by field, afterwards."""
    for state, action in playout(config, seed, policy):
        before = snapshot(state)
        pg.apply(state, action)
        assert snapshot(state) == before


def _money_from_events(events: tuple[pg.Event, ...], players: int) -> list[int]:
    delta = [0] * players
    for e in events:
        if e.kind == "plant_bought":
            delta[e.player or 0] -= int(e.values[1])
        elif e.kind in ("resources_bought", "house_built"):
            delta[e.player or 0] -= int(e.values[-1])
        elif e.kind == "powered":
            delta[e.player or 0] += int(e.values[1])
    return delta


@settings(max_examples=10)
@given(config=configs(), seed=seeds(), policy=seeds())
def test_money_moves_only_by_bids_purchases_builds_and_income(
    config: pg.GameConfig, seed: int, policy: int
) -> None:
    """CON-09, AUC-08, RES-06, BLD-04, BUR-04: every change of money has its event."""
    for state, action in playout(config, seed, policy):
        after = pg.apply(state, action)
        new_events = after.events.as_tuple()[len(state.events) :]
        expected = _money_from_events(new_events, config.players)
        actual = [b.money - a.money for a, b in zip(state.players, after.players, strict=True)]
        assert actual == expected, (action, new_events)


def _arbitrary_actions(state: GameState, rnd: random.Random) -> list[pg.Action]:
    """Plausible but mostly illegal actions: any seat, plant, amount, city, kind."""
    n = len(state.players)
    cities = list(state.rules.area.board.cities)
    plants = list(state.rules.plants)
    seat = rnd.randrange(0, n + 2)
    kind = rnd.choice(list(Resource))
    amount = rnd.randrange(0, 300)
    return [
        pg.ChoosePlant(player=seat, plant=rnd.choice(plants), bid=amount),
        pg.PassAuction(player=seat),
        pg.Bid(player=seat, amount=amount),
        pg.PassBid(player=seat),
        pg.DiscardPlant(player=seat, plant=rnd.choice(plants), drop={kind: rnd.randrange(3)}),
        pg.BuyResource(player=seat, resource=kind, count=rnd.randrange(0, 8)),
        pg.EndPurchase(player=seat),
        pg.Build(player=seat, city=rnd.choice([*cities, "atlantis"])),
        pg.EndBuild(player=seat),
        pg.Power(
            player=seat,
            plants=rnd.sample(plants, rnd.randrange(3)),
            mix={kind: rnd.randrange(4)},
        ),
    ]


@settings(max_examples=10)
@given(config=configs(), seed=seeds(), policy=seeds())
def test_legal_actions_are_exactly_the_actions_that_apply(
    config: pg.GameConfig, seed: int, policy: int
) -> None:
    """Legality closure: listed actions apply; any other raises IllegalAction, unchanged state."""
    rnd = random.Random(policy)
    for state, action in playout(config, seed, policy):
        legal = set(pg.legal_actions(state))
        assert action in legal
        if rnd.random() > 0.1:
            continue
        for candidate in _arbitrary_actions(state, rnd):
            before = snapshot(state)
            if candidate in legal:
                assert pg.is_legal(state, candidate)
                pg.apply(state, candidate)
            else:
                with pytest.raises(pg.IllegalAction) as err:
                    pg.apply(state, candidate)
                assert isinstance(err.value.reason, Reason)
                assert pg.explain_illegal(state, candidate) == str(err.value)
            assert snapshot(state) == before


@settings(max_examples=10)
@given(config=configs(), seed=seeds(), policy=seeds(), other=seeds())
def test_hidden_part_does_not_change_what_may_be_played(
    config: pg.GameConfig, seed: int, policy: int, other: int
) -> None:
    """Hidden information: deck order and RNG never change legal actions or the turn."""
    rnd = random.Random(other)
    for state, _ in playout(config, seed, policy):
        if rnd.random() > 0.05:
            continue
        deck = list(state.secret.deck)
        rnd.shuffle(deck)
        secret = attrs.evolve(
            state.secret, deck=tuple(deck), rng=pg.RngState(other, rnd.randrange(99))
        )
        twin = evolve(state, secret=secret)
        assert pg.legal_actions(twin) == pg.legal_actions(state)
        assert pg.current_player(twin) == pg.current_player(state)


@given(seed=seeds())
def test_finished_game_rejects_every_action(seed: int) -> None:
    """Game over: apply raises IllegalAction with Reason.GAME_OVER, and lists nothing."""
    final = check_game(pg.GameConfig(players=2), seed % 1000, seed)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(final, pg.EndBuild(player=0))
    assert err.value.reason is Reason.GAME_OVER
    assert pg.legal_actions(final) == ()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_states_are_hashable_and_compare_by_value(seed: int) -> None:
    """Frozen states: equal by value, usable as dict keys (transposition tables)."""
    a = pg.new_game(pg.GameConfig(players=3), seed=seed)
    b = pg.new_game(pg.GameConfig(players=3), seed=seed)
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.round = 5


def test_seeds_pick_different_games() -> None:
    """SET-05, SET-11: different seeds change deck order or player order."""
    games = {pg.new_game(pg.GameConfig(players=4), seed=s).secret.deck for s in range(10)}
    assert len(games) == 10


@given(st.data())
def test_strategies_build_valid_configs(data: st.DataObject) -> None:
    """The public strategies of powergrid.testing produce valid configurations."""
    config = data.draw(configs())
    assert 2 <= config.players <= 6


@pytest.mark.parametrize(
    "config",
    [
        pg.GameConfig(players=3, map="europe"),
        pg.GameConfig(players=5, map="north_america", components="classic"),
    ],
    ids=["3p-europe-deluxe", "5p-na-classic"],
)
def test_check_ruleset_passes_for_built_in_configs(config: pg.GameConfig) -> None:
    """The public conformance run accepts the shipped rule modules."""
    from powergrid.testing import check_ruleset

    check_ruleset(config, games=2, seed=11)
