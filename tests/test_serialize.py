"""JSON documents, game records, replay and action notation (powergrid.formats.serialize et al.).

Round trips run over seeded random games of every built-in configuration
(:func:`powergrid.testing.all_configs` plus the classic ``seed_thresholds``
option, SET-12); a few states of each game are sampled to keep the suite fast.
The error tests pin the documented :class:`~powergrid.InvalidRecord` paths; the
fuzz tests check that hostile input only ever raises ``InvalidRecord``. The
JSON Schemas shipped under ``powergrid/data/schema`` are checked against real
output when the optional ``jsonschema`` package is installed.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib.resources
import json
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.actions import ACTION_TYPES, Action
from powergrid.enums import Resource
from powergrid.errors import IllegalAction, InvalidRecord
from powergrid.formats import schemas
from powergrid.formats.notation import VERBS, parse_action
from powergrid.formats.records import GameRecord, check_versions, module_versions, replay, states
from powergrid.formats.serialize import from_data, from_json, to_data, to_json
from powergrid.state import GameState
from powergrid.testing import all_configs, playout
from powergrid.version import FORMAT

SEED = 11
CONFIGS = [
    *all_configs(),
    pg.GameConfig(players=4, components="classic", options="seed_thresholds"),
]
SAMPLES = 6  # states sampled per game for the (slower) state and view round trips


def _cid(cfg: pg.GameConfig) -> str:
    extra = "-" + "+".join(sorted(cfg.options)) if cfg.options else ""
    return f"{cfg.players}p-{cfg.map}-{cfg.components}{extra}"


@attrs.frozen
class Game:
    """One seeded random game: every decision point, the actions played, the end."""

    config: pg.GameConfig
    seed: int
    states: tuple[GameState, ...]
    actions: tuple[Action, ...]
    final: GameState

    def sample(self, k: int = SAMPLES) -> list[GameState]:
        """``k`` states spread over the game, always with the first and the last."""
        picks = {round(i * (len(self.states) - 1) / (k - 1)) for i in range(k)}
        return [self.states[i] for i in sorted(picks)] + [self.final]

    def record(self, upto: int | None = None) -> GameRecord:
        return GameRecord(config=self.config, seed=self.seed, actions=self.actions[:upto])


@functools.cache
def game(cfg: pg.GameConfig, seed: int = SEED) -> Game:
    """Play (and cache) a seeded random game of ``cfg``."""
    seen: list[GameState] = []
    acts: list[Action] = []
    for state, action in playout(cfg, seed, seed):
        seen.append(state)
        acts.append(action)
    final = pg.apply(seen[-1], acts[-1])
    return Game(cfg, seed, tuple(seen), tuple(acts), final)


def round_trip(obj: object) -> Any:
    return from_json(to_json(obj))


def mutated(doc: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """A deep copy of ``doc`` with the node at ``path`` replaced by ``value``."""
    out = copy.deepcopy(doc)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


# --- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("cfg", CONFIGS, ids=_cid)
def test_states_views_and_actions_round_trip(cfg: pg.GameConfig) -> None:
    """from_json(to_json(x)) == x for sampled states, their views and every action played."""
    g = game(cfg)
    for state in g.sample():
        assert round_trip(state) == state
        assert round_trip(pg.public_view(state)) == pg.public_view(state)
        for seat in range(cfg.players):
            assert round_trip(pg.view(state, seat)) == pg.view(state, seat)
    for action in set(g.actions):
        assert round_trip(action) == action


@pytest.mark.parametrize("cfg", CONFIGS, ids=_cid)
def test_config_and_record_round_trip(cfg: pg.GameConfig) -> None:
    """Configs and whole-game records survive to_json/from_json unchanged."""
    assert round_trip(cfg) == cfg
    record = game(cfg).record()
    back = round_trip(record)
    assert back == record
    assert dict(back.versions) == dict(module_versions(cfg))


def test_config_with_every_field_round_trips() -> None:
    """A config with explicit regions, names and an option round-trips (SET-04, SET-12)."""
    cfg = pg.GameConfig(
        players=3,
        map="europe",
        components="classic",
        regions=pg.new_game(pg.GameConfig(players=3, map="europe"), seed=2).regions,
        names=("Ann", "Bob", "Cy"),
        options=frozenset({"seed_thresholds"}),
    )
    assert round_trip(cfg) == cfg
    assert round_trip(pg.new_game(cfg, seed=5)) == pg.new_game(cfg, seed=5)


def test_documents_have_the_envelope() -> None:
    """Every document is an object with "format": FORMAT and its top-level "type" first."""
    state = pg.new_game(seed=3)
    objs: list[object] = [
        state.config,
        state,
        pg.legal_actions(state)[0],
        GameRecord(config=state.config, seed=3),
        pg.public_view(state),
        pg.view(state, 0),
    ]
    for obj in objs:
        data = json.loads(to_json(obj))
        assert list(data)[:2] == ["format", "type"]
        assert data["format"] == FORMAT
        assert data["type"] == type(obj).__name__
        assert to_data(obj) == data
        assert from_data(data) == obj


def test_to_json_rejects_foreign_objects() -> None:
    """to_json serialises only the library's document types."""
    with pytest.raises(TypeError):
        to_json({"a": 1})
    with pytest.raises(TypeError):
        to_json(pg.new_game().players[0])


