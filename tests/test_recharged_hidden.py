"""RCH-21: the back of the deck's top card is public in Recharged, and nothing more is.

Issue 37: "the hidden-information tests cover the visible top-card back". A
view shows the back (plug or socket) of the card on top of the draw deck and
nothing else of the deck; ``pg.determinize`` keeps that back on top and draws
the card among those of that back with the odds explicit chance gives them.
"""

from __future__ import annotations

import collections
import random

import attrs

import powergrid as pg
from powergrid.frozen import evolve
from powergrid.testing import playout
from tests.test_determinize import chi_square, chi_square_bound

RC_DE = pg.GameConfig(players=4, map="germany_recharged", components="recharged")


def backs(state: pg.GameState) -> dict[str, str | None]:
    return {card.label: card.back for card in state.rules.deck.cards}


def mixed_deck_state(seed: int) -> pg.GameState:
    """A state of a seeded 4-player game whose hidden deck mixes plug and socket plants."""
    for state, _ in playout(RC_DE, seed, seed):
        deck = state.secret.deck
        kinds = {backs(state)[c] for c in deck}
        if state.phase is pg.Phase.AUCTION and kinds == {"plug", "socket"} and len(deck) > 12:
            first_plug = next(c for c in deck if backs(state)[c] == "plug")
            if deck.index(first_plug) > 0:  # a socket plant lies on top
                return state
    raise AssertionError("no such state in the game")


def test_rch_21_the_view_shows_the_top_cards_back_and_no_more() -> None:
    """RCH-21: every seat sees the top card's back; decks that differ below it look alike."""
    state = mixed_deck_state(3)
    deck = state.secret.deck
    assert backs(state)[deck[0]] == "socket"
    assert pg.public_view(state).next_back == "socket"
    # Another socket plant on top, the rest in another order: the same views.
    j = next(i for i, c in enumerate(deck) if i > 0 and backs(state)[c] == "socket")
    other = (deck[j], *reversed(deck[1:j]), deck[0], *reversed(deck[j + 1 :]))
    twin = evolve(state, secret=attrs.evolve(state.secret, deck=other))
    for seat in range(4):
        assert pg.view(twin, seat) == pg.view(state, seat)
    # A plug plant on top instead: the views differ, in the back shown and nowhere else.
    k = next(i for i, c in enumerate(deck) if backs(state)[c] == "plug")
    plug_top = (deck[k], *deck[:k], *deck[k + 1 :])
    shifted = evolve(state, secret=attrs.evolve(state.secret, deck=plug_top))
    assert pg.public_view(shifted).next_back == "plug"
    assert attrs.evolve(pg.public_view(shifted), next_back="socket") == pg.public_view(state)


def test_rch_21_the_back_survives_json_and_other_editions_show_none() -> None:
    """RCH-21: the view's back round-trips; classic and Deluxe games show no back."""
    view = pg.view(mixed_deck_state(3), 1)
    assert pg.from_json(pg.to_json(view)) == view
    for cfg in (pg.GameConfig(players=4), pg.GameConfig(players=4, components="classic")):
        assert pg.public_view(pg.new_game(cfg, seed=1)).next_back is None


def test_rch_21_a_game_with_explicit_chance_shows_no_back() -> None:
    """The caller of an explicit-chance game picks each card as drawn: no back is shown."""
    cfg = attrs.evolve(RC_DE, options={"explicit_chance"})
    state = pg.new_game(cfg, seed=2)
    while pg.current_player(state) == pg.CHANCE:
        state = pg.apply(state, pg.sampled_outcome(state))
    assert pg.public_view(state).next_back is None


def test_rch_21_determinize_keeps_the_back_on_top_with_the_right_odds() -> None:
    """RCH-21, RCH-20: the resampled top card has the shown back, each such card as likely
    as explicit chance's odds make it once the back is known (chi-square)."""
    state = mixed_deck_state(5)
    shown = pg.public_view(state).next_back
    kind = backs(state)
    odds = {r.outcome: float(p) for r, p in state.rules.hooks.draw_chances(state)}
    given = {c: p for c, p in odds.items() if kind[c] == shown}
    total = sum(given.values())
    probs = {c: p / total for c, p in given.items()}
    rng, n = random.Random(21), 2000
    counts: collections.Counter[str] = collections.Counter()
    for _ in range(n):
        mine = pg.determinize(state, 2, rng)
        assert pg.view(mine, 2) == pg.view(state, 2)
        counts[mine.secret.deck[0]] += 1
    assert set(counts) <= set(probs)
    assert chi_square(dict(counts), probs, n) < chi_square_bound(len(probs) - 1)
