"""Bots: legal choices, finished games on every table size and map, determinism."""

from __future__ import annotations

import random

import attrs
import pytest

import powergrid as pg
from powergrid.bots import GreedyBot, RandomBot, distinct_choices
from powergrid.state import GameState

MAPS = ("europe", "north_america")
#: Bot games take a few hundred actions; this bound catches a game that never ends.
MAX_ACTIONS = 5000

Bot = GreedyBot | RandomBot


def play(state: GameState, bots: list[Bot]) -> tuple[GameState, list[pg.Action]]:
    """Play to the end, checking each choice is legal; return the final state and actions."""
    actions: list[pg.Action] = []
    while pg.outcome(state) is None:
        seat = pg.current_player(state)
        assert seat is not None
        action = bots[seat].choose(state)
        assert action in pg.legal_actions(state)
        assert action.player == seat
        state = pg.apply(state, action)
        actions.append(action)
        assert len(actions) <= MAX_ACTIONS, "game did not end"
    return state, actions


def mixed(players: int, seed: int) -> list[Bot]:
    return [GreedyBot(seed + s) if s % 2 == 0 else RandomBot(seed + s) for s in range(players)]


@pytest.mark.parametrize("map_name", MAPS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_mixed_bots_finish_legally(players: int, map_name: str) -> None:
    state = pg.new_game(pg.GameConfig(players=players, map=map_name), seed=players)
    final, actions = play(state, mixed(players, seed=3))
    result = pg.outcome(final)
    assert result is not None
    assert sorted(result.ranking) == list(range(players))
    assert pg.current_player(final) is None
    assert len(actions) < MAX_ACTIONS


@pytest.mark.parametrize("map_name", MAPS)
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("kind", [GreedyBot, RandomBot])
def test_same_bot_everywhere_finishes(players: int, map_name: str, kind: type[Bot]) -> None:
    state = pg.new_game(pg.GameConfig(players=players, map=map_name), seed=11)
    final, _ = play(state, [kind(seed) for seed in range(players)])
    assert pg.outcome(final) is not None


def test_same_seed_same_game() -> None:
    def run() -> tuple[GameState, list[pg.Action]]:
        state = pg.new_game(pg.GameConfig(players=4, map="north_america"), seed=5)
        return play(state, mixed(4, seed=9))

    first, second = run(), run()
    assert first[1] == second[1]
    assert first[0] == second[0]
    assert pg.outcome(first[0]) == pg.outcome(second[0])


def test_bots_ignore_global_random() -> None:
    state = pg.new_game(pg.GameConfig(players=3), seed=2)
    before = random.getstate()
    choices = set()
    for global_seed in range(5):
        random.seed(global_seed)
        choices.add(RandomBot(4).choose(state))
        choices.add(GreedyBot(4).choose(state))
    assert len(choices) <= 2
    random.seed(0)
    probe = random.getstate()
    RandomBot(4).choose(state)
    GreedyBot(4).choose(state)
    assert random.getstate() == probe
    random.setstate(before)


def test_bot_seed_changes_random_choices() -> None:
    state = pg.new_game(pg.GameConfig(players=3), seed=2)
    picks = {RandomBot(seed).choose(state) for seed in range(20)}
    assert len(picks) > 1


def test_bots_are_frozen() -> None:
    bot = GreedyBot(1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        bot.seed = 2  # type: ignore[misc]
    assert RandomBot() == RandomBot(0)


def test_choose_on_finished_game_raises() -> None:
    state = pg.new_game(pg.GameConfig(players=2), seed=1)
    final, _ = play(state, [RandomBot(0), RandomBot(1)])
    with pytest.raises(ValueError, match="over"):
        RandomBot(0).choose(final)
    with pytest.raises(ValueError, match="over"):
        GreedyBot(0).choose(final)


def test_distinct_choices_collapses_bids_and_purchases() -> None:
    actions: list[pg.Action] = [
        pg.ChoosePlant(player=0, plant=3, bid=4),
        pg.ChoosePlant(player=0, plant=3, bid=3),
        pg.ChoosePlant(player=0, plant=5, bid=5),
        pg.Bid(player=0, amount=9),
        pg.Bid(player=0, amount=8),
        pg.BuyResource(player=0, resource="coal", count=1),
        pg.BuyResource(player=0, resource="coal", count=2),
        pg.BuyResource(player=0, resource="oil", count=1),
        pg.PassAuction(player=0),
    ]
    assert distinct_choices(actions) == (
        pg.ChoosePlant(player=0, plant=3, bid=3),
        pg.ChoosePlant(player=0, plant=5, bid=5),
        pg.Bid(player=0, amount=8),
        pg.BuyResource(player=0, resource="coal", count=1),
        pg.BuyResource(player=0, resource="oil", count=1),
        pg.PassAuction(player=0),
    )


def test_greedy_powers_as_many_cities_as_possible() -> None:
    from powergrid.engine.phases import bureaucracy

    checked = 0
    state = pg.new_game(pg.GameConfig(players=3), seed=4)
    bots: list[Bot] = [GreedyBot(0), GreedyBot(1), RandomBot(2)]
    while pg.outcome(state) is None:
        seat = pg.current_player(state)
        assert seat is not None
        action = bots[seat].choose(state)
        if isinstance(action, pg.Power) and seat != 2:
            best = bureaucracy.best_powered(state, seat)
            assert bureaucracy.supplied(state, seat, action.plants) == best
            checked += 1
        state = pg.apply(state, action)
    assert checked > 5


def test_greedy_beats_random() -> None:
    greedy_wins = random_wins = 0
    greedy_powered = random_powered = 0
    for seed in range(4):
        for greedy_seat in (0, 1):
            bots: list[Bot] = [RandomBot(seed), RandomBot(seed + 1)]
            bots[greedy_seat] = GreedyBot(seed)
            state = pg.new_game(pg.GameConfig(players=2, map=MAPS[seed % 2]), seed=seed)
            result = pg.outcome(play(state, bots)[0])
            assert result is not None
            greedy_wins += greedy_seat in result.winners
            random_wins += (1 - greedy_seat) in result.winners
            greedy_powered += result.scores[greedy_seat].powered
            random_powered += result.scores[1 - greedy_seat].powered
    assert greedy_wins > random_wins
    assert greedy_powered > random_powered
