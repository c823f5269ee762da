"""Shared builders for the Recharged tests (RULES.md section 13).

Positions are built as in the other rule tests: a fresh game reshaped with
``tests.scenario.arrange`` / ``give`` (stacked decks, explicit markets, the
discount token placed by hand). "RC-DE" is the Recharged Germany board,
"RC-US" the Recharged USA board (13.11 conventions). Seats: A = 0, B = 1,
C = 2, D = 3; player order A, B, C(, D) unless a builder is told otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from powergrid.enums import Phase
from powergrid.state import GameState
from tests.scenario import arrange, new
from tests.scenario import buy_alone as buy_alone  # a 4th plant waits for the scrap (RCH-38)
from tests.scenario import reject as reject

A, B, C, D = 0, 1, 2, 3
RC_DE = "germany_recharged"
RC_US = "usa_recharged"
MAPS = (RC_DE, RC_US)
COUNTS = (2, 3, 4, 5, 6)
# RC-DE play areas (13.10: 3 regions for 2-3 players, 4 for 4, 5 for 5-6), chosen to
# hold the cities the scenarios name: red (Dortmund, Essen, Kassel, ...), cyan (Koln,
# Aachen, Mainz, ...), yellow, then green and purple.
DE_3 = ("red", "cyan", "yellow")
DE_4 = ("red", "cyan", "yellow", "green")
DE_5 = (*DE_4, "purple")
DE_AREAS = {2: DE_3, 3: DE_3, 4: DE_4, 5: DE_5, 6: DE_5}


def rc(
    players: int = 4,
    map: str = RC_DE,
    *,
    seed: int = 0,
    regions: Sequence[str] | None = None,
    options: Iterable[str] = (),
) -> GameState:
    """A fresh Recharged game (phase 2 of round 1) on a Recharged board.

    On RC-DE the play area defaults to :data:`DE_AREAS`; elsewhere the seed picks it.
    """
    if regions is None and map == RC_DE:
        regions = DE_AREAS[players]
    return new(
        players,
        map=map,
        seed=seed,
        regions=regions,
        components="recharged",
        options=frozenset(options),
    )


def token(state: GameState) -> str | None:
    """The plant under the Recharged discount token, or ``None`` (beside the market)."""
    held = state.modules["recharged"]
    plant: str | None = held.plant
    return plant


def auction(
    players: int = 4,
    map: str = RC_DE,
    *,
    actual: Sequence[int],
    future: Sequence[int],
    deck: Sequence[int],
    discount: int | None,
    round: int = 2,
    step: int = 1,
    order: Sequence[int] | None = None,
    done: Sequence[int] = (),
    bought: Sequence[int] = (),
    options: Iterable[str] = (),
    step3_in_deck: bool = True,
) -> GameState:
    """Phase 2 of ``round`` with the given market, a stacked deck and the token on ``discount``.

    Every player holds 50 Elektro and nothing else; the deck's top card is face down.
    """
    s = rc(players, map, options=options)
    s = arrange(
        s,
        round=round,
        step=step,
        phase=Phase.AUCTION,
        order=tuple(range(players)) if order is None else order,
        done=done,
        bought=bought,
        actual=actual,
        future=future,
        top=None,
        deck=deck,
        step3_in_deck=step3_in_deck,
    )
    return arrange(s, discount=discount)


def events_of(state: GameState, kind: str, since: int = 0) -> list[Any]:
    """The events of ``kind`` logged from index ``since`` on."""
    return [e for e in state.events.as_tuple()[since:] if e.kind == kind]
