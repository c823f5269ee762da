"""Game configuration: which game to play (GameConfig)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from powergrid.catalog import (
    COMPONENT_SETS,
    MAPS,
    broken_plugin,
    check_module_configs,
    check_modules,
    component_maps,
    default_modules,
    load_map,
    map_components,
    map_ids,
    regions_needed,
)
from powergrid.deck import DeckChoice
from powergrid.errors import RulesConfigError
from powergrid.outside_text import MAX_ID, name_problem, shown, text_problem

__all__ = ["COMPONENT_SETS", "MAPS", "OPTIONS", "GameConfig", "validate_regions"]

#: The option of explicit chance (:mod:`~powergrid.mechanics.chance_points`): the caller
#: resolves chance.
EXPLICIT_CHANCE = "explicit_chance"

#: The switches a config may turn on. All are rule switches, documented in the rules
#: docs, but ``explicit_chance``, which changes who decides the random events.
OPTIONS = {
    EXPLICIT_CHANCE: (
        "the caller resolves every random event (play area, dealt market, round-1 order, "
        "each hidden card drawn) at chance points instead of the seed "
        "(powergrid.mechanics.chance_points)"
    ),
    "map_rules": (
        "classic only: play the board's map rules too (Europe's 4 + 5 market, Step 2 without "
        "a replacement and AUC-21; North America's AUC-30..AUC-35), CON-02 / OQ-31. Deluxe "
        "games always play them"
    ),
    "seed_thresholds": (
        "classic only: the Chinese seed's simplified thresholds (Step 2 at 7 cities and "
        "at most 3 plants for every player count), SET-12 / OQ-09"
    ),
    "too_small_rule": (
        "Recharged only: plants not above the largest network leave the market (BLD-12), "
        "which the Recharged rules drop by default, RCH-36 / OQ-R01"
    ),
    "two_player_boardgamers": (
        "Recharged only: boardgamers.space's 2-player game, without the Trust (Step 2 at 10 "
        "cities, game end at 21, at most 4 plants) in place of the recommended game against "
        "the Trust at 7 / 18 / 3, OQ-R03, RCH-84"
    ),
    "trust_refill_as_three": (
        "Recharged with the Trust only: the market refills as for 3 players (the 2015 Trust "
        "sheet) instead of by the 2-player column, OQ-R04, RCH-85 i"
    ),
}

#: The component set each edition-specific option belongs to.
_OPTION_EDITION = {
    "map_rules": "classic",
    "seed_thresholds": "classic",
    "too_small_rule": "recharged",
    "two_player_boardgamers": "recharged",
    "trust_refill_as_three": "recharged",
}

#: The rule module an option changes, which the game must play.
_OPTION_MODULE = {"trust_refill_as_three": "trust"}

#: Options that play a game without a default module: the option's game has
#: none (boardgamers.space's 2-player Recharged game has no Trust, OQ-R03).
_OPTION_DROPS_DEFAULT = {"two_player_boardgamers": "trust"}


def _strings(field: str, *, optional: bool) -> Callable[[object], tuple[str, ...] | None]:
    """A converter to a tuple of strings (one string stands for itself), refusing other types.

    The items are not checked here: ``_validate`` names a bad one by its index.
    """

    def convert(value: object) -> tuple[str, ...] | None:
        if value is None and optional:
            return None
        if isinstance(value, str):
            return (value,)
        if isinstance(value, Iterable) and not isinstance(value, bytes | Mapping):
            return tuple(value)
        expected = "a list of strings" + (" or None" if optional else "")
        raise RulesConfigError(f"{field} must be {expected}, not {shown(value)}", field=field)

    return convert


def _modules(value: object) -> tuple[str, ...]:
    return _strings("modules", optional=True)(value) or ()


def _regions(value: object) -> tuple[str, ...] | None:
    return _strings("regions", optional=True)(value)


def _cities(value: object) -> tuple[str, ...] | None:
    return _strings("cities", optional=True)(value)


def _names(value: object) -> tuple[str, ...] | None:
    return _strings("names", optional=True)(value)


def _without(value: object) -> frozenset[str]:
    names = _strings("without", optional=False)(value) or ()
    for name in names:
        if not isinstance(name, str):
            raise RulesConfigError(f"without names modules, not {shown(name)}", field="without")
    return frozenset(names)


def defaults_of(config: GameConfig) -> tuple[str, ...]:
    """The default modules of ``config``'s component set and player count (SET-25, RCH-84).

    Less those an option's game has none of (``two_player_boardgamers``: no Trust).
    Empty when the player count or component set is not one the tables know:
    ``_validate`` names that field.
    """
    dropped = _option_dropped(config)
    return tuple(m for m in default_modules_of(config) if m not in dropped)


def _option_dropped(config: GameConfig) -> frozenset[str]:
    """The default modules the config's options play without (``_OPTION_DROPS_DEFAULT``)."""
    return frozenset(m for o, m in _OPTION_DROPS_DEFAULT.items() if o in config.options)


