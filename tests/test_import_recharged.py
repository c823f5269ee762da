"""Conformance: the recorded Recharged game of boardgamers.space replays to its final state.

The fixture (``tests/data/boardgamers/GermanyRecharged.json``, MIT; RCH-GAME in
RULES.md 13.0) is that engine's dump of a finished 4-player game on the Recharged
Germany board, November 2021. The expected numbers are the export's own (its final
``players``, markets and log, cited ``#n`` = log index), never our engine's. Rules
named: RCH-20 (starting market), RCH-30..35 (token), RCH-34 / OQ-R02 (no "nobody
buys" removal), AUC-18 / RCH-38 (tokens of a scrapped plant), RCH-80 / RCH-81 (end,
winner), RCH-84 / OQ-R03 (2 players), SET-04 / SET-05 (area, order).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.cli.main import main
from powergrid.interop import boardgamers as bg
from powergrid.interop.boardgamers.final import FINAL_KNOWN, difference_lines
from powergrid.interop.boardgamers.setup import check_setup, initial_market

DATA = Path(__file__).parent / "data" / "boardgamers"
FILE = DATA / "GermanyRecharged.json"
KINDS = ("coal", "oil", "garbage", "uranium")


def recharged() -> dict[str, Any]:
    return json.loads(FILE.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def game() -> tuple[dict[str, Any], bg.ImportedGame, pg.GameState]:
    data = recharged()
    imported = bg.import_game(data)
    return data, imported, pg.replay(imported.record)


def test_rch_20_the_starting_market_is_read_from_the_log() -> None:
    """RCH-20, EC-R01: the random starting market of plug plants is 3 6 7 10 | 11 12 13 14,
    the plants the log names before any draw (10 chosen at #1, 4 drawn at #12 is the
    set-aside plug plant)."""
    assert initial_market(recharged()) == ("3", "6", "7", "10", "11", "12", "13", "14")


def test_the_record_opens_with_the_exports_setup(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """SET-04, RCH-20, SET-05: area brown/green/red/yellow (4 regions for 4 players), the
    market above, round 1 in seat order; the first draw is plug plant 4 (#12)."""
    _, imported, _ = game
    reveals = [a for a in imported.record.actions if isinstance(a, pg.Reveal)]
    assert [str(r) for r in reveals[:4]] == [
        "chance:area brown,green,red,yellow",
        "chance:market 3,6,7,10,11,12,13,14",
        "chance:order 0,1,2,3",
        "chance:draw 4",
    ]
    config = imported.record.config
    assert (config.components, config.map, config.players) == ("recharged", "germany_recharged", 4)
    assert imported.edition is bg.EDITIONS["recharged"]


def test_every_action_names_the_log_entries_it_came_from(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """Spirit's choice of 10 and opening bid are #1-#2, one ChoosePlant; the draw of 4 is
    #12; MeglaGnome's first Power is #52-#53; the setup's outcomes come from no entry."""
    _, imported, _ = game
    pairs = list(zip(imported.record.actions, imported.entries, strict=True))
    assert [e for a, e in pairs[:3]] == [(), (), ()]
    assert str(pairs[3][0]) == "0:choose 10 10"
    assert pairs[3][1] == (1, 2)
    assert (str(pairs[4][0]), pairs[4][1]) == ("1:fold", (3,))
    draw = next(e for a, e in pairs if isinstance(a, pg.Reveal) and a.event == "draw")
    assert draw == (12,)
    powers = [(a, e) for a, e in pairs if isinstance(a, pg.Power)]
    assert powers[0][1] == (52, 53)
    assert powers[0][0].player == 1


def test_the_replay_covers_the_whole_log(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """All 551 log entries are played; nobody dropped out."""
    data, imported, _ = game
    assert imported.moves == len(data["log"]) == 551
    assert imported.stopped is None
    assert imported.names == ("Spirit", "MeglaGnome", "samkook", "Doft")


def test_rch_80_every_player_ends_as_in_the_export(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """RCH-80: the game ends when MeglaGnome and Doft reach 17 cities (4 players).

    Spirit 13 Elektro, 7 cities, plants 10 22 30, garbage 6; MeglaGnome 10, 17, 26 31 38,
    coal 3 oil 2 garbage 3; samkook 14, 15, 29 32 50, oil 4; Doft 22, 17, 20 34 36, coal 6
    uranium 1.
    """
    data, _, state = game
    expected = {
        "Spirit": (13, 7, {"10", "22", "30"}, (0, 0, 6, 0)),
        "MeglaGnome": (10, 17, {"26", "31", "38"}, (3, 2, 3, 0)),
        "samkook": (14, 15, {"29", "32", "50"}, (0, 4, 0, 0)),
        "Doft": (22, 17, {"20", "34", "36"}, (6, 0, 0, 1)),
    }
    names = bg.city_ids(data, "germany_recharged")
    for seat, player in enumerate(data["players"]):
        p = state.players[seat]
        assert (p.money, p.city_count, set(p.plants), p.resources) == expected[player["name"]]
        assert p.money == player["money"]
        assert {names[c["name"]] for c in player["cities"]} == set(p.cities)
        assert p.resources == tuple(player[f"{k}Left"] for k in KINDS)


def test_the_markets_step_round_and_order_end_as_in_the_export(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """Resource market coal 9 oil 14 garbage 11 uranium 6; supply coal 6 oil 4 uranium 5
    (garbage: see AUC-18 below); Step 3, round 9, order samkook... as [1, 3, 2, 0]; the
    deck is empty and 15 21 23 25 were removed unseen (RCH-20, EC-R13)."""
    data, _, state = game
    assert state.resources.market == (9, 14, 11, 6)
    assert state.resources.market == tuple(data[f"{k}Market"] for k in KINDS)
    supply = state.resources.supply
    assert (supply[0], supply[1], supply[3]) == (6, 4, 5)
    assert state.step == data["step"] == 3
    assert state.round == data["round"] == 9
    assert state.order == tuple(data["playerOrder"]) == (1, 3, 2, 0)
    assert state.secret.deck == ()
    assert state.secret.removed_unseen == ("15", "21", "23", "25")


def test_rch_81_money_decides_between_the_two_players_with_17_powered(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """RCH-81: MeglaGnome and Doft both power 17; Doft has 22 Elektro, MeglaGnome 10: Doft wins."""
    _, _, state = game
    result = pg.outcome(state)
    assert result is not None
    assert result.winners == (3,)
    scores = {s.seat: (s.powered, s.money) for s in result.scores}
    assert scores[3] == (17, 22)
    assert scores[1] == (17, 10)


def test_oq_r02_the_second_removal_when_everyone_passed_is_a_known_difference(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """RCH-33, RCH-34, OQ-R02, EC-R03: in round 9 every player passed with the token on 37
    and the deck empty. Our rules remove 37 only (#511 logs it as "Everyone passed"); their
    engine also removed 39 (#512). Our final market keeps 39: 39 40 42 44 46, theirs
    40 42 44 46. It is the only difference of the events."""
    data, imported, state = game
    (event,) = bg.differences(data, imported)
    assert (event.near, event.theirs, event.ours) == (512, (("removed", "39"),), ())
    assert event.known == bg.KNOWN["nobody_buys"]
    assert state.market.actual == ("39", "40", "42", "44", "46")
    market = next(d for d in bg.final_differences(data, imported) if d.field == "plant market")
    assert (market.theirs, market.ours) == (("40", "42", "44", "46"), state.market.actual)
    assert (market.near, market.known) == ((512,), bg.KNOWN["nobody_buys"])


def test_auc_18_the_garbage_on_scrapped_plant_6_goes_to_the_supply(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """AUC-18, RCH-38: at #246 Doft scraps plant 6 for 34; its 1 garbage (bought at #216,
    never burnt) fits none of 16 (oil), 18 (wind), 34 (uranium), so it goes to the
    general supply. Their engine lost it: their supply ends with 3 garbage, ours with 4
    (24 garbage in all: 11 market + 9 on plants + 4)."""
    data, imported, state = game
    discard = next(
        a for a, e in zip(imported.record.actions, imported.entries, strict=True) if e == (246,)
    )
    assert str(discard) == "3:discard 6 drop garbage=1"
    assert data["garbageSupply"] == 3
    assert state.resources.supply[2] == 4
    garbage = state.resources.market[2] + state.resources.supply[2]
    assert garbage + sum(p.resources[2] for p in state.players) == 24
    supply = next(d for d in bg.final_differences(data, imported) if d.field == "supply.garbage")
    assert (supply.theirs, supply.ours, supply.near) == (3, 4, (246,))
    assert supply.known == FINAL_KNOWN["dropped_tokens"]


def test_the_final_state_differs_only_where_our_rules_do(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """Every other field of the export's final state (players, resource market, the rest
    of the supply, Step, round, order, winner) is ours; both differences are known."""
    data, imported, _ = game
    found = bg.final_differences(data, imported)
    assert [d.field for d in found] == ["plant market", "supply.garbage"]
    assert all(d.known for d in found)


def test_a_final_state_our_replay_does_not_reach_is_unexplained() -> None:
    """A changed final field is reported, and not as a known difference."""
    data = recharged()
    imported = bg.import_game(data)
    data["players"][3]["money"] = 23
    found = bg.final_differences(data, imported)
    money = next(d for d in found if d.field == "players[3].money")
    assert (money.theirs, money.ours, money.known) == (23, 22, None)
    assert any(d.field == "winners" for d in found) is False  # 23 still wins for Doft


def test_rch_33_the_removal_names_the_recharged_rule(
    game: tuple[dict[str, Any], bg.ImportedGame, pg.GameState],
) -> None:
    """RCH-33: the unsold token plant 7 removed at the end of round 4's phase 2 (#203) is
    logged under RCH-33, not Deluxe's AUC-33; the token under RCH-30."""
    _, _, state = game
    texts = [e.text for e in state.events.as_tuple() if e.kind == "plant_removed"]
    unsold = next(t for t in texts if "Plant 7 " in t)
    assert "RCH-33" in unsold
    assert not any("AUC-33" in t for t in texts)
    placed = [e.text for e in state.events.as_tuple() if e.kind == "discount_placed"]
    assert placed
    assert all("RCH-30" in t for t in placed)


def test_the_command_line_numbers_the_differences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``import boardgamers`` writes the record and lists the 3 differences, numbered,
    each with its log entry and rule."""
    out = tmp_path / "recharged.json"
    assert main(["import", "boardgamers", str(FILE), "--out", str(out)]) == 0
    assert pg.from_json(out.read_text(encoding="utf-8")) == bg.import_game(recharged()).record
    printed = capsys.readouterr().out.splitlines()
    assert "4 players (Spirit, MeglaGnome, samkook, Doft) on germany_recharged" in printed[0]
    assert "Doft won" in printed[0]
    assert printed[1] == "3 differences from the export (docs: Conformance):"
    assert printed[2].startswith("  1. near log[512]: their log has plant 39 removed")
    assert "RCH-34" in printed[2]
    assert printed[3].startswith("  2. final plant market: theirs 40 42 44 46, ours 39 40")
    assert printed[4].startswith("  3. final supply.garbage: theirs 3, ours 4 (log[246])")
    assert "AUC-18" in printed[4]
    assert difference_lines(recharged(), bg.import_game(recharged()))[2] in printed[4]


def test_the_replay_header_names_the_area_chance_picked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SET-04 with explicit chance: the header names the record's area, not a placeholder;
    a record cut before the area says that chance picks it."""
    record = bg.import_game(recharged()).record
    whole, cut = tmp_path / "whole.json", tmp_path / "cut.json"
    whole.write_text(pg.to_json(record), encoding="utf-8")
    cut.write_text(pg.to_json(attrs.evolve(record, actions=())), encoding="utf-8")
    assert main(["replay", str(whole), "--quiet"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "(brown, green, red, yellow)" in first
    assert main(["replay", str(cut), "--quiet"]) == 0
    assert "(play area chosen by chance)" in capsys.readouterr().out.splitlines()[0]


def test_rch_84_a_two_player_recharged_export_is_refused() -> None:
    """RCH-84, OQ-R03: boardgamers plays 2-player Recharged without the Trust (10 / 21 /
    4); ours is the Trust game, so InvalidRecord names ``players``."""
    data = recharged()
    data["players"] = data["players"][:2]
    with pytest.raises(pg.InvalidRecord) as err:
        bg.game_config(data)
    assert err.value.path == "players"
    assert "Trust" in str(err.value)


@pytest.mark.parametrize("players", [5, 6])
def test_rch_20_five_or_six_players_need_the_new_setup(players: int) -> None:
    """RCH-20: with 5-6 players no plant is removed; that engine's old setup left the 4
    undealt plug plants out, so only ``useNewRechargedSetup: true`` imports."""
    data = recharged()
    edition = bg.EDITIONS["recharged"]
    with pytest.raises(pg.InvalidRecord) as err:
        check_setup(data, edition, players)
    assert err.value.path == "options.useNewRechargedSetup"
    data["options"]["useNewRechargedSetup"] = True
    check_setup(data, edition, players)  # accepted


def test_an_export_whose_log_hides_the_starting_market_is_refused() -> None:
    """RCH-20: without the moves naming 3 6 7 10 ... the market cannot be read back."""
    data = copy.deepcopy(recharged())
    data["log"] = data["log"][:1]
    data["actualMarket"] = data["futureMarket"] = []
    for p in data["players"]:
        p["powerPlants"] = []
    with pytest.raises(pg.InvalidRecord) as err:
        bg.import_game(data)
    assert err.value.path == "log"
    assert "not 8 plug plants" in str(err.value)


def test_a_recharged_export_on_a_board_we_lack_is_refused() -> None:
    """RCH-55: only the Recharged Germany and USA boards exist."""
    data = recharged()
    data["options"]["map"] = "Europe"
    with pytest.raises(pg.InvalidRecord) as err:
        bg.game_config(data)
    assert err.value.path == "options.map"


RECHARGED = recharged()
JUNK: st.SearchStrategy[Any] = st.sampled_from(
    [None, -1, 99, "x", {}, [], 3.5, True, {"resource": "gas"}, {"number": "a"}, [{"number": 5}]]
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    where=st.integers(0, 550),
    part=st.sampled_from(("data", "entry", "actualMarket", "players")),
    junk=JUNK,
)
def test_a_damaged_recharged_export_raises_invalid_record_only(
    where: int, part: str, junk: Any
) -> None:
    """Whatever one log entry or final field holds, the import and both comparisons
    succeed or raise InvalidRecord."""
    data = copy.deepcopy(RECHARGED)
    entry = data["log"][where]
    if part == "entry":
        data["log"][where] = junk
    elif part == "data" and entry["type"] == "move":
        entry["move"]["data"] = junk
    elif part == "actualMarket":
        data["actualMarket"] = junk
    elif part == "players":
        data["players"][where % 4]["citiesPowered"] = junk
    try:
        imported = bg.import_game(data)
        bg.final_differences(data, imported)
        difference_lines(data, imported)
    except pg.InvalidRecord:
        pass
