"""The USA map module: the classic board, with no rules of its own (CON-02).

The board comes from ``data/maps/usa.json``: the USA side of the classic
double-sided board, 6 regions of 7 cities (42), 87 connections. Three of them
cost 0 (Cheyenne-Denver, New York-Philadelphia, Savannah-Jacksonville); they
are ordinary connections between separate cities, not metropoles, so each
city keeps its own building spaces. The board has no double cities.

The classic components play no special rules on this board: the module has no
hooks, so a game here plays the classic rules of RULES.md sections 1-8 with or
without the ``map_rules`` option. (The "coal at 8" rule some sources attach to
this board belongs to the Recharged edition, not the classic game.) The Deluxe
components have no refill card or initial market for it, so a Deluxe game on
it is refused (``powergrid.catalog.component_maps``).
"""

from __future__ import annotations

from powergrid.rules import RuleModule

MODULE = RuleModule(name="usa", version="1")
