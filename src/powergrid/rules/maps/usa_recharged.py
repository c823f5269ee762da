"""The Recharged USA board (RCH-55) and its coal storage (RCH-43).

The board comes from ``data/maps/usa_recharged.json``: the classic USA board
without Boise-Cheyenne and Cincinnati-Raleigh, with a new Knoxville-Raleigh
(11), Omaha-Chicago 12 and Houston-Santa Fe 20 (single source, OQ-R06). It
plays only with the Recharged edition (the board file names it).

The coal storage (RCH-43) is the general coal supply of this board: all coal
starts on the market (RCH-11), burnt coal goes to the storage, and the refill
takes from it, as for any supply. What the board adds is a price: once the
market holds no coal, a player may buy coal from the storage at 8 Elektro a
token (``ComponentTables.supply_prices``, set by the ``component_tables``
hook), while tokens are there and his plants can store them (RES-05).
"""

from __future__ import annotations

import attrs

from powergrid.config import GameConfig
from powergrid.enums import Resource
from powergrid.rules import RuleModule
from powergrid.rules.tables import ComponentTables

#: RCH-43: the price of a coal token from the storage.
COAL_STORAGE_PRICE = 8


def coal_storage(config: GameConfig, tables: ComponentTables) -> ComponentTables:
    """RCH-43: coal from the supply (the storage) at 8 once the market has none."""
    i = tables.resources.index(Resource.COAL)
    prices = tables.supply_prices
    changed = prices[:i] + (COAL_STORAGE_PRICE,) + prices[i + 1 :]
    return attrs.evolve(tables, supply_prices=changed)


MODULE = RuleModule(
    name="usa_recharged",
    version="1",
    components={"recharged"},
    hooks={"component_tables": coal_storage},
    data={"coal_storage_price": COAL_STORAGE_PRICE},
)
