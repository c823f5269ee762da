"""The Trust: the Recharged 2-player game's third party (RCH-84, RCH-85).

Two humans play the Recharged game against the Trust, the fund of RULES.md
section 9 with the changes of RCH-85. It is the same module as the fund,
built from another :class:`~powergrid.rules.fund.variant.FundVariant`
(:data:`~powergrid.rules.fund.variant.RECHARGED_TRUST`): its hybrid takes coal
first (a), its plant comes on its own turn, once the first human has bought
or passed (c, OQ-R08), and its free plant 39 starts the German phase-out
(OQ-R09). The Recharged 2-player row gives Step 2 at 7, the end at 18 and
the 1 plug / 5 socket removals (h, j); the refill is that row's 2-player
column unless the config names the option ``trust_refill_as_three`` (i,
OQ-R04). It is the default module of a 2-player Recharged game; the only
2-player Recharged game without it is boardgamers.space's, the option
``two_player_boardgamers`` (OQ-R03).
"""

from __future__ import annotations

from powergrid.rules.fund import RECHARGED_TRUST, fund_module

__all__ = ["MODULE"]

#: The Trust with the default phase-4 reading (FND-08, RCH-85 e).
MODULE = fund_module(variant=RECHARGED_TRUST)
