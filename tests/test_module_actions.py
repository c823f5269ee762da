"""A rule module's own actions (issue 32 item 2): declared, dispatched, listed and carried.

The test-only module ``subsidy_test`` (tests/module_actions_mod.py) adds
``ClaimSubsidy``, a once-per-game claim of the seat on turn in phase 3. No file
of the core names it: the engine plays it through the game's table of phases,
``legal_actions`` lists it after the phase's own actions, and JSON, the
notation, pickles, records, schemas and the RL codec carry it. The fund's
``PlaceFundHouse`` (FND-05) is declared the same way.
"""

from __future__ import annotations

import ast
import json
import pickle
from pathlib import Path

import attrs
import pytest

import powergrid as pg
from powergrid import catalog
from powergrid.actions import BASE_VERBS, Bid, whole_number
from powergrid.engine.phases.table import flow_for
from powergrid.enums import Phase
from powergrid.errors import Reason
from powergrid.formats import schemas
from powergrid.formats.notation import VERBS
from powergrid.rules import ModuleAction, RuleModule, game_actions
from powergrid.rules.fund import MODULE as FUND
from powergrid.state import GameState
from powergrid.testing import check_ruleset
from tests.module_actions_mod import MODULE, ClaimSubsidy, claimed

catalog.register_module(MODULE)
CONFIG = pg.GameConfig(players=3, modules=("subsidy_test",))


def phase3(seed: int = 3) -> GameState:
    """The first phase-3 decision of a seeded game, played by the first legal base action."""
    state = pg.new_game(CONFIG, seed=seed)
    while state.phase is not Phase.RESOURCES:
        state = pg.apply(state, pg.legal_actions(state)[0])
    return state


def test_legal_actions_list_the_module_action_after_the_phase_s_own() -> None:
    """In phase 3 the seat on turn may claim 5 or 10, listed last; in phase 2 it may not."""
    state = pg.new_game(CONFIG, seed=3)
    assert not any(isinstance(a, ClaimSubsidy) for a in pg.legal_actions(state))
    state = phase3()
    seat = pg.current_player(state)
    assert seat is not None
    legal = pg.legal_actions(state)
    assert legal[-2:] == (ClaimSubsidy(player=seat, amount=5), ClaimSubsidy(player=seat, amount=10))
    assert all(not isinstance(a, ClaimSubsidy) for a in legal[:-2])
    assert pg.is_legal(state, legal[-1])
    assert pg.legal_actions(state) == legal  # the query changed nothing


def test_apply_plays_it_and_the_seat_stays_on_turn() -> None:
    """The claim pays the seat, is logged, and leaves the phase's turn where it was."""
    state = phase3()
    seat = pg.current_player(state)
    assert seat is not None
    after = pg.apply(state, ClaimSubsidy(player=seat, amount=10))
    assert after.player(seat).money == state.player(seat).money + 10
    assert after.events.as_tuple()[-1].kind == "subsidy_claimed"
    assert pg.current_player(after) == seat
    assert after.phase is Phase.RESOURCES
    assert claimed(after, seat)
    assert not any(isinstance(a, ClaimSubsidy) for a in pg.legal_actions(after))


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        ("phase 2", Reason.WRONG_PHASE),
        ("another seat", Reason.NOT_YOUR_TURN),
        ("twice", Reason.MODULE_RULE),
        ("bad amount", Reason.MODULE_RULE),
    ],
)
def test_an_illegal_claim_raises_with_a_reason_and_leaves_the_state(
    where: str, reason: Reason
) -> None:
    """Wrong phase and turn are the engine's to refuse; the module's rule is its own."""
    state = phase3()
    seat = pg.current_player(state)
    assert seat is not None
    action = ClaimSubsidy(player=seat, amount=5)
    if where == "phase 2":
        state = pg.new_game(CONFIG, seed=3)
        action = ClaimSubsidy(player=pg.current_player(state) or 0, amount=5)
    elif where == "another seat":
        action = ClaimSubsidy(player=(seat + 1) % 3, amount=5)
    elif where == "twice":
        state = pg.apply(state, action)
    else:
        action = ClaimSubsidy(player=seat, amount=7)
    before = pg.to_json(state)
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, action)
    assert info.value.reason is reason
    assert pg.explain_illegal(state, action) == str(info.value)
    assert not pg.is_legal(state, action)
    assert pg.to_json(state) == before


