"""The Europe map module (CON-02).

The board comes from ``data/maps/europe.json``: 7 regions of 7 cities, 99
connections, no metropoles. Europe's own rules (the 4 + 5 market of Step 1,
SET-26, and the no-purchase removal, AUC-21) belong to the Deluxe game and are
not part of this module yet; with the classic components the classic rules
apply on this board (AUC-20).
"""

from __future__ import annotations

from powergrid.rules import RuleModule

MODULE = RuleModule(name="europe", version="1")
