"""What differs between the Deluxe fund (section 9) and the Recharged Trust (RCH-85).

One record, :class:`FundVariant`, holds every difference; ``fund_module(variant=...)``
builds either module from it, so the two share all the rest (the setup's six
houses, the phase-3 fuel, the phase-5 run, the phase-4 houses on 15 slots).

What the Trust changes and where it lives:

- RCH-85 a, the hybrid takes coal first: ``first_hybrid_kind``;
- RCH-85 c, its plant comes on its own turn, after the first human has bought
  or passed (OQ-R08): ``takes_on_its_turn``;
- RCH-85 i, the refill row (OQ-R04): the 2-player row of the component set by
  default; the config option ``refill_option`` plays the ``refill_players`` row;
- OQ-R09, its free plant counts as a purchase for the board's rules (plant 39
  starts the German phase-out): ``take_is_purchase``; it takes the USA storage
  coal free once the market has none: ``takes_priced_supply``.

The rest of RCH-85 needs no code: Step 2 at 7, the end at 18 and the 1 plug /
5 socket removals (h, j) are the Recharged 2-player row (13.10).
"""

from __future__ import annotations

import attrs

from powergrid.data import load
from powergrid.enums import Resource

_DATA = load("fund.json")


@attrs.frozen(kw_only=True)
class FundVariant:
    """The readings that make the neutral third party the Deluxe fund or the Recharged Trust.

    - ``module``: the rule module's name (``"fund"``, ``"trust"``);
    - ``name``: what players call it (the actor's name, ``"the Trust"``);
    - ``rule``: the rule ID a refused config cites;
    - ``components``: the component set it plays with;
    - ``first_hybrid_kind``: the kind a hybrid plant takes first (FND-17, RCH-85 a);
    - ``takes_on_its_turn``: its plant comes when the first human has bought or
      passed (RCH-85 c), not at the first purchase or pass of anyone (FND-11);
    - ``take_is_purchase``: its free plant runs the ``after_purchase`` hook
      as a bought plant does (OQ-R09);
    - ``takes_priced_supply``: in phase 3 it also takes, free, the tokens a
      player may buy from the supply when the market has none (RCH-43, OQ-R09);
    - ``refill_option``: a config option that refills the market by the row
      of ``refill_players`` players instead of the game's (OQ-R04), or None.
    """

    module: str
    name: str
    rule: str
    components: frozenset[str]
    first_hybrid_kind: Resource
    takes_on_its_turn: bool = False
    take_is_purchase: bool = False
    takes_priced_supply: bool = False
    refill_option: str | None = None
    refill_players: int = 3


def opening(name: str) -> str:
    """A third party's name as the first words of a sentence: ``"the Trust"`` -> ``"The Trust"``."""
    return name[:1].upper() + name[1:]


#: The Deluxe 2-player fund of RULES.md section 9.
DELUXE_FUND = FundVariant(
    module="fund",
    name=_DATA["name"],
    rule="FND-01",
    components=frozenset({"deluxe"}),
    first_hybrid_kind=Resource(_DATA["first_kind_of_hybrid"]),
)

#: The config option of OQ-R04's other reading, the Trust refilling as for 3 players.
TRUST_REFILL_AS_THREE = "trust_refill_as_three"

#: The Recharged Trust (RCH-84, RCH-85).
RECHARGED_TRUST = FundVariant(
    module="trust",
    name="the Trust",
    rule="RCH-84",
    components=frozenset({"recharged"}),
    first_hybrid_kind=Resource.COAL,
    takes_on_its_turn=True,
    take_is_purchase=True,
    takes_priced_supply=True,
    refill_option=TRUST_REFILL_AS_THREE,
    refill_players=3,
)
