"""The composed rules of one game: :class:`Ruleset` and :func:`ruleset_for`.

Composition order (DESIGN: Rule modules): ``base``, the component set, the
board's map module, then the config's extra modules in the order named
(``compose_hooks`` says how their hooks combine; :mod:`powergrid.rules.hooks` lists
them). The map module's rules
are Deluxe rules: a classic game plays on the board (its cities, regions,
connections and metropoles are data) with the classic rules, unless the
config opts in with the ``map_rules`` option (CON-02, OQ-31).

A ruleset is built once per (game-defining config, play area) and cached in a
bounded cache; states refer to it, so the map and the tables never travel with
each state. Pickling a ruleset stores only that key, and unpickling rebuilds it
from the installed rule modules: a ruleset travels by reference, never by
content (its hooks are functions that need not be picklable).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

import attrs

from powergrid.catalog import extra_module, map_rule_module
from powergrid.config import GameConfig
from powergrid.deck import Deck
from powergrid.enums import Resource
from powergrid.errors import RulesConfigError
from powergrid.events import NOTABLE_EVENTS, PLANT_EVENTS
from powergrid.mechanics.chance_points import OPTION as EXPLICIT_CHANCE
from powergrid.mechanics.fuel_storage import accept_mask
from powergrid.mechanics.network import PlayArea, play_area
from powergrid.module_state import StateSpec
from powergrid.plants import Plant, card_label
from powergrid.rules import (
    HOOKS,
    SLOT_COSTS,
    Components,
    ModuleAction,
    RuleModule,
    base,
    game_actions,
)
from powergrid.rules.hooks import Hooks
from powergrid.rules.tables import ComponentTables, checked_tables, row_from_mapping

#: The option that turns BLD-12 on in an edition that plays without it (OQ-R01).
TOO_SMALL_OPTION = "too_small_rule"

#: How many composed rulesets stay cached; each is small, but a long-lived
#: process that plays many configurations and play areas must not grow forever.
CACHE_SIZE = 128


@attrs.frozen(eq=False)
class Cards:
    """The plant cards of one game-defining config, shared by every play area it is played on.

    Tables worked out per hand of plants (storage, phase 5, the auction's
    rows) are cached on this record, not on the :class:`Ruleset`: a ruleset
    differs with the play area, so nearly every new game has its own, while
    its cards are those of every game of the config. It hashes by identity.
    The fields are the ruleset's of the same names.
    """

    deck: Deck
    plants: Mapping[str, Plant]
    rank: Mapping[str, int]
    resources: tuple[Resource, ...]
    plant_slots: Mapping[str, tuple[int, int]]
    plant_burns: Mapping[str, tuple[int, int]]


@attrs.frozen(eq=False)
class Ruleset:
    """Everything fixed for one game: config, play area, components and hooks.

    Built once per game-defining config and play area (see the module
    docstring); ``config`` is that game-defining part, without names.
    ``deck`` (the game's plant cards) and ``setup_row`` (its player-count
    row as a mapping) are the component set's, as the ``plant_deck`` and
    ``setup_row`` composition hooks left them. ``tables`` holds the component
    tables in force (:class:`~powergrid.rules.tables.ComponentTables`: prices,
    refill, income, house costs, starting money, the player-count row), as the
    ``component_tables`` hook left them; every reader uses them, and
    ``step2_cities``, ``end_cities`` and ``max_plants`` are its row's values.
    ``plants`` holds the deck's cards by label and ``rank`` each label's
    place in the game's order of cards (CDK-14, CDK-20): every ordering of
    plants (the market, "lowest" and "highest", the ORD-02 tie-break) uses
    the rank, while minimum bids and the too-small test use the printed
    number (:meth:`number`). ``cards`` holds those card tables again as the
    record shared by every play area (:class:`Cards`).

    ``actions`` are the rule modules' own actions in composition order
    (:class:`~powergrid.rules.ModuleAction`). ``flow`` caches the table of phases
    the engine plays (``powergrid.engine.phases.table.flow_of``, one ``PhaseRecord`` per
    phase; the base game's own table when no module declares an action): empty
    until the engine first asks, since the phases import this module.

    ``hooks`` holds the hooks in force (:class:`~powergrid.rules.hooks.Hooks`), called
    by attribute: ``rules.hooks.min_bid(state, plant)``. ``base_hooks`` holds
    the base game's own (``powergrid.rules.base``); a fast path that skips a
    hook call asks ``rules.hooks.x is rules.base_hooks.x``, and only that way.
    ``state_specs`` lists ``(module name, StateSpec)`` of every module that keeps
    a state of its own, in composition order (:mod:`powergrid.module_state`);
    ``plant_events`` the event kinds whose first value is a plant, the core's and
    the modules', and ``notable_events`` those a round's summary lists.
    """

    config: GameConfig
    area: PlayArea
    components: Components
    modules: tuple[RuleModule, ...]
    hooks: Hooks
    base_hooks: Hooks
    deck: Deck
    plants: Mapping[str, Plant]
    rank: Mapping[str, int]
    setup_row: Mapping[str, Any]
    tables: ComponentTables
    plant_slots: Mapping[str, tuple[int, int]]
    plant_burns: Mapping[str, tuple[int, int]]
    step2_cities: int
    end_cities: int
    max_plants: int
    future_step1: int
    cards: Cards
    state_specs: tuple[tuple[str, StateSpec], ...] = ()
    plant_events: frozenset[str] = PLANT_EVENTS
    notable_events: frozenset[str] = NOTABLE_EVENTS
    actions: tuple[ModuleAction, ...] = ()
    # PhaseRecords, filled on first use (flow_of); Any since the phases import this module.
    flow: tuple[Any, ...] = ()

    @property
    def too_small(self) -> bool:
        """Whether BLD-12 removes plants too small for the largest network (RCH-36, OQ-R01)."""
        return self.components.too_small_rule or TOO_SMALL_OPTION in self.config.options

    def market_size(self, step: int) -> int:
        """Cards the plant market holds in a Step when the deck can fill it (CON-07)."""
        return 6 if step == 3 else 4 + (self.future_step1 if step == 1 else 4)

    def refill_rows(self) -> tuple[tuple[int, int, int], ...]:
        """Tokens added per kind in phase 5, for Steps 1, 2, 3 (BUR-05, BUR-06)."""
        return self.tables.refill

    @property
    def resources(self) -> tuple[Resource, ...]:
        """The resource kinds of this game, in the order used by state tuples."""
        return self.components.resources

    def plant(self, card: str | int) -> Plant:
        """The plant card with this label (a whole number names the plain card ``str(n)``)."""
        return self.plants[card if isinstance(card, str) else card_label(card)]

    def number(self, card: str) -> int:
        """The printed number of a card: its minimum bid and too-small value (CON-08)."""
        return self.plants[card].number

    def ranked(self, cards: Iterable[str]) -> tuple[str, ...]:
        """``cards`` in the game's order, lowest rank first (CDK-14, CDK-20)."""
        return tuple(sorted(cards, key=self.rank.__getitem__))

    def kind_index(self, kind: Resource) -> int:
        """Position of a resource kind in state tuples."""
        return self.components.resources.index(kind)

    def __reduce__(self) -> tuple[Any, ...]:
        # By reference: the key that rebuilds it (see the module docstring).
        return (ruleset_for, (self.config, self.area.regions))

    def __deepcopy__(self, memo: dict[int, Any]) -> Ruleset:
        return self  # immutable, and its hooks are shared functions anyway


def components_for(name: str) -> Components:
    """The component set called ``name`` (``"classic"`` or ``"deluxe"``)."""
    module = importlib.import_module(f"powergrid.rules.{name}")
    return module.COMPONENTS  # type: ignore[no-any-return]


def plays_map_rules(config: GameConfig) -> bool:
    """Whether the board's map rules apply: Deluxe, Recharged, or classic with ``map_rules``.

    CON-02 / OQ-31: the map rules (SET-24, SET-26, AUC-21, AUC-30..AUC-35) are
    Deluxe rules; a classic game follows the classic rules on any board. The
    Recharged boards' rules (RCH-42, RCH-43) are the Recharged edition's.
    """
    return components_for(config.components).plays_map_rules or "map_rules" in config.options


def _compose(config: GameConfig) -> tuple[Components, tuple[RuleModule, ...], int]:
    """The component set, the modules in composition order, and how many are core.

    Order: base, edition, the map (when its rules apply), then the config's
    extra modules in the order it names them (their needs were checked when the
    config was made, powergrid.catalog.check_modules).
    """
    comps = components_for(config.components)
    edition = RuleModule(
        name=comps.name,
        version=comps.version,
        hooks=comps.hooks,
        wraps=comps.wraps,
        state=comps.state,
        plant_events=comps.plant_events,
        notable_events=comps.notable_events,
    )
    modules: tuple[RuleModule, ...] = (base.MODULE, edition)
    if plays_map_rules(config):
        modules += (map_rule_module(config.map),)
    core = len(modules)
    return comps, modules + tuple(extra_module(name) for name in config.modules), core


def compose_hooks(modules: tuple[RuleModule, ...], core: int) -> Hooks:
    """The hooks in force, composed module by module (powergrid.rules.hooks).

    A module's ``hooks`` replace, its ``wraps`` receive the implementation in
    force. An extra module (index ``core`` on) may replace only the base
    game's default: replacing what a component set or map defines would drop
    that rule silently, so it must wrap it instead. The first module is the
    base game, which defines every hook.
    """
    # Composition is the one place that handles hooks by name: it builds the record,
    # whose constructor checks that every hook is there (the base module's).
    hooks: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for i, module in enumerate(modules):
        _check_names(module)
        for name, fn in module.hooks.items():
            if i >= core and owner.get(name, "base") != "base":
                raise RulesConfigError(
                    f"rule module {module.name!r} replaces hook {name!r} of module "
                    f"{owner[name]!r}, which would drop its rule: wrap it instead "
                    "(RuleModule.wraps)",
                    field="modules",
                )
            hooks[name], owner[name] = fn, module.name
        for name, wrap in module.wraps.items():
            hooks[name], owner[name] = cast(Callable[[Any], Any], wrap)(hooks[name]), module.name
    return Hooks(**hooks)


def _check_names(module: RuleModule) -> None:
    """Every hook ``module`` defines or wraps is one (a module need not be a RuleModule)."""
    for name in (*module.hooks, *module.wraps):
        if name not in HOOKS:
            raise RulesConfigError(
                f"rule module {module.name!r} defines unknown hook {name!r}; the hooks "
                f"are {', '.join(HOOKS)}",
                field="modules",
            )


def ruleset_modules(config: GameConfig) -> tuple[tuple[str, str], ...]:
    """``(name, version)`` of every rule module a config plays with, in composition order."""
    return tuple((m.name, m.version) for m in _compose(config)[1])


def ruleset_for(config: GameConfig, regions: tuple[str, ...]) -> Ruleset:
    """The composed rules of a game on the given play area (cached, see CACHE_SIZE).

    Display names, the config's own region choice and who resolves chance
    (``explicit_chance``) do not change the rules, so configs that differ only
    there share one ruleset; ``Ruleset.config`` is therefore the game-defining
    part of the config, not the game's own (read that from ``GameState.config``).
    """
    return _build(_key(config), tuple(sorted(regions)))


@functools.lru_cache(maxsize=CACHE_SIZE)
def _build(config: GameConfig, regions: tuple[str, ...]) -> Ruleset:
    core = _core(config)
    return Ruleset(area=play_area(config.map, regions, config.cities), **core)


@functools.lru_cache(maxsize=CACHE_SIZE)
def _core(config: GameConfig) -> dict[str, Any]:
    """Everything of a ruleset but the play area: composed once per game-defining config.

    Every play area of the config shares these objects, the :class:`Cards` record
    first (the per-hand caches key on it).
    """
    comps, modules, core = _compose(config)
    hooks = compose_hooks(modules, core)
    row = hooks.setup_row(config, comps.setup_rows[config.players])
    tables = _tables(config, comps, modules, hooks, row)
    deck = hooks.plant_deck(config, comps.deck)
    plants = {card.label: card for card in deck.cards}
    _check_fuel(deck, comps)
    future_step1 = 4
    for module in modules:
        future_step1 = int(module.data.get("future_market_step1", future_step1))
    kinds = comps.resources
    cards = Cards(
        deck=deck,
        plants=plants,
        rank=deck.ranks(),
        resources=kinds,
        plant_slots={n: (accept_mask(p, kinds), p.capacity) for n, p in plants.items()},
        plant_burns={n: (accept_mask(p, kinds), p.burn) for n, p in plants.items()},
    )
    return {
        "config": config,
        "components": comps,
        "modules": modules,
        "hooks": hooks,
        "base_hooks": _base_hooks(),
        "deck": deck,
        "plants": plants,
        "rank": cards.rank,
        "setup_row": row,
        "tables": tables,
        "plant_slots": cards.plant_slots,
        "plant_burns": cards.plant_burns,
        "step2_cities": tables.row.step2_cities,
        "end_cities": tables.row.game_end_cities,
        "max_plants": tables.row.max_plants,
        "future_step1": future_step1,
        "cards": cards,
        "state_specs": _state_specs(modules),
        "plant_events": PLANT_EVENTS.union(*(getattr(m, "plant_events", ()) for m in modules)),
        "notable_events": NOTABLE_EVENTS.union(
            *(getattr(m, "notable_events", ()) for m in modules)
        ),
        "actions": game_actions(modules),
    }


def _state_specs(modules: tuple[RuleModule, ...]) -> tuple[tuple[str, StateSpec], ...]:
    """The modules that keep a state; two may not claim one position key (formats.position)."""
    specs = tuple(
        (m.name, spec) for m in modules if (spec := getattr(m, "state", None)) is not None
    )
    seen: dict[str, str] = {}
    for name, spec in specs:
        for field in spec.fields():
            key = spec.key(field)
            if key in seen:
                raise RulesConfigError(
                    f"rule module {name!r} names its state field {field!r} {key!r}, which "
                    f"module {seen[key]!r} uses already: give it another key (StateSpec.keys)",
                    field="modules",
                )
            seen[key] = name
    return specs


def state_specs_for(config: GameConfig) -> tuple[tuple[str, StateSpec], ...]:
    """The ``state_specs`` of every ruleset of ``config`` (they need no play area)."""
    specs: tuple[tuple[str, StateSpec], ...] = _core(_key(config))["state_specs"]
    return specs


def plant_events_for(config: GameConfig) -> frozenset[str]:
    """The ``plant_events`` of every ruleset of ``config`` (they need no play area)."""
    kinds: frozenset[str] = _core(_key(config))["plant_events"]
    return kinds


def _key(config: GameConfig) -> GameConfig:
    """The game-defining part of a config, as :func:`ruleset_for` caches by it."""
    options = config.options - {EXPLICIT_CHANCE}
    return attrs.evolve(config, names=None, regions=None, options=options)


def _tables(
    config: GameConfig,
    comps: Components,
    modules: tuple[RuleModule, ...],
    hooks: Hooks,
    row: Mapping[str, Any],
) -> ComponentTables:
    """The component tables in force: the printed ones through ``component_tables``.

    ``row`` is the player-count row as the ``setup_row`` hook (module API 1)
    left it; a third-party hook may have returned any mapping. The tables a
    module returns are checked (:func:`~powergrid.rules.tables.checked_tables`).
    """
    printed = ComponentTables(
        resources=comps.resources,
        slot_prices=comps.slot_prices,
        totals=comps.totals,
        initial_market=comps.initial_market(config.map),
        refill=comps.refill(config.map, config.players),
        income=comps.income,
        house_costs=SLOT_COSTS,
        starting_money=comps.starting_money,
        row=row_from_mapping(
            row,
            default_max_plants=comps.max_plants,
            seed_values="seed_thresholds" in config.options,
        ),
    )
    changed = hooks.component_tables(config, printed)
    if changed is printed:
        return printed
    owners = [m.name for m in modules if "component_tables" in (*m.hooks, *m.wraps)]
    return checked_tables(changed, printed, ", ".join(owners[1:]) or "base")


@functools.cache
def _base_hooks() -> Hooks:
    """The base game's hooks as a record, shared by every ruleset (see Ruleset)."""
    return compose_hooks((base.MODULE,), 1)


def _check_fuel(deck: Deck, comps: Components) -> None:
    """Every card burns only resources of the component set (a deck's fuel is data)."""
    for card in deck.cards:
        foreign = sorted(r.value for r in card.accepts if r not in comps.resources)
        if foreign:
            raise RulesConfigError(
                f"plant {card.label} of deck {deck.name!r} burns {', '.join(foreign)}, which "
                f"the {comps.name} components do not have",
                field="components",
            )
