"""The North America map module (CON-02).

The board comes from ``data/maps/north_america.json``: 7 regions of 7 cities,
99 connections. The metropoles New York and Mexico City are two cities each,
joined by a connection of cost 0, so BLD-10 and BLD-11 follow from the data:
each half is its own city with its own slots. The discount token (AUC-30..35)
is not part of this module yet.
"""

from __future__ import annotations

from powergrid.rules import RuleModule

MODULE = RuleModule(name="north_america", version="1")
