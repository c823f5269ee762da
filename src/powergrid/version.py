"""The library's version and the version of its JSON format.

Kept in a module of their own so that any module can read them without
importing the package's public face (``powergrid/__init__.py``).
"""

from __future__ import annotations

__version__ = "0.1.0"

#: The format of every JSON document and record this library writes.
#: Format 5 (this release): a config's ``modules`` add to its default modules,
#: and ``without`` names the defaults it leaves out (a 2-player Deluxe game
#: without the fund: ``"without": ["fund"]``); a state or view holds each rule
#: module's own state under ``modules`` (North America's discount token, a customised
#: deck's inactive area and quota), no longer in the plant market.
#: Format 4: a config that leaves ``modules`` out plays its
#: component set's default (a 2-player Deluxe game plays the fund, SET-25);
#: games may begin with a setup phase (``"setup"``) and its actions
#: (``PlaceFundHouse``), and automatic actors hold houses in their supply.
#: Format 3: plants are named by card label, a string (``"13"``,
#: ``"46+"``), and a plant deck is a document of its own (``"type": "Deck"``).
#: Format 2: a classic game on a board plays the classic rules unless its
#: config names the ``map_rules`` option (CON-02, OQ-31).
FORMAT = 5

#: Formats this library reads; older ones are upgraded on reading (format 1:
#: a classic config gains ``map_rules``, which it played by then; formats 1
#: and 2: a plant number ``n`` becomes the label ``"n"``; formats 1 to 3: a
#: config without ``modules`` plays none, as it did then; formats 1 to 4: a
#: config played exactly the modules it names, so it gains ``without`` for
#: every default it does not name; the plant market's fields that are rule modules'
#: own state now move to ``modules`` by the keys the modules give them).
READABLE_FORMATS = (1, 2, 3, 4, 5)

#: The version of the module API (:class:`powergrid.rules.RuleModule` and the
#: building blocks a module uses). A module declares the one it was written for
#: (``RuleModule.api``); a module written for a newer one is refused. It goes up
#: when a change would break a module written for the one before.
#: API 2 adds a module's own state (``RuleModule.state``), its own actions, the
#: component tables (the ``component_tables`` hook) and ``plant_events``, and drops
#: the ``setup_actions`` and ``setup_apply`` hooks (a setup decision is a module action
#: now); every other module written for API 1 plays unchanged.
MODULE_API = 2
