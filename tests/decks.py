"""Decks for the customised-deck tests: the sample decks of ``rules.custom_deck.samples``.

The cards of The New Power Plants are not public, so the tests never pretend
to have them (RULES.md section 10, ``reference/plants_new_power_plants.json``):
``ORIGINAL`` is the classic deck as it ships, ``other_deck()`` the classic deck
again with synthetic plants 1 and 2, ``plus_deck()`` six synthetic plus plants.
"""

from __future__ import annotations

from powergrid.rules.classic import shipped_deck
from powergrid.rules.custom_deck.samples import PLUS_NUMBERS, other_deck, plus_deck
from powergrid.rules.custom_deck.samples import sample_config as config

ORIGINAL = shipped_deck("classic")

__all__ = ["ORIGINAL", "PLUS_NUMBERS", "config", "other_deck", "plus_deck"]
