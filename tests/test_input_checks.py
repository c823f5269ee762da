"""Input checked at the door (issue 31, item 2): names, seeds, types, depth and size.

Each test first reproduced a fault of main at db67e11: a player name that is a
lone surrogate, an escape sequence or a megabyte long; a seed of 2**63 that
``to_json`` writes and ``from_json`` refused; ``parse_position`` raising
``ValueError`` on ``²``; the boardgamers importer raising ``KeyError`` and
``RecursionError``; ``GameConfig(options=5)`` raising ``TypeError``. Now a bad
config raises ``RulesConfigError`` naming the field, every bad document
``InvalidRecord`` naming the path, and no message holds a character a terminal
would act on.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest

import powergrid as pg
from powergrid.deck import Deck
from powergrid.errors import MAX_MESSAGE, printable
from powergrid.interop import boardgamers as bg
from powergrid.mechanics.seeds import SEED_BOUND, game_seed
from powergrid.outside_text import MAX_NAME, name_problem, shown
from powergrid.rules.classic import shipped_deck

DATA = Path(__file__).parent / "data" / "boardgamers"
CFG = pg.GameConfig(players=3, map="europe", components="classic")

#: Names a file or a caller may hold that no terminal should print raw.
BAD_NAMES = {
    "lone surrogate": "\ud800",
    "cut emoji": "Ada\ud83d",
    "ANSI colour": "Ada\x1b[31m",
    "escape alone": "\x1b",
    "newline": "Ada\nBob",
    "carriage return": "Ada\rBob",
    "tab": "Ada\tBob",
    "null": "A\x00",
    "C1 control": "A\x85",
    "bidi override": "A\u202eB",
    "41 characters": "x" * (MAX_NAME + 1),
    "empty": "",
}
GOOD_NAMES = ["Ada", "x" * MAX_NAME, "Zoë", "李雷", "Ünal 😀", "O'Brien", "a b"]


def _terminal_safe(text: str) -> bool:
    """Nothing a terminal acts on: every character printable, no lone surrogate."""
    return text.isprintable()


# --- player names (issue 31 item 2: names) ------------------------------------------------


@pytest.mark.parametrize("what", BAD_NAMES)
def test_a_bad_name_in_a_config_is_refused_naming_the_seat(what: str) -> None:
    """GameConfig refuses the name with RulesConfigError field ``names[2]``, shown escaped."""
    bad = BAD_NAMES[what]
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=3, names=["Ada", "Bob", bad])
    assert err.value.field == "names[2]"
    message = str(err.value)
    assert _terminal_safe(message)
    assert "seat 2" in message
    if bad and len(bad) <= MAX_NAME:
        assert repr(bad) in message  # the escaped form, never the raw one


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_printable_names_up_to_40_characters_are_kept(name: str) -> None:
    """Letters of any script, emoji, spaces and punctuation are names; so are 40 characters."""
    cfg = pg.GameConfig(players=3, names=[name, "Bob", "Cy"])
    assert cfg.names == (name, "Bob", "Cy")
    assert pg.from_json(pg.to_json(cfg)) == cfg


def test_a_name_of_another_type_is_refused_naming_the_seat() -> None:
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=3, names=["Ada", 7, "Cy"])
    assert err.value.field == "names[1]"


def _record_doc(names: list[Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(pg.to_json(pg.GameRecord(config=CFG, seed=3)))
    if names is not None:
        doc["config"]["names"] = names
    return doc


@pytest.mark.parametrize("what", BAD_NAMES)
def test_a_bad_name_in_a_record_is_refused_naming_the_path(what: str) -> None:
    """A record's JSON (legal JSON: ``"\\ud800"`` is what a client cutting an emoji writes)."""
    text = json.dumps(_record_doc(["Ada", "Bob", BAD_NAMES[what]]))
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(text)
    assert err.value.path == "config.names[2]"
    assert _terminal_safe(str(err.value))


