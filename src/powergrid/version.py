"""The library's version and the version of its JSON format.

Kept in a module of their own so that any module can read them without
importing the package's public face (``powergrid/__init__.py``).
"""

from __future__ import annotations

__version__ = "0.1.0"

#: The format of every JSON document and record this library writes.
#: Format 4 (this release): a config that leaves ``modules`` out plays its
#: component set's default (a 2-player Deluxe game plays the fund, SET-25);
#: games may begin with a setup phase (``"setup"``) and its actions
#: (``PlaceFundHouse``), and automatic actors hold houses in their supply.
#: Format 3: plants are named by card label, a string (``"13"``,
#: ``"46+"``), and a plant deck is a document of its own (``"type": "Deck"``).
#: Format 2: a classic game on a board plays the classic rules unless its
#: config names the ``map_rules`` option (CON-02, OQ-31).
FORMAT = 4

#: Formats this library reads; older ones are upgraded on reading (format 1:
#: a classic config gains ``map_rules``, which it played by then; formats 1
#: and 2: a plant number ``n`` becomes the label ``"n"``; formats 1 to 3: a
#: config without ``modules`` plays none, as it did then).
READABLE_FORMATS = (1, 2, 3, 4)
