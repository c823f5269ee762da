"""One registry of action kinds (issue 33 item 4): every table of actions derives from it.

``powergrid.actions.BASE_KINDS`` holds one record per base kind (class, notation verb,
phase, whether it closes a seat's part); the notation's verbs, the phases' actions, the
RL codec's blocks, the prompt's short forms and the boardgamers import read it, and a
game's module actions join it through :func:`~powergrid.actions.action_kinds`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import attrs
import pytest

import powergrid as pg
from powergrid.actions import (
    ACTION_TYPES,
    BASE_KINDS,
    BASE_VERBS,
    CLOSING,
    action_kinds,
    kind_by_verb,
    kind_of,
    kinds_in,
)
from powergrid.bots import RandomBot
from powergrid.cli.human_input import SHORT_FORMS, STOPS
from powergrid.engine.phases.table import FLOW
from powergrid.formats.notation import VERBS
from powergrid.mechanics.chance_points import OPTION as EXPLICIT_CHANCE
from powergrid.rl.codec import ActionCodec


def test_every_base_action_class_is_in_the_registry_once() -> None:
    """Each action class of ``pg.__all__`` has one record; classes and verbs are distinct."""
    exported = {
        getattr(pg, n)
        for n in pg.__all__
        if isinstance(getattr(pg, n), type) and getattr(pg, n).__module__ == "powergrid.actions"
    }
    classes = [k.cls for k in BASE_KINDS]
    assert sorted(c.__name__ for c in classes) == sorted(c.__name__ for c in exported)
    assert len(set(classes)) == len(classes) == 11
    assert len({k.verb for k in BASE_KINDS}) == len(BASE_KINDS)
    assert all(kind_of(k.cls) is k and kind_by_verb(k.verb) is k for k in BASE_KINDS)


def test_the_old_tables_are_the_registrys() -> None:
    """ACTION_TYPES, BASE_VERBS, the notation's verbs and the phases' actions derive from it."""
    assert tuple(k.cls for k in BASE_KINDS) == ACTION_TYPES
    assert {k.verb for k in BASE_KINDS} == BASE_VERBS
    assert list(VERBS) == [k.verb for k in BASE_KINDS if k.phase is not None]
    for record in FLOW:
        assert record.actions == kinds_in(record.phase)
    assert [k.verb for k in CLOSING] == ["pass", "fold", "endbuy", "endbuild"]
    assert tuple(k.cls for k in CLOSING) == STOPS
    # the prompt's short forms are the registry's verbs (and the words for finishing)
    verbs = {k.verb for k in BASE_KINDS if k.phase is not None and not k.closes}
    assert verbs <= set(SHORT_FORMS)


def _games() -> Iterator[tuple[str, pg.GameConfig, int]]:
    yield "classic", pg.GameConfig(players=3, components="classic", map="germany"), 4
    yield "fund", pg.GameConfig(players=2), 7  # the fund's own action, PlaceFundHouse (FND-05)
    yield "chance", pg.GameConfig(players=3, options={EXPLICIT_CHANCE}), 2


def _states(config: pg.GameConfig, seed: int, steps: int) -> Iterator[pg.GameState]:
    """The states of a game played by random bots (chance resolved by its first outcome)."""
    state = pg.new_game(config, seed=seed)
    bot = RandomBot(seed=seed)
    for _ in range(steps):
        seat = pg.current_player(state)
        if seat is None:
            return
        yield state
        if seat == pg.CHANCE:
            state = pg.apply(state, pg.chance_outcomes(state)[0][0])
        else:
            state = pg.apply(state, bot.choose(state))


@pytest.mark.parametrize(("label", "config", "seed"), list(_games()), ids=[g[0] for g in _games()])
def test_notation_round_trips_every_legal_action_through_the_registry_verbs(
    label: str, config: pg.GameConfig, seed: int
) -> None:
    """Every legal action reads back from its notation, whose first word is its kind's verb."""
    seen: set[str] = set()
    for state in _states(config, seed, 260):
        draws = tuple(a for a, _ in pg.chance_outcomes(state)[:3])  # a few outcomes of chance
        actions: tuple[pg.Action, ...] = draws or pg.legal_actions(state)
        for action in actions:
            kind = kind_of(type(action), state.rules)
            assert kind is not None, action
            text = str(action)
            head, _, rest = text.partition(":")
            verb = head if kind.cls is pg.Reveal else rest.split()[0]
            assert verb == kind.verb, text
            assert kind_by_verb(verb, state.rules) is kind
            assert pg.parse_action(text, state) == action
            seen.add(kind.verb)
    expected = {"choose", "pass", "bid", "fold", "buy", "endbuy", "build", "endbuild", "power"}
    assert expected <= seen
    if label == "fund":
        assert "fund" in seen
    if label == "chance":
        assert "chance" in seen


