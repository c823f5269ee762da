"""Errors raised by powergrid.

Every error derives from :class:`PowerGridError`. Rule violations raise
:class:`IllegalAction`; a bad game configuration raises :class:`RulesConfigError`;
malformed JSON or records raise :class:`InvalidRecord`.
"""

from __future__ import annotations

import enum
from typing import Any


class Reason(enum.StrEnum):
    """Stable, machine-readable codes carried by :attr:`IllegalAction.reason`.

    The values never change between releases, so frontends and bots may switch on
    them; the human message may be reworded.
    """

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    UNKNOWN_SEAT = "unknown_seat"
    WRONG_PHASE = "wrong_phase"
    UNKNOWN_ACTION = "unknown_action"
    NOT_ACTUAL_PLANT = "not_actual_plant"
    BID_TOO_LOW = "bid_too_low"
    BID_ABOVE_MONEY = "bid_above_money"
    LAST_PLAYER_PAYS_MINIMUM = "last_player_pays_minimum"
    PASS_FORBIDDEN_FIRST_ROUND = "pass_forbidden_first_round"
    NOT_IN_AUCTION = "not_in_auction"
    AUCTION_RUNNING = "auction_running"
    DISCARD_REQUIRED = "discard_required"
    NOTHING_TO_DISCARD = "nothing_to_discard"
    NOT_OWN_PLANT = "not_own_plant"
    DISCARD_NEW_PLANT = "discard_new_plant"
    BAD_RESOURCE_DROP = "bad_resource_drop"
    UNKNOWN_RESOURCE = "unknown_resource"
    BAD_COUNT = "bad_count"
    MARKET_SHORT = "market_short"
    NO_STORAGE = "no_storage"
    CANNOT_AFFORD = "cannot_afford"
    UNKNOWN_CITY = "unknown_city"
    OUTSIDE_PLAY_AREA = "outside_play_area"
    ALREADY_IN_CITY = "already_in_city"
    CITY_FULL = "city_full"
    NO_HOUSES_LEFT = "no_houses_left"
    BAD_POWER_MIX = "bad_power_mix"
    NOT_ENOUGH_FUEL = "not_enough_fuel"
    NOT_CONNECTED = "not_connected"
    NOT_IN_MASK = "not_in_mask"


class PowerGridError(Exception):
    """Base class of every error this library raises on purpose."""


class IllegalAction(PowerGridError, ValueError):
    """An action that the rules forbid in the given state.

    The state passed to :func:`powergrid.apply` is never changed. ``reason`` is a
    stable code (a :class:`Reason` value); ``str(error)`` is a sentence a player
    understands, e.g. ``"Bid 12 is below the minimum 13 for plant 13"``.
    """

    def __init__(self, message: str, *, reason: Reason, action: Any = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.action = action

    def __reduce__(self) -> tuple[Any, ...]:  # keep pickling (multiprocessing) working
        return (_rebuild_illegal, (str(self), self.reason, self.action))


def _rebuild_illegal(message: str, reason: Reason, action: Any) -> IllegalAction:
    return IllegalAction(message, reason=reason, action=action)


class RulesConfigError(PowerGridError, ValueError):
    """A :class:`~powergrid.GameConfig` that names an impossible or unsupported game.

    ``field`` names the offending configuration field (``"players"``, ``"map"``...).
    """

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_config, (str(self), self.field))


def _rebuild_config(message: str, field: str) -> RulesConfigError:
    return RulesConfigError(message, field=field)


class InvalidRecord(PowerGridError, ValueError):
    """Malformed JSON, an unknown format version or a record field of the wrong shape.

    ``path`` names the bad field, e.g. ``"actions[3].amount"``.
    """

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
