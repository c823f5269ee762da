"""Arena policies that read the hidden part of the state (issue 36 item 2), importable by name."""

from __future__ import annotations

import powergrid as pg


def clairvoyant(state: pg.GameState) -> pg.Action:
    """A legal action chosen by the top card of the deck it is shown: what it sees steers it."""
    actions = pg.legal_actions(state)
    deck = state.secret.deck
    top = state.rules.rank[deck[0]] if deck else 0
    return actions[(top + state.secret.rng.seed) % len(actions)]
