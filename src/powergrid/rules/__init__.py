"""Rule modules: what a module is made of (DESIGN: Rule modules).

A game's rules are the ``base`` module, one component set, the board's map
module (in Deluxe games, or classic games that opt in, CON-02) and any extras,
composed in that order by :mod:`powergrid.rules.ruleset`. Data (plants, tables, maps)
is loaded from package data; behaviour that differs between modules is a small
pure hook. A later module's hook replaces an earlier one of the same name (or
wraps it, :mod:`powergrid.rules.hooks`); the map comes after the component set so
that a map rule overrides an edition default (North America's discount token
replaces the classic no-purchase removal, AUC-20, in a classic game that opts
in to the map rules).

This package holds the building blocks only and imports none of its modules,
so a rule module may import it without a cycle.

The hooks a module may define are the fields of :class:`powergrid.rules.hooks.Hooks`,
listed with their moments, arguments and rule IDs in :data:`powergrid.rules.hooks.HOOKS`
(re-exported here as ``HOOKS``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

import attrs

from powergrid.deck import Deck
from powergrid.enums import Phase, Resource
from powergrid.errors import RulesConfigError
from powergrid.module_state import StateSpec
from powergrid.rules.hooks import HOOKS, HookFunctions, HookWraps, checked_names

if TYPE_CHECKING:
    from powergrid.chance import RngState
    from powergrid.rules.ruleset import Ruleset
    from powergrid.state import GameState

__all__ = [
    "HOOKS",
    "HOUSES_PER_PLAYER",
    "SLOT_COSTS",
    "Components",
    "DeckSetup",
    "ModuleAction",
    "RuleModule",
    "StateSpec",
    "game_actions",
]


def _frozen_or_none(value: object) -> frozenset[Any] | None:
    return None if value is None else frozenset(value)  # type: ignore[call-overload]


def _name_set(value: Iterable[str]) -> frozenset[str]:
    return frozenset(value)


def _names(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


def _phases(value: Iterable[Phase]) -> frozenset[Phase]:
    """The phases a module action is played in: phases where a seat decides, at least one."""
    phases = frozenset(Phase(p) for p in value)
    idle = sorted(p.name.lower() for p in phases & {Phase.ORDER, Phase.GAME_OVER})
    if idle or not phases:
        raise RulesConfigError(
            "a module action is played in the phases where a seat decides (setup, auction, "
            f"resources, building, bureaucracy), not in {', '.join(idle) or 'no phase'}",
            field="phases",
        )
    return phases


def _check_action_class(action: ModuleAction, attribute: object, cls: type) -> None:
    """A module action's class: an attrs class with a whole-number ``player`` field."""
    if not isinstance(cls, type) or not attrs.has(cls):
        raise RulesConfigError(
            f"a module action's cls must be an attrs class, not {cls!r}", field="cls"
        )
    if "player" not in attrs.fields_dict(cls):
        raise RulesConfigError(f"module action {cls.__name__} has no player field", field="cls")


def _check_verb(action: ModuleAction, attribute: object, verb: str) -> None:
    """A notation verb: one lower-case word (``str(action)`` is ``"<seat>:<verb> ..."``)."""
    if not isinstance(verb, str) or not verb.isascii() or not verb.isalpha() or not verb.islower():
        raise RulesConfigError(
            f"a module action's verb is one lower-case word, not {verb!r}", field="verb"
        )


@attrs.frozen(eq=False)
class ModuleAction:
    """An action class a rule module adds, with its notation, when it is legal and its effect.

    - ``cls`` is a frozen attrs class with a whole-number ``player`` field (the
      acting seat); ``str(action)`` gives its notation ``"<seat>:<verb> ..."``.
      Its name is the ``type`` of its JSON documents, so it must differ from
      every other action's; its fields are written and read like any action's.
    - ``verb`` is the notation's first word; ``parse(seat, words, text)`` reads
      the notation back (``words[0]`` is the verb) and raises
      :class:`~powergrid.InvalidRecord` or ``ValueError`` on bad syntax. Without
      ``parse`` the words after the verb fill the fields after ``player`` in
      their order (whole numbers for ``int`` fields, text otherwise).
    - ``phases`` are the phases in which the action is played, by the seat on
      turn there and next to the phase's own actions; the engine refuses it in
      another phase (``Reason.WRONG_PHASE``) or from another seat
      (``Reason.NOT_YOUR_TURN``). ``Phase.SETUP`` makes it a setup decision,
      asked while the ``setup_turn`` hook names a seat.
    - ``legal(state, seat)`` lists the legal instances for the seat on turn, in
      a stable order (they follow the phase's own actions in
      :func:`~powergrid.legal_actions`); ``apply(state, action)`` plays one whose
      phase and turn the engine has checked, and raises
      :class:`~powergrid.IllegalAction` with a stable reason for anything else
      the rules forbid, leaving the state unchanged.
    - ``instances(rules)`` lists every instance the action can have in a game of
      those rules, with ``player`` 0 (the seat is filled in when played): the
      RL codec (:mod:`powergrid.rl.codec`) gives each one an index. Without it
      the action has no index there.
    """

    cls: type = attrs.field(validator=_check_action_class)
    verb: str = attrs.field(validator=_check_verb)
    phases: frozenset[Phase] = attrs.field(converter=_phases)
    legal: Callable[[GameState, int], tuple[Any, ...]]
    apply: Callable[[GameState, Any], GameState]
    parse: Callable[[int, list[str], str], Any] | None = None
    instances: Callable[[Ruleset], tuple[Any, ...]] | None = None

    @property
    def name(self) -> str:
        """The action's type name, as JSON documents and pickles name it."""
        return self.cls.__name__


