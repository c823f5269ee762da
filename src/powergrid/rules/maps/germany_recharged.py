"""The Recharged Germany board (RCH-55) and its nuclear phase-out (RCH-42).

The board comes from ``data/maps/germany_recharged.json``: the classic Germany
board with Torgelow named Stralsund, Wiesbaden named Mainz, Essen-Dortmund 5
and Mannheim-Saarbrucken 16 (single source, OQ-R06). It plays only with the
Recharged edition (the board file names it).
"""

from __future__ import annotations

from powergrid.rules import RuleModule

MODULE = RuleModule(name="germany_recharged", version="1", components={"recharged"})
