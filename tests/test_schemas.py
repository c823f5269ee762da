"""The JSON Schemas of states and views, and powergrid.formats.schemas (data/schema/*.schema.json).

Documents of seeded random games of every built-in configuration and of the
customised sample decks validate against the state, view and public-view
schemas; a few broken documents are refused, by the schemas and the decoder
alike.

``jsonschema`` validates about a thousand small objects a second, and a long
game logs about a thousand events, so the long lists are validated once:
a log only grows, every sampled state's log being a prefix of the final
state's, so each game's events are validated in its final state and the
sampled documents without them; a view's legal actions, one object per bid,
are validated one per action type (test_serialize validates every legal
action of its sampled states against action.schema.json); and a sampled
public view is a sampled view's ``public`` part, validated there.
"""

from __future__ import annotations

import copy
import functools
import importlib.resources
import json
from typing import Any

import attrs
import pytest

import powergrid as pg
from powergrid import catalog
from powergrid.enums import Phase, Resource
from powergrid.formats.schemas import SCHEMA_NAMES, schema
from powergrid.plants import LABEL_PATTERN
from powergrid.rules.custom_deck.samples import sample_config
from powergrid.state import GameState
from powergrid.testing import all_configs, config_label, playout

jsonschema = pytest.importorskip("jsonschema")
Validator = jsonschema.Draft202012Validator

CONFIGS = [*all_configs(), sample_config("M", 3), sample_config("P", 4)]
SEED = 7
SAMPLES = 2  # states sampled evenly along each game, besides its first auction and discard
FILES = importlib.resources.files("powergrid") / "data" / "schema"


