"""Fair play for search bots: :func:`determinize`, a state resampled for one seat's knowledge.

A bot that searches with :func:`powergrid.apply` on the real state would see the
real future draws. :func:`determinize` returns a state that ``seat`` cannot tell
from the real one (its :func:`~powergrid.view` and the public history are
equal) in which everything ``seat`` may not know is drawn again with ``rng``,
each possibility as likely as that seat's knowledge makes it:

- the hidden plant cards (``state.secret``): which of them the setup removed
  unseen and the order of the draw deck above the Step 3 card (which always
  lies under it). The cards whose identity is public (the market, the hands,
  the face-up top card, the cards under the Step 3 card, the plants out of
  play) stay where they are. What the setup makes known about the hidden
  cards is the deck preparation's to say, through the ``resample_deck`` hook
  (:mod:`powergrid.rules.hooks`): the base game shuffles them as one pile
  (SET-11), the Deluxe set keeps a hidden dark plant on top while the
  set-aside one is there and a fixed number of each back removed (SET-21,
  SET-23). A module that changes the odds of the draws (``draw_chances``) and
  not ``resample_deck`` is followed card by card, each card drawn with the
  probability its ``draw_chances`` gives;
- the random stream (``secret.rng``): a fresh one, so the Step 3 reshuffle
  (STP-08) and every later random event differ from the real game's;
- each rule module's hidden part: a module whose state record has a ``view``
  (:class:`~powergrid.module_state.StateSpec`) must say how it is resampled
  (``StateSpec.resample``); one that does not makes :func:`determinize` raise.

The result depends only on what ``seat`` knows and on ``rng``: two states with
equal views for ``seat`` give the same determinized state for equal ``rng``
states, so nothing of the real hidden order leaks through it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from powergrid.actions import Reveal
from powergrid.chance import RngState
from powergrid.engine.views import next_back
from powergrid.errors import RulesConfigError
from powergrid.frozen import evolve
from powergrid.mechanics.chance_points import bring_to_top, card_classes
from powergrid.state import GameState, Secret

__all__ = ["decision_rng", "determinize"]

#: The random stream of a determinized state starts at a seed below this bound.
SEED_BOUND = 2**63


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A state agreeing with all ``seat`` knows, its hidden parts drawn again with ``rng``.

    ``view(result, seat) == view(state, seat)`` for every seat's own result;
    the deck order, the plants removed unseen, the random stream and the rule
    modules' hidden parts are resampled (see the module docstring). Only
    ``rng`` (a :class:`random.Random`) is drawn from, so equal inputs give equal
    results. A rule module that hides part of its state without a
    ``StateSpec.resample`` raises :class:`~powergrid.RulesConfigError` naming
    it; a seat that does not exist raises ``ValueError``, like :func:`~powergrid.view`.
    """
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TypeError(f"seat must be a seat number, not {seat!r}")
    if not 0 <= seat < len(state.players):
        raise ValueError(f"seat {seat} does not exist in a {len(state.players)}-player game")
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {rng!r}")
    secret = _resampled_secret(state, rng)
    state = evolve(state, secret=secret)
    if state.rules.state_specs:
        state = _resampled_modules(state, seat, rng)
    return state


def decision_rng(seed: int, seat: int, decision: int) -> random.Random:
    """The rng that determinizes decision number ``decision`` of a game for ``seat``.

    The arena and the Gymnasium environment draw with it: a function of the
    game seed, the seat and how many actions the game has played, so their
    games are the same on every backend and run.
    """
    return random.Random(f"determinize:{seed}:{seat}:{decision}")


def _resampled_secret(state: GameState, rng: random.Random) -> Secret:
    """The hidden cards dealt again and a fresh random stream."""
    secret, rules = state.secret, state.rules
    fresh = RngState(rng.randrange(SEED_BOUND))
    if not secret.deck:
        # Nothing left to draw: the removals unseen are then all the hidden cards.
        return Secret(deck=(), removed_unseen=secret.removed_unseen, rng=fresh)
    if (
        rules.hooks.resample_deck is rules.base_hooks.resample_deck
        and rules.hooks.draw_chances is not rules.base_hooks.draw_chances
    ):
        # A module changed the odds of the draws but not the resampling: follow its odds.
        deck, removed = _drawn_in_turn(state, rng)
    else:
        deck, removed = rules.hooks.resample_deck(state, rng)
    return Secret(deck=_shown_back_on_top(state, deck), removed_unseen=removed, rng=fresh)


