"""Rule modules and their composition into a Ruleset (DESIGN: Rule modules).

A game's rules are the ``base`` module, one component set, one map module and
any extras, composed in that order. Data (plants, tables, maps) is loaded from
package data; behaviour that differs between modules is a small pure hook. A
later module's hook replaces an earlier one of the same name; the map comes
after the component set so that a map rule overrides an edition default (North
America's discount token replaces the classic no-purchase removal, AUC-20).

Hook points (each optional; the base game supplies the default):

``min_bid(state, plant) -> int``
    the lowest opening bid for an actual-market plant (AUC-04).
``market_shape(state) -> (actual, future)``
    how many plants form the actual and future market (CON-07).
``start_of_auction(state) -> state``
    runs when phase 2 begins, after STP-09.
``after_market_entry(state, plant) -> state``
    runs after a drawn plant entered the market (AUC-10).
``after_purchase(state, plant) -> state``
    runs when a plant left the actual market to a player, before any discard
    or replacement draw (AUC-10, AUC-19).
``end_of_auction(state) -> state``
    the end-of-phase-2 removals (AUC-15, AUC-20).
``step2_replacement(state) -> bool``
    whether the Step 2 one-time removal draws a replacement (STP-02).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from powergrid.config import GameConfig
from powergrid.enums import Resource
from powergrid.errors import RulesConfigError
from powergrid.network import PlayArea, play_area
from powergrid.plants import Plant
from powergrid.storage import accept_mask

if TYPE_CHECKING:
    from powergrid.chance import RngState

HOOKS = (
    "min_bid",
    "market_shape",
    "start_of_auction",
    "after_market_entry",
    "after_purchase",
    "end_of_auction",
    "step2_replacement",
)


@attrs.frozen(eq=False)
class RuleModule:
    """A named, versioned bundle of data and hooks (see the module docstring for hooks).

    ``data`` holds plain settings a module contributes; the base game reads
    ``future_market_step1`` (plants in the future market during Step 1; 4 unless
    a map says otherwise, SET-26).
    """

    name: str
    version: str
    hooks: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)
    data: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen(eq=False)
class DeckSetup:
    """What deck preparation produced (SET-11): market, face-up top card, hidden deck."""

    actual: tuple[int, ...]
    future: tuple[int, ...]
    top: int | None
    deck: tuple[int, ...]
    removed_unseen: tuple[int, ...]
    rng: RngState


@attrs.frozen(eq=False)
class Components:
    """A component set: resources, plant deck, market, tables, and its edition rules.

    The three flags are the edition-specific readings of RULES.md: whether a
    player over the plant limit may discard the plant just bought (AUC-17),
    whether the market freezes after the Step 3 card shows in phase 2 (STP-05),
    and whether a Step 3 card drawn in phase 4 is resolved at once (STP-07).
    """

    name: str
    version: str
    resources: tuple[Resource, ...]
    plants: Mapping[int, Plant]
    slot_prices: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    initial_market: Callable[[str], tuple[int, ...]]
    refill: Callable[[str, int], tuple[tuple[int, int, int], ...]]
    income: tuple[int, ...]
    starting_money: int
    setup_rows: Mapping[int, Mapping[str, Any]]
    max_plants: int
    prepare_deck: Callable[[GameConfig, RngState, int], DeckSetup]
    may_discard_new_plant: bool
    step3_freezes_auction: bool
    step3_phase4_immediate: bool
    hooks: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)
    maps: frozenset[str] | None = None  # the maps it has tables for; None: any map


HOUSES_PER_PLAYER = 22  # SET-02, BLD-09
SLOT_COSTS = (10, 15, 20)  # BLD-05


@attrs.frozen(eq=False)
class Ruleset:
    """Everything fixed for one game: config, play area, components and hooks.

    Built once per (config, regions) and cached; states refer to it, so the map
    and the tables never travel with each state.
    """

    config: GameConfig
    area: PlayArea
    components: Components
    modules: tuple[RuleModule, ...]
    hooks: Mapping[str, Callable[..., Any]]
    plant_slots: Mapping[int, tuple[int, int]]
    plant_burns: Mapping[int, tuple[int, int]]
    step2_cities: int
    end_cities: int
    max_plants: int
    future_step1: int

    def market_size(self, step: int) -> int:
        """Cards the plant market holds in a Step when the deck can fill it (CON-07)."""
        return 6 if step == 3 else 4 + (self.future_step1 if step == 1 else 4)

    def refill_rows(self) -> tuple[tuple[int, int, int], ...]:
        """Tokens added per kind in phase 5, for Steps 1, 2, 3 (BUR-05, BUR-06)."""
        return self.components.refill(self.config.map, self.config.players)

    @property
    def resources(self) -> tuple[Resource, ...]:
        """The resource kinds of this game, in the order used by state tuples."""
        return self.components.resources

    def plant(self, number: int) -> Plant:
        """The plant card with this number."""
        return self.components.plants[number]

    def hook(self, name: str) -> Callable[..., Any]:
        """The hook function in force for ``name``."""
        return self.hooks[name]

    def kind_index(self, kind: Resource) -> int:
        """Position of a resource kind in state tuples."""
        return self.components.resources.index(kind)


def components_for(name: str) -> Components:
    """The component set called ``name`` (``"classic"`` or ``"deluxe"``)."""
    module = importlib.import_module(f"powergrid.rules.{name}")
    return module.COMPONENTS  # type: ignore[no-any-return]


def map_module(map_id: str) -> RuleModule:
    """The rule module of a map: ``powergrid.rules.<map_id>.MODULE``."""
    module = importlib.import_module(f"powergrid.rules.{map_id}")
    return module.MODULE  # type: ignore[no-any-return]


def _module_list(config: GameConfig) -> tuple[RuleModule, Components]:
    return map_module(config.map), components_for(config.components)


def _compose(config: GameConfig) -> tuple[Components, tuple[RuleModule, ...]]:
    """The component set and the modules in composition order: base, edition, map."""
    from powergrid.rules import base

    map_module, comps = _module_list(config)
    edition = RuleModule(name=comps.name, version=comps.version, hooks=comps.hooks)
    return comps, (base.MODULE, edition, map_module)


def ruleset_modules(config: GameConfig) -> tuple[tuple[str, str], ...]:
    """``(name, version)`` of the base, component and map modules a config plays with."""
    return tuple((m.name, m.version) for m in _compose(config)[1])


@functools.cache
def ruleset_for(config: GameConfig, regions: tuple[str, ...]) -> Ruleset:
    """The composed rules of a game on the given play area (cached)."""
    comps, modules = _compose(config)
    hooks: dict[str, Callable[..., Any]] = {}
    for module in modules:
        for name, fn in module.hooks.items():
            if name not in HOOKS:
                raise RulesConfigError(
                    f"rule module {module.name!r} defines unknown hook {name!r}", field="modules"
                )
            hooks[name] = fn
    row = comps.setup_rows[config.players]
    seed_values = "seed_thresholds" in config.options
    step2 = (
        row.get("step2_cities_seed", row["step2_cities"]) if seed_values else row["step2_cities"]
    )
    max_plants = row.get("max_plants", comps.max_plants)
    if seed_values:
        max_plants = row.get("max_plants_seed", max_plants)
    future_step1 = 4
    for module in modules:
        future_step1 = int(module.data.get("future_market_step1", future_step1))
    kinds = comps.resources
    slots = {n: (accept_mask(p, kinds), p.capacity) for n, p in comps.plants.items()}
    burns = {n: (accept_mask(p, kinds), p.burn) for n, p in comps.plants.items()}
    return Ruleset(
        config=config,
        area=play_area(config.map, tuple(sorted(regions))),
        components=comps,
        modules=modules,
        hooks=hooks,
        plant_slots=slots,
        plant_burns=burns,
        step2_cities=int(step2),
        end_cities=int(row["game_end_cities"]),
        max_plants=int(max_plants),
        future_step1=future_step1,
    )