def test_the_codec_blocks_follow_the_registry_order() -> None:
    """The end block holds the closing kinds; then one block per other kind, by its verb."""
    config = pg.GameConfig(players=2)
    codec = ActionCodec(config)
    state = pg.new_game(config, seed=0)
    own = [k.verb for k in BASE_KINDS if k.phase is not None and not k.closes]
    modules = [a.verb for a in state.rules.actions]
    assert [b.name for b in codec.blocks] == ["end", *own, *modules]
    end = codec.block("end")
    assert end.size == len(CLOSING)
    assert end.meaning == "0 pass the auction, 1 fold, 2 end buying, 3 end building"
    assert [codec.describe(end.start + k) for k in range(end.size)] == [
        "pass the auction",
        "fold",
        "end buying",
        "end building",
    ]


def test_a_closing_action_has_the_end_index_of_its_registry_place() -> None:
    """A legal pass, fold, endbuy or endbuild encodes as its place among the closing kinds."""
    config = pg.GameConfig(players=3, components="classic", map="germany")
    codec = ActionCodec(config)
    found = set()
    for state in _states(config, 4, 200):
        for action in pg.legal_actions(state):
            kind = kind_of(type(action))
            if kind in CLOSING:
                assert codec.encode(action, state) == CLOSING.index(kind)
                found.add(str(action).split(":")[1].split()[0])
    assert found == {"pass", "fold", "endbuy", "endbuild"}


@pytest.mark.usefixtures("plugins_installed")
def test_a_third_party_module_action_is_found_through_the_registry() -> None:
    """``grants``' ClaimGrant is a kind of its games, after the base ones, and nowhere else."""
    claim_grant = importlib.import_module("powergrid_grants").ClaimGrant
    config = pg.GameConfig(players=3, components="classic", map="europe", modules=("grants",))
    state = pg.new_game(config, seed=1)
    kinds = action_kinds(state.rules)
    assert kinds[: len(BASE_KINDS)] == BASE_KINDS
    assert [k.cls for k in kinds[len(BASE_KINDS) :]] == [claim_grant]
    found = kind_by_verb("grant", state.rules)
    assert found is not None
    assert found.cls is claim_grant
    assert kind_of(claim_grant, state.rules) is found
    assert found.name == "ClaimGrant"
    # the core names no module: without the game's rules the base registry alone answers
    assert kind_of(claim_grant) is None
    assert kind_by_verb("grant") is None
    assert action_kinds() == BASE_KINDS
    # the notation and the codec reach it through the same lookups
    assert pg.parse_action("0:grant", state) == claim_grant(player=0)
    assert ActionCodec(config).blocks[-1].name == "grant"


def test_a_kind_record_is_frozen_and_names_its_class() -> None:
    """A registry record cannot be changed in place; its name is the JSON type name."""
    kind = BASE_KINDS[0]
    assert kind.name == "ChoosePlant"
    assert kind.phase is pg.Phase.AUCTION
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        kind.verb = "open"  # type: ignore[misc]
