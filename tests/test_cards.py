"""Card identity: a plant card is its label, ordered by rank, priced by its number.

Two synthetic decks, each the classic deck plus one card (RULES.md CON-08,
CDK-14, CDK-20, ORD-02, BLD-12, AUC-32):

- ``plus_deck``: a plus plant ``46+`` beside the plain ``46`` (the printed
  values of the real plus plants are unknown,
  reference/plants_new_power_plants.json, so this card's fuel and cities are
  made up for the test);
- ``twin_deck``: a second plant numbered 14, ``14e``, beside the original
  ``14``, declared higher (CDK-20's "expansion plant higher"), and
  ``twin_deck_low``, the same cards declared the other way round.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

import powergrid as pg
from powergrid import catalog
from powergrid.deck import Deck
from powergrid.engine.phases.order import player_order
from powergrid.enums import Phase, Resource
from powergrid.mechanics import market
from powergrid.rules import RuleModule
from powergrid.rules.classic import shipped_deck
from powergrid.testing import check_game, invariant_violations
from tests.module_parts import discount
from tests.scenario import CITIES_21, arrange, give, labels

CLASSIC = shipped_deck("classic")
PLUS = pg.Plant(
    label="46+", number=46, kind="coal", accepts=frozenset({Resource.COAL}), burn=3, cities=7,
    plus=True, origin="expansion",
)  # fmt: skip
TWIN = pg.Plant(
    label="14e", number=14, kind="oil", accepts=frozenset({Resource.OIL}), burn=1, cities=2,
    origin="expansion",
)  # fmt: skip


def _deck_module(name: str, deck: Deck) -> RuleModule:
    return RuleModule(name=name, version="1", hooks={"plant_deck": lambda _config, _deck: deck})


DECKS = {
    "plus_deck": Deck(name="plus", cards=(*CLASSIC.cards, PLUS), step3="classic"),
    "twin_deck": Deck(
        name="twin", cards=(*CLASSIC.cards, TWIN), step3="classic", order=[["14", "14e"]]
    ),
    "twin_deck_low": Deck(
        name="twin_low", cards=(*CLASSIC.cards, TWIN), step3="classic", order=[["14e", "14"]]
    ),
}
for _name, _deck in DECKS.items():
    if _name not in catalog.extra_module_names():
        catalog.register_module(_deck_module(_name, _deck))


def game(module: str, players: int = 3, seed: int = 1, **config: Any) -> pg.GameState:
    cfg = pg.GameConfig(players=players, components="classic", modules=(module,), **config)
    return pg.new_game(cfg, seed=seed)


# --- rank ------------------------------------------------------------------------------


def test_a_plus_plant_ranks_directly_above_its_plain_plant_cdk_14() -> None:
    """CDK-14: 46 < 46+ < 50 in the game's order; the labels never compare as text."""
    rules = game("plus_deck").rules
    assert rules.rank["44"] < rules.rank["46"] < rules.rank["46+"] < rules.rank["50"]
    assert rules.ranked(["50", "46+", "3", "46", "10"]) == ("3", "10", "46", "46+", "50")
    assert rules.number("46+") == 46


def test_the_declared_order_decides_between_two_plants_of_one_number_cdk_20() -> None:
    """CDK-20: the same two 14s rank as the deck declares, either way round."""
    high, low = game("twin_deck").rules, game("twin_deck_low").rules
    assert high.rank["13"] < high.rank["14"] < high.rank["14e"] < high.rank["15"]
    assert low.rank["13"] < low.rank["14e"] < low.rank["14"] < low.rank["15"]


def test_two_plants_of_one_number_without_a_declared_order_are_refused_cdk_20() -> None:
    """CDK-20: setup without a declaration is rejected, naming the cards and the rule."""
    with pytest.raises(pg.RulesConfigError, match=r"14, 14e share the number 14.*CDK-20") as err:
        Deck(name="twin", cards=(*CLASSIC.cards, TWIN), step3="classic")
    assert err.value.field == "order"