def test_a_module_action_of_no_module_in_the_game_is_of_the_wrong_phase() -> None:
    """A known module's action in a game without that module: WRONG_PHASE, as before."""
    state = pg.new_game(pg.GameConfig(players=3), seed=1)
    with pytest.raises(pg.IllegalAction) as info:
        pg.apply(state, ClaimSubsidy(player=pg.current_player(state) or 0, amount=5))
    assert info.value.reason is Reason.WRONG_PHASE


def test_json_notation_and_pickle_round_trips() -> None:
    """The action, a state after it and a record holding it read back unchanged."""
    state = phase3()
    seat = pg.current_player(state)
    assert seat is not None
    action = ClaimSubsidy(player=seat, amount=10)
    doc = json.loads(pg.to_json(action))
    assert doc["type"] == "ClaimSubsidy"
    assert doc["amount"] == 10
    assert pg.from_json(pg.to_json(action)) == action
    assert str(action) == f"{seat}:subsidy 10"
    assert pg.parse_action(str(action)) == action
    assert pg.parse_action("subsidy 10", state) == action
    with pytest.raises(pg.InvalidRecord):
        pg.parse_action("1:subsidy")
    with pytest.raises(pg.InvalidRecord):
        pg.parse_action("1:subsidy ten")
    bad = json.dumps({"format": 5, "type": "ClaimSubsidy", "player": 0, "amount": "10"})
    with pytest.raises(pg.InvalidRecord) as info:
        pg.from_json(bad)
    assert info.value.path == "amount"
    after = pg.apply(state, action)
    assert pg.from_json(pg.to_json(after)) == after
    assert pickle.loads(pickle.dumps(action)) == action
    assert pickle.loads(pickle.dumps(after)) == after
    record = pg.GameRecord(config=CONFIG, seed=3, actions=(*_actions_to(state), action))
    assert pg.from_json(pg.to_json(record)) == record
    assert pg.replay(record) == after


def _actions_to(target: GameState) -> tuple[pg.Action, ...]:
    """The actions phase3() played to reach ``target`` (same seed, same policy)."""
    state, out = pg.new_game(CONFIG, seed=3), []
    while state != target:
        action = pg.legal_actions(state)[0]
        out.append(action)
        state = pg.apply(state, action)
    return tuple(out)


def test_the_schemas_know_the_registered_module_s_action() -> None:
    """schema("action") lists the known modules' actions; the files accept any module's."""
    jsonschema = pytest.importorskip("jsonschema")
    checker = jsonschema.Draft202012Validator(schemas.schema("action"))
    assert checker.is_valid({"type": "ClaimSubsidy", "player": 1, "amount": 5})
    assert not checker.is_valid({"type": "ClaimSubsidy", "player": 1})
    assert not checker.is_valid({"type": "ClaimSubsidy", "player": 1, "amount": 5, "x": 1})
    notation = schemas.schema("action")["$defs"]["notation"]["pattern"]
    assert jsonschema.Draft202012Validator({"pattern": notation}).is_valid("1:subsidy 5")
    assert not jsonschema.Draft202012Validator({"pattern": notation}).is_valid("1:dance 5")


def test_the_rl_codec_gives_the_module_action_a_block() -> None:
    """One block named by the verb, after the base ones; its mask is the legal claims."""
    from powergrid.rl import ActionCodec

    codec = ActionCodec(CONFIG)
    block = codec.block("subsidy")
    assert block.size == 2
    assert block.stop == codec.size
    state = phase3()
    seat = pg.current_player(state)
    assert seat is not None
    mask = codec.mask(state)
    assert list(mask[block.slice]) == [1, 1]
    assert codec.decode(block.start + 1, state) == ClaimSubsidy(player=seat, amount=10)
    assert codec.encode(ClaimSubsidy(player=seat, amount=5), state) == block.start
    assert codec.describe(block.start) == "subsidy 5"
    after = pg.apply(state, ClaimSubsidy(player=seat, amount=5))
    assert list(codec.mask(after)[block.slice]) == [0, 0]
    with pytest.raises(pg.IllegalAction) as info:
        codec.decode(block.start, after)
    assert info.value.reason is Reason.MODULE_RULE


def test_whole_games_with_the_module_keep_every_invariant() -> None:
    """check_ruleset plays seeded random games with the claims among the choices."""
    check_ruleset(CONFIG, games=1, seed=5)


