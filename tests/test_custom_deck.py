"""The customised plant deck (RULES.md section 10): Variant M, Variant P, free decks.

The decks are those of ``tests/decks.py``: the classic deck as the original,
the classic deck again with synthetic plants 1 and 2 as Variant M's other deck,
six synthetic plus plants for Variant P. Variant M labels the original's cards
with ``o`` and the other deck's with ``e`` (EC-55's names). Numbers are
RULES.md's: SET-12 removes 8 plants for 3 players and 4 for 4 (the quota of
CDK-07); CDK-15's 4-player row is 32 cities, Step 2 at 8, end at 20, 5 removed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import powergrid as pg
from powergrid.deck import register_deck
from powergrid.engine.invariants import invariant_violations
from powergrid.engine.phases.order import determine_order
from powergrid.enums import Phase
from powergrid.mechanics import market
from powergrid.rules.custom_deck import reveal
from powergrid.state import GameState
from tests.decks import ORIGINAL, config, other_deck, plus_deck
from tests.module_parts import inactive, quota
from tests.scenario import arrange, give, labels
from tests.test_cli import run
from tests.test_serialize import _schema

# EC-55's reveal order (e = expansion / other deck, o = original).
EC_55 = [
    "5e",
    "3o",
    "1e",
    "5o",
    "3e",
    "2e",
    "4o",
    "14o",
    "6e",
    "14e",
    "7o",
    "4e",
    "8e",
    "6o",
    "7e",
    "8o",
]


def mixed(players: int = 3, seed: int = 0, **kw: Any) -> GameState:
    return pg.new_game(config("M", players, **kw), seed=seed)


def ec_55_start(players: int = 3) -> GameState:
    """Round 1 of a Variant M game laid out by EC-55's reveal order."""
    state = mixed(players)
    shown, inactive = reveal(state.rules, EC_55)
    return arrange_m(state, actual=shown[:4], future=shown[4:8], top=shown[8], inactive=inactive)


def arrange_m(state: GameState, **parts: Any) -> GameState:
    """Reshape a Variant M position (plants, inactive area, quota) through the builder."""
    return pg.edit_position(state, strict=False, **parts)


def buy(state: GameState, plant: str, bid: int) -> GameState:
    """The player on turn opens ``plant``; everyone else drops out (AUC-06)."""
    state = pg.apply(state, pg.ChoosePlant(player=_turn(state), plant=plant, bid=bid))
    while state.auction is not None:
        state = pg.apply(state, pg.PassBid(player=_turn(state)))
    return state


def _turn(state: GameState) -> int:
    seat = pg.current_player(state)
    assert seat is not None
    return seat


# --- choosing a deck: config, names, data we do not have ----------------------------------


def test_cdk_20_the_config_names_the_variant_and_embeds_the_decks() -> None:
    """A DeckChoice holds every card; a record's JSON carries them, so replay needs no file."""
    cfg = config("M")
    assert cfg.deck is not None
    assert [d.name for d in cfg.deck.decks] == ["classic", "sample_other"]
    state = pg.new_game(cfg, seed=3)
    actions = []
    for _ in range(12):
        action = pg.legal_actions(state)[0]
        actions.append(action)
        state = pg.apply(state, action)
    record = pg.GameRecord(config=cfg, seed=3, actions=tuple(actions))
    doc = json.loads(pg.to_json(record))
    cards = doc["config"]["deck"]["decks"][1]["cards"]
    assert {c["label"] for c in cards} >= {"1", "2", "50"}
    assert pg.replay(pg.from_json(json.dumps(doc))) == state


def test_cdk_20_a_deck_may_be_named_once_registered() -> None:
    """The shipped decks are registered; a registered deck may be named in a config."""
    named = pg.GameConfig(
        players=3, components="classic", modules=("custom_deck",),
        deck={"variant": "free", "decks": ["classic"]},
    )  # fmt: skip
    assert named.deck is not None
    assert named.deck.decks == (ORIGINAL,)
    with pytest.raises(pg.RulesConfigError) as info:
        pg.DeckChoice(variant="free", decks=["nowhere"])
    assert "unknown deck 'nowhere'; registered decks: classic, deluxe" in str(info.value)


def test_the_new_power_plants_cannot_be_named_without_their_cards() -> None:
    """The expansion's values are unknown: naming it says how to supply them, never guesses."""
    with pytest.raises(pg.RulesConfigError) as info:
        pg.DeckChoice(variant="M", decks=["classic", "new_power_plants"])
    assert "are not public" in str(info.value)
    assert "deck document" in str(info.value)
    assert info.value.field == "deck.decks"