def default_modules_of(config: GameConfig) -> tuple[str, ...]:
    """The table's default modules of ``config``, before any option leaves one out."""
    try:
        return default_modules(config.components, config.players)
    except (KeyError, TypeError):
        return ()


def resolved_modules(
    named: tuple[str, ...], without: frozenset[str], defaults: tuple[str, ...]
) -> tuple[str, ...]:
    """The modules a game plays: the defaults not left out, then the named ones in order.

    A default that is also named keeps the place it is named at, so resolving
    a resolved list changes nothing.
    """
    kept = tuple(d for d in defaults if d not in without and d not in named)
    return kept + named


def _deck_choice(value: object) -> DeckChoice | None:
    if value is None or isinstance(value, DeckChoice):
        return value
    if isinstance(value, Mapping):
        unknown = sorted(map(shown, set(value) - {"variant", "decks"}))
        if unknown:
            raise RulesConfigError(f"a deck choice has no field {unknown[0]}", field="deck")
        if "variant" not in value:
            raise RulesConfigError(
                "a deck choice names its variant: M, P or free (RULES.md section 10)",
                field="deck.variant",
            )
        return DeckChoice(variant=value["variant"], decks=value.get("decks", ()))
    raise RulesConfigError(
        f"deck must be a DeckChoice, a mapping {{'variant': ..., 'decks': [...]}} or None, "
        f"not {shown(value)}",
        field="deck",
    )


def _frozen_options(value: object) -> frozenset[str]:
    options = _strings("options", optional=False)(value) or ()
    for option in options:
        if not isinstance(option, str):
            raise RulesConfigError(f"option must be a string, not {shown(option)}", field="options")
    return frozenset(options)


