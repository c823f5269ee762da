"""Explicit chance (mechanics.chance_points): chance points, their outcomes and probabilities.

Numbers come from RULES.md: SET-04 (connected play areas), SET-05 (random round-1
order), SET-11/SET-12 (classic deck: 42 cards, market 3-10, 13 face up on top,
8 removed unseen with 2-3 players, 4 with 4), SET-21 (Deluxe: the market dealt
from the 13 dark plants 03-15, one more dark plant set aside on top).
"""

from __future__ import annotations

import math
import pickle
import random
from fractions import Fraction
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.catalog import regions_needed
from powergrid.cli.main import main
from powergrid.engine.invariants import invariant_violations
from powergrid.formats.records import GameRecord, states
from powergrid.frozen import evolve
from powergrid.mechanics.network import connected_region_sets
from powergrid.testing import all_configs, check_ruleset, configs, playout, seeds
from tests.test_views import reshuffled

EXPLICIT = frozenset({"explicit_chance"})
USA_3 = ("green", "purple", "yellow")  # the area of the boardgamers.space USA game
REGIONS_DE_4 = connected_region_sets("germany", regions_needed("classic", 4))[0]
NA_3 = connected_region_sets("north_america", regions_needed("deluxe", 3))[0]


def explicit(**fields: object) -> pg.GameConfig:
    cfg = pg.GameConfig(**fields)  # type: ignore[arg-type]
    return attrs.evolve(cfg, options=cfg.options | EXPLICIT)


def random_game(config: pg.GameConfig, seed: int) -> GameRecord:
    state, rnd, actions = pg.new_game(config, seed=seed), random.Random(seed), []
    while pg.current_player(state) is not None:
        action = rnd.choice(pg.legal_actions(state))
        actions.append(action)
        state = pg.apply(state, action)
    return GameRecord(config=config, seed=seed, actions=actions)


def first_events(state: pg.GameState) -> list[str]:
    """The setup's chance events, in order, resolving each with its first outcome."""
    seen = []
    while state.chance is not None and state.chance.action is None:
        outcomes = pg.chance_outcomes(state)
        seen.append(outcomes[0][0].event)
        state = pg.apply(state, outcomes[0][0])
    return seen


# --- the setup's chance points -------------------------------------------------------------


def test_the_play_area_is_a_chance_point_with_every_connected_area() -> None:
    """SET-04: with regions left open, the first chance point lists every connected area."""
    state = pg.new_game(explicit(players=3, map="usa", components="classic"), seed=5)
    assert pg.current_player(state) == pg.CHANCE
    outcomes = pg.chance_outcomes(state)
    areas = connected_region_sets("usa", regions_needed("classic", 3))
    assert {r.outcome for r, _ in outcomes} == {",".join(sorted(a)) for a in areas}
    assert all(r.event == "area" and p == Fraction(1, len(areas)) for r, p in outcomes)
    assert pg.legal_actions(state) == tuple(r for r, _ in outcomes)


def test_the_round_one_order_has_every_permutation() -> None:
    """SET-05: the random order of 4 seats is one of 4! = 24, each 1/24."""
    cfg = explicit(players=4, map="germany", components="classic", regions=REGIONS_DE_4)
    state = pg.new_game(cfg, seed=1)
    outcomes = pg.chance_outcomes(state)
    assert len(outcomes) == 24
    assert {p for _, p in outcomes} == {Fraction(1, 24)}
    state = pg.apply(state, pg.Reveal(event="order", outcome="2,0,3,1"))
    assert state.chance is None
    assert state.order == (2, 0, 3, 1)


def test_setup_events_come_in_order() -> None:
    """SET-04, SET-21, SET-05: the area, a dealt Deluxe market, then the order."""
    state = pg.new_game(explicit(players=3, map="north_america"), seed=2)
    assert first_events(state) == ["area", "market", "order"]
    classic = pg.new_game(explicit(players=3, map="usa", components="classic"), seed=2)
    assert first_events(classic) == ["area", "order"]