def test_a_paired_deck_needs_no_order_and_keeps_its_promise_cdk_03() -> None:
    """CDK-03: a paired deck (Variant M) may hold two 14s unordered; both in play is corrupt."""
    deck = Deck(name="mixed", cards=(*CLASSIC.cards, TWIN), step3="classic", paired=True)
    assert set(deck.ranks()) == {c.label for c in deck.cards}
    if "paired_deck" not in catalog.extra_module_names():
        catalog.register_module(_deck_module("paired_deck", deck))
    state = game("paired_deck")
    assert invariant_violations(state) == []
    both = give(give(state, 0, plants=[14]), 1, plants=["14e"])
    assert any("14 and 14e of a paired deck" in p for p in invariant_violations(both))


def test_a_declared_order_must_name_cards_of_one_number() -> None:
    """CDK-14 already orders 46 below 46+, and a declaration names only the deck's cards."""
    cards = (*CLASSIC.cards, PLUS)
    with pytest.raises(pg.RulesConfigError, match="fixed by the rank") as err:
        Deck(name="x", cards=cards, step3="classic", order=[["46+", "46"]])
    assert err.value.field == "order[0][1]"
    with pytest.raises(pg.RulesConfigError, match="no card '47'"):
        Deck(name="x", cards=cards, step3="classic", order=[["46", "47"]])


# --- the market ----------------------------------------------------------------------


def _late_market(module: str, **config: Any) -> pg.GameState:
    """Step 2, an empty deck but for the cards given to ``draw`` tests."""
    state = game(module, **config)
    return arrange(
        state, step=2, actual=[20, 22, 25, 27], future=[30, 46, 50], top=None, deck=["46+"]
    )


def test_a_drawn_plus_plant_is_sorted_in_above_its_number_cdk_14_con_13() -> None:
    """CON-13, CDK-14: 46+ enters between 46 and 50; the event names it by label."""
    state = market.draw(_late_market("plus_deck"))
    assert state.market.actual == labels(20, 22, 25, 27)
    assert state.market.future == labels(30, 46, "46+", 50)
    last = state.events.as_tuple()[-1]
    assert (last.kind, last.values) == ("plant_drawn", ("46+",))


def test_a_plus_plant_opens_at_its_printed_number_auc_04_con_08() -> None:
    """AUC-04, CON-08: 46+ opens at 46; 45 is refused with a sentence naming 46+."""
    state = arrange(game("plus_deck"), step=3, actual=[25, 27, 46, "46+", 50, 30], future=[])
    state = give(state, pg.current_player(state) or 0, money=100)
    seat = pg.current_player(state)
    assert seat is not None
    opens = [
        a.bid for a in pg.legal_actions(state) if isinstance(a, pg.ChoosePlant) and a.plant == "46+"
    ]
    assert min(opens) == 46
    assert dict(pg.public_view(state).min_bids)["46+"] == 46
    before = pg.to_json(state)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, pg.ChoosePlant(player=seat, plant="46+", bid=45))
    assert err.value.reason is pg.Reason.BID_TOO_LOW
    assert str(err.value) == "Bid 45 is below the minimum 46 for plant 46+"
    assert pg.to_json(state) == before


def test_removing_a_plant_takes_only_that_card_con_11() -> None:
    """CON-11: removing 46 leaves 46+ in the market; each removal is its own event."""
    state = arrange(
        game("plus_deck"),
        step=3,
        step3_in_deck=False,
        phase=Phase.BUILDING,
        actual=[27, 30, 46, "46+", 50],
        future=[],
    )
    state = market.remove_from_game(state, "46", "a test")
    assert state.market.plants == labels(27, 30, "46+", 50)
    assert state.market.removed[-1] == "46"
    state = market.remove_lowest(state, "a test")
    assert state.market.plants == labels(30, "46+", 50)
    assert invariant_violations(state) == []


def test_too_small_tests_the_number_and_removes_one_card_at_a_time_bld_12() -> None:
    """BLD-12: at 14 cities both 14 and 14e are too small; each goes, each is replaced."""
    state = game("twin_deck")
    state = arrange(state, step=2, actual=[14, "14e", 15, 16], future=[17, 18, 19, 20], top=None)
    deck = state.secret.deck
    state = give(state, 0, cities=CITIES_21[:14])
    before = len(state.events)
    state = market.enforce_too_small(state)
    new = state.events.as_tuple()[before:]
    removed = [e.values[0] for e in new if e.kind == "plant_removed"]
    drawn = [e.values[0] for e in new if e.kind == "plant_drawn"]
    assert removed[:2] == ["14", "14e"]  # lowest rank first, one card per removal
    assert drawn[:2] == [c for c in deck if state.rules.number(c) > 14][:2]
    assert "14" not in state.market.plants
    assert "14e" not in state.market.plants
    assert all(state.rules.number(p) > 14 for p in state.market.plants)