@attrs.frozen(kw_only=True)
class GameConfig:
    """Which game to play: player count, map, component set, modules, play area.

    Every field has a default, so ``GameConfig(players=4, map="europe")`` is a
    complete game. A field that names an impossible game raises
    :class:`~powergrid.RulesConfigError` naming that field (SET-01); so does a
    value of the wrong type (``field`` is ``"options"``, ``"names[2]"``...).

    - ``players``: 2 to 6 seats (SET-01).
    - ``map``: a map id from :func:`powergrid.catalog.map_ids`: ``europe``
      (default), ``north_america`` (CON-02), the classic boards ``usa`` and
      ``germany``, the Recharged boards ``germany_recharged`` and
      ``usa_recharged`` (RCH-55), or one another package installs.
    - ``components``: ``"deluxe"`` (the default: coal, gas, oil, uranium and the
      Deluxe plant deck, market and refill cards these two maps come with),
      ``"classic"`` (coal, oil, garbage, uranium; the original deck and tables)
      or ``"recharged"`` (the Recharged edition, RULES.md section 13).
      Both the first sets play on Europe and North America; only the classic
      set on USA and Germany (the Deluxe refill cards exist for the first two
      alone); the Recharged edition and its boards only with each other.
    - ``modules``: extra rule modules by name, composed in this order after the
      base game, the component set and the map (built in, or installed under the
      ``powergrid.rules`` entry-point group; :func:`powergrid.catalog.extra_module_names`).
      They add to the configuration's default modules
      (:func:`powergrid.catalog.default_modules`): a 2-player Deluxe game plays
      the fund (SET-25, FND-01), a 2-player Recharged game the Trust (RCH-84),
      every other game none. The defaults come
      first, unless one is named, which then keeps the place it is named at.
      The config holds, shows, compares and stores the resolved tuple, so
      ``GameConfig(players=2, modules=("bargain",)).modules == ("fund",
      "bargain")`` and that config equals ``GameConfig(players=2,
      modules=("fund", "bargain"))``.
    - ``without``: the default modules this game leaves out, an explicit choice
      (``without={"fund"}``: two players without the fund). Only a default
      may be named, and not also in ``modules``. ``attrs.evolve(config,
      players=3)`` keeps ``modules`` and ``without`` and is refused when they
      do not fit three players (the fund is for 2, FND-01): pass both again
      when changing the player count.
    - ``regions``: the play area as region ids, or ``None`` to let the seed choose a
      connected set of the right size (SET-04, SET-12).
    - ``cities``: instead of regions, the play area as a connected set of city ids
      of the size a module's table asks (Variant P's cities in play, CDK-16).
    - ``deck``: a customised plant deck, a :class:`~powergrid.deck.DeckChoice`
      (or ``{"variant": "M", "decks": [...]}``, decks as :class:`~powergrid.Deck`
      or registered names), played by the ``custom_deck`` module (RULES.md
      section 10).
    - ``names``: optional display names, one per seat: each a non-empty,
      printable string (``str.isprintable()``: no control characters, escape
      sequences, line breaks or lone surrogates) of at most 40 characters
      (:data:`powergrid.outside_text.MAX_NAME`).
    - ``options``: documented rule switches (see :data:`powergrid.config.OPTIONS`).
    """

    players: int = 4
    map: str = "europe"
    components: str = "deluxe"
    modules: tuple[str, ...] = attrs.field(default=(), converter=_modules)
    without: frozenset[str] = attrs.field(default=frozenset(), converter=_without)
    regions: tuple[str, ...] | None = attrs.field(default=None, converter=_regions)
    cities: tuple[str, ...] | None = attrs.field(default=None, converter=_cities)
    deck: DeckChoice | None = attrs.field(default=None, converter=_deck_choice)
    names: tuple[str, ...] | None = attrs.field(default=None, converter=_names)
    options: frozenset[str] = attrs.field(default=frozenset(), converter=_frozen_options)

    def __attrs_post_init__(self) -> None:
        _validate(self)

    @property
    def label(self) -> str:
        """The configuration's short, stable name, ``components/map/players[/modules][/options]``.

        Modules are joined by ``+`` in their order (``deluxe/europe/2/fund``); a
        2-player Deluxe game that leaves the default module out is
        ``deluxe/europe/2``; a customised deck adds its variant and decks
        (``.../custom_deck/M:classic+other``). The arena's tables, the RL
        environments and the tests name configurations so.
        """
        modules = "/" + "+".join(self.modules) if self.modules else ""
        if self.deck is not None:
            modules += f"/{self.deck.variant}:" + "+".join(d.name for d in self.deck.decks)
        extra = "/" + "+".join(sorted(self.options)) if self.options else ""
        return f"{self.components}/{self.map}/{self.players}{modules}{extra}"

    def __getstate__(self) -> dict[str, object]:
        """The fields by name, for pickle."""
        return {a.name: getattr(self, a.name) for a in attrs.fields(GameConfig)}

    def __setstate__(self, state: dict[str, object]) -> None:
        """Restore a pickled config; one pickled before ``without`` existed keeps its game.

        Such a config (format 4 and earlier) played exactly its ``modules``:
        every default it does not name was left out.
        """
        for key, value in state.items():
            object.__setattr__(self, key, value)
        if "without" not in state:
            left_out = frozenset(d for d in defaults_of(self) if d not in self.modules)
            object.__setattr__(self, "without", left_out)