def test_the_deluxe_market_is_any_8_of_the_13_dark_plants() -> None:
    """SET-21: North America's Step 1 market of 8 from 13 dark plants: C(13, 8) = 1287."""
    cfg = explicit(players=3, map="north_america", regions=NA_3)
    state = pg.new_game(cfg, seed=0)
    outcomes = pg.chance_outcomes(state)
    assert len(outcomes) == math.comb(13, 8) == 1287
    chosen = pg.Reveal(event="market", outcome="3,4,5,6,7,8,9,10")
    state = pg.apply(state, chosen)
    state = pg.apply(state, pg.chance_outcomes(state)[0][0])  # the order
    assert state.market.actual + state.market.future == ("3", "4", "5", "6", "7", "8", "9", "10")


# --- draws ---------------------------------------------------------------------------------


def _first_draw(config: pg.GameConfig, seed: int = 0) -> pg.GameState:
    """The first chance point for a hidden card of a game played with seeded choices."""
    rnd = random.Random(seed)
    state = pg.new_game(config, seed=seed)
    while True:
        if state.chance is not None and pg.chance_outcomes(state)[0][0].event == "draw":
            return state
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))


def test_classic_first_hidden_draw_is_any_of_33_cards() -> None:
    """SET-11, SET-12: 42 cards less market 3-10 and the 13 on top leave 33 hidden, 1/33 each.

    With 3 players 8 of them were removed unseen, but nobody knows which: each
    of the 33 is equally likely to come next.
    """
    cfg = explicit(players=3, map="usa", components="classic", regions=USA_3)
    state = _first_draw(cfg)
    outcomes = pg.chance_outcomes(state)
    assert len(outcomes) == 33
    assert {p for _, p in outcomes} == {Fraction(1, 33)}
    shown = {"3", "4", "5", "6", "7", "8", "9", "10", "13"}
    assert shown.isdisjoint(r.outcome for r, _ in outcomes)


def test_deluxe_first_hidden_draw_is_the_set_aside_dark_plant() -> None:
    """SET-21: North America deals 8 of the 13 dark plants; the next dark one lies on top.

    Nobody knows which of the 13 - 8 = 5 hidden dark plants was set aside, so each
    is the first hidden draw with probability 1/5, and no light plant can be.
    """
    cfg = explicit(players=3, map="north_america", regions=NA_3)
    state = _first_draw(cfg)
    outcomes = pg.chance_outcomes(state)
    backs = {c.label: c.back for c in state.rules.deck.cards}
    assert len(outcomes) == 13 - 8
    assert all(backs[r.outcome] == "dark" for r, _ in outcomes)
    assert {p for _, p in outcomes} == {Fraction(1, 5)}


def test_a_chosen_draw_enters_the_market_and_keeps_the_game_whole() -> None:
    """CON-13: the caller's card comes up; every card is still in one place (invariants)."""
    cfg = explicit(players=3, map="usa", components="classic", regions=USA_3)
    state = _first_draw(cfg)
    outcomes = pg.chance_outcomes(state)
    unseen = [r for r, _ in outcomes if r.outcome in state.secret.removed_unseen]
    assert unseen, "a card the sample removed may still be chosen"
    after = pg.apply(state, unseen[0])
    while after.chance is not None:
        after = pg.apply(after, pg.legal_actions(after)[0])
    assert unseen[0].outcome in after.market.plants
    assert invariant_violations(after) == []


def test_after_the_step3_reshuffle_only_cards_seen_going_under_can_come() -> None:
    """STP-08, BUR-07: the reshuffled deck is the plants put under it; the removed stay out."""
    cfg = pg.GameConfig(players=3, map="usa", components="classic", regions=USA_3)
    for seed in range(40):
        record = pg.with_outcomes(random_game(cfg, seed))
        for state in states(record):
            if state.chance is not None and not state.market.step3_in_deck:
                outcomes = {r.outcome for r, _ in pg.chance_outcomes(state)}
                assert outcomes == set(state.secret.deck)
                assert outcomes.isdisjoint(state.secret.removed_unseen)
                return
    pytest.fail("no seeded game drew after the Step 3 reshuffle")


