"""The end of a round in fewer copies (issue 34 item 2): the same state as step by step.

After the last Power of a round, phase 5 refills the resource market (BUR-05)
and then updates the plant market (BUR-07), in that order (BUR-08). With the
base hooks both now land in one copy of the state
(:func:`powergrid.engine.phases.bureaucracy.end_of_phase`); the reference here is
the definition it replaced: the refill applied to the state, then the market
update applied to the result. Played out over random games of every kind of
row (Steps 1-3, an empty deck, the fund, customised decks with their own hooks).
"""

from __future__ import annotations

import random

import pytest

import powergrid as pg
from powergrid.engine.phases import bureaucracy
from powergrid.enums import Phase
from powergrid.mechanics import market
from powergrid.rules.custom_deck.samples import sample_config
from powergrid.state import GameState

ROWS = {
    "classic/europe/2": pg.GameConfig(players=2, components="classic"),
    "classic/north_america/4": pg.GameConfig(players=4, map="north_america", components="classic"),
    "deluxe/europe/6": pg.GameConfig(players=6, components="deluxe"),
    "deluxe/north_america/3": pg.GameConfig(players=3, map="north_america", components="deluxe"),
    "deluxe/europe/2/fund": pg.GameConfig(players=2, components="deluxe", modules=("fund",)),
    "classic/europe/3/custom-M": sample_config("M", 3, map="europe"),
}


def _ends_of_phase5(config: pg.GameConfig, games: int) -> list[GameState]:
    """States right after the last Power of a round, before the end of phase 5 runs."""
    out = []
    for seed in range(games):
        rnd = random.Random(seed)
        state = pg.new_game(config, seed=seed)
        while pg.outcome(state) is None:
            action = rnd.choice(pg.legal_actions(state))
            if state.phase is Phase.BUREAUCRACY:
                powered = bureaucracy.apply(state, action)
                if bureaucracy.current(powered) is None:
                    out.append(powered)
            state = pg.apply(state, action)
    return out


@pytest.mark.parametrize("row", sorted(ROWS))
def test_the_end_of_phase5_is_the_refill_then_the_market_update(row: str) -> None:
    """BUR-05, BUR-07, BUR-08: one copy gives the state and events of refill, then update."""
    states = _ends_of_phase5(ROWS[row], games=3)
    assert len(states) > 10
    steps = set()
    for state in states:
        fused = bureaucracy.end_of_phase(state)
        stepwise = market.market_update(bureaucracy.refill(state))
        assert fused == stepwise
        assert list(fused.events) == list(stepwise.events)
        assert fused.secret == stepwise.secret
        steps.add(state.step)
    assert 3 in steps or row.endswith("fund")  # Step 3 removes the lowest plant (BUR-07)


def test_the_refill_text_names_every_kind_in_order() -> None:
    """BUR-05: the refill's event says how many tokens of each kind went to the market."""
    states = _ends_of_phase5(ROWS["classic/europe/2"], games=1)
    refilled = bureaucracy.refill(states[0])
    event = list(refilled.events)[-1]
    assert event.kind == "market_refilled"
    kinds = states[0].rules.resources
    counts = ", ".join(f"{n} {k.value}" for n, k in zip(event.values, kinds, strict=True))
    assert event.text == f"Resource market refilled: {counts}."
