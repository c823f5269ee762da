"""Errors raised by powergrid.

Every error derives from :class:`PowerGridError`. Rule violations raise
:class:`IllegalAction`; a bad game configuration raises :class:`RulesConfigError`;
malformed JSON or records raise :class:`InvalidRecord`.

Messages are printed to terminals, and may quote what a file holds: every
error here escapes the characters of its message that are not printable
(control characters, escape sequences, line breaks, lone surrogates) and cuts
a message longer than :data:`MAX_MESSAGE` characters short, so no file can
write raw bytes to a terminal through an error.
"""

from __future__ import annotations

import enum
from typing import Any, NoReturn


class Reason(enum.StrEnum):
    """Stable, machine-readable codes carried by :attr:`IllegalAction.reason`.

    The values never change between releases, so frontends and bots may switch on
    them; the human message may be reworded. Each member says when it is raised.
    """

    #: The game has ended, so no action is legal any more (END-02).
    GAME_OVER = "game_over"
    #: The action's player is not the seat to act now.
    NOT_YOUR_TURN = "not_your_turn"
    #: The action names a seat that is not in this game.
    UNKNOWN_SEAT = "unknown_seat"
    #: The action belongs to another phase than the current one (CON-03).
    WRONG_PHASE = "wrong_phase"
    #: The object is not a powergrid action at all.
    UNKNOWN_ACTION = "unknown_action"
    #: The plant is not in the actual market, so it cannot be auctioned (AUC-04).
    NOT_ACTUAL_PLANT = "not_actual_plant"
    #: The bid is below the plant's minimum, or not above the current bid (AUC-04, AUC-06).
    BID_TOO_LOW = "bid_too_low"
    #: The bid is more than the bidder's money (AUC-07).
    BID_ABOVE_MONEY = "bid_above_money"
    #: The last player left in phase 2 buys at the minimum bid only (AUC-14).
    LAST_PLAYER_PAYS_MINIMUM = "last_player_pays_minimum"
    #: Nobody may pass the auction phase in round 1 (AUC-13).
    PASS_FORBIDDEN_FIRST_ROUND = "pass_forbidden_first_round"
    #: A bid or fold while no auction runs, or by a seat no longer in it (AUC-06).
    NOT_IN_AUCTION = "not_in_auction"
    #: Opening or passing while an auction runs (bid or fold first).
    AUCTION_RUNNING = "auction_running"
    #: A player over the plant limit must discard a plant first (AUC-17).
    DISCARD_REQUIRED = "discard_required"
    #: A discard by a player who is not over the plant limit (AUC-17).
    NOTHING_TO_DISCARD = "nothing_to_discard"
    #: The player does not own the plant named.
    NOT_OWN_PLANT = "not_own_plant"
    #: The plant just bought may not be discarded with these components (AUC-17).
    DISCARD_NEW_PLANT = "discard_new_plant"
    #: The tokens named to return do not fit the rules of the discard (AUC-18).
    BAD_RESOURCE_DROP = "bad_resource_drop"
    #: The resource kind is not one of this game's kinds (CON-01).
    UNKNOWN_RESOURCE = "unknown_resource"
    #: A purchase of fewer than one token.
    BAD_COUNT = "bad_count"
    #: The market holds fewer tokens of that kind than asked for (RES-06).
    MARKET_SHORT = "market_short"
    #: The player's plants cannot store the tokens (RES-03, RES-05).
    NO_STORAGE = "no_storage"
    #: The player's money does not cover the price (RES-06, BLD-04).
    CANNOT_AFFORD = "cannot_afford"
    #: The board has no city of that id.
    UNKNOWN_CITY = "unknown_city"
    #: The city lies outside the regions in play (SET-04).
    OUTSIDE_PLAY_AREA = "outside_play_area"
    #: The player already has a house in that city (BLD-03).
    ALREADY_IN_CITY = "already_in_city"
    #: No slot of the city is open in the current Step (BLD-05).
    CITY_FULL = "city_full"
    #: The player has no house left in the supply (BLD-09).
    NO_HOUSES_LEFT = "no_houses_left"
    #: The tokens to burn are not exactly what the plants run on (BUR-02, RES-04).
    BAD_POWER_MIX = "bad_power_mix"
    #: The player does not hold the tokens the plants would burn (BUR-02).
    NOT_ENOUGH_FUEL = "not_enough_fuel"
    #: A fund house must go next to a city with a fund house (FND-05).
    NOT_CONNECTED = "not_connected"
    #: An action index of powergrid.rl's codec that names nothing in this state.
    NOT_IN_MASK = "not_in_mask"
    #: A chance outcome that cannot happen now, or one given when no chance event waits.
    NOT_AN_OUTCOME = "not_an_outcome"
    #: A rule module keeps the city for another use, such as a start city marked
    #: for another player, or one not marked for this player (RCH-13).
    CITY_RESERVED = "city_reserved"
    #: A rule module's own rule forbids its action (e.g. a once-per-game claim made
    #: already); the message cites the rule. A module uses a closer reason when one fits.
    MODULE_RULE = "module_rule"


