"""The typed hook record (issue 32, item 4): one field per hook, composed by module.

:class:`powergrid.rules.hooks.Hooks` is the one list of hooks; the table, the guide and
the module-facing forms (``HookFunctions``, ``HookWraps``) follow it. A module
still passes a plain dict from hook name to function, checked when it is made;
composition keeps its rules (a later module replaces or wraps, an extra module
replaces only a base default); the engine asks "is the base hook in force" one way.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import attrs
import pytest

import powergrid as pg
from powergrid.rules import RuleModule, base
from powergrid.rules.hooks import HOOKS, HookFunctions, Hooks, HookWraps, MinBid, table_markdown
from powergrid.rules.ruleset import compose_hooks
from powergrid.state import GameState

SRC = Path(__file__).parent.parent / "src" / "powergrid"


def test_the_table_is_generated_from_every_field_of_the_record() -> None:
    """Item 4: HOOKS, the guide's table and the module forms list exactly the record's fields."""
    fields = [f.name for f in attrs.fields(Hooks)]
    assert list(HOOKS) == fields
    # item 3 added component_tables; item 2 removed setup_actions, setup_apply; issue 36
    # added resample_deck; issue 37 build_refusal and refill_amounts (RCH-13, RCH-42)
    assert len(fields) == 26
    table = table_markdown()
    assert table.count("\n") == len(fields) + 2  # header, rule, one row per hook
    for f in attrs.fields(Hooks):
        row = HOOKS[f.name]
        assert (row.signature, row.moment, row.rules) == (
            f.metadata["signature"],
            f.metadata["moment"],
            f.metadata["rules"],
        )
        assert f"| `{row.signature}` |" in table
    assert set(HookFunctions.__optional_keys__) == set(fields)
    assert set(HookWraps.__optional_keys__) == set(fields)
    assert [n for n, h in HOOKS.items() if h.composition] == [
        "setup_row",
        "component_tables",
        "plant_deck",
    ]


def test_the_base_module_defines_every_hook_and_a_ruleset_holds_them_as_a_record() -> None:
    """The base game fills every field; a ruleset's hooks and base hooks are Hooks records."""
    assert set(base.MODULE.hooks) == set(HOOKS)
    rules = pg.new_game(pg.GameConfig(players=3, map="north_america"), seed=1).rules
    assert isinstance(rules.hooks, Hooks)
    assert isinstance(rules.base_hooks, Hooks)
    assert rules.base_hooks.min_bid is base.min_bid
    assert rules.hooks.min_bid is not base.min_bid  # North America's (AUC-31)
    assert rules.hooks.leave_play is rules.base_hooks.leave_play


@pytest.mark.parametrize("kind", ["hooks", "wraps"])
def test_an_unknown_hook_name_is_refused_when_the_module_is_made(kind: str) -> None:
    """Item 4: a misspelt hook fails at construction, naming it and the hooks there are."""
    parts: dict[str, Any] = {kind: {"min_bids": base.min_bid}}
    with pytest.raises(pg.RulesConfigError, match=r"unknown hook 'min_bids'.*min_bid, ") as err:
        _module("typo", **parts)
    assert err.value.field == kind


def test_a_hook_that_is_not_a_function_or_a_table_that_is_no_mapping_is_refused() -> None:
    """Item 4: the wrong kind of value raises TypeError at construction."""
    with pytest.raises(TypeError, match=r"hooks\['min_bid'\] must be a function"):
        RuleModule(name="bad", version="1", hooks=cast(Any, {"min_bid": 3}))
    with pytest.raises(TypeError, match="wraps takes a mapping"):
        RuleModule(name="bad", version="1", wraps=cast(Any, [("min_bid", base.min_bid)]))


def test_a_mapping_built_at_run_time_is_accepted_as_before() -> None:
    """What third-party modules pass today, a mapping from name to function, still works."""
    table: Any = dict([("after_pass", base.unchanged)])  # built, not a literal
    module = RuleModule(name="plain", version="1", hooks=table)
    assert dict(module.hooks) == {"after_pass": base.unchanged}
    table["setup"] = base.unchanged  # the module keeps its own copy
    assert "setup" not in module.hooks


def _module(name: str, **parts: Any) -> RuleModule:
    return RuleModule(name=name, version="1", **parts)


def _one_less(previous: MinBid) -> MinBid:
    def min_bid(state: GameState, plant: str) -> int:
        return previous(state, plant) - 1

    return min_bid


def _printed_plus(n: int) -> MinBid:
    def min_bid(state: GameState, plant: str) -> int:
        return state.rules.plants[plant].number + n

    return min_bid


def test_a_later_module_replaces_and_a_wrap_receives_the_hook_in_force() -> None:
    """Composition: replace takes over; wraps apply in order, each to what is in force."""
    state = pg.new_game(pg.GameConfig(players=3, components="classic"), seed=1)
    plant = state.market.actual[0]
    printed = state.rules.plants[plant].number
    modules = (
        base.MODULE,
        _module("edition", hooks={"min_bid": _printed_plus(10)}),
        _module("first", wraps={"min_bid": _one_less}),
        _module("second", wraps={"min_bid": _one_less}),
    )
    hooks = compose_hooks(modules, core=2)
    assert hooks.min_bid(state, plant) == printed + 10 - 2
    assert compose_hooks(modules[:2], core=2).min_bid(state, plant) == printed + 10
    # the other hooks stay the base game's own functions
    assert hooks.after_pass is base.unchanged
    assert hooks.player_order is base.seats_only


def test_an_extra_module_replaces_only_a_base_default() -> None:
    """An extra module may replace a base default, not a rule a core module defines."""
    mine = _printed_plus(1)
    core = (base.MODULE, _module("edition", hooks={"end_of_auction": base.unchanged}))
    assert compose_hooks((*core, _module("x", hooks={"min_bid": mine})), 2).min_bid is mine
    with pytest.raises(pg.RulesConfigError, match=r"'x' replaces hook 'end_of_auction'.*wrap") as e:
        compose_hooks((*core, _module("x", hooks={"end_of_auction": base.unchanged})), 2)
    assert e.value.field == "modules"
    # a core module may replace another core module's hook (a map over its edition)
    assert compose_hooks((*core, _module("map", hooks={"end_of_auction": base.unchanged})), 3)


def test_no_hook_is_looked_up_by_name_and_the_base_test_has_one_form() -> None:
    """Item 4: the engine reads hooks as attributes and asks "base?" as rules.base_hooks.x."""
    forbidden = re.compile(
        r"hooks\[\"|\.hook\(|modules\[0\]|\bis (not )?(base|market)\.\w+|is market_shape\b"
    )
    base_test = re.compile(r"hooks\.(\w+) is (not )?\w*\.?base_hooks\.(\w+)|\bbase_hooks\.(\w+)")
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not forbidden.search(text), f"{path.name}: {forbidden.search(text)}"
        for m in base_test.finditer(text):
            if m.group(1):
                assert m.group(1) == m.group(3), f"{path.name} compares two hooks: {m.group(0)}"