def _shown_back_on_top(state: GameState, deck: tuple[str, ...]) -> tuple[str, ...]:
    """RCH-21: where every player sees the top card's back, the resampled top has it too.

    The first card of that back in a uniformly drawn deck is uniform among
    them and leaves the rest uniformly ordered, so moving it to the top draws
    the deck as likely as the seat's knowledge (the back shown) makes it.
    """
    shown = next_back(state)
    plants = state.rules.plants
    if shown is None or not deck or plants[deck[0]].back == shown:
        return deck
    i = next(i for i, card in enumerate(deck) if plants[card].back == shown)
    return (deck[i], *deck[:i], *deck[i + 1 :])


def _drawn_in_turn(state: GameState, rng: random.Random) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The deck drawn card by card with the ``draw_chances`` hook's probabilities.

    Starts from a public arrangement (per class, the lowest hidden cards are
    the removed ones; the deck by rank), so that no real position is carried
    over; the explicit chance machinery (``bring_to_top``) then brings each
    sampled card to the top of the deck, keeping every class's count of
    removed cards, and it is taken off.
    """
    rules, secret = state.rules, state.secret
    classes = card_classes(state.rules.deck)
    scratch = evolve(state, secret=_public_arrangement(state, classes))
    deck: list[str] = []
    for _ in range(len(secret.deck)):
        card = _sample(rules.hooks.draw_chances(scratch), rng)
        hidden = bring_to_top(scratch.secret, card, classes, rules.rank)
        market = scratch.market
        scratch = evolve(
            scratch,
            secret=evolve(hidden, deck=hidden.deck[1:]),
            market=evolve(market, deck_size=market.deck_size - 1),
        )
        deck.append(card)
    return tuple(deck), scratch.secret.removed_unseen


def _public_arrangement(state: GameState, classes: dict[str, str]) -> Secret:
    """The hidden cards laid out from public facts only: deck and removals by rank."""
    secret, rank = state.secret, state.rules.rank
    if not state.market.step3_in_deck:
        return evolve(secret, deck=tuple(sorted(secret.deck, key=rank.__getitem__)))
    removed_per_class: dict[str, int] = {}
    for card in secret.removed_unseen:
        cls = classes.get(card, "")
        removed_per_class[cls] = removed_per_class.get(cls, 0) + 1
    deck: list[str] = []
    removed: list[str] = []
    pool = secret.deck + secret.removed_unseen
    for card in sorted(pool, key=rank.__getitem__):
        cls = classes.get(card, "")
        if removed_per_class.get(cls, 0):
            removed_per_class[cls] -= 1
            removed.append(card)
        else:
            deck.append(card)
    return evolve(secret, deck=tuple(deck), removed_unseen=tuple(removed))


def _sample(chances: Sequence[tuple[Reveal, Fraction]], rng: random.Random) -> str:
    """One outcome of ``chances``, drawn with its probability (one ``rng.random()``)."""
    if not chances:
        raise ValueError("the draw_chances hook gives no card while the deck holds some")
    u = rng.random() * float(sum(p for _, p in chances))
    for reveal, p in chances:
        u -= float(p)
        if u < 0:
            return reveal.outcome
    return chances[-1][0].outcome


def _resampled_modules(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Each module's hidden part resampled by its own ``StateSpec.resample``, in order."""
    for name, spec in state.rules.state_specs:
        if spec.view is None:
            continue  # public: every seat sees all of it
        if spec.resample is None:
            raise RulesConfigError(
                f"rule module {name!r} hides part of its state (its StateSpec has a view) "
                "but declares no resample, so determinize cannot draw what a seat may not "
                "know of it: give its StateSpec a resample(state, seat, rng)",
                field="modules",
            )
        old = state.modules[name]
        new = spec.resample(state, seat, rng)
        if spec.view(new, seat) != spec.view(old, seat):
            raise ValueError(
                f"rule module {name!r}'s resample changed what seat {seat} sees of its state"
            )
        state = evolve(state, modules=state.modules.replaced(name, new))
    return state
