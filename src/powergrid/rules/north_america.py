"""The North America map module: the discount token (CON-02, AUC-30..AUC-35).

The board comes from ``data/maps/north_america.json``: 7 regions of 7 cities,
99 connections. The metropoles New York and Mexico City are board data, so
they are part of every game on this map: each is two cities joined by a
connection of cost 0 (BLD-10, BLD-11), each half its own city with its own
slots, so a player may hold both halves but never two houses in one half
(BLD-06), and routes cross between the halves for free.

The discount token is a Deluxe rule; a classic game plays it only with the
``map_rules`` option (OQ-31, ``powergrid.ruleset``). When its plant leaves the
market (bought, AUC-35, or removed) the token goes beside the market with it
(market.take_plant). In a classic game with ``map_rules`` the token also
replaces the classic no-purchase removal (AUC-20): if nobody buys, the lowest
plant carries the token and is removed once, by AUC-33, never twice (EC-08,
AUC-22).
"""

from __future__ import annotations

from powergrid.copies import evolve
from powergrid.enums import Phase
from powergrid.market import draw, remove_from_game
from powergrid.rules import RuleModule
from powergrid.state import GameState


def _set_token(state: GameState, plant: str | None) -> GameState:
    """Put the token on ``plant``, or beside the market (None: where it starts, SET-24)."""
    return evolve(state, market=evolve(state.market, discount=plant))


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
    return 1 if plant == state.market.discount else state.rules.number(plant)


def lower_plant_entered(state: GameState, plant: str) -> GameState:
    """AUC-32: a lower plant entering the actual market removes (not moves) the token.

    "Lower" is by rank, so a plus plant is higher than the plain plant of its
    number (CDK-14).

    A drawn plant that is too small never enters the market (BLD-12), so it
    leaves the token where it lies (AUC-34).
    """
    token = state.market.discount
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
    token = state.market.discount
    state = _set_token(state, None)
    if token is None or token not in state.market.plants:
        return state
    state = remove_from_game(state, token, "unsold under the discount token, AUC-33")
    return draw(state)


MODULE = RuleModule(
    name="north_america",
    version="1",
    hooks={
        "start_of_auction": place_token,
        "min_bid": min_bid,
        "after_market_entry": lower_plant_entered,
        "end_of_auction": unsold_token_plant,
    },
)