def test_a_bad_name_in_a_state_and_a_view_is_refused() -> None:
    """States and views hold the config too; an actor's name is checked as a name."""
    state = pg.new_game(pg.GameConfig(players=2, names=["Ada", "Bob"]), seed=1)
    doc = json.loads(pg.to_json(state))
    doc["config"]["names"][1] = "Bob\x1b]0;owned\x07"
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(doc))
    assert err.value.path == "config.names[1]"
    doc = json.loads(pg.to_json(state))
    assert doc["actors"], "a 2-player Deluxe game plays against the fund (FND-01)"
    doc["actors"][0]["name"] = "the fund\n"
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(doc))
    assert err.value.path == "actors[0].name"
    view = json.loads(pg.to_json(pg.view(state, 0)))
    view["public"]["config"]["names"][0] = "\ud800"
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(view))
    assert err.value.path == "public.config.names[0]"


def test_every_other_text_of_a_document_is_printable() -> None:
    """An action's notation, a module version, an event's sentence: no control characters."""
    state = pg.new_game(CFG, seed=2)
    doc = json.loads(
        pg.to_json(pg.GameRecord(config=CFG, seed=2, actions=pg.legal_actions(state)[:1]))
    )
    doc["actions"][0] = "0:build x\x1b[2J"
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(doc))
    assert err.value.path == "actions[0]"
    doc = _record_doc()
    doc["versions"]["powergrid"] = "1\n2"
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(doc))
    assert err.value.path == "versions.powergrid"
    sdoc = json.loads(pg.to_json(state))
    sdoc["events"][0]["text"] = "\x1b[2J"
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(sdoc))
    assert err.value.path == "events[0].text"
    assert _terminal_safe(str(err.value))


def test_a_key_a_file_chose_is_escaped_in_the_path() -> None:
    """An unknown field named with an escape sequence: the path shows it escaped."""
    doc = _record_doc()
    doc["config"]["\x1b[31m"] = 1
    with pytest.raises(pg.InvalidRecord) as err:
        pg.from_json(json.dumps(doc))
    assert err.value.path == "config.\\x1b[31m"
    assert _terminal_safe(str(err.value))


def test_a_deck_s_name_and_source_are_checked_text() -> None:
    """A deck file's name and source note are printed: they are checked like names."""
    doc = json.loads(pg.to_json(shipped_deck("classic")))
    for key, value in (("name", "mine\x1b[5m"), ("name", "d" * 41), ("source", "a\rb")):
        bad = {**doc, key: value}
        with pytest.raises(pg.InvalidRecord) as err:
            pg.from_json(json.dumps(bad))
        assert err.value.path == key
        assert _terminal_safe(str(err.value))
    deck = shipped_deck("classic")
    with pytest.raises(pg.RulesConfigError) as cerr:
        Deck(name="\ud800", cards=deck.cards, step3=deck.step3)
    assert cerr.value.field == "name"


def test_huge_names_are_refused_at_once_and_not_repeated() -> None:
    """Six 1 MB names, then one 100 MB name, in a record: refused quickly, the message short."""
    cfg6 = pg.GameConfig(players=6, map="europe")
    doc = json.loads(pg.to_json(pg.GameRecord(config=cfg6, seed=1)))
    for names in (["x" * 10**6] * 6, ["y" * 10**8, "b", "c", "d", "e", "f"]):
        doc["config"]["names"] = names
        text = json.dumps(doc)
        start = time.perf_counter()
        with pytest.raises(pg.InvalidRecord) as err:
            pg.from_json(text)
        assert time.perf_counter() - start < 5  # the JSON parse is the cost: about 0.3 s
        assert err.value.path == "config.names[0]"
        assert len(str(err.value)) < 200
        assert "too long" in str(err.value)
        del text
    with pytest.raises(pg.RulesConfigError) as cerr:
        pg.GameConfig(players=6, names=["z" * 10**6] * 6)
    assert len(str(cerr.value)) < 200


# --- seeds (issue 31 item 2: a seed is any integer) ---------------------------------------