@pytest.mark.parametrize(
    ("kw", "field", "words"),
    [
        (
            {"components": "deluxe"},
            "modules",
            "plays with the classic components, not deluxe (CDK-01)",
        ),
        ({"modules": ()}, "deck", "no rule module of this config plays a 'deck'"),
        ({"deck": None}, "deck", "the custom_deck module needs a deck"),
        (
            {"deck": {"variant": "X", "decks": ["classic"]}},
            "deck.variant",
            "unknown deck variant 'X'",
        ),
        (
            {"deck": {"variant": "M", "decks": ["classic"]}},
            "deck.decks",
            "variant M is built from 2 deck(s), not 1",
        ),
    ],
)
def test_bad_deck_configs_are_refused_naming_the_field(
    kw: dict[str, Any], field: str, words: str
) -> None:
    """The customised deck needs the classic components, a deck and a known variant."""
    base: dict[str, Any] = {"players": 3, "components": "classic", "modules": ("custom_deck",)}
    base["deck"] = {"variant": "M", "decks": [ORIGINAL, other_deck()]}
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(**{**base, **kw})
    assert info.value.field == field
    assert words in str(info.value)


def test_the_fund_and_the_custom_deck_never_meet() -> None:
    """FND-01 and CDK-01: the fund is Deluxe, the customised deck classic."""
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(
            players=2,
            modules=("fund", "custom_deck"),
            deck={"variant": "free", "decks": ["classic"]},
        )
    assert "(CDK-01)" in str(info.value)


# --- Variant M: setup (CDK-01..CDK-07) --------------------------------------------------------


def test_cdk_01_cdk_05_variant_m_leaves_out_17_18_and_the_original_step_3() -> None:
    """CDK-01, CDK-05: no 17o or 18o; the other deck's Step 3 card lies at the bottom."""
    state = mixed()
    labels_ = set(state.rules.plants)
    assert {"17e", "18e"} <= labels_
    assert not {"17o", "18o"} & labels_
    assert state.rules.deck.step3 == "sample_other"
    assert state.market.step3_in_deck
    assert len(labels_) == 40 + 44


def test_ec_55_cdk_02_cdk_03_cdk_04_the_reveal() -> None:
    """EC-55, CDK-02..CDK-04: inactive 5e 3o 4o 14o 6e 7o 8e; market 1-8; 14e face up."""
    state = ec_55_start()
    assert inactive(state) == labels("5e", "3o", "4o", "14o", "6e", "7o", "8e")
    assert state.market.actual == labels("1e", "2e", "3e", "4e")
    assert state.market.future == labels("5o", "6o", "7e", "8o")
    assert state.market.top == "14e"
    assert invariant_violations(state) == []


def test_cdk_03_every_seeded_reveal_pairs_its_market_with_the_inactive_area() -> None:
    """CDK-03/04 over seeds: 9 market plants, each but 1 and 2 with a copy inactive."""
    for seed in range(6):
        state = mixed(seed=seed)
        m = state.market
        shown = [*m.actual, *m.future, m.top]
        numbers = [int(c.rstrip("oe")) for c in shown if c]
        assert sorted(numbers) == [1, 2, 3, 4, 5, 6, 7, 8, 14]
        held = sorted(int(c.rstrip("oe")) for c in inactive(state))
        assert held == [3, 4, 5, 6, 7, 8, 14]


@pytest.mark.parametrize(("players", "due"), [(3, 8), (4, 4), (5, 0)])
def test_cdk_07_no_plant_is_removed_at_setup_the_quota_waits(players: int, due: int) -> None:
    """CDK-07: instead of SET-12's removals at setup, a quota of as many removals later."""
    state = mixed(players)
    assert state.secret.removed_unseen == ()
    assert quota(state) == due


def test_cdk_06_the_inactive_area_and_the_quota_are_public() -> None:
    """CDK-06: views and the position text show them; the text reads back."""
    state = mixed(seed=2)
    assert inactive(pg.view(state, 1).public) == inactive(state)
    text = pg.position_text(state, hidden=True)
    assert f"inactive={','.join(inactive(state))}" in text
    assert "quota=8" in text
    register_deck(other_deck())
    again = pg.parse_position(text)
    assert again.market == state.market
    assert again.config == state.config


