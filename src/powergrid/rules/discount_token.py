"""The discount token: a mark on the lowest actual plant in phase 2 (AUC-30..35, RCH-30..35).

Deluxe plays it on North America (SET-24), Recharged on both of its boards
(RCH-30). The rule is one: at the start of every phase 2 the token goes on
the lowest plant of the actual market, whose minimum bid is then 1 Elektro
(AUC-31, RCH-30); a plant bought carries it away (AUC-35, RCH-31, the core
lifts a mark with its plant, :mod:`powergrid.module_state`); an unsold token
plant leaves the game at the end of phase 2 and is replaced (AUC-33, RCH-33).
The two editions differ in one case, a plant drawn lower than the token plant
while the token lies on it:

- Deluxe (AUC-32, :meth:`DiscountTokenRules.lower_plant_entered`): the drawn
  plant enters the market and the token is removed;
- Recharged (RCH-32, :meth:`DiscountTokenRules.box_lower_drawn`): the drawn
  plant is removed from the game, the token is removed, and another card is
  drawn at once. "Lower" is by rank in both (CDK-14).

The token is the state of the module that plays it (``state.modules[owner]``,
a :class:`DiscountToken`): North America's module, or the Recharged edition.
"""

from __future__ import annotations

import attrs

from powergrid.enums import Phase
from powergrid.mechanics.market import draw, leave_play, remove_from_game
from powergrid.module_state import StateSpec, with_module
from powergrid.plants import Card
from powergrid.rules.hooks import StateViolations
from powergrid.state import GameState

__all__ = ["STATE", "DiscountToken", "DiscountTokenRules"]


@attrs.frozen
class DiscountToken:
    """The plant the discount token lies on (AUC-31, RCH-30), a module's own state.

    ``plant`` is ``None`` while the token lies beside the market, where it
    starts (SET-24) and spends every phase but 2 (AUC-30).
    """

    plant: Card | None = None


def _described(token: DiscountToken, rules: object) -> list[str]:
    return [] if token.plant is None else [f"discount token: on plant {token.plant}"]


#: The token's state: public, a mark on a market plant, written ``discount=`` in position
#: texts (the plant market's field of JSON formats 1 to 4).
STATE = StateSpec(
    record=DiscountToken, marks=("plant",), keys={"plant": "discount"}, describe=_described
)


@attrs.frozen
class DiscountTokenRules:
    """The token's hooks for the module ``owner`` whose state holds it.

    Each method is a hook of :mod:`powergrid.rules.hooks`: ``place_token``
    (``start_of_auction``), ``min_bid``, ``lower_plant_entered``
    (``after_market_entry``, Deluxe) or ``box_lower_drawn`` (``draw_filter``,
    Recharged), ``unsold_token_plant`` (``end_of_auction``) and the wrap
    ``violations`` (``state_violations``).
    """

    owner: str

    def _rule(self, deluxe: str, recharged: str) -> str:
        """The rule ID an event text names: the edition's own (RCH-xx in Recharged)."""
        return recharged if self.owner == "recharged" else deluxe

    def token_plant(self, state: GameState) -> str | None:
        """The plant under the discount token, or ``None`` (beside the market, AUC-30)."""
        token: DiscountToken = state.modules[self.owner]
        return token.plant

    def set_token(self, state: GameState, plant: str | None) -> GameState:
        """Put the token on ``plant``, or beside the market (None: where it starts, SET-24)."""
        return with_module(state, self.owner, DiscountToken(plant))

    def place_token(self, state: GameState) -> GameState:
        """AUC-31, RCH-30: each phase 2 begins with the token on the lowest actual plant."""
        if not state.market.actual:
            return state
        plant = state.market.actual[0]
        return self.set_token(state, plant).log(
            "discount_placed",
            f"The discount token lies on plant {plant}: its minimum bid is 1 "
            f"({self._rule('AUC-31', 'RCH-30')}).",
            None,
            plant,
        )

    def min_bid(self, state: GameState, plant: str) -> int:
        """AUC-31, RCH-30: the plant under the token opens at 1 Elektro whatever its number."""
        return 1 if plant == self.token_plant(state) else state.rules.number(plant)

    def _lower(self, state: GameState, plant: str) -> str | None:
        """The token plant, when the token lies in phase 2 on a plant ranked above ``plant``."""
        token = self.token_plant(state)
        if token is None or state.phase is not Phase.AUCTION:
            return None
        return token if state.rules.rank[plant] < state.rules.rank[token] else None

    def lower_plant_entered(self, state: GameState, plant: str) -> GameState:
        """AUC-32 (Deluxe): a lower plant entering the actual market removes the token.

        A drawn plant that is too small never enters the market (BLD-12), so it
        leaves the token where it lies (AUC-34).
        """
        token = self._lower(state, plant)
        if token is None or plant not in state.market.actual:
            return state
        return self.set_token(state, None).log(
            "discount_removed",
            f"Plant {plant} is lower than plant {token}: the discount token is removed (AUC-32).",
            None,
            token,
        )

    def box_lower_drawn(self, state: GameState, card: str, face_up: bool) -> tuple[GameState, bool]:
        """RCH-32 (Recharged): a plant drawn lower than the token plant leaves the game.

        The token goes beside the market (its plant gets its printed minimum
        back and is safe from RCH-33), and the draw goes on with the next card.
        Any draw while the token lies counts, not only the first (OQ-R05).
        """
        token = self._lower(state, card)
        if token is None:
            return state, True
        state = leave_play(state, card, "removed")
        state = state.log(
            "plant_removed",
            f"Drawn plant {card} is lower than plant {token} under the discount token: it is "
            "removed from the game (RCH-32).",
            None,
            card,
        )
        state = self.set_token(state, None).log(
            "discount_removed",
            f"The discount token leaves plant {token}; another plant is drawn (RCH-32).",
            None,
            token,
        )
        return state, False

    def unsold_token_plant(self, state: GameState) -> GameState:
        """AUC-33, RCH-33: an unsold discounted plant leaves the game and is replaced.

        The token then goes beside the market for the other phases (AUC-30).
        """
        token = self.token_plant(state)
        state = self.set_token(state, None)
        if token is None or token not in state.market.plants:
            return state
        state = remove_from_game(
            state, token, f"unsold under the discount token, {self._rule('AUC-33', 'RCH-33')}"
        )
        return draw(state)

    def violations(self, previous: StateViolations) -> StateViolations:
        """AUC-31: the token lies only on the lowest actual plant, and only in phase 2."""

        def state_violations(state: GameState) -> tuple[str, ...]:
            out = tuple(previous(state))
            token = self.token_plant(state)
            if token is not None and (
                state.phase is not Phase.AUCTION or state.market.actual[:1] != (token,)
            ):
                out += ("the discount token is not on the lowest actual plant in phase 2 (AUC-31)",)
            return out

        return state_violations
