"""The Recharged USA board (RCH-55) and its coal storage (RCH-43).

The board comes from ``data/maps/usa_recharged.json``: the classic USA board
without Boise-Cheyenne and Cincinnati-Raleigh, with a new Knoxville-Raleigh
(11), Omaha-Chicago 12 and Houston-Santa Fe 20 (single source, OQ-R06). It
plays only with the Recharged edition (the board file names it).
"""

from __future__ import annotations

from powergrid.rules import RuleModule

MODULE = RuleModule(name="usa_recharged", version="1", components={"recharged"})
