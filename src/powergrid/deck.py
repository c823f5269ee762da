"""A plant deck as data: its cards, its Step 3 card and the order of its cards (CDK-14, CDK-20).

A :class:`Deck` is what a deck file holds (``data/decks/<name>.json``, JSON
Schema ``data/schema/deck.schema.json``): a document ``{"format": 3, "type":
"Deck", ...}`` that :func:`powergrid.from_json` reads and
:func:`powergrid.to_json` writes. The classic and Deluxe decks ship in it.

Every card of a deck has its own label. The game orders cards by **rank**
(:meth:`~powergrid.Deck.ranks`): by printed number, a plus plant directly above the
plain plant of its number (CDK-14), and cards that share a number and plus
flag in the order the deck declares (``order``, CDK-20). Without a declared
order such a deck is refused, unless it is ``paired``: the rules that play it
guarantee two cards of one number are never in play together (Variant M's
inactive area, CDK-03/CDK-09), so their order never matters.

>>> from powergrid.rules.classic import shipped_deck
>>> deck = shipped_deck("classic")
>>> len(deck.cards), deck.cards[0].label, deck.step3
(42, '3', 'classic')
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping

import attrs

from powergrid.errors import RulesConfigError
from powergrid.outside_text import MAX_NAME, MAX_TEXT, shown, text_problem
from powergrid.plants import Plant


def _listed(value: object, field: str) -> tuple[object, ...]:
    """``value`` as a tuple: a list, not a string or mapping (RulesConfigError otherwise)."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise RulesConfigError(f"{field} must be a list, not {shown(value)}", field=field)
    return tuple(value)


def _tuple_of_groups(value: Iterable[Iterable[str]]) -> tuple[tuple[str, ...], ...]:
    groups = tuple(_listed(g, f"order[{i}]") for i, g in enumerate(_listed(value, "order")))
    for g, group in enumerate(groups):
        for i, label in enumerate(group):
            if not isinstance(label, str):
                raise RulesConfigError(
                    f"an order lists card labels, not {shown(label)}", field=f"order[{g}][{i}]"
                )
    return groups  # type: ignore[return-value]


def _cards(value: Iterable[Plant]) -> tuple[Plant, ...]:
    cards = _listed(value, "cards")
    for i, card in enumerate(cards):
        if not isinstance(card, Plant):
            raise RulesConfigError(f"a deck holds plants, not {shown(card)}", field=f"cards[{i}]")
    return cards  # type: ignore[return-value]


@attrs.frozen
class Deck:
    """A plant deck: ``cards`` with distinct labels, the Step 3 card, the order of ties.

    ``step3`` names the deck whose Step 3 card goes under this deck (its
    origin, e.g. ``"classic"``; CDK-05 uses the expansion's). ``order`` lists
    groups of labels that share a printed number and plus flag, lowest rank
    first (CDK-20). ``paired`` says that cards of one number are never in play
    together, so they need no declared order (CDK-03). ``source`` says where
    the card data comes from. A card set that breaks these raises
    :class:`~powergrid.RulesConfigError` naming the field.
    """

    name: str
    cards: tuple[Plant, ...] = attrs.field(converter=_cards)
    step3: str
    order: tuple[tuple[str, ...], ...] = attrs.field(default=(), converter=_tuple_of_groups)
    paired: bool = False
    source: str = ""

    def __attrs_post_init__(self) -> None:
        for key, limit in (("name", MAX_NAME), ("step3", MAX_NAME), ("source", MAX_TEXT)):
            problem = text_problem(getattr(self, key), what=key, limit=limit, empty=key == "source")
            if problem:
                raise RulesConfigError(problem, field=key)
        if not isinstance(self.paired, bool):
            raise RulesConfigError(
                f"paired must be true or false, not {shown(self.paired)}", field="paired"
            )
        seen: dict[str, int] = {}
        for i, card in enumerate(self.cards):
            if card.label in seen:
                raise RulesConfigError(
                    f"cards {seen[card.label]} and {i} are both labelled {card.label!r}: "
                    "every card of a deck needs its own label",
                    field=f"cards[{i}].label",
                )
            seen[card.label] = i
        self.ranks()  # refuse undeclared ties now, not when a game needs them

    def ranks(self) -> dict[str, int]:
        """Each card's rank, 0 for the lowest (see the module docstring)."""
        return dict(_ranks(self))


@functools.lru_cache(maxsize=64)
def _ranks(deck: Deck) -> tuple[tuple[str, int], ...]:
    position = _declared_positions(deck)
    ties: defaultdict[tuple[int, bool], list[str]] = defaultdict(list)
    for card in deck.cards:
        ties[card.number, card.plus].append(card.label)
    for (number, plus), labels in ties.items():
        undeclared = [label for label in labels if label not in position]
        if len(labels) > 1 and undeclared and not deck.paired:
            name = f"{number}+" if plus else str(number)
            raise RulesConfigError(
                f"plants {', '.join(labels)} share the number {name}: declare their order "
                "(lowest first) in the deck's order (CDK-20)",
                field="order",
            )
    ranked = sorted(deck.cards, key=lambda c: (c.number, c.plus, position.get(c.label, 0), c.label))
    return tuple((card.label, rank) for rank, card in enumerate(ranked))