# --- errors --------------------------------------------------------------------------------


def test_an_impossible_outcome_is_illegal_and_changes_nothing() -> None:
    """A card in the market cannot be drawn: IllegalAction not_an_outcome, state untouched."""
    cfg = explicit(players=3, map="usa", components="classic", regions=USA_3)
    state = _first_draw(cfg)
    before = pg.to_json(state)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Reveal(event="draw", outcome="3"))
    assert err.value.reason == pg.Reason.NOT_AN_OUTCOME
    assert "'3' is not a possible outcome of the draw" in str(err.value)
    assert pg.to_json(state) == before


def test_a_player_action_at_a_chance_point_is_refused() -> None:
    """At a chance point only chance acts: a seat's action is not_your_turn."""
    cfg = explicit(players=3, map="usa", components="classic", regions=USA_3)
    state = _first_draw(cfg)
    assert state.chance is not None
    assert state.chance.action is not None
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, state.chance.action)
    assert err.value.reason == pg.Reason.NOT_YOUR_TURN
    assert "Chance acts first" in str(err.value)


def test_an_outcome_without_a_chance_point_is_refused() -> None:
    """A seeded game has no chance points: a Reveal is not_an_outcome."""
    state = pg.new_game(pg.GameConfig(players=3), seed=0)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.Reveal(event="draw", outcome="13"))
    assert err.value.reason == pg.Reason.NOT_AN_OUTCOME


def test_explicit_chance_refuses_variant_m() -> None:
    """CDK-03: variant M's reveal decides the inactive area; explicit chance refuses it."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(
            players=3,
            components="classic",
            modules=("custom_deck",),
            deck={"variant": "M", "decks": ["classic", "deluxe"]},
            options={"explicit_chance"},
        )
    assert err.value.field == "options"


def test_the_sampled_outcome_is_what_the_seed_would_have_drawn() -> None:
    """At each chance point of a seeded game's outcomes, the sample is the outcome recorded."""
    cfg = pg.GameConfig(players=4, map="europe")
    record = pg.with_outcomes(random_game(cfg, seed=3))
    checked = 0
    for state, action in zip(states(record), record.actions, strict=False):
        if state.chance is not None:
            assert pg.sampled_outcome(state) == action
            checked += 1
    assert checked > 20
    with pytest.raises(ValueError, match="no chance event"):
        pg.sampled_outcome(pg.new_game(cfg, seed=3))


def test_play_resumes_a_record_with_explicit_chance(tmp_path: Path) -> None:
    """``play --resume`` plays on from a record with explicit chance, the seed deciding."""
    cfg = explicit(players=3, map="usa", components="classic", regions=USA_3)
    state, actions = pg.new_game(cfg, seed=2), list[pg.Action]()
    while len(actions) < 40:
        action = pg.legal_actions(state)[0]
        actions.append(action)
        state = pg.apply(state, action)
    path = tmp_path / "part.json"
    path.write_text(pg.to_json(GameRecord(config=cfg, seed=2, actions=actions)))
    done = tmp_path / "done.json"
    assert main(["play", "--resume", str(path), "--quiet", "--record", str(done)]) == 0
    finished = pg.replay(pg.from_json(done.read_text()))
    assert pg.outcome(finished) is not None


def test_a_position_of_an_explicit_game_is_a_decision_point() -> None:
    """A built or parsed position starts play, not a chance point; a chance point has no text."""
    cfg = explicit(players=3, map="usa", components="classic", regions=USA_3)
    built = pg.build_position(cfg, seed=4)
    assert built.chance is None
    assert pg.current_player(built) in (0, 1, 2)
    assert "explicit_chance" in built.config.options
    again = pg.parse_position(pg.position_text(built), seed=4)
    assert again.chance is None
    state = _first_draw(cfg)
    with pytest.raises(ValueError, match="a chance point has no position text"):
        pg.position_text(state)