# --- records and replay ------------------------------------------------------------------


@pytest.mark.parametrize("cfg", CONFIGS, ids=_cid)
def test_finished_record_replays_to_the_final_state(cfg: pg.GameConfig) -> None:
    """replay() of a finished game's record (also after JSON) gives the equal final state."""
    g = game(cfg)
    assert g.final.phase is pg.Phase.GAME_OVER
    assert replay(g.record()) == g.final
    assert replay(round_trip(g.record())) == g.final
    assert pg.outcome(replay(g.record())) == pg.outcome(g.final)


@pytest.mark.parametrize("cfg", CONFIGS[::4], ids=_cid)
def test_cut_record_replays_to_the_state_at_that_point(cfg: pg.GameConfig) -> None:
    """A record cut after k actions replays to the live playout's state k (and upto=k agrees)."""
    g = game(cfg)
    full = g.record()
    for k in (0, 1, len(g.actions) // 3, len(g.actions) // 2, len(g.actions) - 1):
        assert replay(round_trip(g.record(k))) == g.states[k]
        assert replay(full, upto=k) == g.states[k]


def test_states_yields_every_state_of_the_game() -> None:
    """records.states yields the start and the state after each action, as played."""
    g = game(CONFIGS[0])
    assert tuple(states(g.record())) == (*g.states, g.final)


def test_replay_upto_out_of_range_raises_value_error() -> None:
    """replay(upto=...) must lie between 0 and the number of actions."""
    g = game(CONFIGS[0])
    for upto in (-1, len(g.actions) + 1):
        with pytest.raises(ValueError, match="upto"):
            replay(g.record(), upto=upto)


def test_with_action_appends() -> None:
    """GameRecord.with_action appends one action and keeps the rest."""
    g = game(CONFIGS[0])
    record = g.record(3).with_action(g.actions[3])
    assert record == g.record(4)


def test_illegal_action_in_record_names_its_index() -> None:
    """The first illegal action of a record raises IllegalAction with .index and the index."""
    g = game(CONFIGS[1])
    k = 5
    wrong_seat = (g.actions[k].player + 1) % CONFIGS[1].players
    action = g.actions[k]
    assert not isinstance(action, pg.Reveal)
    bad = attrs.evolve(action, player=wrong_seat)  # type: ignore[misc]
    record = GameRecord(config=g.config, seed=g.seed, actions=(*g.actions[:k], bad))
    with pytest.raises(IllegalAction) as info:
        replay(record)
    assert info.value.index == k
    assert f"action {k} " in str(info.value)
    assert info.value.reason is pg.Reason.NOT_YOUR_TURN
    assert info.value.action == bad


def test_record_from_other_rule_version_is_rejected() -> None:
    """A record whose rule module versions differ raises InvalidRecord at versions.<module>."""
    g = game(CONFIGS[0])
    data = json.loads(to_json(g.record(10)))
    data["versions"]["base"] = "0-other"
    record = from_json(json.dumps(data))  # decoding alone does not judge versions
    for check in (check_versions, replay):
        with pytest.raises(InvalidRecord) as info:
            check(record)
        assert info.value.path == "versions.base"


def test_record_naming_an_unused_rule_module_is_rejected() -> None:
    """A record that names a rule module this config does not play with is rejected."""
    record = game(CONFIGS[0]).record(2)
    record = attrs.evolve(record, versions={**dict(record.versions), "fund": "1"})
    with pytest.raises(InvalidRecord) as info:
        replay(record)
    assert info.value.path == "versions.fund"


def test_record_missing_a_rule_module_version_is_rejected() -> None:
    """A record that does not name the version of a rule module it plays with is rejected."""
    record = game(pg.GameConfig(players=2, map="europe")).record(2)
    versions = {k: v for k, v in record.versions if k != "europe"}
    with pytest.raises(InvalidRecord) as info:
        replay(attrs.evolve(record, versions=versions))
    assert info.value.path == "versions.europe"


def test_library_version_in_record_is_informational() -> None:
    """A different "powergrid" library version alone does not stop a replay."""
    g = game(CONFIGS[0])
    versions = {**dict(g.record().versions), "powergrid": "0.0.1"}
    assert replay(attrs.evolve(g.record(), versions=versions)) == g.final


def test_record_with_another_format_is_rejected_by_replay() -> None:
    """check_versions rejects a GameRecord object of another format (path "format")."""
    record = attrs.evolve(game(CONFIGS[0]).record(2), format=99)
    with pytest.raises(InvalidRecord) as info:
        replay(record)
    assert info.value.path == "format"


# --- documented errors and their paths ---------------------------------------------------


def _error(text: str) -> InvalidRecord:
    with pytest.raises(InvalidRecord) as info:
        from_json(text)
    return info.value


def _doc(obj: object) -> dict[str, Any]:
    data = json.loads(to_json(obj))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("text", ["", "{", "[1,", "nul", '{"format": 1,}', "\x00", b"\xff\xfe{"])
def test_malformed_json_raises_invalid_record(text: str | bytes) -> None:
    """Text that is not JSON raises InvalidRecord (at the document, path "")."""
    with pytest.raises(InvalidRecord, match="not valid JSON") as info:
        from_json(text)
    assert info.value.path == ""


@pytest.mark.parametrize("text", ["[]", "1", '"GameState"', "null", "true"])
def test_non_object_document_raises_invalid_record(text: str) -> None:
    """A document must be a JSON object."""
    assert _error(text).path == ""


def test_wrong_field_type_names_its_path() -> None:
    """players[1].money as a string is reported at exactly that path."""
    data = _doc(game(CONFIGS[0]).states[10])
    data["players"][1]["money"] = "lots"
    err = _error(json.dumps(data))
    assert err.path == "players[1].money"
    assert str(err).startswith("players[1].money: ")


@pytest.mark.parametrize(
    ("where", "value", "path"),
    [
        (("round",), 1.5, "round"),
        (("phase",), "lunch", "phase"),
        (("market", "actual"), "4 5 6", "market.actual"),
        (("players", 0, "plants", 0), True, "players[0].plants[0]"),
        (("config", "players"), 9, "config.players"),
        (("config", "map"), "mars", "config.map"),
        (("regions",), ["atlantis"], "regions"),
        (("events", 0, "kind"), 7, "events[0].kind"),
        (("secret", "rng", "seed"), None, "secret.rng.seed"),
        (("resources", "supply"), {}, "resources.supply"),
    ],
)
def test_bad_state_fields_name_their_path(
    where: tuple[str | int, ...], value: Any, path: str
) -> None:
    """A state field with a wrong type or an impossible value is reported at its path."""
    state = game(CONFIGS[0]).states[40]
    assert state.players[0].plants, "the sample state needs a plant on seat 0"
    assert _error(json.dumps(mutated(_doc(state), where, value))).path == path


def test_missing_and_unknown_fields_name_their_path() -> None:
    """A missing required field and an unknown extra field are both reported by name."""
    data = _doc(game(CONFIGS[0]).states[3])
    del data["players"][0]["money"]
    assert _error(json.dumps(data)).path == "players[0].money"
    data = _doc(game(CONFIGS[0]).states[3])
    data["market"]["colour"] = "red"
    assert _error(json.dumps(data)).path == "market.colour"
    data = _doc(pg.Bid(player=0, amount=3))
    data["colour"] = "red"
    assert _error(json.dumps(data)).path == "colour"


def test_board_with_unknown_city_names_the_city() -> None:
    """An unknown city in the board object is reported at board.<city>."""
    data = _doc(game(CONFIGS[0]).states[3])
    data["board"]["atlantis"] = [0]
    assert _error(json.dumps(data)).path == "board.atlantis"


@pytest.mark.parametrize("name", ["Dance", "GameStates", "PlayerState", "", 7, None])
def test_unknown_document_type_raises_at_type(name: object) -> None:
    """An unknown top-level document type is reported at path "type"."""
    data = _doc(pg.Bid(player=0, amount=3))
    data["type"] = name
    assert _error(json.dumps(data)).path == "type"


def test_unknown_action_type_in_a_view_names_the_list_entry() -> None:
    """An unknown action type inside a PlayerView's legal list is reported at legal[i].type."""
    state = game(CONFIGS[0]).states[0]
    data = _doc(pg.view(state, pg.current_player(state) or 0))
    assert len(data["legal"]) > 2
    data["legal"][2]["type"] = "Dance"
    assert _error(json.dumps(data)).path == "legal[2].type"
    del data["legal"][2]["type"]
    assert _error(json.dumps(data)).path == "legal[2].type"


def test_bad_action_field_names_its_path() -> None:
    """Action fields are decoded by type: a fractional bid is reported at "amount"."""
    data = _doc(pg.Bid(player=0, amount=3))
    data["amount"] = 3.5
    assert _error(json.dumps(data)).path == "amount"
    data = _doc(pg.Power(player=1, plants=(4, 7), mix={"coal": 2, "oil": 1}))
    data["mix"][1][0] = "plutonium"
    assert _error(json.dumps(data)).path == "mix[1][0]"


@pytest.mark.parametrize("fmt", [0, 6, 99, "1", "4", None, [1]])
def test_unknown_format_version_raises_at_format(fmt: object) -> None:
    """Any "format" other than 1 to 4 is reported at path "format"; so is a missing one."""
    data = _doc(pg.new_game().config)
    data["format"] = fmt
    assert _error(json.dumps(data)).path == "format"
    del data["format"]
    assert _error(json.dumps(data)).path == "format"


@pytest.mark.parametrize("fmt", [True, 1.0])
def test_format_must_be_the_integer_one(fmt: Any) -> None:
    """JSON true and 1.0 are not the format number 1 (although Python has True == 1.0 == 1)."""
    data = _doc(pg.new_game().config)
    data["format"] = fmt
    assert _error(json.dumps(data)).path == "format"
    record = attrs.evolve(game(CONFIGS[0]).record(2), format=fmt)
    with pytest.raises(InvalidRecord) as info:
        check_versions(record)
    assert info.value.path == "format"


def test_unknown_action_name_in_record_names_its_index() -> None:
    """An action string with an unknown verb ("0:dance") is reported at actions[i]."""
    data = _doc(game(CONFIGS[0]).record(6))
    data["actions"][4] = "0:dance"
    err = _error(json.dumps(data))
    assert err.path == "actions[4]"
    assert "dance" in str(err)


@pytest.mark.parametrize(
    ("key", "value", "path"),
    [
        ("seed", "7", "seed"),
        ("seed", 7.0, "seed"),
        ("actions", "0:pass", "actions"),
        ("actions", [3], "actions[0]"),
        ("versions", ["base"], "versions"),
        ("versions", {"base": 1}, "versions"),
        ("config", {"players": 1}, "config.players"),
    ],
)
def test_bad_record_fields_name_their_path(key: str, value: Any, path: str) -> None:
    """Record fields of the wrong type are reported at their path."""
    data = _doc(game(CONFIGS[0]).record(3))
    data[key] = value
    assert _error(json.dumps(data)).path == path


def test_record_missing_field_is_reported() -> None:
    """Every record field is required (the config inside it may use defaults)."""
    for key in ("versions", "config", "seed", "actions"):
        data = _doc(game(CONFIGS[0]).record(3))
        del data[key]
        assert _error(json.dumps(data)).path == key


def test_state_with_plant_in_two_places_is_rejected() -> None:
    """A decoded state must pass the invariants: a plant both owned and on sale (CON-11)."""
    state = game(CONFIGS[0]).states[40]
    data = _doc(state)
    data["players"][0]["plants"] = sorted([*data["players"][0]["plants"], state.market.actual[0]])
    err = _error(json.dumps(data))
    assert "2 places" in str(err)


def test_state_breaking_other_invariants_is_rejected() -> None:
    """Token totals (CON-10), the seat list and the order are checked on decoding."""
    base = _doc(game(CONFIGS[0]).states[40])
    data = copy.deepcopy(base)
    data["resources"]["supply"][0] += 1
    assert "tokens" in str(_error(json.dumps(data)))
    data = copy.deepcopy(base)
    data["order"] = [0, 0]
    assert "order" in str(_error(json.dumps(data)))
    data = copy.deepcopy(base)
    data["players"] = data["players"][:1]
    assert "seats" in str(_error(json.dumps(data)))


def test_state_with_unknown_owned_plant_is_rejected() -> None:
    """A player owning a plant number the deck lacks (999) raises InvalidRecord, no KeyError."""
    data = _doc(game(CONFIGS[0]).states[40])
    data["players"][0]["plants"].append(999)
    _error(json.dumps(data))


def test_state_naming_a_missing_seat_is_rejected() -> None:
    """discarding = 9 in a 2-player game is rejected (the engine raises IndexError on it)."""
    data = _doc(game(CONFIGS[0]).states[0])
    data["discarding"] = 9
    _error(json.dumps(data))


# --- JSON Schemas --------------------------------------------------------------------------


def _schema(name: str) -> dict[str, Any]:
    resource = importlib.resources.files("powergrid") / "data" / "schema" / name
    data = json.loads(resource.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_schema_files_ship_with_the_package() -> None:
    """Both schemas load as package data and share one notation pattern.

    The action file lists the base game's actions and one generic module action
    (issue 32 item 2): which modules are installed is schemas.schema()'s to say.
    """
    record, action = _schema("record.schema.json"), _schema("action.schema.json")
    assert record["$defs"]["notation"] == action["$defs"]["notation"]
    types = {ref["$ref"].rsplit("/", 1)[1] for ref in action["oneOf"]}
    assert types == {cls.__name__ for cls in ACTION_TYPES} | {"moduleAction"}


def test_schemas_accept_real_output() -> None:
    """Generated records, action documents and legal-action objects validate."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator
    record_schema, action_schema = _schema("record.schema.json"), _schema("action.schema.json")
    validator.check_schema(record_schema)
    validator.check_schema(action_schema)
    records, actions = validator(record_schema), validator(action_schema)
    for cfg in CONFIGS:
        g = game(cfg)
        records.validate(json.loads(to_json(g.record())))
        for action in set(g.actions):
            actions.validate(json.loads(to_json(action)))
        for state in g.sample(3):
            for obj in json.loads(to_json(pg.view(state, pg.current_player(state) or 0)))["legal"]:
                actions.validate(obj)


def test_schemas_reject_what_the_library_rejects() -> None:
    """A bad notation, a missing field or an unknown action type fails the schemas too.

    The schemas of powergrid.formats.schemas.schema(), which know the modules' own actions
    (issue 32 item 2): the files accept any module's.
    """
    jsonschema = pytest.importorskip("jsonschema")
    records = jsonschema.Draft202012Validator(schemas.schema("record"))
    actions = jsonschema.Draft202012Validator(schemas.schema("action"))
    good = _doc(game(CONFIGS[0]).record(5))
    assert records.is_valid(good)
    bad: list[dict[str, Any]] = [
        mutated(good, ("actions", 2), "0:dance"),
        mutated(good, ("format",), 99),
        mutated(good, ("config", "players"), 7),
        mutated(good, ("seed",), "7"),
        {k: v for k, v in good.items() if k != "versions"},
    ]
    for doc in bad:
        assert not records.is_valid(doc)
        with pytest.raises(InvalidRecord):
            replay(from_json(json.dumps(doc)))
    assert not actions.is_valid({"type": "Dance", "player": 0})
    assert not actions.is_valid({"type": "Bid", "player": 0})
    assert not actions.is_valid({"type": "Bid", "player": 0, "amount": 3.5})
    assert actions.is_valid({"type": "PlaceFundHouse", "player": 0, "city": "berlin"})
    assert not actions.is_valid({"type": "PlaceFundHouse", "player": 0, "city": 3})


def test_notation_pattern_matches_every_action_played() -> None:
    """The schema's notation pattern accepts str(a) of every action in every configuration.

    The pattern of powergrid.formats.schemas.schema(), which names the known modules' verbs
    (the files accept any word that is no base verb, issue 32 item 2).
    """
    jsonschema = pytest.importorskip("jsonschema")
    notation = jsonschema.Draft202012Validator(schemas.schema("action")["$defs"]["notation"])
    for cfg in CONFIGS:
        for action in set(game(cfg).actions):
            assert notation.is_valid(str(action)), str(action)
    for text in ("0:dance", "bid 3", "0:bid -3", "0:power", "0:discard 5 drop", "0:buy 2 gold"):
        assert not notation.is_valid(text)
        with pytest.raises(InvalidRecord):
            parse_action(text)


# --- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize("cfg", CONFIGS, ids=_cid)
def test_notation_round_trips_every_legal_action(cfg: pg.GameConfig) -> None:
    """parse_action(str(a)) == a for every legal action offered along a seeded game."""
    offered: set[Action] = set()
    for state in game(cfg).states:
        offered.update(pg.legal_actions(state))
    for action in offered:
        assert parse_action(str(action)) == action


def test_notation_without_seat_uses_the_player_to_act() -> None:
    """Without "<seat>:" the action belongs to the current player; without a state it fails."""
    state = game(CONFIGS[0]).states[0]
    seat = pg.current_player(state)
    assert parse_action("pass", state) == pg.PassAuction(player=seat or 0)
    with pytest.raises(InvalidRecord, match="names no seat"):
        parse_action("pass")
    with pytest.raises(InvalidRecord, match="game is over"):
        parse_action("pass", game(CONFIGS[0]).final)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("1:choose 13 15", pg.ChoosePlant(player=1, plant=13, bid=15)),
        ("0:pass", pg.PassAuction(player=0)),
        ("2:bid 17", pg.Bid(player=2, amount=17)),
        ("2:fold", pg.PassBid(player=2)),
        ("1:discard 5", pg.DiscardPlant(player=1, plant=5)),
        (
            "1:discard 5 drop coal=1 oil=2",
            pg.DiscardPlant(player=1, plant=5, drop={"coal": 1, "oil": 2}),
        ),
        ("3:buy 2 gas", pg.BuyResource(player=3, resource=Resource.GAS, count=2)),
        ("3:endbuy", pg.EndPurchase(player=3)),
        ("4:build berlin", pg.Build(player=4, city="berlin")),
        ("4:endbuild", pg.EndBuild(player=4)),
        ("0:power none", pg.Power(player=0)),
        ("0:power 4,7 coal=2 oil=1", pg.Power(player=0, plants=(4, 7), mix={"coal": 2, "oil": 1})),
        ("0:power 13", pg.Power(player=0, plants=(13,))),
    ],
)
def test_notation_grammar(text: str, action: Action) -> None:
    """Each production of the notation grammar parses to its action and prints back."""
    assert parse_action(text) == action
    assert str(action) == text
    assert parse_action(f"  {text.replace(' ', '  ')}  ") == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "0:",
        "x:bid 3",
        "-1:bid 3",
        "0:bid",
        "0:bid 3 4",
        "0:bid three",
        "0:bid 1234567890",
        "0:discard 5 drop",
        "0:discard 5 coal=1",
        "0:buy 2",
        "0:buy 2 gold",
        "0:power",
        "0:power 4,",
        "0:power 4 coal",
        "0:power 4 coal=1 coal=1",
        "0:build",
        "0:dance",
        "0:pass now",
        "a" * 1001,
        "\u0663:bid 5",  # Arabic-Indic digit three
        "0:bid \u00b2",  # superscript two
    ],
)
def test_notation_errors_raise_invalid_record(text: str) -> None:
    """Strings outside the grammar raise InvalidRecord (never another exception)."""
    with pytest.raises(InvalidRecord):
        parse_action(text)


@pytest.mark.parametrize(
    "action",
    [
        pg.Power(player=0, mix={"coal": 1}),
        pg.Power(player=1, plants=(3, 4), mix={"oil": 3, "gas": 1}),
        pg.DiscardPlant(player=2, plant=10, drop={"oil": 2}),
        pg.Build(player=0, city="atlantis"),
        pg.Bid(player=5, amount=0),
    ],
)
def test_record_of_any_action_round_trips(action: Action) -> None:
    """A record holding any well-formed action (even an illegal one) reads back equal."""
    record = GameRecord(config=CONFIGS[0], seed=1, actions=(action,))
    assert round_trip(record) == record


@pytest.mark.parametrize(
    "make",
    [
        lambda: pg.Build(player=0, city="new york"),
        lambda: pg.Build(player=0, city=""),
        lambda: pg.Bid(player=0, amount=-1),
        lambda: pg.Power(player=0, mix=[("coal", 1), ("coal", 1)]),
    ],
)
def test_actions_without_a_notation_cannot_be_built(make: Any) -> None:
    """City ids without spaces, no negative numbers, no kind twice: else ValueError."""
    with pytest.raises(ValueError, match=r"city id|negative|twice"):
        make()


def test_parse_action_rejects_non_strings() -> None:
    """A non-string action raises InvalidRecord."""
    with pytest.raises(InvalidRecord):
        parse_action(3)  # type: ignore[arg-type]


# --- fuzzing -------------------------------------------------------------------------------

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

json_leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-2, 60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["coal", "gas", "europe", "auction", "berlin", "0:bid 3", "Bid", "GameState"])
)
json_values = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=25,
)
DOC_TYPES = ["GameConfig", "GameState", "GameRecord", "PlayerView", "PublicView"]
DOC_TYPES += [cls.__name__ for cls in ACTION_TYPES]


def _only_invalid_record(text: str | bytes) -> None:
    """from_json either succeeds or raises InvalidRecord."""
    with contextlib.suppress(InvalidRecord):
        from_json(text)


@FUZZ
@given(st.text())
def test_fuzz_from_json_arbitrary_text(text: str) -> None:
    """from_json on arbitrary text raises only InvalidRecord."""
    _only_invalid_record(text)


@FUZZ
@given(st.binary())
def test_fuzz_from_json_arbitrary_bytes(data: bytes) -> None:
    """from_json on arbitrary bytes raises only InvalidRecord."""
    _only_invalid_record(data)


@FUZZ
@given(json_values)
def test_fuzz_from_json_arbitrary_json(value: Any) -> None:
    """from_json on any JSON value raises only InvalidRecord."""
    _only_invalid_record(json.dumps(value))


@FUZZ
@given(
    st.sampled_from(DOC_TYPES),
    st.dictionaries(
        st.text(max_size=12) | st.sampled_from(["player", "config", "amount"]), json_values
    ),
)
def test_fuzz_from_json_random_bodies_of_known_types(name: str, body: dict[str, Any]) -> None:
    """A known envelope with a random body raises only InvalidRecord."""
    _only_invalid_record(json.dumps({"format": 1, "type": name, **body}))


@functools.cache
def real_documents() -> tuple[dict[str, Any], ...]:
    """Documents of every type, taken from games of a few configurations."""
    docs: list[dict[str, Any]] = []
    for cfg in CONFIGS[::5]:
        g = game(cfg)
        docs += [_doc(cfg), _doc(g.record(40))]
        for state in g.sample(4):
            docs += [_doc(state), _doc(pg.public_view(state)), _doc(pg.view(state, 0))]
            seat = pg.current_player(state)
            if seat is not None:
                docs.append(_doc(pg.view(state, seat)))
        docs += [_doc(a) for a in {type(a): a for a in g.actions}.values()]
    return tuple(docs)


def _paths(node: Any, here: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if here:
        yield here
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*here, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*here, i))


@FUZZ
@given(st.data())
def test_fuzz_from_json_mutated_documents(data: st.DataObject) -> None:
    """Replacing one node of a real document by a random JSON value raises only InvalidRecord."""
    doc = data.draw(st.sampled_from(real_documents()), label="document")
    path = data.draw(st.sampled_from(list(_paths(doc))), label="path")
    value = data.draw(json_values, label="value")
    _only_invalid_record(json.dumps(mutated(doc, path, value)))


@FUZZ
@given(st.text())
def test_fuzz_parse_action_arbitrary_text(text: str) -> None:
    """parse_action on arbitrary text returns an Action or raises InvalidRecord."""
    try:
        action = parse_action(text)
    except InvalidRecord:
        return
    assert isinstance(action, ACTION_TYPES)


tokens = (
    st.sampled_from([*VERBS, "none", "drop", *(r.value for r in Resource), ","])
    | st.from_regex(r"-?[0-9]{1,11}", fullmatch=True)
    | st.from_regex(r"[a-z]{1,6}=-?[0-9]{0,3}", fullmatch=True)
    | st.from_regex(r"[0-9]{1,3}(,[0-9]{0,3}){0,3}", fullmatch=True)
    | st.text(max_size=4)
)


@FUZZ
@given(
    st.none() | st.from_regex(r"-?[0-9]{1,3}", fullmatch=True) | st.text(max_size=3),
    st.sampled_from(list(VERBS)),
    st.lists(tokens, max_size=5),
)
def test_fuzz_parse_action_near_valid(seat: str | None, verb: str, words: list[str]) -> None:
    """Verbs followed by random tokens parse to an Action or raise InvalidRecord."""
    text = " ".join([verb, *words]) if seat is None else f"{seat}:" + " ".join([verb, *words])
    state = game(CONFIGS[0]).states[0]
    for given_state in (None, state):
        try:
            action = parse_action(text, given_state)
        except InvalidRecord:
            continue
        assert isinstance(action, ACTION_TYPES)