#: The most characters of an error message; a longer one is cut short.
MAX_MESSAGE = 2_000
_CUT = " ... (message cut short)"


def printable(text: str, limit: int = MAX_MESSAGE) -> str:
    r"""``text`` with every character that is not printable escaped, at most ``limit`` long.

    The escapes are ``repr()``'s (``\x1b``, ``\n``, ``\ud800``); printable
    text is returned unchanged, so applying it twice changes nothing.
    """
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    if len(text) > limit:
        text = text[: limit - len(_CUT)] + _CUT
    return text


class PowerGridError(Exception):
    """Base class of every error this library raises on purpose."""


class IllegalAction(PowerGridError, ValueError):
    """An action that the rules forbid in the given state.

    The state passed to :func:`powergrid.apply` is never changed. ``reason`` is a
    stable code (a :class:`Reason` value); ``str(error)`` is a sentence a player
    understands, e.g. ``"Bid 12 is below the minimum 13 for plant 13"``.
    ``index`` is the position of the action in a record when
    :func:`powergrid.replay` raised it, else ``None``.
    """

    def __init__(
        self, message: str, *, reason: Reason, action: Any = None, index: int | None = None
    ) -> None:
        super().__init__(printable(message))
        self.reason = reason
        self.action = action
        self.index = index

    def __reduce__(self) -> tuple[Any, ...]:  # keep pickling (multiprocessing) working
        return (_rebuild_illegal, (str(self), self.reason, self.action, self.index))


def _rebuild_illegal(
    message: str, reason: Reason, action: Any, index: int | None = None
) -> IllegalAction:
    return IllegalAction(message, reason=reason, action=action, index=index)


class RulesConfigError(PowerGridError, ValueError):
    """A :class:`~powergrid.GameConfig` that names an impossible or unsupported game.

    ``field`` names the offending configuration field (``"players"``, ``"map"``,
    ``"names[2]"``...). A value of the wrong type raises it too, never
    ``TypeError``; so does a seed that is not an ``int`` (``field == "seed"``),
    since config and seed together name a game.
    """

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(printable(message))
        self.field = printable(field, 200)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_config, (str(self), self.field))


def _rebuild_config(message: str, field: str) -> RulesConfigError:
    return RulesConfigError(message, field=field)


class InvalidRecord(PowerGridError, ValueError):
    """Malformed JSON, an unknown format version or a record field of the wrong shape.

    ``path`` names the bad field, e.g. ``"actions[3].amount"`` or
    ``"config.names[2]"`` (a key a file chose stands escaped in it).
    """

    def __init__(self, message: str, *, path: str = "") -> None:
        path = printable(path, 200)
        super().__init__(printable(f"{path}: {message}" if path else message))
        self.path = path


def illegal(message: str, reason: Reason, action: object) -> NoReturn:
    """Raise :class:`~powergrid.IllegalAction`: a message a player understands, a stable reason."""
    raise IllegalAction(message, reason=reason, action=action)
