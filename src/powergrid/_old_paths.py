"""Module paths of earlier releases, kept importable: old pickles name them.

A pickle names the module of every class and function it holds
(``powergrid.ruleset.ruleset_for``, ``powergrid.state.GameState``), so a module
that moves would make every pickle written before the move unreadable. After
0.1.0 the modules moved into folders by layer (issue 33); :data:`OLD_PATHS` maps
each old path to the new one, and :func:`install` puts a finder on
:data:`sys.meta_path` that answers an import of an old path with the very
module object of the new one (``powergrid.ruleset is powergrid.rules.ruleset``).
Importing :mod:`powergrid` installs it.

New code imports the new paths; the old ones stay for saved data and are not
listed in the documentation. ``powergrid.engine`` became a package whose names
load from :mod:`powergrid.engine.game` on first use; ``powergrid.formats``
became the formats folder (its upgrades are :mod:`powergrid.formats.upgrades`).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

#: Old dotted module path -> the module it became.
OLD_PATHS: dict[str, str] = {
    "powergrid.arena_backends": "powergrid.arena.backends",
    "powergrid.arena_cli": "powergrid.cli.arena",
    "powergrid.arena_games": "powergrid.arena.games",
    "powergrid.boardgamers": "powergrid.interop.boardgamers",
    "powergrid.boardgamers_log": "powergrid.interop.boardgamers.log",
    "powergrid.cli_errors": "powergrid.cli.errors",
    "powergrid.cli_files": "powergrid.cli.files",
    "powergrid.cli_signals": "powergrid.cli.signals",
    "powergrid.cli_start": "powergrid.cli.start",
    "powergrid.cli_text": "powergrid.formats.text",
    "powergrid.component_tables": "powergrid.rules.tables",
    "powergrid.copies": "powergrid.frozen",
    "powergrid.explicit": "powergrid.mechanics.chance_points",
    "powergrid.hooks": "powergrid.rules.hooks",
    "powergrid.human": "powergrid.cli.human",
    "powergrid.human_input": "powergrid.cli.human_input",
    "powergrid.human_view": "powergrid.cli.human_view",
    "powergrid.import_cli": "powergrid.cli.import_game",
    "powergrid.invariants": "powergrid.engine.invariants",
    "powergrid.json_input": "powergrid.formats.json_input",
    "powergrid.market": "powergrid.mechanics.market",
    "powergrid.network": "powergrid.mechanics.network",
    "powergrid.notation": "powergrid.formats.notation",
    "powergrid.phases": "powergrid.engine.phases",
    "powergrid.phases.burns": "powergrid.mechanics.burning",
    "powergrid.placement": "powergrid.formats.placement",
    "powergrid.play_cli": "powergrid.cli.play",
    "powergrid.position": "powergrid.formats.position",
    "powergrid.position_notation": "powergrid.formats.position_text",
    "powergrid.records": "powergrid.formats.records",
    "powergrid.rule_cli": "powergrid.cli.rule",
    "powergrid.rules._custom_deck_build": "powergrid.rules.custom_deck.build",
    "powergrid.rules._fund_setup": "powergrid.rules.fund.setup",
    "powergrid.rules._fund_turns": "powergrid.rules.fund.turns",
    "powergrid.rules.europe": "powergrid.rules.maps.europe",
    "powergrid.rules.germany": "powergrid.rules.maps.germany",
    "powergrid.rules.north_america": "powergrid.rules.maps.north_america",
    "powergrid.rules.usa": "powergrid.rules.maps.usa",
    "powergrid.ruleset": "powergrid.rules.ruleset",
    "powergrid.sample_decks": "powergrid.rules.custom_deck.samples",
    "powergrid.schemas": "powergrid.formats.schemas",
    "powergrid.seeds": "powergrid.mechanics.seeds",
    "powergrid.serialize": "powergrid.formats.serialize",
    "powergrid.storage": "powergrid.mechanics.fuel_storage",
    "powergrid.views": "powergrid.engine.views",
}


def new_path(old: str) -> str | None:
    """The path a 0.1.0 module path names today, or ``None`` if it did not move.

    A module inside a moved package moved with it (``powergrid.phases.auction``
    is ``powergrid.engine.phases.auction``), so the longest moved prefix decides;
    answering those too keeps a second copy of such a module from loading.
    """
    head = old
    while head:
        if head in OLD_PATHS:
            return OLD_PATHS[head] + old[len(head) :]
        head = head.rpartition(".")[0]
    return None


class _OldPathFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an old path as the module it became (no second copy of any module)."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if new_path(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = new_path(spec.name)
        assert new is not None  # find_spec answered for this name only
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module ran under its new path."""


def install() -> None:
    """Let old module paths import (once per process; importing this module calls it)."""
    if not any(isinstance(f, _OldPathFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _OldPathFinder())


install()
