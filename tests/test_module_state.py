"""Rule modules' own state (issue 32 item 1): carried by the core without naming a module.

North America's discount token (AUC-30..AUC-35) and the customised deck's inactive area
and quota (CDK-06, CDK-07) are the modules' own records; pickles, JSON documents and
position texts written by db67e11, when they were plant-market fields, still load.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import attrs
import pytest

import powergrid as pg
from powergrid.engine import invariants
from powergrid.module_state import ModuleStates, StateSpec
from powergrid.record import pickled_values
from powergrid.rules import RuleModule
from powergrid.rules.custom_deck import InactiveArea
from powergrid.rules.custom_deck.samples import sample_config
from powergrid.rules.maps.north_america import DiscountToken
from powergrid.testing import invariant_violations
from tests.module_parts import discount, inactive, quota

OLD = Path(__file__).parent / "data" / "pickles"
FACTS = json.loads((OLD / "facts.json").read_text())


@pytest.mark.parametrize("name", sorted(FACTS))
def test_states_and_views_written_by_db67e11_load_and_play_on(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pickles, JSON and position texts of 0.1.0 agree, keep the module facts, play on."""
    facts = FACTS[name]
    state = pickle.loads((OLD / f"{name}.state.pickle").read_bytes())
    assert state == pg.from_json((OLD / f"{name}.state.json").read_text())
    text = (OLD / f"{name}.position.txt").read_text().strip()
    if state.config.deck is not None:  # a text names a customised game's decks: register them
        monkeypatch.setattr(pg.deck, "_NAMED", dict(pg.deck._NAMED))
        for deck in state.config.deck.decks:
            pg.deck.register_deck(deck)
    again = pg.parse_position(text)
    assert again == pg.state.evolve(state, events=again.events)
    assert "discount" not in pickled_values(state.market)  # the market keeps its own fields
    assert discount(state) == facts["discount"]
    assert inactive(state) == tuple(facts["inactive"])
    assert quota(state) == facts["quota"]
    assert invariant_violations(state) == []
    view = pickle.loads((OLD / f"{name}.view.pickle").read_bytes())
    assert view == pg.view(state, facts["seat"])
    assert view == pg.from_json((OLD / f"{name}.view.json").read_text())
    public = pickle.loads((OLD / f"{name}.public_view.pickle").read_bytes())
    assert public == pg.public_view(state)
    assert pg.position_text(state, hidden=True) == text  # the module keys kept their names
    rng = random.Random(1)
    for _ in range(40):
        if pg.outcome(state) is not None:
            break
        acts = pg.legal_actions(state)
        state = pg.apply(state, acts[rng.randrange(len(acts))])
        assert invariant_violations(state) == []


def test_auc_31_the_token_is_north_americas_own_state() -> None:
    """AUC-31, SET-24: in phase 2 the token lies on the lowest actual plant; Europe has none."""
    state = pg.new_game(pg.GameConfig(players=3, map="north_america"), seed=1)
    assert state.modules == ModuleStates({"north_america": DiscountToken(state.market.actual[0])})
    europe = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
    assert europe.modules == ModuleStates()
    assert json.loads(pg.to_json(europe))["modules"] == {}
    assert json.loads(pg.to_json(state))["modules"] == {
        "north_america": {"plant": state.market.actual[0]}
    }


def test_auc_35_the_token_leaves_with_its_plant() -> None:
    """AUC-35: the plant under the token is bought: the token leaves the market with it."""
    state = pg.new_game(pg.GameConfig(players=3, map="north_america"), seed=1)
    plant = discount(state)
    assert plant is not None
    seat = pg.current_player(state)
    assert seat is not None
    state = pg.apply(state, pg.ChoosePlant(player=seat, plant=plant, bid=1))
    while state.auction is not None:
        state = pg.apply(state, pg.PassBid(player=state.auction.active[0]))
    assert discount(state) is None
    assert invariant_violations(state) == []


def test_cdk_06_the_inactive_area_is_a_place_of_cards() -> None:
    """CON-11, CDK-06: the area's cards are counted in one place; the builder moves them."""
    state = pg.new_game(sample_config("M", 3), seed=2)
    area = inactive(state)
    assert len(area) == 7  # CDK-03: 3-8 and 14 of one deck, each paired in the market
    assert quota(state) == 8  # SET-12: 8 removals for 3 players, CDK-07
    places = dict(invariants.card_places(state))
    assert {places[c] for c in area} == {"modules.custom_deck.plants"}
    card = area[0]
    moved = pg.edit_position(state, removed=[*state.market.removed, card])
    assert card not in inactive(moved)
    assert card in moved.market.removed
    assert pg.edit_position(state, quota=3).modules["custom_deck"] == InactiveArea(area, 3)


def test_a_document_naming_a_module_the_game_does_not_play_is_refused() -> None:
    """A state document's module state must belong to a module of its game."""
    state = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
    doc = json.loads(pg.to_json(state))
    doc["modules"] = {"north_america": {"plant": "4"}}
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(doc))
    assert err.value.path == "modules.north_america"
    old = json.loads(pg.to_json(state))
    del old["modules"]
    old["format"] = 4
    old["market"]["discount"] = "4"  # a token in a format-4 Europe game: no module keeps it
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(old))
    assert err.value.path == "market.discount"
    old["market"]["discount"] = None  # what 0.1.0 wrote for every game: accepted
    assert pg.from_json(json.dumps(old)) == state


def test_a_token_off_the_market_breaks_the_one_definition_of_a_consistent_state() -> None:
    """AUC-31 and the core's own rule: a module's mark lies on a market plant."""
    state = pg.new_game(pg.GameConfig(players=3, map="north_america"), seed=1)
    hand = pg.state.evolve(
        state, modules=state.modules.replaced("north_america", DiscountToken("50"))
    )
    problems = invariant_violations(hand)
    assert any("not in the market" in p for p in problems)
    second = pg.state.evolve(
        state,
        modules=state.modules.replaced("north_america", DiscountToken(state.market.actual[1])),
    )
    assert invariant_violations(second) == [
        "the discount token is not on the lowest actual plant in phase 2 (AUC-31)"
    ]


def test_state_specs_are_checked_when_made_and_composed() -> None:
    """A spec names fields of its record, each with a default; two modules never share a key."""

    @attrs.frozen
    class Counter:
        n: int = 0

    @attrs.frozen
    class NoDefault:
        n: int

    with pytest.raises(TypeError, match="needs a default"):
        StateSpec(record=NoDefault)
    with pytest.raises(TypeError, match="no field 'm'"):
        StateSpec(record=Counter, marks=("m",))
    one = RuleModule(name="counter_one", version="1", state=StateSpec(record=Counter))
    two = RuleModule(name="counter_two", version="1", state=StateSpec(record=Counter))
    pg.catalog.register_module(one)
    pg.catalog.register_module(two)
    with pytest.raises(pg.RulesConfigError, match="uses already"):
        pg.new_game(pg.GameConfig(players=3, modules=("counter_one", "counter_two")))
    clash = RuleModule(
        name="counter_clash", version="1", state=StateSpec(record=Counter, keys={"n": "round"})
    )
    pg.catalog.register_module(clash)
    state = pg.new_game(pg.GameConfig(players=3, modules=("counter_clash",)))
    with pytest.raises(pg.RulesConfigError, match="key 'round'"):
        pg.edit_position(state)
    with pytest.raises(pg.InvalidRecord, match="key 'round'"):
        pg.parse_position(pg.position_text(state))
