"""Conformance checks and hypothesis strategies for powergrid games (public).

``invariant_violations(state)`` lists every broken invariant of a state;
``check_game`` plays a seeded random game and checks every step;
``check_ruleset`` is the conformance run for a whole configuration (a third-party
rule module runs it on its configs);
``configs()``, ``seeds()`` and ``positions()`` are hypothesis strategies (hypothesis is imported
only when they are called, so the library itself never needs it; without it they raise
``ModuleNotFoundError`` naming ``pip install "powergrid-rules[testing]"``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from powergrid.actions import Action
from powergrid.catalog import component_maps, map_components, map_rule_module
from powergrid.config import COMPONENT_SETS, MAPS, GameConfig
from powergrid.engine.game import apply, current_player, legal_actions
from powergrid.engine.invariants import invariant_violations, plant_places
from powergrid.engine.start import new_game
from powergrid.state import GameState

__all__ = [
    "MAX_ACTIONS",
    "all_configs",
    "check_game",
    "check_ruleset",
    "config_label",
    "configs",
    "invariant_violations",
    "maps_of",
    "plant_places",
    "playout",
    "positions",
    "seeds",
]

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

#: Safety bound on actions in one game; seeded random games stay far below it.
MAX_ACTIONS = 20_000


def _need_hypothesis() -> None:
    """Raise ModuleNotFoundError naming the extra that installs hypothesis, if it is missing."""
    try:
        import hypothesis  # noqa: F401
    except ImportError as missing:
        raise ModuleNotFoundError(
            "the strategies of powergrid.testing need hypothesis "
            f'({missing.name or missing} is missing): pip install "powergrid-rules[testing]"',
            name=missing.name,
        ) from missing


def playout(config: GameConfig, seed: int, policy_seed: int) -> Iterator[tuple[GameState, Action]]:
    """Yield (state, action) along a seeded game with uniformly random legal actions."""
    state = new_game(config, seed=seed)
    rnd = random.Random(policy_seed)
    for _ in range(MAX_ACTIONS):
        if current_player(state) is None:
            return
        action = rnd.choice(legal_actions(state))
        yield state, action
        state = apply(state, action)
    raise AssertionError(f"game {config} seed {seed} did not end in {MAX_ACTIONS} actions")


def maps_of(components: str) -> tuple[str, ...]:
    """The built-in maps a component set plays, sorted by id.

    Deluxe plays the maps it has refill cards for (Europe, North America),
    Recharged its own boards (RCH-55), classic every board printed for any
    edition.
    """
    known = component_maps(components)
    return tuple(
        m
        for m in MAPS
        if (known is None or m in known) and components in (map_components(m) or {components})
    )


def _has_map_rules(map_id: str) -> bool:
    """Whether the board's module plays any rule; ``map_rules`` adds nothing on one without."""
    module = map_rule_module(map_id)
    return bool(module.hooks or module.wraps or module.data)


def _component_variants() -> tuple[tuple[str, frozenset[str], tuple[str, ...]], ...]:
    """Each component set on the maps it plays, and classic with ``map_rules`` (CON-02).

    The ``map_rules`` variant is kept to the boards whose module has rules: on
    the classic USA and Germany boards it would play the same game twice.
    """
    rules_maps = tuple(m for m in maps_of("classic") if _has_map_rules(m))
    return (
        *((c, frozenset(), maps_of(c)) for c in COMPONENT_SETS),
        ("classic", frozenset({"map_rules"}), rules_maps),
    )


def config_label(config: GameConfig) -> str:
    """A configuration's :attr:`~powergrid.GameConfig.label` (for pytest ids)."""
    return config.label


def all_configs() -> list[GameConfig]:
    """Every built-in configuration: 2-6 players, each component set on each of its maps.

    The Deluxe components play only the maps they have refill cards for
    (Europe, North America); the classic ones play every board. Classic games
    on a board with map rules come twice: with the classic rules (the default)
    and with the board's map rules (option ``map_rules``, CON-02); the classic
    USA and Germany boards have none, so they come once. 2-player Deluxe games
    come twice too: against the fund (their default, SET-25) and opted out of
    it (``without={"fund"}``). 2-player Recharged games play the Trust (their
    default, RCH-84); they come again with its "as 3 players" refill (option
    ``trust_refill_as_three``, OQ-R04) and without it, as boardgamers.space
    plays them (option ``two_player_boardgamers``, OQ-R03). Every Recharged
    player count comes once more with the experienced start (RCH-13).
    """
    out = [
        GameConfig(players=n, map=m, components=c, options=o)
        for c, o, maps in _component_variants()
        for m in maps
        for n in range(2, 7)
    ]
    out += [GameConfig(players=2, map=m, without={"fund"}) for m in maps_of("deluxe")]
    for m in maps_of("recharged"):
        for option in ("trust_refill_as_three", "two_player_boardgamers"):
            out.append(GameConfig(players=2, map=m, components="recharged", options={option}))
        out += [
            GameConfig(players=n, map=m, components="recharged", modules=("experienced_start",))
            for n in range(2, 7)
        ]
    return out