def _declared_positions(deck: Deck) -> dict[str, int]:
    """Position of each label within its declared group, checked against the cards."""
    cards = {c.label: c for c in deck.cards}
    position: dict[str, int] = {}
    for g, group in enumerate(deck.order):
        if len(group) < 2:
            raise RulesConfigError("a declared order names two cards or more", field=f"order[{g}]")
        for i, label in enumerate(group):
            where = f"order[{g}][{i}]"
            if label not in cards:
                raise RulesConfigError(f"the deck has no card {shown(label)}", field=where)
            if label in position:
                raise RulesConfigError(f"card {shown(label)} is ordered twice", field=where)
            first, card = cards[group[0]], cards[label]
            if (card.number, card.plus) != (first.number, first.plus):
                raise RulesConfigError(
                    f"{label} and {group[0]} differ in number or plus flag: their order is "
                    "fixed by the rank already (CDK-14)",
                    field=where,
                )
            position[label] = i
    return position


#: The ways a customised deck may be built, RULES.md section 10. ``"M"`` mixes two
#: decks with an inactive area (CDK-01..CDK-10), ``"P"`` adds plus plants to the
#: original deck (CDK-11..CDK-16), ``"free"`` plays one deck as given (CDK-20, CDK-21).
VARIANTS = ("M", "P", "free")

#: Decks a config may name that nobody could supply, since their card values are unknown.
UNKNOWN_DECKS = {
    "new_power_plants": (
        "the cards of The New Power Plants (Power Plant Deck 2) are not public anywhere "
        "this library could read, so it does not ship them; write them as a deck document "
        "(docs: 'The deck format'), read it with powergrid.from_json and pass the Deck, or "
        "register it with powergrid.deck.register_deck"
    ),
}

_NAMED: dict[str, Deck] = {}


def register_deck(deck: Deck) -> None:
    """Make ``deck`` available by its name in configs of this process (``decks=["mine"]``).

    The shipped decks (``classic``, ``deluxe``) are registered when the package is
    imported. A config stores the deck's content, not its name, so a record of the
    game replays where the deck is not registered. A name taken by another deck is
    refused.
    """
    if not isinstance(deck, Deck):
        raise TypeError(f"register_deck takes a Deck, not {deck!r}")
    known = _NAMED.get(deck.name)
    if known is not None and known != deck:
        raise RulesConfigError(f"a deck called {shown(deck.name)} exists already", field="deck")
    _NAMED[deck.name] = deck


def named_deck(name: str) -> Deck:
    """The registered deck called ``name``, or RulesConfigError saying how to supply it."""
    if name in _NAMED:
        return _NAMED[name]
    if name in UNKNOWN_DECKS:
        raise RulesConfigError(f"deck {shown(name)}: {UNKNOWN_DECKS[name]}", field="deck.decks")
    known = ", ".join(sorted(_NAMED)) or "none"
    raise RulesConfigError(
        f"unknown deck {shown(name)}; registered decks: {known} (or pass a Deck)",
        field="deck.decks",
    )


def _decks(value: Iterable[Deck | str]) -> tuple[Deck, ...]:
    if isinstance(value, Deck | str):
        value = (value,)
    if isinstance(value, bytes | Mapping) or not isinstance(value, Iterable):
        raise RulesConfigError(
            f"decks must be a list of decks or deck names, not {shown(value)}", field="deck.decks"
        )
    decks = tuple(value)
    for i, d in enumerate(decks):
        if not isinstance(d, Deck | str):
            raise RulesConfigError(
                f"a deck is a Deck or a deck's name, not {shown(d)}", field=f"deck.decks[{i}]"
            )
    return tuple(d if isinstance(d, Deck) else named_deck(d) for d in decks)


@attrs.frozen
class DeckChoice:
    """A config's customised deck: the variant and the decks it is built from (CDK-20).

    - ``"M"``: ``decks`` are the original deck and the other deck, mixed with an
      inactive area (CDK-01..CDK-10);
    - ``"P"``: the original deck and the plus plants, one deck or two (CDK-11..CDK-16);
    - ``"free"``: one deck, played as given (CDK-20, CDK-21).

    A deck may be given by the name it is registered under
    (:func:`powergrid.deck.register_deck`);
    the choice holds its content, so a record of the game carries every card.
    """

    variant: str
    decks: tuple[Deck, ...] = attrs.field(converter=_decks)

    def __attrs_post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise RulesConfigError(
                f"unknown deck variant {shown(self.variant)}; choose one of {', '.join(VARIANTS)} "
                "(RULES.md section 10)",
                field="deck.variant",
            )
        wanted = {"M": (2,), "P": (1, 2), "free": (1,)}[self.variant]
        if len(self.decks) not in wanted:
            counts = " or ".join(map(str, wanted))
            raise RulesConfigError(
                f"variant {self.variant} is built from {counts} deck(s), not {len(self.decks)}",
                field="deck.decks",
            )
