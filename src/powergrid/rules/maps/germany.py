"""The Germany map module: the classic board, with no rules of its own (CON-02).

The board comes from ``data/maps/germany.json``: the Germany side of the
classic double-sided board, 6 regions of 7 cities (42), 83 connections. Three
of them cost 0 (Duisburg-Essen, Halle-Leipzig, Wiesbaden-Frankfurt-M); they
are ordinary connections between separate cities, not metropoles, so each
city keeps its own building spaces. Frankfurt-M and Frankfurt-O are two
different cities.

The classic components play no special rules on this board: the module has no
hooks, so a game here plays the classic rules of RULES.md sections 1-8 with or
without the ``map_rules`` option. (The "plant 39 stops uranium" rule some
sources attach to this board belongs to the Recharged edition, not the classic
game.) The Deluxe components have no refill card or initial market for it, so
a Deluxe game on it is refused (``powergrid.catalog.component_maps``).
"""

from __future__ import annotations

from powergrid.rules import RuleModule

MODULE = RuleModule(name="germany", version="1")