# --- records, notation, round trips ----------------------------------------------------------


def test_reveal_notation_reads_back() -> None:
    """A chance outcome's notation reads back to the same Reveal."""
    reveal = pg.Reveal(event="draw", outcome="46")
    assert str(reveal) == "chance:draw 46"
    assert pg.parse_action(str(reveal)) == reveal
    with pytest.raises(pg.InvalidRecord):
        pg.parse_action("chance:shuffle 3")


def test_a_chance_point_survives_json_and_pickle() -> None:
    """A pending chance point crosses process boundaries with its outcomes."""
    cfg = explicit(players=3, map="usa", components="classic", regions=USA_3)
    state = _first_draw(cfg)
    for copy in (pg.from_json(pg.to_json(state)), pickle.loads(pickle.dumps(state))):
        assert copy == state
        assert pg.chance_outcomes(copy) == pg.chance_outcomes(state)


@pytest.mark.parametrize("config", [c for c in all_configs() if c.deck is None], ids=str)
def test_seeded_outcomes_replayed_explicitly_play_the_same_game(config: pg.GameConfig) -> None:
    """The outcomes a seeded game drew, fed back as Reveals, play that very game."""
    record = random_game(config, seed=7)
    seeded = pg.replay(record)
    explicit_record = pg.with_outcomes(record)
    again = pg.replay(pg.from_json(pg.to_json(explicit_record)))
    assert evolve(again, config=seeded.config) == seeded
    reveals = [a for a in explicit_record.actions if isinstance(a, pg.Reveal)]
    assert [a for a in explicit_record.actions if not isinstance(a, pg.Reveal)] == list(
        record.actions
    )
    assert any(r.event == "order" for r in reveals)


# --- properties over random games with random outcomes ---------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=seeds())
def test_random_outcomes_keep_every_game_whole(config: pg.GameConfig, seed: int) -> None:
    """Every configuration with random outcomes at every chance point: the invariants
    hold at every step (chance points included), every listed outcome applies, the game
    ends, the record replays to the same state, and state and record survive JSON."""
    check_ruleset(attrs.evolve(config, options=config.options | EXPLICIT), games=1, seed=seed)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), board=st.sampled_from(("usa", "germany")), seed=seeds())
def test_chance_outcomes_do_not_depend_on_the_hidden_deck(
    players: int, board: str, seed: int
) -> None:
    """Hidden information: before the Step 3 reshuffle the outcomes of a classic draw, and
    every seat's view, are the same whatever the hidden deck holds; chance points pickle."""
    config = pg.GameConfig(players=players, map=board, components="classic", options=EXPLICIT)
    rnd = random.Random(seed)
    for state, _ in playout(config, seed % 1000, seed):
        if state.chance is None or not state.market.step3_in_deck or not state.events:
            continue
        other = reshuffled(state, rnd)
        assert pg.chance_outcomes(other) == pg.chance_outcomes(state)
        for seat in range(players):
            assert pg.view(other, seat) == pg.view(state, seat)
        assert pickle.loads(pickle.dumps(state)) == state


@pytest.mark.parametrize(
    "config",
    [
        explicit(players=3, map="europe"),
        explicit(players=2),
        explicit(players=4, components="classic"),
    ],
    ids=lambda c: c.label,
)
def test_every_state_of_an_explicit_game_round_trips_through_json(config: pg.GameConfig) -> None:
    """A chance point holding outcomes already given (the setup's area, then its market) is
    written with each Reveal's type tag and must read back (it used to fail on that tag)."""
    state = pg.new_game(config, seed=5)
    rnd = random.Random(5)
    given = 0
    for _ in range(150):
        if pg.outcome(state) is not None:
            break
        assert pg.from_json(pg.to_json(state)) == state
        given += bool(state.chance is not None and state.chance.given)
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    assert given > 0