def _check_combination(cfg: GameConfig) -> None:
    """Whether the component set, the map and the options belong together.

    A component set may know only some maps (Deluxe refill cards exist per
    map), a board only some editions (the Recharged boards), an option one
    edition.
    """
    maps = component_maps(cfg.components)
    if maps is not None and cfg.map not in maps:
        raise RulesConfigError(
            f"the {cfg.components} components have no refill card or initial market for map "
            f"{cfg.map!r} (they know {', '.join(sorted(maps))})",
            field="components",
        )
    printed = map_components(cfg.map)
    if printed is not None and cfg.components not in printed:
        raise RulesConfigError(
            f"map {cfg.map!r} is a board of the {' or '.join(sorted(printed))} edition; it does "
            f"not play with the {cfg.components} components (RCH-55)",
            field="map",
        )
    for opt, edition in _OPTION_EDITION.items():
        if opt in cfg.options and cfg.components != edition:
            raise RulesConfigError(
                f"option {opt!r} belongs to the {edition} component set ({OPTIONS[opt]})",
                field="options",
            )


def _validate(cfg: GameConfig) -> None:
    if isinstance(cfg.players, bool) or not isinstance(cfg.players, int):
        raise RulesConfigError(
            f"players must be a whole number from 2 to 6, not {shown(cfg.players)}",
            field="players",
        )
    if not 2 <= cfg.players <= 6:
        raise RulesConfigError(
            f"Power Grid is played by 2 to 6 players, not {shown(cfg.players)} (SET-01)",
            field="players",
        )
    _check_ids(cfg)
    if cfg.map not in MAPS and cfg.map not in map_ids():
        if (broken := broken_plugin(cfg.map)) is not None:
            raise RulesConfigError(broken.describe(), field="map")
        raise RulesConfigError(
            f"unknown map {shown(cfg.map)}; choose one of {', '.join(map_ids())}", field="map"
        )
    if cfg.components not in COMPONENT_SETS:
        raise RulesConfigError(
            f"unknown component set {shown(cfg.components)}; choose one of "
            f"{', '.join(COMPONENT_SETS)}",
            field="components",
        )
    for opt in sorted(cfg.options):
        if opt not in OPTIONS:
            raise RulesConfigError(
                f"unknown option {shown(opt)}; known options: {', '.join(sorted(OPTIONS))}",
                field="options",
            )
    _check_combination(cfg)
    _resolve_modules(cfg)
    _check_option_modules(cfg)
    check_modules(cfg.players, cfg.components, cfg.modules)
    check_module_configs(cfg)
    _check_names(cfg)
    if cfg.regions is not None and cfg.cities is not None:
        raise RulesConfigError(
            "a play area is either regions or cities, not both (CDK-16)", field="cities"
        )
    if cfg.regions is not None:
        validate_regions(cfg, cfg.regions)


def _check_option_modules(cfg: GameConfig) -> None:
    """An option that changes a module needs it; one that plays a game without it refuses it."""
    for opt, module in _OPTION_MODULE.items():
        if opt in cfg.options and module not in cfg.modules:
            raise RulesConfigError(
                f"option {opt!r} changes the rule module {module!r}, which this game does not "
                f"play ({OPTIONS[opt]})",
                field="options",
            )
    for opt, module in _OPTION_DROPS_DEFAULT.items():
        if opt in cfg.options and module in cfg.modules and cfg.players == 2:
            raise RulesConfigError(
                f"option {opt!r} plays a 2-player game without the rule module {module!r} "
                f"({OPTIONS[opt]}); name one or the other",
                field="options",
            )