def configs() -> SearchStrategy[GameConfig]:
    """Hypothesis strategy over every built-in configuration and every option.

    A component set is drawn first, then one of its maps, so the Deluxe games
    keep half of the plain draws however many boards the classic set plays.
    2-player Deluxe games play the fund (their default) or opt out of it;
    2-player Recharged games play the Trust (their default, with or without
    ``trust_refill_as_three``) or, with ``two_player_boardgamers``, no Trust;
    Recharged games may add the experienced start (RCH-13).
    """
    _need_hypothesis()
    from hypothesis import strategies as st

    plain = st.sampled_from(COMPONENT_SETS).flatmap(
        lambda c: st.builds(
            GameConfig,
            players=st.integers(2, 6),
            map=st.sampled_from(maps_of(c)),
            components=st.just(c),
        )
    )
    classic_options = st.builds(
        GameConfig,
        players=st.integers(2, 6),
        map=st.sampled_from(maps_of("classic")),
        components=st.just("classic"),
        options=st.sets(st.sampled_from(("map_rules", "seed_thresholds")), min_size=1).map(
            frozenset
        ),
    )
    recharged_options = st.builds(
        GameConfig,
        players=st.integers(2, 6),
        map=st.sampled_from(maps_of("recharged")),
        components=st.just("recharged"),
        options=st.sets(
            st.sampled_from(("too_small_rule", "two_player_boardgamers")), min_size=1
        ).map(frozenset),
        modules=st.sampled_from(((), ("experienced_start",))),
    )
    trust = st.builds(
        GameConfig,
        players=st.just(2),
        map=st.sampled_from(maps_of("recharged")),
        components=st.just("recharged"),
        options=st.sets(st.sampled_from(("too_small_rule", "trust_refill_as_three"))).map(
            frozenset
        ),
        modules=st.sampled_from(((), ("experienced_start",))),
    )
    opted_out = st.builds(  # modules=() keeps the defaults (issue 32): leave the fund out
        GameConfig,
        players=st.just(2),
        map=st.sampled_from(maps_of("deluxe")),
        without=st.just(frozenset({"fund"})),
    )
    return st.one_of(plain, classic_options, recharged_options, trust, opted_out)


def seeds() -> SearchStrategy[int]:
    """Hypothesis strategy for game seeds."""
    _need_hypothesis()
    from hypothesis import strategies as st

    return st.integers(0, 2**32 - 1)


def positions() -> SearchStrategy[GameState]:
    """Hypothesis strategy for positions: a seeded game's state, rebuilt by the builder.

    A config, a seed and a number of random actions give a state; its public
    position text is read back with another seed (:func:`powergrid.parse_position`),
    so the hidden parts are the builder's own. Every drawn position is consistent.
    """
    _need_hypothesis()
    from hypothesis import strategies as st

    from powergrid.formats.position_text import parse_position, position_text

    def build(config: GameConfig, seed: int, moves: int, hidden_seed: int) -> GameState:
        state = new_game(config, seed=seed)
        rnd = random.Random(seed)
        for _ in range(moves):
            if current_player(state) is None:
                break
            state = apply(state, rnd.choice(legal_actions(state)))
        return parse_position(position_text(state), seed=hidden_seed)

    return st.builds(build, configs(), seeds(), st.integers(0, 400), seeds())


def check_game(config: GameConfig, seed: int, policy_seed: int = 0) -> GameState:
    """Play a seeded random game, asserting every invariant after each action.

    Returns the final state; raises AssertionError naming the first violation.
    """
    state: Any = None
    for state, action in playout(config, seed, policy_seed):
        problems = invariant_violations(state)
        if problems:
            raise AssertionError(f"before {action}: {problems}")
    final = apply(state, action) if state is not None else new_game(config, seed=seed)
    problems = invariant_violations(final)
    if problems:
        raise AssertionError(f"at the end: {problems}")
    return final


def check_ruleset(config: GameConfig, games: int = 10, *, seed: int = 0) -> None:
    """Conformance run: seeded random games of ``config``, checked at every step.

    For each game it asserts the invariants after every action (conservation of
    plants, tokens and money's bounds, limits, market shape), that every listed
    action applies, that the game ends with an outcome, that replaying the same
    seed and actions gives an equal state, and that the final state and its
    record survive a JSON round trip. Raises AssertionError on the first failure.
    """
    from powergrid.formats.records import GameRecord, replay
    from powergrid.formats.serialize import from_json, to_json

    for game in range(games):
        actions: list[Action] = []
        final: GameState | None = None
        for state, action in playout(config, seed + game, seed + game):
            problems = invariant_violations(state)
            if problems:
                raise AssertionError(f"game {game}, before {action}: {problems}")
            actions.append(action)
            final = state
        record = GameRecord(config=config, seed=seed + game, actions=tuple(actions))
        end = replay(record)
        if final is not None and apply(final, actions[-1]) != end:
            raise AssertionError(f"game {game}: replaying the record gives another state")
        if end.result is None or invariant_violations(end):
            raise AssertionError(f"game {game}: no outcome, or {invariant_violations(end)}")
        if from_json(to_json(end)) != end or from_json(to_json(record)) != record:
            raise AssertionError(f"game {game}: the JSON round trip changes the game")
