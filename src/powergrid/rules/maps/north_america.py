"""The North America map module: the discount token (CON-02, AUC-30..AUC-35).

The board comes from ``data/maps/north_america.json``: 7 regions of 7 cities,
99 connections. The metropoles New York and Mexico City are board data, so
they are part of every game on this map: each is two cities joined by a
connection of cost 0 (BLD-10, BLD-11), each half its own city with its own
slots, so a player may hold both halves but never two houses in one half
(BLD-06), and routes cross between the halves for free.

The discount token is a Deluxe rule; a classic game plays it only with the
``map_rules`` option (OQ-31, ``powergrid.rules.ruleset``). It is the module's own
state (:class:`DiscountToken`, ``state.modules["north_america"]``), a mark on a
market plant: when its plant leaves the market (bought, AUC-35, or removed)
the core lifts the token with it (:mod:`powergrid.module_state`). In a classic
game with ``map_rules`` the token also replaces the classic no-purchase
removal (AUC-20): if nobody buys, the lowest plant carries the token and is
removed once, by AUC-33, never twice (EC-08, AUC-22).
"""

from __future__ import annotations

import attrs

from powergrid.enums import Phase
from powergrid.mechanics.market import draw, remove_from_game
from powergrid.module_state import StateSpec, with_module
from powergrid.plants import Card
from powergrid.rules import RuleModule
from powergrid.rules.hooks import StateViolations
from powergrid.state import GameState

MODULE_NAME = "north_america"


@attrs.frozen
class DiscountToken:
    """The module's own state: the plant the discount token lies on (AUC-31).

    ``plant`` is ``None`` while the token lies beside the market, where it
    starts (SET-24) and spends every phase but 2 (AUC-30).
    """

    plant: Card | None = None


def _token_violations(previous: StateViolations) -> StateViolations:
    """AUC-31: the token lies only on the lowest actual plant, and only in phase 2."""

    def state_violations(state: GameState) -> tuple[str, ...]:
        out = tuple(previous(state))
        token = token_plant(state)
        if token is not None and (
            state.phase is not Phase.AUCTION or state.market.actual[:1] != (token,)
        ):
            out += ("the discount token is not on the lowest actual plant in phase 2 (AUC-31)",)
        return out

    return state_violations


#: The token: public, a mark on a market plant, written ``discount=`` in position
#: texts (the plant market's field of JSON formats 1 to 4).
def _described(token: DiscountToken, rules: object) -> list[str]:
    return [] if token.plant is None else [f"discount token: on plant {token.plant}"]


STATE = StateSpec(
    record=DiscountToken, marks=("plant",), keys={"plant": "discount"}, describe=_described
)


def token_plant(state: GameState) -> str | None:
    """The plant under the discount token, or ``None`` (beside the market, AUC-30)."""
    token: DiscountToken = state.modules[MODULE_NAME]
    return token.plant


def _set_token(state: GameState, plant: str | None) -> GameState:
    """Put the token on ``plant``, or beside the market (None: where it starts, SET-24)."""
    return with_module(state, MODULE_NAME, DiscountToken(plant))


def place_token(state: GameState) -> GameState:
    """AUC-31: at the start of phase 2 the token goes on the lowest actual plant."""
    if not state.market.actual:
        return state
    plant = state.market.actual[0]
    return _set_token(state, plant).log(
        "discount_placed",
        f"The discount token lies on plant {plant}: its minimum bid is 1 (AUC-31).",
        None,
        plant,
    )


def min_bid(state: GameState, plant: str) -> int:
    """AUC-31: the plant under the token opens at 1 Elektro whatever its number."""
    return 1 if plant == token_plant(state) else state.rules.number(plant)


def lower_plant_entered(state: GameState, plant: str) -> GameState:
    """AUC-32: a lower plant entering the actual market removes (not moves) the token.

    "Lower" is by rank, so a plus plant is higher than the plain plant of its
    number (CDK-14).

    A drawn plant that is too small never enters the market (BLD-12), so it
    leaves the token where it lies (AUC-34).
    """
    token = token_plant(state)
    if (
        token is None
        or state.phase is not Phase.AUCTION
        or state.rules.rank[plant] >= state.rules.rank[token]
        or plant not in state.market.actual
    ):
        return state
    return _set_token(state, None).log(
        "discount_removed",
        f"Plant {plant} is lower than plant {token}: the discount token is removed (AUC-32).",
        None,
        token,
    )


def unsold_token_plant(state: GameState) -> GameState:
    """AUC-33, AUC-30: an unsold discounted plant leaves the game and is replaced.

    The token then goes beside the market for the other phases (AUC-30).
    """
    token = token_plant(state)
    state = _set_token(state, None)
    if token is None or token not in state.market.plants:
        return state
    state = remove_from_game(state, token, "unsold under the discount token, AUC-33")
    return draw(state)


MODULE = RuleModule(
    name=MODULE_NAME,
    version="1",
    hooks={
        "start_of_auction": place_token,
        "min_bid": min_bid,
        "after_market_entry": lower_plant_entered,
        "end_of_auction": unsold_token_plant,
    },
    wraps={"state_violations": _token_violations},
    state=STATE,
    plant_events={"discount_placed", "discount_removed"},
)
