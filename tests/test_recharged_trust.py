"""Two players against the Trust in the Recharged edition (RULES.md 13.9: RCH-84, RCH-85).

The Trust is the fund of section 9 built from another variant
(``powergrid.rules.fund.variant.RECHARGED_TRUST``); these tests check what
RCH-85 changes and what the 2-player Recharged game shares with it: the
hybrid's coal first (a, EC-R18), the plant on its own turn (c, OQ-R08), the
refill row (i, EC-R17, OQ-R04), Step 2 at 7 and the end at 18 (h, OQ-R03),
the 1 plug / 5 socket removals (j), the plant limit (EC-R12), and the
boardgamers.space game without the Trust (OQ-R03).
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

import powergrid as pg
from powergrid.bots import GreedyBot, HeuristicBot, MCTSBot, RandomBot
from powergrid.engine.invariants import invariant_violations
from powergrid.enums import Phase
from powergrid.rules.fund import FUND
from powergrid.state import GameState
from tests.scenario import arrange, give, kinds, labels, play

GERMANY: dict[str, Any] = {"players": 2, "components": "recharged", "map": "germany_recharged"}
USA: dict[str, Any] = {**GERMANY, "map": "usa_recharged"}


def trust_game(seed: int = 0, **config: Any) -> GameState:
    """A 2-player Recharged game in round 1's phase 2, the Trust's houses on the first cities."""
    state = pg.new_game(pg.GameConfig(**{**GERMANY, **config}), seed=seed)
    while state.phase is Phase.SETUP:
        state = pg.apply(state, pg.legal_actions(state)[0])
    return state


def with_trust(state: GameState, **fields: Any) -> GameState:
    """Set the Trust's plants and tokens (``{"coal": 2}``)."""
    trust = state.actor(FUND)
    spec: dict[str, Any] = {
        "actor": FUND,
        "name": trust.name,
        "plants": list(trust.plants),
        "resources": {},
        "cities": list(trust.cities),
        "houses": trust.houses,
    }
    spec.update(fields)
    return pg.edit_position(state, strict=False, actors=[spec])


def consistent(state: GameState) -> GameState:
    assert invariant_violations(state) == []
    return state


# --- RCH-84, OQ-R03: which 2-player games play the Trust --------------------------------


def test_rch_84_a_two_player_recharged_game_plays_the_trust() -> None:
    """RCH-84: the Trust is the default; it joins second in order with 16 houses (RCH-85 b)."""
    for config in (GERMANY, USA):
        cfg = pg.GameConfig(**config)
        assert cfg.modules == ("trust",)
        state = pg.new_game(cfg, seed=1)
        (trust,) = state.actors
        assert (trust.actor, trust.name, trust.houses, trust.plants) == (FUND, "the Trust", 16, ())
        assert state.order[1] == FUND
        assert state.phase is Phase.SETUP  # its six start cities first (FND-05)
    assert pg.GameConfig(**{**GERMANY, "players": 3}).modules == ()
    assert json.loads(pg.to_json(pg.GameConfig(**GERMANY)))["modules"] == ["trust"]


def test_oq_r03_without_the_trust_only_as_boardgamers_2_player_game() -> None:
    """OQ-R03: 10 / 21 / 4 and no Trust with the option; ``without`` alone is refused."""
    cfg = pg.GameConfig(**GERMANY, options={"two_player_boardgamers"})
    assert cfg.modules == ()
    state = pg.new_game(cfg, seed=2)
    assert state.actors == ()
    assert (state.rules.step2_cities, state.rules.end_cities, state.rules.max_plants) == (
        10,
        21,
        4,
    )
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(**GERMANY, without={"trust"})
    assert info.value.field == "without"
    assert "only as option 'two_player_boardgamers'" in str(info.value)
    same = pg.GameConfig(**GERMANY, options={"two_player_boardgamers"}, without={"trust"})
    assert same == cfg  # the option's game has no Trust to leave out
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(**GERMANY, modules=("trust",), options={"two_player_boardgamers"})
    assert info.value.field == "options"
    assert "without the rule module 'trust'" in str(info.value)


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({**GERMANY, "players": 3, "modules": ("trust",)}, "for 2 players, not 3 (RCH-84)"),
        ({"players": 2, "modules": ("trust",)}, "recharged components, not deluxe (RCH-84)"),
    ],
)
def test_rch_84_the_trust_is_refused_outside_two_player_recharged(
    config: dict[str, Any], words: str
) -> None:
    """RCH-84: the Trust plays only the 2-player Recharged game (with the fund opted out)."""
    if config.get("components") is None:
        config = {**config, "without": {"fund"}}
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(**config)
    assert words in str(info.value)