@pytest.mark.parametrize("seed", [2**63, -(2**63) - 1, 10**30, 2**64 + 1, -(10**100)])
def test_a_large_seed_is_stored_whole_and_reads_back(seed: int) -> None:
    """|seed| >= 2**63 once wrote a state that from_json refused; it is kept whole now."""
    state = pg.new_game(CFG, seed=seed)
    assert state.secret.rng.seed == seed
    assert pg.from_json(pg.to_json(state)) == state
    record = pg.GameRecord(config=CFG, seed=seed, actions=pg.legal_actions(state)[:1])
    again = pg.from_json(pg.to_json(record))
    assert again == record
    assert again.seed == seed
    assert pg.replay(again) == pg.replay(record)
    hidden = pg.parse_position(pg.position_text(state, hidden=True))
    assert hidden.secret == state.secret


def test_a_seed_beyond_2_to_the_2048_is_reduced_and_reads_back() -> None:
    """Python turns at most some thousands of digits into text: such a seed is reduced first."""
    seed = 10**5000 + 12345
    state = pg.new_game(CFG, seed=seed)
    assert abs(state.secret.rng.seed) < SEED_BOUND
    assert state == pg.new_game(CFG, seed=game_seed(seed))
    assert pg.from_json(pg.to_json(state)) == state
    record = pg.GameRecord(config=CFG, seed=seed)
    assert record.seed == game_seed(seed)
    assert pg.from_json(pg.to_json(record)) == record
    assert pg.replay(record) == state
    assert game_seed(-seed) == -game_seed(seed)
    assert game_seed(game_seed(seed)) == game_seed(seed)


def test_small_seeds_play_the_games_they_always_played() -> None:
    """The seed is unchanged below 2**2048, so every recorded game replays as before."""
    for seed in (0, 1, -1, 42, 2**63 - 1, 2**2048 - 1):
        assert game_seed(seed) == seed


@pytest.mark.parametrize("seed", [True, 1.5, "7", None, [1]])
def test_a_seed_that_is_not_an_int_is_a_config_error(seed: Any) -> None:
    """The seed names the game with the config: RulesConfigError, field ``seed``."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.new_game(CFG, seed=seed)
    assert err.value.field == "seed"
    with pytest.raises(pg.RulesConfigError):
        pg.GameRecord(config=CFG, seed=seed)


def test_a_record_s_seed_of_the_wrong_type_is_invalid() -> None:
    for seed in (True, 1.5, "7", None):
        doc = _record_doc()
        doc["seed"] = seed
        with pytest.raises(pg.InvalidRecord) as err:
            pg.from_json(json.dumps(doc))
        assert err.value.path == "seed"


# --- position texts (issue 31 item 2: ² raised ValueError) --------------------------------


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("game=classic/europe/\u00b2", "game"),
        ("game=classic/europe/\u0663", "game"),
        ("game=classic/europe/\uff13", "game"),
        ("game=classic/europe/-3", "game"),
        ("game=classic/europe/" + "9" * 5000, "game"),
        ("game=classic/europe/3 names=a,b%1B[31m,c", "names[1]"),
        ("game=classic/europe/3 names=a,b%0Ac,c", "names[1]"),
    ],
)
def test_a_position_text_with_odd_digits_or_names_is_invalid(text: str, path: str) -> None:
    """Only ASCII digits are numbers; names are printable; the error is InvalidRecord."""
    with pytest.raises(pg.InvalidRecord) as err:
        pg.parse_position(text)
    if path:
        assert err.value.path == path
    assert _terminal_safe(str(err.value))


def test_percent_escapes_of_no_utf_8_read_as_replacement_characters() -> None:
    """``%ED%A0%80`` would be a surrogate in UTF-8: it reads as U+FFFD, a printable name."""
    state = pg.parse_position("game=classic/europe/3 names=a,%ED%A0%80,c")
    assert state.config.names == ("a", "\ufffd" * 3, "c")


def test_odd_digits_in_any_number_of_a_text_are_refused() -> None:
    """round, seat money, the hidden seed, an actor's houses: each ASCII digits only."""
    state = pg.new_game(pg.GameConfig(players=2), seed=3)
    good = pg.position_text(state, hidden=True)
    for old, new, path in (
        ("round=1", "round=\u0661", "round"),
        ("round=1", "round=\u00b9", "round"),
        ("step=1", "step=\U0001d7d9", "step"),
        ("seat0=50", "seat0=5\uff10", "seat0"),
        ("seat0=", "seat\u0660=", "seat\u0660"),
        ("/16", "/1\uff16", "actor-1"),
    ):
        assert old in good, old
        with pytest.raises(pg.InvalidRecord) as err:
            pg.parse_position(good.replace(old, new, 1))
        assert err.value.path == path, (old, new)