# --- the player order ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "high", "low"),
    [("plus_deck", "46+", "46"), ("twin_deck", "14e", "14"), ("twin_deck_low", "14", "14e")],
)
def test_a_phase_1_tie_is_broken_by_rank_ord_02_ec_59(module: str, high: str, low: str) -> None:
    """ORD-02, EC-59: at equal cities the holder of the higher-ranked plant goes first."""
    state = game(module)
    state = give(give(state, 0, plants=[low]), 1, plants=[high])
    state = give(state, 2, plants=[3])
    assert player_order(state)[:2] == (1, 0)
    state = give(give(state, 0, plants=[high]), 1, plants=[low])
    assert player_order(state)[:2] == (0, 1)


# --- North America's lower plant -----------------------------------------------------


def test_a_plain_plant_entering_below_a_plus_plant_removes_the_token_auc_32() -> None:
    """AUC-32 by rank: 46 entering below the discounted 46+ is lower; the token goes."""
    state = game("plus_deck", map="north_america", options={"map_rules"})
    state = arrange(
        state, step=3, phase=Phase.AUCTION, actual=["46+", 50], future=[], top=None, deck=[46],
        discount="46+",
    )  # fmt: skip
    state = market.draw(state)
    assert state.market.actual == labels(46, "46+", 50)
    assert discount(state) is None
    assert state.events.as_tuple()[-1].kind == "discount_removed"


def test_a_plus_plant_entering_above_the_token_plant_leaves_it_auc_32() -> None:
    """AUC-32: 46+ is not lower than the discounted 46, so the token stays on 46."""
    state = game("plus_deck", map="north_america", options={"map_rules"})
    state = arrange(
        state, step=3, phase=Phase.AUCTION, actual=[46, 50], future=[], top=None, deck=["46+"],
        discount=46,
    )  # fmt: skip
    state = market.draw(state)
    assert state.market.actual == labels(46, "46+", 50)
    assert discount(state) == "46"


# --- notation, JSON, views -------------------------------------------------------------


def test_labels_round_trip_through_the_notation() -> None:
    """Notation names plants by label; leading zeros typed from the display are dropped."""
    for action in (
        pg.ChoosePlant(player=0, plant="46+", bid=46),
        pg.DiscardPlant(player=1, plant="14e", drop={"oil": 1}),
        pg.Power(player=2, plants=["46+", "14e", 46]),
    ):
        assert pg.parse_action(str(action)) == action
    assert str(pg.Power(player=2, plants=["46+", "14e", 46])) == "2:power 14e,46,46+"
    assert pg.parse_action("0:choose 03 3") == pg.ChoosePlant(player=0, plant=3, bid=3)
    with pytest.raises(pg.InvalidRecord, match="plant label"):
        pg.parse_action("0:choose 4.5 4")


def test_a_state_with_both_46s_round_trips_through_json_pickle_and_views() -> None:
    """JSON, pickle and views keep each card by label: 46 in a hand, 46+ in the market."""
    import pickle

    state = arrange(
        game("plus_deck"),
        step=3,
        step3_in_deck=False,
        actual=[27, 30, 42, 44, "46+", 50],
        future=[],
    )
    state = give(state, 0, plants=[46])
    for copy in (pg.from_json(pg.to_json(state)), pickle.loads(pickle.dumps(state))):
        assert copy == state
        assert copy.players[0].plants == ("46",)
        assert "46+" in copy.market.plants
    view = pg.view(state, 1)
    assert pg.from_json(pg.to_json(view)) == view
    assert view.public.players[0].plants == ("46",)
    assert "46+" in view.public.market.plants
    data = json.loads(pg.to_json(state))
    assert data["players"][0]["plants"] == ["46"]


