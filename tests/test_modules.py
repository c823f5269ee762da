"""Rule modules from other packages: entry points, declared needs, wrapping, hooks.

``tests/plugins`` is a tiny distribution with ``powergrid.rules`` entry points
(see its module docstring). Putting it on ``sys.path`` is all it takes for
``GameConfig(modules=(...))`` to find its modules: no edit to powergrid.
"""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest

import powergrid as pg
from powergrid import catalog
from powergrid.formats.records import GameRecord
from powergrid.mechanics import market
from powergrid.rules import base
from powergrid.rules.hooks import HOOKS, table_markdown
from powergrid.state import evolve
from powergrid.testing import check_game, check_ruleset

pytestmark = pytest.mark.usefixtures("plugins_installed")


def test_entry_points_list_the_outside_modules() -> None:
    """An installed package's modules are known by name, and only while installed."""
    names = catalog.extra_module_names()
    assert {"bargain", "audit", "classic_only", "needs_bargain"} <= set(names)
    assert pg.GameConfig(modules=("bargain",)).modules == ("bargain",)


def test_a_map_from_another_package_plays_with_the_classic_components() -> None:
    """CON-02: an installed board is a map like the built-in ones; Deluxe has no cards."""
    assert "testland" in catalog.map_ids()
    assert "testland" not in pg.config.MAPS  # the built-in ones only
    cfg = pg.GameConfig(players=3, map="testland", components="classic")
    state = pg.new_game(cfg, seed=5)
    assert state.rules.area.board.name == "Testland"
    assert [m.name for m in state.rules.modules] == ["base", "classic"]
    check_ruleset(cfg, games=1)
    with_rules = pg.GameConfig(
        players=3, map="testland", components="classic", options={"map_rules"}
    )
    assert [m.name for m in pg.new_game(with_rules).rules.modules][-1] == "testland"
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=3, map="testland")
    assert err.value.field == "components"
    with pytest.raises(pg.RulesConfigError, match="is a map"):
        pg.GameConfig(modules=("testland",))


def test_unknown_module_is_refused_naming_it_and_the_choices() -> None:
    """SET-01: a module nobody installed raises RulesConfigError at construction."""
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(modules=("teleport",))
    assert err.value.field == "modules"
    assert "'teleport'" in str(err.value)
    assert "bargain" in str(err.value)  # the modules one could name instead


def test_declared_needs_are_checked_at_construction() -> None:
    """A module's component sets, player counts and required modules are enforced."""
    with pytest.raises(pg.RulesConfigError, match=r"classic_only.*classic.*TEST-01") as err:
        pg.GameConfig(players=3, modules=("classic_only",))
    assert err.value.field == "modules"
    with pytest.raises(pg.RulesConfigError, match=r"3, 4 players, not 5 \(TEST-01\)"):
        pg.GameConfig(players=5, components="classic", modules=("classic_only",))
    assert pg.GameConfig(players=4, components="classic", modules=("classic_only",))
    with pytest.raises(pg.RulesConfigError, match="needs 'bargain' named before it"):
        pg.GameConfig(modules=("needs_bargain", "bargain"))
    assert pg.GameConfig(modules=("bargain", "needs_bargain")).modules[-1] == "needs_bargain"
    with pytest.raises(pg.RulesConfigError, match="named twice"):
        pg.GameConfig(modules=("bargain", "bargain"))


def test_replacing_a_map_rule_without_wrapping_it_is_refused() -> None:
    """AUC-33 must not vanish: an extra module may not replace North America's hook."""
    cfg = pg.GameConfig(players=3, map="north_america", modules=("greedy_removal",))
    with pytest.raises(pg.RulesConfigError, match=r"greedy_removal.*end_of_auction.*north_ameri"):
        pg.new_game(cfg, seed=1)
    # Deluxe Europe defines end_of_auction too (AUC-21); classic North America without the
    # map rules has only the classic component set's AUC-20: refused as well.
    for other in (
        pg.GameConfig(players=3, map="europe", modules=("greedy_removal",)),
        pg.GameConfig(
            players=3, map="north_america", components="classic", modules=("greedy_removal",)
        ),
    ):
        with pytest.raises(pg.RulesConfigError, match="wrap it instead"):
            pg.new_game(other, seed=1)


def test_a_wrapping_module_changes_the_rule_and_keeps_the_one_it_wraps() -> None:
    """AUC-04 lowered by one, AUC-31 kept: North America's token plant still opens at 1."""
    plain = pg.new_game(pg.GameConfig(players=3, map="north_america"), seed=1)
    cheap = pg.new_game(pg.GameConfig(players=3, map="north_america", modules=("bargain",)), seed=1)
    assert pg.public_view(plain).min_bids == (("4", 1), ("5", 5), ("6", 6), ("8", 8))
    assert pg.public_view(cheap).min_bids == (("4", 1), ("5", 4), ("6", 5), ("8", 7))
    assert pg.ChoosePlant(player=pg.current_player(cheap) or 0, plant=5, bid=4) in set(
        pg.legal_actions(cheap)
    )
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(cheap, pg.ChoosePlant(player=pg.current_player(cheap) or 0, plant=5, bid=3))
    assert err.value.reason is pg.Reason.BID_TOO_LOW


