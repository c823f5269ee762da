"""Explicit chance: the caller resolves the game's random events (chance points).

A game whose config has the ``explicit_chance`` option never lets its seed
decide what players see. At every random event (:data:`~powergrid.actions.CHANCE_EVENTS`:
the play area when the config leaves it open, a dealt initial market, the
round-1 order, and every card taken from the hidden deck) the game stops at a
*chance point*: :func:`powergrid.current_player` returns
:data:`~powergrid.CHANCE`, :func:`powergrid.legal_actions` lists the
possible :class:`~powergrid.Reveal` outcomes, :func:`powergrid.chance_outcomes` gives
each one's probability, and :func:`powergrid.apply` takes the chosen one.

How it works, and why it is exact: the engine still deals its seeded sample
(the seed fills in what nobody has seen, such as the order of the cards still
hidden), and takes each event's outcome from the caller instead of the
sample. A chosen card is exchanged with the sample's card in a way that keeps
the hidden deck a fair sample of what the players may not know (:func:`bring_to_top`).
When an action meets an event whose outcome is not given yet, ``apply``
returns the state *before* the action, marked with the action and the
outcomes given so far (:class:`ChancePoint`); applying an outcome plays the
action again with one outcome more. ``apply`` is pure and deterministic, so
the replay reaches the same event. Fed the outcomes a seeded game drew, an
explicit game plays that very game.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import attrs

from powergrid.actions import Action, Reveal
from powergrid.config import EXPLICIT_CHANCE
from powergrid.errors import IllegalAction, Reason
from powergrid.plants import LOW_BACKS

if TYPE_CHECKING:
    from powergrid.deck import Deck
    from powergrid.state import GameState, Secret

#: The option that turns explicit chance on (``GameConfig(options={"explicit_chance"})``).
OPTION = EXPLICIT_CHANCE

Chances = tuple[tuple[Reveal, Fraction], ...]


@attrs.frozen
class ChancePoint:
    """A pending chance event: the decision being resolved and the outcomes given so far.

    ``action`` is the action whose consequences meet the event, or ``None``
    while the setup itself is being resolved (:func:`powergrid.new_game`).
    ``given`` holds the outcomes already chosen for it, in the order its events
    happen. ``used`` counts, while the action is replayed, the outcomes taken
    so far; a stored chance point has 0. ``fill`` (internal) lets a replay take
    the seeded sample's outcome where none is given, and add it to ``given``:
    it lays out the placeholder state of a pending setup and reads the
    outcomes a seeded game drew.
    """

    action: Action | None
    given: tuple[Reveal, ...] = ()
    used: int = 0
    fill: bool = False


class NeedOutcome(Exception):
    """Raised inside a replay at an event whose outcome was not given yet (internal)."""

    def __init__(self, chances: Chances) -> None:
        super().__init__("a chance outcome is needed")
        self.chances = chances


def pick(point: ChancePoint, chances: Chances, sampled: str) -> tuple[ChancePoint, str]:
    """The next given outcome, checked against ``chances``; :class:`NeedOutcome` if none is left.

    ``sampled`` is the seeded sample's outcome, taken only by a filling replay.
    An outcome that is not among ``chances`` raises :class:`~powergrid.IllegalAction`
    with reason ``not_an_outcome``, naming the outcomes that are possible.
    """
    if point.used == len(point.given):
        if not point.fill:
            raise NeedOutcome(chances)
        taken = Reveal(event=chances[0][0].event, outcome=sampled)
        point = attrs.evolve(point, given=(*point.given, taken))
    reveal = point.given[point.used]
    if all(r != reveal for r, _ in chances):
        event = chances[0][0].event if chances else reveal.event
        possible = ", ".join(r.outcome for r, _ in chances[:12])
        more = f" and {len(chances) - 12} more" if len(chances) > 12 else ""
        raise IllegalAction(
            f"{reveal.outcome!r} is not a possible outcome of the {event} now "
            f"(possible: {possible}{more})",
            reason=Reason.NOT_AN_OUTCOME,
            action=reveal,
        )
    return attrs.evolve(point, used=point.used + 1), reveal.outcome


def uniform(event: str, outcomes: Sequence[str]) -> Chances:
    """Each of ``outcomes`` with the same probability."""
    p = Fraction(1, len(outcomes))
    return tuple((Reveal(event=event, outcome=o), p) for o in outcomes)


def area_chances(region_sets: Sequence[tuple[str, ...]]) -> Chances:
    """SET-04: every connected play area of the right size, equally likely."""
    return uniform("area", [",".join(sorted(s)) for s in region_sets])


def order_chances(players: int) -> Chances:
    """SET-05: every order of the seats, equally likely (``n!`` outcomes)."""
    return uniform("order", [",".join(map(str, p)) for p in itertools.permutations(range(players))])


def market_chances(pool: Sequence[str], size: int, rank: Mapping[str, int]) -> Chances:
    """SET-21: every set of ``size`` cards dealt from ``pool``, equally likely.

    An outcome lists the cards by rank, joined by commas.
    """
    ranked = sorted(pool, key=rank.__getitem__)
    return uniform("market", [",".join(c) for c in itertools.combinations(ranked, size)])


def card_classes(deck: Deck) -> dict[str, str]:
    """The classes of cards the setup treats alike: the low plants (dark, plug) and the rest.

    SET-21 and SET-23 remove a fixed number of cards of each back unseen, so a
    hidden card may only trade places with one of its class. Explicit chance
    (:func:`bring_to_top`) and :func:`powergrid.determinize` both keep them.
    """
    return {c.label: "low" if c.back in LOW_BACKS else "" for c in deck.cards}


def bring_to_top(
    secret: Secret, card: str, class_of: dict[str, str], rank: Mapping[str, int]
) -> Secret:
    """The hidden deck with ``card`` moved to its top, the rest kept a fair sample.

    A card already in the deck changes place with the top card. A card the
    sample had removed unseen changes place with the first deck card of its
    class (``class_of`` maps a card to its class, e.g. the Deluxe back; cards
    it leaves out share one class), so every class keeps as many cards removed
    as the setup removed; the top card then changes place with it. Hidden
    cards of one class are interchangeable at setup, which keeps the sample fair.
    """
    deck, removed = list(secret.deck), list(secret.removed_unseen)
    if card in removed:
        cls = class_of.get(card, "")
        # Where the classes are one shuffled pile (SET-11) any deck card will do.
        j = next((i for i, c in enumerate(deck) if class_of.get(c, "") == cls), 0)
        removed[removed.index(card)] = deck[j]
        deck[j] = card
        removed.sort(key=rank.__getitem__)
    i = deck.index(card)
    deck[0], deck[i] = deck[i], deck[0]
    return attrs.evolve(secret, deck=tuple(deck), removed_unseen=tuple(removed))


def uniform_draws(state: GameState) -> Chances:
    """CON-13: the next hidden card, for a deck shuffled as one (the classic setup, SET-11).

    Before the Step 3 reshuffle every hidden card (deck or removed unseen) is
    equally likely; after it, the deck holds only cards every player saw go
    under it (BUR-07), each equally likely, and the removed ones stay out.
    """
    secret = state.secret
    pool = secret.deck + secret.removed_unseen if state.market.step3_in_deck else secret.deck
    rank = state.rules.rank
    return uniform("draw", sorted(pool, key=rank.__getitem__))