def _module_actions(value: Iterable[ModuleAction]) -> tuple[ModuleAction, ...]:
    """A module's ``actions``: module actions with distinct names and verbs."""
    out = tuple(value)
    for i, action in enumerate(out):
        if not isinstance(action, ModuleAction):
            raise RulesConfigError(
                f"a module's actions are ModuleAction records, not {action!r}", field="actions"
            )
        for earlier in out[:i]:
            if earlier.name == action.name or earlier.verb == action.verb:
                raise RulesConfigError(
                    f"two actions of one module share the name or verb of {action.name}",
                    field="actions",
                )
    return out


def game_actions(modules: Iterable[Any]) -> tuple[ModuleAction, ...]:
    """The module actions of a composition, in its order, each with a name and verb of its own.

    JSON and the notation name an action by its class name and its verb, so two
    actions with one name or one verb, or one that takes a base action's, raise
    :class:`~powergrid.RulesConfigError` (``field`` ``"modules"``).
    """
    from powergrid.actions import ACTION_TYPES, BASE_VERBS

    actions = tuple(a for m in modules for a in getattr(m, "actions", ()))
    names = {cls.__name__ for cls in ACTION_TYPES}
    verbs = set(BASE_VERBS)
    for action in actions:
        if action.name in names or action.verb in verbs:
            raise RulesConfigError(
                f"module action {action.name} ({action.verb!r}) takes the name or verb of "
                "another action",
                field="modules",
            )
        names.add(action.name)
        verbs.add(action.verb)
    return actions


def _hook_functions(value: HookFunctions) -> HookFunctions:
    """A module's ``hooks``, refused at construction when a name is no hook."""
    return cast(HookFunctions, checked_names(value, "hooks"))


def _hook_wraps(value: HookWraps) -> HookWraps:
    """A module's ``wraps``, refused at construction when a name is no hook."""
    return cast(HookWraps, checked_names(value, "wraps"))


@attrs.frozen(eq=False)
class RuleModule:
    """A named, versioned bundle of hooks and data, with what it needs to be played.

    - ``hooks`` replace the implementation in force (see :mod:`powergrid.rules.hooks`):
      a dict from hook name to function, typed :class:`~powergrid.rules.hooks.HookFunctions`
      so that mypy checks each function against its hook; ``wraps``
      (:class:`~powergrid.rules.hooks.HookWraps`) map a hook name to a function that
      receives the implementation in force and returns the new one, so a
      module can extend a rule. A name that is no hook raises
      :class:`~powergrid.RulesConfigError` (``field`` ``"hooks"`` or
      ``"wraps"``) when the module is made.
    - ``data`` holds plain settings; the base game reads ``future_market_step1``
      (plants in the future market during Step 1; 4 unless a map says otherwise,
      SET-26).
    - ``components`` and ``players`` restrict the component sets and player
      counts the module plays with (``None``: any); ``requires`` names extra
      modules that must come before it in ``GameConfig.modules``; ``rule`` is
      the rule ID a refused config cites. A config that breaks them raises
      :class:`~powergrid.RulesConfigError` at construction.
    - ``reads`` names the config parts only this module plays (``"deck"``,
      ``"cities"``): a config with such a part needs a module that reads it.
      ``check_config(config)`` raises ``RulesConfigError`` for a config the
      module cannot play (a deck it cannot build, a play area of the wrong size).
    - ``actions`` are the action classes the module adds to the game
      (:class:`~powergrid.rules.ModuleAction`): the engine plays them, ``legal_actions`` lists
      them, and JSON, the notation, pickles and the RL codec handle them.
    - ``api`` is the module-API version the module was written for
      (``powergrid.version.MODULE_API`` is this library's); a module
      written for a newer one is refused with a
      :class:`~powergrid.RulesConfigError` that says to upgrade the library.
      It defaults to 1, the first API, which every module written before the
      field existed used.
    - ``state`` declares the module's own state record and how the core
      carries it (:class:`~powergrid.module_state.StateSpec`); ``None``: the
      module keeps none. The game state holds it as ``state.modules[name]``.
    - ``plant_events`` names the module's event kinds whose first value is a
      plant card (as the core's ``plant_bought``), so that documents of formats
      1 and 2, which wrote plant numbers, read them as labels.
    - ``notable_events`` names the module's event kinds worth a line in a
      round's summary (the terminal's ``*`` lines after each round), as the
      core's step changes and plant removals are.
    """

    name: str
    version: str
    hooks: HookFunctions = attrs.field(factory=HookFunctions, converter=_hook_functions)
    data: Mapping[str, Any] = attrs.field(factory=dict)
    wraps: HookWraps = attrs.field(factory=HookWraps, converter=_hook_wraps)
    components: frozenset[str] | None = attrs.field(default=None, converter=_frozen_or_none)
    players: frozenset[int] | None = attrs.field(default=None, converter=_frozen_or_none)
    requires: tuple[str, ...] = attrs.field(default=(), converter=_names)
    rule: str = ""
    reads: frozenset[str] = attrs.field(default=frozenset(), converter=_name_set)
    check_config: Callable[[Any], None] | None = None
    api: int = 1
    state: StateSpec | None = None
    plant_events: frozenset[str] = attrs.field(default=frozenset(), converter=_name_set)
    notable_events: frozenset[str] = attrs.field(default=frozenset(), converter=_name_set)
    actions: tuple[ModuleAction, ...] = attrs.field(default=(), converter=_module_actions)