def _resolve_modules(cfg: GameConfig) -> None:
    """Check ``without`` against the defaults, then store the resolved ``modules``."""
    defaults = defaults_of(cfg)
    # An option's game has no such default (two_player_boardgamers: no Trust), so
    # leaving it out as well says nothing more: the config forgets it, and a
    # position text, which lists the table's defaults it leaves out, reads back equal.
    dropped = _option_dropped(cfg).intersection(default_modules_of(cfg))
    if cfg.without & dropped:
        object.__setattr__(cfg, "without", cfg.without - dropped)
    for name in sorted(cfg.without):
        dropping = [o for o, m in _OPTION_DROPS_DEFAULT.items() if m == name]
        if dropping and name in defaults:
            raise RulesConfigError(
                f"a {cfg.players}-player {cfg.components} game leaves out {name!r} only as "
                f"option {dropping[0]!r} ({OPTIONS[dropping[0]]})",
                field="without",
            )
        if name in cfg.modules:
            raise RulesConfigError(
                f"rule module {name!r} is both named in modules and left out by without",
                field="without",
            )
        if name not in defaults:
            held = ", ".join(defaults) or "none"
            raise RulesConfigError(
                f"without names {name!r}, which is no default module of a {cfg.players}-player "
                f"{cfg.components} game (its defaults: {held}); without leaves out defaults only",
                field="without",
            )
    # frozen: the converter cannot see players and components, so the resolved
    # list is stored once here, before anything reads it
    object.__setattr__(cfg, "modules", resolved_modules(cfg.modules, cfg.without, defaults))


def _check_ids(cfg: GameConfig) -> None:
    """Every id the config names is printable text of at most MAX_ID characters."""
    for key in ("map", "components"):
        problem = text_problem(getattr(cfg, key), what=key, limit=MAX_ID, empty=False)
        if problem:
            raise RulesConfigError(problem, field=key)
    for key in ("modules", "regions", "cities"):
        what = {"modules": "module", "regions": "region", "cities": "city"}[key]
        for i, item in enumerate(getattr(cfg, key) or ()):
            problem = text_problem(item, what=what, limit=MAX_ID, empty=False)
            if problem:
                raise RulesConfigError(problem, field=f"{key}[{i}]")
    for key in ("options", "without"):
        for item in sorted(getattr(cfg, key)):  # strings: the converter checked them
            problem = text_problem(
                item, what=key[:-1] if key == "options" else "module", limit=MAX_ID, empty=False
            )
            if problem:
                raise RulesConfigError(problem, field=key)


def _check_names(cfg: GameConfig) -> None:
    """One display name per seat, each printable and at most MAX_NAME characters."""
    if cfg.names is None:
        return
    if len(cfg.names) != cfg.players:
        raise RulesConfigError(
            f"names has {len(cfg.names)} entries for {cfg.players} players", field="names"
        )
    for i, name in enumerate(cfg.names):
        problem = name_problem(name, what=f"the name of seat {i}")
        if problem:
            raise RulesConfigError(problem, field=f"names[{i}]")


def validate_regions(config: GameConfig, regions: Sequence[str]) -> None:
    """Raise RulesConfigError unless ``regions`` is a valid play area for ``config`` (SET-04)."""
    board = load_map(config.map)
    valid = ", ".join(board.regions)
    need = regions_needed(config.components, config.players)
    unknown = [r for r in regions if not isinstance(r, str) or r not in board.regions]
    if unknown:
        raise RulesConfigError(
            f"unknown region(s) {', '.join(map(shown, unknown[:6]))} on {board.name}; "
            f"valid regions: {valid}",
            field="regions",
        )
    if len(set(regions)) != len(regions):
        raise RulesConfigError(
            f"a region is named twice in {', '.join(regions)}; valid regions: {valid}",
            field="regions",
        )
    if len(regions) != need:
        raise RulesConfigError(
            f"{config.players} players play in {need} regions, not {len(regions)} (SET-12); "
            f"valid regions: {valid}",
            field="regions",
        )
    if not board.regions_connected(regions):
        raise RulesConfigError(
            f"regions {', '.join(regions)} are not connected to each other (SET-04); "
            f"valid regions: {valid}",
            field="regions",
        )