def _file(name: str) -> dict[str, Any]:
    data = json.loads((FILES / f"{name}.schema.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@functools.cache
def validator(name: str) -> Any:
    return Validator(schema(name))


@attrs.frozen
class Game:
    """Sampled states of one seeded random game (stride, first auction and discard) and its end."""

    config: pg.GameConfig
    samples: tuple[GameState, ...]
    final: GameState


@functools.cache
def game(cfg: pg.GameConfig) -> Game:
    played = list(playout(cfg, SEED, SEED))
    states = [state for state, _ in played]
    picks = set(range(0, len(states), len(states) // SAMPLES + 1))
    picks.add(next(i for i, s in enumerate(states) if s.auction is not None))
    picks.add(next(i for i, s in enumerate(states) if s.discarding is not None))
    return Game(cfg, tuple(states[i] for i in sorted(picks)), pg.apply(*played[-1]))


def _doc(obj: object) -> dict[str, Any]:
    data = json.loads(pg.to_json(obj))
    assert isinstance(data, dict)
    return data


def _documents(state: GameState) -> dict[str, dict[str, Any]]:
    """The state, public-view and (on-turn) player-view documents of ``state``."""
    seat = pg.current_player(state)
    return {
        "state": _doc(state),
        "public_view": _doc(pg.public_view(state)),
        "view": _doc(pg.view(state, 0 if seat is None else seat)),
    }


def _shortened(name: str, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` without its events and, for a view, with one legal action per type."""
    body = doc["public"] if name == "view" else doc
    body["events"] = []
    if name == "view":
        doc["legal"] = list({a["type"]: a for a in reversed(doc["legal"])}.values())
    return doc


def _errors(name: str, doc: dict[str, Any]) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
        for e in validator(name).iter_errors(doc)
    ]


# --- the schemas themselves ----------------------------------------------------------------


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_schema_is_a_valid_2020_12_schema(name: str) -> None:
    """Both the file and the bundled schema of schema(name) are valid draft 2020-12."""
    Validator.check_schema(_file(name))
    bundled = schema(name)
    Validator.check_schema(bundled)
    assert bundled["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert bundled["$id"] == f"urn:powergrid:schema:{name}:1"


def test_the_names_are_the_shipped_files() -> None:
    """SCHEMA_NAMES lists every schema file; an unknown name is refused, listing the names."""
    files = {p.name for p in FILES.iterdir() if p.name.endswith(".schema.json")}
    assert files == {f"{name}.schema.json" for name in SCHEMA_NAMES}
    with pytest.raises(ValueError, match=r"unknown schema 'game'.*record, action, deck, state"):
        schema("game")


def test_the_schemas_share_the_library_s_names() -> None:
    """Labels, phases and resource kinds are the library's; no file hard-codes the maps."""
    defs = _file("state")["$defs"]
    assert defs["label"]["pattern"] == f"^{LABEL_PATTERN}$"
    assert defs["phase"]["enum"] == [p.name.lower() for p in Phase if p is not Phase.ORDER]
    assert defs["resource"]["enum"] == [r.value for r in Resource]
    assert defs["resource"] == _file("action")["$defs"]["resource"]
    for name in SCHEMA_NAMES:
        for node in _nodes(_file(name)):
            assert "europe" not in node.get("enum", ()), name
            if name in ("state", "public_view") and node.get("pattern", "").startswith("^(0|"):
                assert node["pattern"] == f"^{LABEL_PATTERN}$"


def _nodes(tree: Any) -> list[dict[str, Any]]:
    """Every object in a JSON tree."""
    if isinstance(tree, list):
        return [n for item in tree for n in _nodes(item)]
    if isinstance(tree, dict):
        return [tree, *(n for value in tree.values() for n in _nodes(value))]
    return []


def test_the_map_is_an_enum_of_the_installed_maps() -> None:
    """schema() lists catalog.map_ids() wherever a config stands, the files only a slug."""
    maps = list(catalog.map_ids())
    assert schema("record")["$defs"]["config"]["properties"]["map"]["enum"] == maps
    for name in ("state", "view", "public_view"):
        config = schema(name)["$defs"]["record.schema.json"]["$defs"]["config"]
        assert config["properties"]["map"]["enum"] == maps
    assert _file("record")["$defs"]["config"]["properties"]["map"]["pattern"] == "^[a-z][a-z0-9_]*$"


def test_schema_returns_a_fresh_copy() -> None:
    """A caller may change the dictionary it gets."""
    first = schema("state")
    first["$defs"].clear()
    assert "label" in schema("state")["$defs"]


def test_the_files_validate_with_a_registry_of_each_other() -> None:
    """Unbundled, the files refer to each other by $id: a registry of all of them suffices."""
    referencing = pytest.importorskip("referencing")
    registry = referencing.Registry().with_resources(
        (data["$id"], referencing.Resource.from_contents(data)) for data in map(_file, SCHEMA_NAMES)
    )
    state = pg.new_game(pg.GameConfig(players=2), seed=SEED)
    for name, doc in _documents(state).items():
        Validator(_file(name), registry=registry).validate(doc)


# --- real documents ------------------------------------------------------------------------


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_label)
def test_documents_of_random_games_validate(cfg: pg.GameConfig) -> None:
    """States and views along a seeded game, and at its end, follow their schemas."""
    g = game(cfg)
    final = _documents(g.final)
    log = final["state"]["events"]
    assert _errors("state", final["state"]) == []
    for name in ("public_view", "view"):
        assert _errors(name, _shortened(name, final[name])) == [], name
    for state in g.samples:
        docs = _documents(state)
        events = docs["state"]["events"]
        assert events == log[: len(events)]
        public = {k: v for k, v in docs["public_view"].items() if k not in ("format", "type")}
        assert public == docs["view"]["public"]  # validated as the view's part
        for name in ("state", "view"):
            assert _errors(name, _shortened(name, docs[name])) == [], (name, state.round)


def test_the_samples_cover_what_a_frontend_meets() -> None:
    """Auctions, discards, the fund's actor, setup, every phase and finished games were seen."""
    games = [game(cfg) for cfg in CONFIGS]
    states = [s for g in games for s in (*g.samples, g.final)]
    assert any(s.auction is not None for s in states)
    assert any(s.discarding is not None for s in states)
    assert any(s.actors for s in states)
    assert all(g.final.result is not None for g in games)
    assert {s.phase for s in states} == set(Phase) - {Phase.ORDER}


def test_an_old_view_without_done_and_bought_validates() -> None:
    """Views written before they carried done and bought leave them out or write null."""
    view = _doc(pg.view(pg.new_game(seed=SEED), 0))
    old = copy.deepcopy(view)
    del old["public"]["done"]
    old["public"]["bought"] = None
    assert _errors("view", old) == []
    assert pg.from_json(json.dumps(old)).public.done is None


# --- broken documents ----------------------------------------------------------------------


_GONE = object()  # a value for _changed: delete the key

#: State mistakes, each refused by the schema and by the decoder: (path, new value).
BROKEN_STATES: dict[str, tuple[tuple[str | int, ...], object]] = {
    "a missing phase": (("phase",), _GONE),
    "a wrong phase name": (("phase",), "auctions"),
    "a plant label with a leading zero": (("market", "actual", 0), "04"),
    "a plant number where a label belongs": (("auction", "plant"), 4),
    "a round as a string": (("round",), "3"),
    "a seat out of range": (("players", 0, "seat"), 6),
    "an unknown field": (("market", "colour"), "green"),
}


def _changed(doc: dict[str, Any], path: tuple[str | int, ...], value: object) -> dict[str, Any]:
    """A copy of ``doc`` with the value at ``path`` replaced (or deleted: ``_GONE``)."""
    out = copy.deepcopy(doc)
    target: Any = out
    for key in path[:-1]:
        target = target[key]
    if value is _GONE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


def _auction_state() -> GameState:
    return next(s for s in game(CONFIGS[0]).samples if s.auction is not None)


@pytest.mark.parametrize("what", BROKEN_STATES)
def test_a_broken_state_is_refused_by_schema_and_decoder(what: str) -> None:
    """Each mistake fails the state schema and pg.from_json alike."""
    good = _doc(_auction_state())
    assert _errors("state", good) == []
    doc = _changed(good, *BROKEN_STATES[what])
    assert _errors("state", doc) != []
    with pytest.raises(pg.InvalidRecord):
        pg.from_json(json.dumps(doc))


def test_broken_views_are_refused() -> None:
    """A bad label, a format inside a part, an unknown kind or phase, a missing field fails."""
    good = _documents(_auction_state())
    assert good["view"]["legal"]
    for name, path, value in [
        ("view", ("public", "min_bids", 0, 0), "3 3"),
        ("view", ("legal", 0, "format"), 4),
        ("view", ("public", "format"), 4),
        ("view", ("legal",), _GONE),
        ("public_view", ("phase",), "order"),
        ("public_view", ("prices", 0, 0), "gold"),
        ("public_view", ("turn",), -1),
        ("public_view", ("slot_costs", 0, 1), "10"),
        ("public_view", ("houses",), _GONE),
        ("public_view", ("type",), _GONE),
    ]:
        assert _errors(name, good[name]) == []
        assert _errors(name, _changed(good[name], path, value)) != [], (name, path)


def test_an_unknown_map_is_refused_by_schema_not_by_the_file() -> None:
    """The files only say a map is a slug; schema() knows the installed ones."""
    record = _doc(pg.GameRecord(config=pg.GameConfig(players=3), seed=SEED))
    assert _errors("record", record) == []
    record["config"]["map"] = "atlantis"
    assert _errors("record", record) != []
    assert Validator(_file("record")).is_valid(record)
    record["config"]["map"] = "North America"
    assert not Validator(_file("record")).is_valid(record)
    state = _changed(_doc(_auction_state()), ("config", "map"), "atlantis")
    assert _errors("state", state) != []


@pytest.mark.usefixtures("plugins_installed")
def test_a_map_another_package_installs_is_listed() -> None:
    """tests/plugins installs testland: schema() lists it and its documents validate."""
    config = schema("view")["$defs"]["record.schema.json"]["$defs"]["config"]
    assert "testland" in config["properties"]["map"]["enum"]
    cfg = pg.GameConfig(players=3, map="testland", components="classic")
    state = pg.new_game(cfg, seed=SEED)
    assert Validator(schema("record")).is_valid(_doc(pg.GameRecord(config=cfg, seed=SEED)))
    for name, doc in _documents(state).items():
        assert Validator(schema(name)).is_valid(doc), name


@pytest.mark.parametrize("components", ["classic", "deluxe"])
def test_chance_points_and_their_records_match_the_schemas(components: str) -> None:
    """A chance point's state, its views and a record with outcomes are valid documents."""
    board = "usa" if components == "classic" else "north_america"
    cfg = pg.GameConfig(
        players=3, map=board, components=components, options=frozenset({"explicit_chance"})
    )
    seen = 0
    actions = []
    for state, action in playout(cfg, SEED, SEED):
        actions.append(action)
        if state.chance is None or seen >= 3:
            continue
        seen += 1
        for name, doc in (
            ("state", _doc(state)),
            ("view", _doc(pg.view(state, 0))),
            ("public_view", _doc(pg.public_view(state))),
        ):
            errors = list(validator(name).iter_errors(doc))
            assert errors == [], (name, errors[0].message)
    record = pg.GameRecord(config=cfg, seed=SEED, actions=actions)
    assert list(validator("record").iter_errors(_doc(record))) == []
    assert any(isinstance(a, pg.Reveal) for a in actions)