@attrs.frozen(eq=False)
class DeckSetup:
    """What deck preparation produced (SET-11): market, face-up top card, hidden deck.

    Every field names cards by label; ``actual``, ``future`` and
    ``removed_unseen`` are in rank order (the ruleset's ``rank``). ``modules``
    holds the state records the preparation sets for rule modules that keep one
    (:mod:`powergrid.module_state`), by module name: a customised deck's inactive
    area and removal quota (CDK-03, CDK-07); a module not named there starts
    from its record's defaults. ``dealt`` lists the cards a
    market dealt at random was drawn from (Deluxe's dark plants, SET-21); it
    is empty when the initial market is fixed, and lets explicit chance
    (:mod:`powergrid.mechanics.chance_points`) ask for the market as one outcome.
    """

    actual: tuple[str, ...]
    future: tuple[str, ...]
    top: str | None
    deck: tuple[str, ...]
    removed_unseen: tuple[str, ...]
    rng: RngState
    modules: Mapping[str, Any] = attrs.field(factory=dict)
    dealt: tuple[str, ...] = ()


@attrs.frozen(eq=False)
class Components:
    """A component set: resources, plant deck, market, tables, and its edition rules.

    The flags are the edition-specific readings of RULES.md: whether a
    player over the plant limit may discard the plant just bought (AUC-17),
    whether the market freezes after the Step 3 card shows in phase 2 (STP-05),
    whether a Step 3 card drawn in phase 4 is resolved at once (STP-07),
    whether Step 2 is checked once after phase 4 rather than at each house
    (RCH-71), whether plants too small for the largest network leave the market
    (BLD-12; Recharged plays without, RCH-36, unless a config names the option
    ``too_small_rule``), whether the back of the deck's top card is public
    (RCH-21) and whether the board's map rules always apply (CON-02; classic
    games opt in with ``map_rules``).

    An edition may keep state of its own and wrap hooks as a rule module does
    (``state``, ``wraps``, ``plant_events``, ``notable_events``: the fields of
    :class:`RuleModule`); the composition makes it the module named ``name``.
    """

    name: str
    version: str
    resources: tuple[Resource, ...]
    deck: Deck
    slot_prices: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    initial_market: Callable[[str], tuple[int, ...]]
    refill: Callable[[str, int], tuple[tuple[int, int, int], ...]]
    income: tuple[int, ...]
    starting_money: int
    setup_rows: Mapping[int, Mapping[str, Any]]
    max_plants: int
    prepare_deck: Callable[[Ruleset, RngState], DeckSetup]
    may_discard_new_plant: bool
    step3_freezes_auction: bool
    step3_phase4_immediate: bool
    hooks: HookFunctions = attrs.field(factory=HookFunctions, converter=_hook_functions)
    maps: frozenset[str] | None = None  # the maps it has tables for; None: any map
    step2_after_building: bool = False
    shows_top_back: bool = False
    too_small_rule: bool = True
    plays_map_rules: bool = False
    wraps: HookWraps = attrs.field(factory=HookWraps, converter=_hook_wraps)
    state: StateSpec | None = None
    plant_events: frozenset[str] = attrs.field(default=frozenset(), converter=_name_set)
    notable_events: frozenset[str] = attrs.field(default=frozenset(), converter=_name_set)


HOUSES_PER_PLAYER = 22  # SET-02, BLD-09
SLOT_COSTS = (10, 15, 20)  # BLD-05