def test_whole_games_with_the_synthetic_decks_keep_every_invariant() -> None:
    """The plus and twin decks play whole seeded games, each card in one place throughout."""
    for module in DECKS:
        final = check_game(
            pg.GameConfig(players=3, components="classic", modules=(module,)), seed=5
        )
        assert pg.outcome(final) is not None
        placed = [*final.market.plants, *final.market.removed, *final.secret.deck]
        placed += [c for p in final.players for c in p.plants] + list(final.secret.removed_unseen)
        placed += list(final.market.under_step3) + ([final.market.top] if final.market.top else [])
        assert sorted(placed) == sorted(final.rules.plants)


# --- the deck format -------------------------------------------------------------------


def test_the_shipped_decks_read_as_decks() -> None:
    """SET-11/SET-21 data: both decks ship in the deck format, 42 cards and a Step 3 card."""
    for name in ("classic", "deluxe"):
        deck = shipped_deck(name)
        assert len(deck.cards) == 42
        assert deck.step3 == name
        assert [c.label for c in deck.cards] == [str(c.number) for c in deck.cards]
        assert pg.from_json(pg.to_json(deck)) == deck
    assert {c.label for c in shipped_deck("deluxe").cards if c.back == "dark"} == set(
        labels(*range(3, 16))
    )


def test_shipped_decks_read_as_documents() -> None:
    """The rules layer reads its deck files directly; the document decoder reads them the same."""
    from powergrid.data import load
    from powergrid.formats.serialize import from_data

    for name in ("classic", "deluxe"):
        assert from_data(load(f"decks/{name}.json")) == shipped_deck(name)


def _doc(deck: Deck) -> dict[str, Any]:
    return json.loads(pg.to_json(deck))  # type: ignore[no-any-return]


def test_decoding_refuses_a_label_used_twice_and_names_the_field() -> None:
    """Two cards labelled 46 would be one card: the decoder refuses at cards[42].label."""
    doc = _doc(DECKS["plus_deck"])
    doc["cards"][42] = {**doc["cards"][42], "label": "46", "plus": False}
    with pytest.raises(pg.InvalidRecord, match="both labelled '46'") as err:
        pg.from_json(json.dumps(doc))
    assert err.value.path == "cards[42].label"


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        ("label", "47", "cards[0].label"),  # not the printed number 3
        ("label", "3x+", "cards[0].plus"),  # a '+' but no plus flag
        ("burn", "2", "cards[0].burn"),
        ("accepts", ["sand"], "cards[0].accepts[0]"),
        ("cities", 0, "cards[0].cities"),
        ("colour", "red", "cards[0].colour"),
    ],
)
def test_decoding_names_the_bad_field_of_a_card(field: str, value: Any, path: str) -> None:
    """A malformed card raises InvalidRecord with the path of its field."""
    doc = _doc(CLASSIC)
    doc["cards"][0] = {**doc["cards"][0], field: value}
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(doc))
    assert err.value.path == path


def test_a_deck_of_another_fuel_is_refused_by_the_components() -> None:
    """A card burning gas cannot play with the classic components (no gas tokens)."""
    gas = attrs.evolve(PLUS, accepts=frozenset({Resource.GAS}), kind="gas")
    if "gas_deck" not in catalog.extra_module_names():
        deck = Deck(name="gas", cards=(*CLASSIC.cards, gas), step3="classic")
        catalog.register_module(_deck_module("gas_deck", deck))
    with pytest.raises(pg.RulesConfigError, match="46\\+ of deck 'gas' burns gas"):
        game("gas_deck")


def test_the_deck_schema_accepts_the_shipped_decks_and_refuses_a_bad_label() -> None:
    """deck.schema.json ships with the package and agrees with the decoder on real decks."""
    jsonschema = pytest.importorskip("jsonschema")
    root = Path(pg.__file__).parent / "data"
    schema = json.loads((root / "schema" / "deck.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    validator.check_schema(schema)
    for deck in (CLASSIC, shipped_deck("deluxe"), *DECKS.values()):
        validator.validate(_doc(deck))
    bad = _doc(CLASSIC)
    bad["cards"][0]["label"] = "3 4"
    assert not validator.is_valid(bad)