def test_a_whole_seeded_game_with_an_outside_module_and_its_record() -> None:
    """The module plays whole games, passes check_ruleset, and records carry its version."""
    cfg = pg.GameConfig(players=4, map="north_america", modules=("bargain",))
    check_ruleset(cfg, games=2)
    final = check_game(cfg, 3, 3)
    assert pg.outcome(final) is not None
    record = GameRecord(config=cfg, seed=3)
    assert dict(record.versions)["bargain"] == "1.0"
    assert [m.name for m in final.rules.modules] == ["base", "deluxe", "north_america", "bargain"]
    old = attrs.evolve(record, versions={**dict(record.versions), "bargain": "0.9"})
    with pytest.raises(pg.InvalidRecord) as err:
        pg.replay(old)
    assert err.value.path == "versions.bargain"


def _played(cfg: pg.GameConfig, seed: int) -> pg.GameState:
    state = pg.new_game(cfg, seed=seed)
    rnd = random.Random(seed)
    while pg.outcome(state) is None:
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    return state


@pytest.mark.parametrize(
    "game",
    [
        {"players": 3},
        {"players": 5, "map": "north_america", "components": "classic"},
    ],
    ids=["deluxe-europe-3", "classic-na-5"],
)
def test_every_plant_leaves_through_the_one_exit_and_enters_through_the_filter(
    game: dict[str, Any],
) -> None:
    """CON-11, CON-13: removals, too-small draws and discards all pass
    leave_play; every card that enters the market or is removed on drawing passed the
    draw filter first. The audited game is the unaudited game, move for move."""
    cfg = pg.GameConfig(modules=("audit",), **game)
    state = _played(cfg, 7)
    events = state.events.as_tuple()
    left = [e.values[0] for e in events if e.kind == "audit_left"]
    assert sorted(left) == sorted(state.market.removed)
    removed = [e.values[0] for e in events if e.kind in ("plant_removed", "plant_discarded")]
    assert sorted(removed) == sorted(left)
    reasons = {e.values[0] for e in events if e.kind == "audit_reason"}
    assert reasons <= {0, 1, 2}
    assert 0 in reasons
    drawn = [e.values[0] for e in events if e.kind == "audit_drawn"]
    entered = [e.values[0] for e in events if e.kind == "plant_drawn"]
    assert set(entered) <= set(drawn)
    assert len(drawn) >= len(entered) > 0
    plain = _played(attrs.evolve(cfg, modules=(), without=cfg.without), 7)
    assert [e.kind for e in events if not e.kind.startswith("audit")] == [
        e.kind for e in plain.events.as_tuple()
    ]
    assert pg.outcome(state) == pg.outcome(plain)


def test_a_draw_filter_that_sets_cards_aside_draws_again() -> None:
    """CON-13 with a filter (the Variant M shape): cards set aside are not resolved."""
    state = pg.new_game(pg.GameConfig(players=3, components="classic"), seed=2)
    deck = state.secret.deck

    def below_20_aside(s: pg.GameState, card: str, face_up: bool) -> tuple[pg.GameState, bool]:
        if s.rules.number(card) < 20:
            return base.beside_the_game(s, card, "removed"), False
        return s, True

    hooks = attrs.evolve(state.rules.hooks, draw_filter=below_20_aside)
    rules = attrs.evolve(state.rules, hooks=hooks)
    drawn = market.draw(evolve(state, rules=rules))
    first_big = next(c for c in ("13", *deck) if state.rules.number(c) >= 20)
    assert first_big in drawn.market.plants
    aside = ("13", *deck[: deck.index(first_big)])
    assert drawn.market.removed == aside  # 13 (face up) and every small card before it
    assert drawn.market.top is None
    # 13 came from the face-up top, the rest of ``aside`` and first_big from the deck
    assert drawn.market.deck_size == len(deck) - len(aside)


def test_the_hook_table_is_complete_and_documented() -> None:
    """Every hook has a base default, a moment, a signature naming it and rule IDs."""
    assert set(base.MODULE.hooks) == set(HOOKS)
    for name, hook in HOOKS.items():
        assert hook.signature.startswith(f"{name}(")
        assert hook.moment
        assert hook.rules
        assert f"`{hook.signature}`" in table_markdown()
    guide = (Path(__file__).parent.parent / "docs" / "modules.md").read_text()
    assert "_generated/hooks.md" in guide


ROOT = Path(__file__).parent.parent
PLUGINS = ROOT / "tests" / "plugins"


def requirement_name(requirement: str) -> str:
    """The normalised distribution name a requirement such as ``"powergrid-rules>=0.1"`` names."""
    found = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert found is not None, requirement
    return re.sub(r"[-_.]+", "-", found[0]).lower()


def test_the_packaging_examples_depend_on_powergrid_rules() -> None:
    """Issue 31 item 6: on PyPI ``powergrid`` is an unrelated project; ours is powergrid-rules.

    Every ``pyproject.toml`` example in the docs and the test distribution's
    metadata must name it, or a plugin author's users would install the wrong one.
    """
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    examples = [
        (page.name, tomllib.loads(block))
        for page in pages
        for block in re.findall(r"^```toml\n(.*?)^```", page.read_text(), re.M | re.S)
    ]
    assert "modules.md" in {page for page, _ in examples}  # the publishing example
    for page, example in examples:
        if "project" not in example:
            continue
        names = {requirement_name(r) for r in example["project"].get("dependencies", ())}
        assert "powergrid-rules" in names, page
        assert "powergrid" not in names, page
        groups = example["project"].get("entry-points", {})
        assert set(groups) <= {catalog.ENTRY_POINT_GROUP}, page
    metadata = (PLUGINS / "powergrid_testmods-1.0.dist-info" / "METADATA").read_text()
    lines = metadata.splitlines()
    requires = [line.partition(":")[2] for line in lines if line.startswith("Requires-Dist:")]
    assert {requirement_name(r) for r in requires} == {"powergrid-rules"}