# --- RCH-85 h, j: the 2-player row --------------------------------------------------------


def test_rch_85_h_j_step_2_at_7_end_at_18_and_1_plug_5_socket_removed() -> None:
    """RCH-85 h (RCH-70, RCH-80) and j (RCH-20): 7 / 18 / 3; 1 plug and 5 socket plants unseen."""
    state = pg.new_game(pg.GameConfig(**GERMANY), seed=0)
    rules = state.rules
    assert (rules.step2_cities, rules.end_cities, rules.max_plants) == (7, 18, 3)
    numbers = [rules.number(c) for c in state.secret.removed_unseen]
    assert len(numbers) == 6
    assert sum(n <= 15 for n in numbers) == 1  # plug backs are 03-15 (RCH-03)
    assert sum(n >= 16 for n in numbers) == 5


# --- RCH-85 i, EC-R17, OQ-R04: the refill -------------------------------------------------


def phase_5_refill(**config: Any) -> dict[str, int]:
    """The tokens phase 5 of a Step 1 round adds, each kind's market low enough to take them."""
    state = trust_game(**config)
    low = {"coal": 10, "oil": 6, "garbage": 3, "uranium": 1}
    state = arrange(state, round=2, phase=Phase.BUREAUCRACY, order=(0, FUND, 1), done=[],
                    market_tokens=low)  # fmt: skip
    before = kinds(state)
    while (seat := pg.current_player(state)) is not None and state.phase is Phase.BUREAUCRACY:
        state = pg.apply(state, pg.Power(player=seat))
    return {k: kinds(state)[k] - before[k] for k in before}


def test_ec_r17_rch_85_i_the_trust_refills_by_the_2_player_column() -> None:
    """EC-R17: default (2-player card), Step 1: coal 3, oil 2, garbage 1, uranium 1."""
    assert phase_5_refill() == {"coal": 3, "oil": 2, "garbage": 1, "uranium": 1}


def test_ec_r17_oq_r04_the_option_refills_as_for_3_players() -> None:
    """EC-R17, OQ-R04: with trust_refill_as_three: coal 4, oil 2, garbage 1, uranium 1."""
    options = {"trust_refill_as_three"}
    assert phase_5_refill(options=options) == {"coal": 4, "oil": 2, "garbage": 1, "uranium": 1}
    state = pg.new_game(pg.GameConfig(**USA, options=options), seed=0)
    assert state.rules.tables.refill == ((4, 5, 3), (2, 3, 4), (1, 2, 3), (1, 1, 1))


@pytest.mark.parametrize(
    "config",
    [
        {**GERMANY, "players": 3},
        {**GERMANY, "options": {"two_player_boardgamers"}},
        {"players": 2, "options": {"trust_refill_as_three"}},
    ],
)
def test_oq_r04_the_refill_option_needs_the_trust(config: dict[str, Any]) -> None:
    """OQ-R04: trust_refill_as_three without the Trust is refused, naming the option."""
    options = set(config.pop("options", ())) | {"trust_refill_as_three"}
    with pytest.raises(pg.RulesConfigError) as info:
        pg.GameConfig(**config, options=options)
    assert info.value.field == "options"
    assert "trust_refill_as_three" in str(info.value)


# --- RCH-85 a, EC-R18: the hybrid -------------------------------------------------------------