@attrs.frozen(kw_only=True)
class Clash:
    """An action class for the refused declarations below (never registered)."""

    player: int = attrs.field(validator=whole_number)


def _module(verb: str, cls: type = Clash) -> RuleModule:
    action = ModuleAction(
        cls=cls, verb=verb, phases={Phase.RESOURCES}, legal=lambda s, p: (), apply=lambda s, a: s
    )
    return RuleModule(name=f"clash_{verb}", version="1", actions=(action,))


def test_a_module_action_may_not_take_another_action_s_verb_or_name() -> None:
    """A verb or class name another action of the game has is refused when rules are composed."""
    for modules in ([_module("bid")], [MODULE, _module("subsidy")], [_module("x", Bid)]):
        with pytest.raises(pg.RulesConfigError) as info:
            game_actions(modules)
        assert info.value.field == "modules"
    assert {*VERBS, "chance"} == BASE_VERBS
    assert flow_for(game_actions([MODULE, _module("clash")]))[Phase.RESOURCES].actions[-2:] == (
        ClaimSubsidy,
        Clash,
    )


def test_a_module_action_must_be_an_attrs_class_with_a_player() -> None:
    """ModuleAction refuses a class without a player field and a verb that is no word."""
    with pytest.raises(pg.RulesConfigError) as info:
        _module("x", cls=int)
    assert info.value.field == "cls"
    with pytest.raises(pg.RulesConfigError) as info:
        _module("two words")
    assert info.value.field == "verb"
    with pytest.raises(pg.RulesConfigError) as info:
        RuleModule(name="twice", version="1", actions=(*MODULE.actions, *MODULE.actions))
    assert info.value.field == "actions"
    for phases in ({Phase.GAME_OVER}, {Phase.ORDER, Phase.RESOURCES}, set()):
        with pytest.raises(pg.RulesConfigError) as info:  # nobody decides there: never played
            ModuleAction(
                cls=Clash, verb="x", phases=phases, legal=lambda s, p: (), apply=lambda s, a: s
            )
        assert info.value.field == "phases"


# --- the fund's action (FND-05), declared the same way -------------------------------------


def test_the_fund_declares_place_fund_house() -> None:
    """PlaceFundHouse is the fund module's; powergrid.actions still finds it by name."""
    import powergrid.actions

    assert [a.cls for a in FUND.actions] == [pg.PlaceFundHouse]
    assert FUND.actions[0].verb == "fund"
    assert powergrid.actions.PlaceFundHouse is pg.PlaceFundHouse
    assert "PlaceFundHouse" in pg.__all__
    with pytest.raises(AttributeError):
        powergrid.actions.NoSuchAction  # noqa: B018


def test_an_old_pickle_naming_powergrid_actions_loads() -> None:
    """Pickles of earlier releases name powergrid.actions.PlaceFundHouse."""
    action = pg.PlaceFundHouse(player=1, city="berlin")
    data = pickle.dumps(action, protocol=0)
    old = data.replace(b"powergrid.rules.fund\n", b"powergrid.actions\n")
    assert old != data
    assert pickle.loads(old) == action


def test_a_format_4_fund_action_document_loads() -> None:
    """Documents of format 4 with "type": "PlaceFundHouse" keep loading."""
    doc = {"format": 4, "type": "PlaceFundHouse", "player": 0, "city": "berlin"}
    assert pg.from_json(json.dumps(doc)) == pg.PlaceFundHouse(player=0, city="berlin")


#: The engine core, which names no module (issue 32: "the core names no module").
CORE: tuple[str, ...] = (
    "actions",
    "formats/notation",
    "formats/serialize",
    "formats/schemas",
    "formats/records",
)
CORE += ("engine/game", "engine/phases/*")


def _names_in_code(path: Path) -> set[str]:
    """Identifiers and string literals of a file, its docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.alias):
            out.add(node.asname or node.name)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            out.add(node.name)
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
        ):
            out.add(node.value)
    return out


def test_the_core_names_neither_the_fund_nor_its_action() -> None:
    """actions, notation, serialize, schemas, records, engine and the phases (item 2)."""
    root = Path(pg.__file__).parent
    files = [p for pattern in CORE for p in sorted(root.glob(f"{pattern}.py"))]
    assert len(files) > 10
    for path in files:
        named = {n for n in _names_in_code(path) if "fund" in n.lower()}
        assert not named, (path.name, named)