# --- Variant M: the draw filter (CDK-07..CDK-10) ----------------------------------------------


def test_ec_56_cdk_09_a_first_copy_goes_inactive_the_second_enters() -> None:
    """EC-56, CDK-09: inactive {20o}: 23e goes inactive, draw again: 20e enters the market."""
    state = arrange_m(mixed(), inactive=["20o"], quota=0, deck=["23e", "20e", "30o"], top=None)
    drawn = market.draw(state)
    assert inactive(drawn) == labels("20o", "23e")
    assert "20e" in drawn.market.plants
    assert drawn.secret.deck == ("30o",)


def test_ec_57_cdk_07_the_quota_removes_exactly_n_paired_draws_then_stops() -> None:
    """EC-57: 4 players, n = 4: four matching draws leave the game; the fifth enters."""
    state = mixed(players=4)
    assert quota(state) == 4
    area = ["10o", "11o", "12o", "13o", "15o"]
    deck = ["10e", "20e", "11e", "12e", "13e", "15e", "21o"]
    state = arrange_m(state, inactive=area, deck=deck, top=None)
    drawn = market.draw(state)
    assert drawn.market.removed == labels("10e", "11e", "12e", "13e")
    assert inactive(drawn) == labels(*area, "20e")  # no quota used for it
    assert quota(drawn) == 0
    assert "15e" in drawn.market.plants
    texts = [e.text for e in drawn.events if e.kind == "plant_removed"]
    assert texts[-1] == "Plant 13e is removed from the game (0 setup removals left, CDK-07)."


def test_ec_68_cdk_04_the_face_up_14_is_exempt_on_its_first_draw() -> None:
    """EC-68: A buys 1; the draw is 14e: it enters, quota 8; then a match is removed: 7."""
    state = ec_55_start()
    state = arrange_m(state, deck=["9o", "9e", "10o", "10e", "11o", "11e", "12o", "12e"] + [
        "13o", "13e", "15o", "15e", "16o", "16e", "19o", "19e", "20o", "20e", "21o"
    ])  # fmt: skip
    state = buy(state, "1e", 1)
    assert state.market.actual == labels("2e", "3e", "4e", "5o")
    assert state.market.future == labels("6o", "7e", "8o", "14e")
    assert quota(state) == 8
    state = buy(state, "2e", 2)
    removed = [e.text for e in state.events if e.kind == "plant_removed"]
    assert removed[0] == "Plant 9e is removed from the game (7 setup removals left, CDK-07)."
    assert quota(state) == 0  # 9e..19e went: 8 removals; 20e then entered
    assert "20e" in state.market.plants
    assert state.secret.deck == ("21o",)


def test_ec_58_cdk_08_plants_leaving_play_go_inactive_and_the_filter_draws_again() -> None:
    """EC-58: quota used up; 12o enters, is too small later: inactive, not the box."""
    state = arrange_m(
        mixed(), inactive=["12e"], quota=0, deck=["12o", "30o", "30e", "31o"], top=None
    )
    state = market.draw(state)
    assert "12o" in state.market.plants
    state = arrange_m(state, actual=["12o", "13o", "15o", "16o"])
    state = give(state, 0, cities=_cities(state, 12))
    state = market.enforce_too_small(state)
    assert "12o" in inactive(state)
    assert "12o" not in state.market.removed
    assert "30o" in inactive(state)
    assert "30e" in state.market.plants


def _cities(state: GameState, n: int) -> list[str]:
    board = state.rules.area.board
    return [board.cities[i] for i in state.rules.area.cities[:n]]


def test_cdk_08_a_discarded_plant_goes_to_the_inactive_area() -> None:
    """CDK-08, AUC-17: over the limit, the discarded plant joins the inactive area."""
    state = mixed()
    state = arrange(state, round=2, order=(0, 1, 2), done=[])
    state = give(state, 0, plants=["20o", "21o", "22o"], money=50)
    plant = state.market.actual[-1]
    state = buy(state, plant, state.rules.number(plant))
    state = pg.apply(state, pg.DiscardPlant(player=0, plant="20o"))
    assert "20o" in inactive(state)
    assert "20o" not in state.market.removed
    assert any(e.kind == "plant_inactive" and e.values == ("20o",) for e in state.events)