@pytest.mark.parametrize(
    ("market", "taken"),
    [
        ({"coal": 6, "oil": 6}, {"coal": 1, "oil": 1}),  # coal, then oil
        ({"coal": 0, "oil": 6}, {"oil": 2}),
    ],
)
def test_ec_r18_rch_85_a_the_trusts_hybrid_takes_coal_first(
    market: dict[str, int], taken: dict[str, int]
) -> None:
    """EC-R18: the Trust owns hybrid 5 (2 fuel); it takes 1 coal then 1 oil, or 2 oil."""
    state = trust_game()
    state = arrange(state, round=3, phase=Phase.RESOURCES, order=(0, FUND, 1), done=[],
                    market_tokens=market)  # fmt: skip
    state = with_trust(state, plants=["5"])
    state = pg.apply(state, pg.EndPurchase(player=1))  # position 3 first (RES-01)
    trust = state.actor(FUND)
    held = {k.value: n for k, n in zip(state.rules.resources, trust.resources, strict=True) if n}
    assert held == taken
    assert {k: market[k] - taken.get(k, 0) for k in market} == {k: kinds(state)[k] for k in market}
    assert "The Trust takes" in list(state.events)[-1].text


def test_oq_r09_on_usa_the_trust_takes_storage_coal_free_once_the_market_has_none() -> None:
    """OQ-R09, RCH-43: coal plant 8 (3 coal), 1 coal on the market: 1 from it, 2 from storage."""
    state = trust_game(map="usa_recharged")
    state = arrange(state, round=3, phase=Phase.RESOURCES, order=(0, FUND, 1), done=[],
                    market_tokens={"coal": 1})  # fmt: skip
    state = with_trust(state, plants=["8"])
    storage = state.resources.supply[0]
    assert storage >= 2
    money = [p.money for p in state.players]
    state = pg.apply(state, pg.EndPurchase(player=1))
    assert state.actor(FUND).resources[0] == 3
    assert kinds(state)["coal"] == 0
    assert state.resources.supply[0] == storage - 2
    assert [p.money for p in state.players] == money  # free (RCH-85 b)


# --- RCH-85 c, OQ-R08: the Trust's moment in phase 2 -------------------------------------


def auction_position(**market: Any) -> GameState:
    """Round 2's phase 2, order H1 (seat 0), the Trust, H3 (seat 1); only the Trust done."""
    state = trust_game()
    return arrange(state, round=2, phase=Phase.AUCTION, order=(0, FUND, 1), done=[FUND], **market)


def test_rch_85_c_oq_r08_the_trust_waits_for_the_first_humans_turn() -> None:
    """RCH-85 c: H3 outbids H1 for 8: no take yet (FND-11 would); H1 then passes: it takes 11.

    The Trust takes the highest actual plant once H1 has bought or passed; the
    replacement (30) is drawn after its take (AUC-10).
    """
    state = auction_position(actual=[6, 8, 9, 11], future=[13, 15, 18, 20], deck=[25, 30])
    state = play(
        state,
        pg.ChoosePlant(player=0, plant=8, bid=8),
        pg.Bid(player=1, amount=9),
        pg.PassBid(player=0),
    )
    assert state.players[1].plants == ("8",)
    assert state.actor(FUND).plants == ()  # H1 has not finished his turn
    assert pg.current_player(state) == 0
    state = pg.apply(state, pg.PassAuction(player=0))
    assert state.actor(FUND).plants == ("13",)  # 25 went to the future market: 13 was highest
    assert "30" in state.market.plants
    assert [e.kind for e in state.events if e.round == 2].count("fund_took_plant") == 1


def test_rch_85_c_the_first_humans_purchase_is_the_trusts_moment() -> None:
    """RCH-85 c: H1 buys 6 at its discount: the Trust then takes the highest actual plant, 11."""
    state = auction_position(
        actual=[6, 8, 9, 11], future=[13, 15, 18, 20], deck=[25, 30, 31], discount=6
    )  # the token lies on the lowest actual plant (RCH-30)
    state = play(state, pg.ChoosePlant(player=0, plant=6, bid=1), pg.PassBid(player=1))
    assert state.players[0].plants == ("6",)
    assert state.actor(FUND).plants == ("13",)  # 25 drawn for the 6 went future; 13 moved up
    moments = [e for e in state.events if e.round == 2 and e.kind == "fund_took_plant"]
    assert len(moments) == 1
    assert moments[0].text == "The Trust takes plant 13 free (FND-11)."


