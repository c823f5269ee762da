"""Sample decks for trying and testing the customised deck (RULES.md section 10).

The cards of The New Power Plants are not public, so this library never
pretends to have them (:data:`powergrid.deck.UNKNOWN_DECKS`). These decks are
built from verified data plus cards marked ``origin="synthetic"``, whose fuel
and cities are made up: good for tests, examples and trying the rules, never
for playing the real expansion.

- :func:`other_deck`: Variant M's other deck stand-in, the classic deck again
  with synthetic plants 1 and 2;
- :func:`plus_deck`: six synthetic plus plants with the numbers of CDK-11
  (46+, 50+, 52+, 54+, 57+, 60+);
- :func:`sample_config`: a classic config with the ``custom_deck`` module and
  these decks for a variant.

>>> from powergrid.rules.custom_deck.samples import sample_config
>>> sample_config("M", 3).deck.variant
'M'
"""

from __future__ import annotations

import functools
from typing import Any

from powergrid.config import GameConfig
from powergrid.deck import Deck, DeckChoice
from powergrid.enums import Resource
from powergrid.plants import Plant
from powergrid.rules.classic import shipped_deck

#: The numbers of the six plus plants of CDK-11.
PLUS_NUMBERS = (46, 50, 52, 54, 57, 60)


def _synthetic(label: str, number: int, kind: Resource, burn: int, cities: int) -> Plant:
    return Plant(
        label=label,
        number=number,
        kind=kind.value,
        accepts=frozenset({kind}),
        burn=burn,
        cities=cities,
        plus=label.endswith("+"),
        origin="synthetic",
    )


@functools.cache
def other_deck() -> Deck:
    """The classic cards again, with synthetic plants 1 and 2 (made-up fuel and cities)."""
    low = (
        _synthetic("1", 1, Resource.COAL, 1, 1),
        _synthetic("2", 2, Resource.OIL, 1, 1),
    )
    return Deck(
        name="sample_other",
        cards=(*low, *shipped_deck("classic").cards),
        step3="sample_other",
        # The old module path stays in the text: a deck's source is part of its data.
        source="the classic deck plus synthetic plants 1 and 2 (powergrid.sample_decks)",
    )


@functools.cache
def plus_deck() -> Deck:
    """Six synthetic plus plants (made-up fuel and cities), labelled ``"46+"`` etc."""
    cards = tuple(_synthetic(f"{n}+", n, Resource.URANIUM, 2, 7) for n in PLUS_NUMBERS)
    return Deck(
        name="sample_plus",
        cards=cards,
        step3="classic",
        source="synthetic plus plants (powergrid.sample_decks)",  # data: the old path stays
    )


def sample_config(variant: str, players: int = 3, **config: Any) -> GameConfig:
    """A classic config with the ``custom_deck`` module and the sample decks of ``variant``.

    ``"M"``: the classic deck and :func:`other_deck`; ``"P"``: the classic deck
    and :func:`plus_deck`; ``"free"``: the classic deck alone.
    """
    original = shipped_deck("classic")
    decks = {"M": (original, other_deck()), "P": (original, plus_deck()), "free": (original,)}
    return GameConfig(
        players=players,
        components="classic",
        modules=("custom_deck",),
        deck=DeckChoice(variant=variant, decks=decks[variant]),
        **config,
    )