def test_cdk_10_a_plus_plant_never_pairs_with_its_plain_number() -> None:
    """CDK-10, OQ-19: 46e inactive; 46+e goes to the inactive area too, not the market."""
    other = pg.Deck(
        name="sample_other_plus",
        cards=(*other_deck().cards, *plus_deck().cards),
        step3="sample_other_plus",
    )
    cfg = pg.GameConfig(
        players=3, components="classic", modules=("custom_deck",),
        deck={"variant": "M", "decks": [ORIGINAL, other]},
    )  # fmt: skip
    state = pg.new_game(cfg, seed=0)
    state = arrange_m(state, inactive=["46o"], quota=0, deck=["46+e", "46e", "30o"], top=None)
    drawn = market.draw(state)
    assert inactive(drawn) == labels("46o", "46+e")
    assert "46e" in drawn.market.plants


# --- Variant P (CDK-11..CDK-16) and EC-59, EC-60 ----------------------------------------------


def test_cdk_11_cdk_12_cdk_13_variant_p_is_the_classic_setup_with_plus_plants() -> None:
    """CDK-11, CDK-12, CDK-13: the original plants and six plus plants; SET-11; no inactive."""
    state = pg.new_game(config("P", 3), seed=1)
    assert len(state.rules.plants) == 42 + 6
    assert state.market.actual == labels(3, 4, 5, 6)
    assert state.market.top == "13"
    assert inactive(state) == ()
    assert quota(state) == 0
    with pytest.raises(pg.InvalidRecord) as info:
        pg.edit_position(state, inactive=["46"])
    assert "(CDK-13)" in str(info.value)


def test_ec_59_cdk_14_a_plus_plant_sorts_above_its_number_and_wins_phase_1_ties() -> None:
    """EC-59: 46 and 46+ in the market: 46+ after 46; its holder goes first at equal cities."""
    state = pg.new_game(config("P", 3), seed=1)
    state = arrange(
        state,
        round=6,
        phase=Phase.AUCTION,
        actual=[42, 44, 46],
        future=[50, "50+", "52+", "54+"],
        deck=["46+", "57+", "60+"],
        top=None,
    )
    drawn = market.draw(state)  # the drawn 46+ is sorted in by rank (CON-13)
    assert drawn.market.actual == labels(42, 44, 46, "46+")
    state = give(state, 1, plants=["46+"], cities=["berlin"])
    state = give(state, 0, plants=[46], cities=["london"])
    assert determine_order(state).order[:2] == (1, 0)
    state = arrange(state, actual=[44, 50, "50+", "52+"], future=[46, "46+", "54+", "57+"], done=[])
    first = pg.current_player(state)
    bids = {(a.plant, a.bid) for a in pg.legal_actions(state) if isinstance(a, pg.ChoosePlant)}
    assert ("50+", 50) in bids
    assert ("50+", 49) not in bids
    assert first is not None


def test_ec_60_cdk_15_variant_p_plays_the_seeds_player_count_table() -> None:
    """EC-60: 4 players: 32 cities in play, Step 2 at 8, game end at 20, 5 removed."""
    state = pg.new_game(config("P", 4), seed=0)
    rules = state.rules
    assert (rules.setup_row["cities_used"], rules.step2_cities, rules.end_cities) == (32, 8, 20)
    assert len(state.secret.removed_unseen) == 5
    for players, row in {3: (8, 20, 10), 5: (8, 18, 0), 6: (7, 15, 0)}.items():
        r = pg.new_game(config("P", players), seed=0).rules
        assert (
            r.step2_cities,
            r.end_cities,
            len(pg.new_game(config("P", players)).secret.removed_unseen),
        ) == row


def test_oq_21_the_two_player_row_cannot_end_and_is_refused() -> None:
    """OQ-21: 2 players end at 24 cities but have 22 houses (BLD-09): refused, not guessed."""
    with pytest.raises(pg.RulesConfigError) as info:
        config("P", 2)
    assert "only 22 houses (BLD-09)" in str(info.value)
    assert "(OQ-21)" in str(info.value)


def _connected(state_map: str, start: str, n: int) -> list[str]:
    board = pg.catalog.load_map(state_map)
    near: dict[int, list[int]] = {i: [] for i in range(len(board.cities))}
    for a, b, _ in board.edges:
        near[a].append(b)
        near[b].append(a)
    seen = [board.index[start]]
    for u in seen:
        for v in sorted(near[u]):
            if v not in seen and len(seen) < n:
                seen.append(v)
    return [board.cities[i] for i in seen]