# --- boardgamers.space exports (issue 31 item 2: KeyError, RecursionError) ----------------


def _usa() -> dict[str, Any]:
    return json.loads((DATA / "USAOriginal.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_an_export_missing_a_bid_s_data_names_it() -> None:
    """log[2] is the opening Bid of log[1]'s ChoosePowerPlant; without data it was KeyError."""
    data = _usa()
    assert data["log"][2]["move"]["name"] == "Bid"
    del data["log"][2]["move"]["data"]
    with pytest.raises(pg.InvalidRecord) as err:
        bg.import_game(data)
    assert err.value.path == "log[2].move.data"


@pytest.mark.parametrize("key", ["move", "name", "data", "player", "type"])
def test_an_export_missing_any_part_of_any_early_entry_raises_invalid_record(key: str) -> None:
    """Each of the first 40 entries without one of its parts: InvalidRecord or a shorter game."""
    usa = _usa()
    for i in range(40):
        data = copy.deepcopy(usa)
        entry = data["log"][i]
        target = entry["move"] if key in ("name", "data") and "move" in entry else entry
        target.pop(key, None)
        paths = []
        try:
            bg.import_game(data)
        except pg.InvalidRecord as err:
            paths.append(err.path)
        assert all(p.startswith("log[") for p in paths), (i, paths)


def test_an_export_s_city_without_a_region_names_it() -> None:
    data = _usa()
    del data["map"]["cities"][3]["region"]
    with pytest.raises(pg.InvalidRecord) as err:
        bg.regions(data)
    assert err.value.path == "map.cities[3].region"


def test_deeply_nested_json_is_invalid_at_every_door(tmp_path: Path) -> None:
    """``[`` * 100000 raised RecursionError from the importer; from_json and read_export refuse."""
    deep = "[" * 100_000 + "]" * 100_000
    path = tmp_path / "deep.json"
    path.write_text(deep, encoding="utf-8")
    with pytest.raises(pg.InvalidRecord, match="nested too deeply"):
        bg.read_export(path)
    with pytest.raises(pg.InvalidRecord):
        pg.from_json(deep)
    inner = '{"format": 4, "type": "GameConfig", "names": ' + deep + "}"
    with pytest.raises(pg.InvalidRecord):
        pg.from_json(inner)
    path.write_bytes(b'{"options": "\xff"}')
    with pytest.raises(pg.InvalidRecord):
        bg.read_export(path)


def test_a_deep_tree_inside_an_export_entry_is_not_spelled_out() -> None:
    """A parsed export may hold trees too deep for str(): the importer never prints them."""
    tree: Any = "x"
    for _ in range(100_000):
        tree = [tree]
    data = _usa()
    data["log"][0]["event"] = tree
    data["log"][5]["move"]["name"] = tree
    with pytest.raises(pg.InvalidRecord) as err:
        bg.import_game(data)
    assert err.value.path == "log[5].move"
    assert "a list of 1 item" in str(err.value)


def test_an_export_with_a_bad_player_name_names_the_player() -> None:
    data = _usa()
    data["players"][1]["name"] = "tiny\x1b[0m"
    with pytest.raises(pg.InvalidRecord) as err:
        bg.game_config(data)
    assert err.value.path == "players[1].name"
    assert _terminal_safe(str(err.value))


# --- GameConfig types (issue 31 item 2: TypeError from converters) -----------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"options": 5}, "options"),
        ({"options": [[1]]}, "options"),
        ({"options": {"map_rules": True}}, "options"),
        ({"modules": 5}, "modules"),
        ({"modules": [5]}, "modules[0]"),
        ({"regions": 5}, "regions"),
        ({"regions": ["central", 5]}, "regions[1]"),
        ({"cities": 5}, "cities"),
        ({"names": 5}, "names"),
        ({"names": b"ab"}, "names"),
        ({"players": "4"}, "players"),
        ({"players": 4.0}, "players"),
        ({"players": True}, "players"),
        ({"map": 3}, "map"),
        ({"map": ["europe"]}, "map"),
        ({"map": "e" * 10**6}, "map"),
        ({"components": None}, "components"),
        ({"deck": 5}, "deck"),
        ({"deck": {"variant": "M", "decks": 5}}, "deck.decks"),
        ({"deck": {"variant": "M", "decks": [[1], "classic"]}}, "deck.decks[0]"),
        ({"deck": {"variant": ["M"]}}, "deck.variant"),
    ],
)
def test_a_config_value_of_the_wrong_type_is_a_config_error(
    kwargs: dict[str, Any], field: str
) -> None:
    """SET-01: a wrong type raises RulesConfigError naming the field, never TypeError."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(**kwargs)
    assert err.value.field == field
    assert len(str(err.value)) < 400


def test_a_deck_of_the_wrong_shape_is_a_config_error() -> None:
    deck = shipped_deck("classic")
    for kwargs, field in (
        ({"cards": 5}, "cards"),
        ({"cards": [*deck.cards[:3], "13"]}, "cards[3]"),
        ({"order": [["3", 4]]}, "order[0][1]"),
        ({"order": 7}, "order"),
        ({"step3": 3}, "step3"),
        ({"paired": "yes"}, "paired"),
    ):
        given: dict[str, Any] = {"name": "mine", "cards": deck.cards, "step3": "classic", **kwargs}
        with pytest.raises(pg.RulesConfigError) as err:
            Deck(**given)
        assert err.value.field == field


# --- what a message may hold -------------------------------------------------------------


def test_every_input_error_escapes_its_message_and_path() -> None:
    """IllegalAction, RulesConfigError and InvalidRecord escape control characters."""
    raw = "a\x1b[31m\nb\ud800"
    for err in (
        pg.InvalidRecord(raw, path=raw),
        pg.RulesConfigError(raw, field=raw),
        pg.IllegalAction(raw, reason=pg.Reason.BAD_COUNT),
    ):
        assert _terminal_safe(str(err))
        assert "\\x1b[31m\\nb\\ud800" in str(err)
    assert printable(printable(raw)) == printable(raw)
    long = printable("x" * (3 * MAX_MESSAGE))
    assert len(long) == MAX_MESSAGE
    assert printable(long) == long


def test_shown_never_spells_out_a_big_value() -> None:
    assert shown("a\x1bb") == repr("a\x1bb")
    assert shown("x" * 10**6).endswith("(1000000 characters)")
    assert shown(10**5000) == f"a whole number of {(10**5000).bit_length()} bits"
    assert shown([[]] * 10**6) == "a list of 1000000 items"
    assert shown({"a": 1}) == "an object of 1 field"
    assert name_problem("ok") is None


# --- the JSON Schemas say the same ------------------------------------------------------


def test_the_schemas_refuse_bad_names_and_take_large_seeds() -> None:
    """record/state/deck schemas: names 1 to 40 characters without control characters; any seed."""
    jsonschema = pytest.importorskip("jsonschema")
    from powergrid.formats.schemas import schema

    record = jsonschema.Draft202012Validator(schema("record"))
    state_schema = jsonschema.Draft202012Validator(schema("state"))
    for bad in ("Ada\x1b[31m", "a\nb", "x" * 41, ""):
        doc = _record_doc(["Ada", "Bob", bad])
        assert not record.is_valid(doc), bad
        with pytest.raises(pg.InvalidRecord):
            pg.from_json(json.dumps(doc))
    assert record.is_valid(_record_doc(["Ada", "Zoë", "x" * 40]))
    big = pg.new_game(CFG, seed=2**64 + 3)
    assert state_schema.is_valid(json.loads(pg.to_json(big)))
    deck = json.loads(pg.to_json(shipped_deck("classic")))
    assert not jsonschema.Draft202012Validator(schema("deck")).is_valid({**deck, "name": "a\x07"})
