"""Power-plant cards: a card's label, its printed number and what it burns (CON-08, RES-03).

A card is named in a game by its **label**: the printed number, then an
optional suffix of letters or ``+`` (``"13"``, ``"46+"`` for a plus plant,
``"14o"`` and ``"14e"`` for two cards numbered 14 from different decks). The
label is the card's identity everywhere (state, actions, notation, JSON,
events); the printed number is its minimum bid and the too-small test's value
(AUC-04, BLD-12); a game's order of cards is a separate rank
(:class:`powergrid.deck.Deck`, CDK-14, CDK-20).

>>> from powergrid.plants import card_label, label_number
>>> card_label(46), card_label("46+"), label_number("14o")
('46', '46+', 14)
"""

from __future__ import annotations

import re
from typing import Annotated

import attrs

from powergrid.enums import Resource


class CardLabel:
    """The marker of :data:`Card`: a string that names a plant card (a label).

    A field annotated ``Card`` holds a label; the JSON decoder finds such
    fields by this marker and reads the plant numbers of formats 1 and 2 there.
    """


#: A plant card's label, a ``str`` (see the module docstring), in type hints.
Card = Annotated[str, CardLabel]

_LABEL = re.compile(r"(0|[1-9][0-9]{0,3})([A-Za-z+]{0,8})")
#: The label syntax as a regular expression (the JSON Schemas use the same).
LABEL_PATTERN = _LABEL.pattern


def card_label(value: object) -> str:
    """The label ``value`` names: a label string as it is, a whole number ``n`` as ``str(n)``.

    A whole number names the plain card of that number (``13`` is ``"13"``),
    so code written for the standard decks may keep using numbers. Anything
    else raises :class:`TypeError`, a string that is no label :class:`ValueError`.
    """
    if isinstance(value, str):
        if _LABEL.fullmatch(value) is None:
            raise ValueError(
                f"{value!r} is not a plant label (its printed number, then optional "
                "letters or '+', e.g. 13, 46+, 14o)"
            )
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a plant is named by its label or number, not {value!r}")
    if value < 0:
        raise ValueError(f"a plant number must not be negative, not {value}")
    return card_label(str(value))


def label_number(label: str) -> int:
    """The printed number a label starts with (``"46+"`` -> 46)."""
    match = _LABEL.fullmatch(label)
    if match is None:
        raise ValueError(f"{label!r} is not a plant label")
    return int(match.group(1))


def label_key(label: str) -> tuple[int, bool, str]:
    """A deck-free canonical order of labels: number, plus after plain, then the suffix.

    It orders the plants of a :class:`~powergrid.Power` action, which are a set;
    a game's own order of cards is its rank (:attr:`powergrid.rules.ruleset.Ruleset.rank`).
    """
    match = _LABEL.fullmatch(label)
    if match is None:
        raise ValueError(f"{label!r} is not a plant label")
    suffix = match.group(2)
    return int(match.group(1)), "+" in suffix, suffix


#: The printed kinds of plant (what a plant burns, or eco and fusion, which burn nothing).
KINDS = ("coal", "gas", "oil", "garbage", "uranium", "hybrid", "eco", "fusion")
#: The printed backs a setup may sort by (Deluxe dark / light, SET-21; Recharged plug /
#: socket, RCH-03), or None where no rule reads it.
BACKS = ("dark", "light", "plug", "socket", None)
#: The backs of the low plants (03-15), from which a two-back setup deals the market
#: (SET-21, RCH-20); every other back is the high one.
LOW_BACKS = frozenset({"dark", "plug"})


def _label(_: object, attribute: attrs.Attribute[str], value: object) -> None:
    card_label(value)


@attrs.frozen
class Plant:
    """One power-plant card.

    ``label`` names it in a game (the module docstring); ``number`` is the
    printed number, its minimum bid (CON-08). It burns ``burn`` resources of
    the kinds in ``accepts`` per run (any mix for a hybrid) and supplies
    ``cities`` cities. It stores at most ``capacity`` = 2 x ``burn`` tokens
    (RES-03); eco and fusion plants burn and store nothing. ``plus`` marks a
    plus plant (46+, CDK-11), which ranks above the plain plant of its number
    (CDK-14). ``origin`` names the deck the card comes from (``"classic"``,
    ``"deluxe"``, an expansion) and ``back`` its printed back where the setup
    sorts by it (Deluxe ``"dark"``/``"light"``, SET-21; Recharged
    ``"plug"``/``"socket"``, RCH-03), else ``None``.
    """

    label: str = attrs.field(validator=_label)
    number: int
    kind: str
    accepts: frozenset[Resource]
    burn: int
    cities: int
    plus: bool = False
    origin: str = ""
    back: str | None = None

    def __attrs_post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            field, text = problem
            raise CardError(f"plant {self.label}: {text}", field=field)

    @property
    def capacity(self) -> int:
        """The most tokens the plant may hold, twice its burn (RES-03)."""
        return 2 * self.burn

    @property
    def is_hybrid(self) -> bool:
        """Whether the plant burns a mix of two kinds (RES-04)."""
        return len(self.accepts) > 1

    def __str__(self) -> str:
        fuel = "/".join(sorted(self.accepts)) if self.accepts else self.kind
        return f"{self.label} ({self.burn} {fuel} -> {self.cities})"


class CardError(ValueError):
    """A plant card whose printed values contradict each other; ``field`` names the field."""

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field


def _problem(p: Plant) -> tuple[str, str] | None:
    """The field and what is wrong with a card's printed values, or None."""
    if label_number(p.label) != p.number:
        return "label", f"the label must start with the printed number {p.number}"
    if p.plus != ("+" in p.label):
        return "plus", "a plus plant, and only a plus plant, has a '+' in its label"
    if p.kind not in KINDS:
        return "kind", f"kind must be one of {', '.join(KINDS)}, not {p.kind!r}"
    if p.burn < 0:
        return "burn", "a plant burns 0 or more per run"
    if p.cities < 1:
        return "cities", "a plant powers at least 1 city"
    if (p.burn == 0) != (not p.accepts):
        return "accepts", "a plant burns fuel exactly when it accepts some kind"
    if p.back not in BACKS:
        return "back", f"back must be dark, light, plug, socket or none, not {p.back!r}"
    return None