def test_cdk_16_a_connected_set_of_the_tabled_size_is_the_play_area() -> None:
    """CDK-16: 32 connected cities for 4 players; every other city is outside the area."""
    cities = _connected("europe", "berlin", 32)
    state = pg.new_game(config("P", 4, cities=cities), seed=0)
    area = state.rules.area
    assert sorted(area.board.cities[i] for i in area.cities) == sorted(cities)
    assert not area.contains("madrid") or "madrid" in cities
    outside = next(c for c in area.board.cities if c not in cities)
    state = arrange(state, round=2, phase=Phase.BUILDING, done=[])
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, pg.Build(player=pg.current_player(state) or 0, city=outside))
    assert info.value.reason is pg.Reason.OUTSIDE_PLAY_AREA


@pytest.mark.parametrize(
    ("cities", "words"),
    [
        (lambda c: c[:31], "4 players play in 32 cities, not 31"),
        (lambda c: [*c[:31], "atlantis"], "unknown city 'atlantis'"),
        (lambda c: [*c[:31], "lisboa"], "must form one connected set"),
    ],
)
def test_cdk_16_a_bad_set_of_cities_is_refused(cities: Any, words: str) -> None:
    """CDK-16: known cities, the table's number, connected."""
    with pytest.raises(pg.RulesConfigError) as info:
        config("P", 4, cities=cities(_connected("europe", "berlin", 32)))
    assert words in str(info.value)
    assert info.value.field == "cities"


# --- free decks (CDK-20, CDK-21) ----------------------------------------------------------


def test_cdk_21_a_free_deck_plays_on_either_board() -> None:
    """CDK-21: a deck list is a setup parameter, so a map may have its own."""
    for map_id in ("europe", "north_america"):
        state = pg.new_game(config("free", 3, map=map_id), seed=2)
        assert state.rules.deck == ORIGINAL
        assert invariant_violations(state) == []


def test_cdk_20_cards_of_one_number_need_a_declared_order() -> None:
    """CDK-20: two 46s without an order are refused; with one, the game is set up."""
    twin = pg.Plant(
        label="46b", number=46, kind="coal", accepts=frozenset({pg.Resource.COAL}), burn=3, cities=7
    )
    with pytest.raises(pg.RulesConfigError) as info:
        pg.Deck(name="twins", cards=(*ORIGINAL.cards, twin), step3="classic")
    assert "(CDK-20)" in str(info.value)
    deck = pg.Deck(
        name="twins", cards=(*ORIGINAL.cards, twin), step3="classic", order=[["46", "46b"]]
    )
    state = pg.new_game(
        pg.GameConfig(
            players=3,
            components="classic",
            modules=("custom_deck",),
            deck={"variant": "free", "decks": [deck]},
        )
    )
    assert state.rules.rank["46b"] == state.rules.rank["46"] + 1


# --- the command line -------------------------------------------------------------------


def test_the_command_line_plays_a_customised_deck_from_files(tmp_path: Path) -> None:
    """``play --deck FILE --deck FILE --variant M`` plays Variant M; no variant is refused."""
    first, second = tmp_path / "original.json", tmp_path / "other.json"
    first.write_text(pg.to_json(ORIGINAL))
    second.write_text(pg.to_json(other_deck()))
    proc = run(
        "play",
        "--players",
        "3",
        "--deck",
        str(first),
        "--deck",
        str(second),
        "--variant",
        "M",
        "--quiet",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Plant deck: variant M of classic and sample_other, 84 cards" in proc.stdout
    assert "Winner" in proc.stdout
    proc = run("play", "--players", "3", "--deck", str(first), "--deck", str(second))
    assert proc.returncode == 2
    assert "say which with --variant" in proc.stderr


def test_the_record_schema_accepts_a_record_with_a_customised_deck() -> None:
    """The schema knows the config's ``deck`` and ``cities`` (data/schema/record.schema.json)."""
    jsonschema = pytest.importorskip("jsonschema")
    cfg = config("P", 4, cities=_connected("europe", "berlin", 32))
    record = pg.GameRecord(
        config=cfg, seed=1, actions=pg.legal_actions(pg.new_game(cfg, seed=1))[:1]
    )
    doc = json.loads(pg.to_json(record))
    validator = jsonschema.Draft202012Validator(_schema("record.schema.json"))
    validator.validate(doc)
    doc["config"]["deck"]["variant"] = "Q"
    assert not validator.is_valid(doc)
