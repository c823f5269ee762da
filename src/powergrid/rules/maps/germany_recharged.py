"""The Recharged Germany board (RCH-55) and its nuclear phase-out (RCH-42).

The board comes from ``data/maps/germany_recharged.json``: the classic Germany
board with Torgelow named Stralsund, Wiesbaden named Mainz, Essen-Dortmund 5
and Mannheim-Saarbrucken 16 (single source, OQ-R06). It plays only with the
Recharged edition (the board file names it).

The phase-out (RCH-42): from the moment a player buys plant 39 (the module's
``data["phase_out_plant"]``, OQ-R10), phase 5 refills no uranium for the rest
of the game; uranium on the market stays buyable. Nothing happens when 39
leaves the game unbought. The module's state, :class:`NuclearPhaseOut`, says
whether it has begun (public).
"""

from __future__ import annotations

import attrs

from powergrid.enums import Resource
from powergrid.module_state import StateSpec, with_module
from powergrid.rules import RuleModule
from powergrid.state import GameState

MODULE_NAME = "germany_recharged"
#: RCH-42, OQ-R10: the plant whose purchase ends the uranium refill.
PHASE_OUT_PLANT = 39


@attrs.frozen
class NuclearPhaseOut:
    """Whether plant 39 has been bought, ending the uranium refill (RCH-42)."""

    started: bool = False


def _described(record: NuclearPhaseOut, rules: object) -> list[str]:
    return ["nuclear phase-out: no uranium refill (RCH-42)"] if record.started else []


STATE = StateSpec(record=NuclearPhaseOut, keys={"started": "phase_out"}, describe=_described)


def phase_out_started(state: GameState) -> bool:
    """Whether the phase-out has begun (plant 39 was bought, RCH-42)."""
    record: NuclearPhaseOut = state.modules[MODULE_NAME]
    return record.started


def start_on_purchase(state: GameState, plant: str) -> GameState:
    """RCH-42: buying plant 39 starts the phase-out, once."""
    if state.rules.number(plant) != PHASE_OUT_PLANT or phase_out_started(state):
        return state
    state = with_module(state, MODULE_NAME, NuclearPhaseOut(started=True))
    return state.log(
        "nuclear_phase_out",
        f"Plant {plant} is bought: uranium is no longer refilled for the rest of the game "
        "(RCH-42).",
        None,
        plant,
    )


def no_uranium_refill(state: GameState, amounts: tuple[int, ...]) -> tuple[int, ...]:
    """RCH-42: once the phase-out has begun, the refill adds no uranium."""
    if not phase_out_started(state):
        return amounts
    i = state.rules.kind_index(Resource.URANIUM)
    return amounts[:i] + (0,) + amounts[i + 1 :]


MODULE = RuleModule(
    name=MODULE_NAME,
    version="1",
    components={"recharged"},
    hooks={"after_purchase": start_on_purchase, "refill_amounts": no_uranium_refill},
    state=STATE,
    data={"phase_out_plant": PHASE_OUT_PLANT},
    plant_events={"nuclear_phase_out"},
    notable_events={"nuclear_phase_out"},
)
