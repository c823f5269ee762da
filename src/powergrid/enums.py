"""Small enumerations shared across the package."""

from __future__ import annotations

import enum


class Resource(enum.StrEnum):
    """A kind of fuel token.

    Which kinds a game uses comes from its component set (CON-01): classic uses
    coal, oil, garbage and uranium; deluxe uses coal, gas, oil and uranium.
    """

    COAL = "coal"
    GAS = "gas"
    OIL = "oil"
    GARBAGE = "garbage"
    URANIUM = "uranium"


class Phase(enum.IntEnum):
    """The five phases of a round (CON-03), plus setup and the terminal marker.

    ``SETUP`` comes before round 1 while a rule module asks the players for
    setup decisions (the fund's starting houses, FND-05); a game whose
    modules ask none goes straight to the first phase 2.
    """

    SETUP = 0
    ORDER = 1
    AUCTION = 2
    RESOURCES = 3
    BUILDING = 4
    BUREAUCRACY = 5
    GAME_OVER = 6