def test_oq_r09_the_trusts_free_39_starts_the_german_phase_out() -> None:
    """OQ-R09, RCH-42: the Trust takes 39 (the highest actual plant): uranium refills stop."""
    state = auction_position(actual=[20, 25, 31, 39], future=[40, 42, 44, 46], deck=[33, 34])
    state = pg.apply(state, pg.PassAuction(player=0))
    assert state.actor(FUND).plants == ("39",)
    assert state.modules["germany_recharged"].started


# --- EC-R12: the plant limit ------------------------------------------------------------------


def test_ec_r12_a_fourth_plant_makes_the_buyer_scrap_an_old_one() -> None:
    """EC-R12 (RCH-37, RCH-38): A holds 3 plants, buys a 4th; only an old one may go."""
    state = auction_position(actual=[6, 8, 9, 11], future=[13, 15, 18, 20], deck=[25, 30])
    state = give(state, 0, plants=[3, 4, 7], money=60)
    state = play(state, pg.ChoosePlant(player=0, plant=11, bid=11), pg.PassBid(player=1))
    assert state.discarding == 0
    options = {a.plant for a in pg.legal_actions(state) if isinstance(a, pg.DiscardPlant)}
    assert options == set(labels(3, 4, 7))


def test_the_prompt_names_the_trust_when_its_start_cities_are_placed() -> None:
    """RCH-84, FND-05: the terminal's menu for the Trust's houses says what the Trust is."""
    from powergrid.cli.human_view import decision_lines, menu

    state = pg.new_game(pg.GameConfig(**GERMANY), seed=1)
    seat = pg.current_player(state)
    assert seat is not None
    text = "\n".join(decision_lines(state, seat, menu(state, seat)))
    assert "The Trust (RCH-84) is a neutral third party" in text
    assert "Trust house 1 of 6: any city of the play area." in text


# --- whole games, JSON and pickle ---------------------------------------------------------------

TRUST_CONFIGS = [
    pg.GameConfig(**GERMANY),
    pg.GameConfig(**USA, options={"trust_refill_as_three"}),
    pg.GameConfig(**USA, options={"two_player_boardgamers"}),
]


@pytest.mark.parametrize("config", TRUST_CONFIGS, ids=lambda c: c.label)
@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, HeuristicBot])
def test_each_bot_plays_a_seeded_trust_game_to_its_end(config: pg.GameConfig, bot: Any) -> None:
    """RCH-84: every bot plays the setup and a whole game; the result never ranks the Trust."""
    state = pg.new_game(config, seed=5)
    bots = [bot(seed=1), bot(seed=2)]
    while pg.outcome(state) is None:
        seat = pg.current_player(state)
        assert seat is not None
        assert seat >= 0
        state = pg.apply(state, bots[seat].choose(state))
    result = pg.outcome(state)
    assert result is not None
    assert {s.seat for s in result.scores} == {0, 1}
    consistent(state)


def test_the_mcts_bot_plays_the_trusts_setup_and_a_round() -> None:
    """The search bot hands the setup decisions to its guide and plays on (RCH-84)."""
    state = pg.new_game(pg.GameConfig(**GERMANY), seed=3)
    bot = MCTSBot(seed=0, iterations=2, horizon=1)
    while state.round < 2 and pg.outcome(state) is None:
        state = pg.apply(state, bot.choose(state))
    assert len(state.actor(FUND).cities) >= 6
    consistent(state)


def test_a_trust_game_survives_json_and_pickle() -> None:
    """RCH-85 b: the Trust's name, plants and houses come back from both formats."""
    state = pg.new_game(pg.GameConfig(**GERMANY, options={"trust_refill_as_three"}), seed=6)
    bot = RandomBot(seed=6)
    for _ in range(60):
        state = pg.apply(state, bot.choose(state))
    assert pg.from_json(pg.to_json(state)) == state
    assert pickle.loads(pickle.dumps(state)) == state
    assert pg.from_json(pg.to_json(state)).actor(FUND).name == "the Trust"
