"""Actions: one small decision each (DESIGN principle 3).

Every action is a frozen, hashable, keyword-only record with the acting seat in
``player``, and ``str(action)`` gives its short notation, e.g. ``"2:bid 17"``.

Constructing an action with a field of the wrong type (a bid of 3.5, a city
given as a number) raises :class:`TypeError` at once; a well-formed action that
the rules forbid raises :class:`~powergrid.IllegalAction` when applied. Numbers
are whole and never negative (a negative field raises :class:`ValueError`), a
city is an id without spaces, and a plant is a card label (``"13"``, ``"46+"``;
a whole number ``n`` is taken as the label ``str(n)``, :func:`~powergrid.plants.card_label`),
so every action has a notation that reads back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar, Union

import attrs

from powergrid.enums import Phase, Resource
from powergrid.plants import Card, card_label, label_key

Amounts = tuple[tuple[Resource, int], ...]
A = TypeVar("A")


AmountsLike = Iterable[tuple[Resource | str, int]] | Mapping[Resource, int] | Mapping[str, int]


def _check_whole(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {value!r}")
    if value < 0:
        raise ValueError(f"{name} must not be negative, not {value}")


def whole_number(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: a whole number >= 0 (Elektro, seats, plants, counts; CON-09).

    For the fields of a rule module's own actions too (``attrs.field(validator=whole_number)``).
    """
    _check_whole(attribute.name, value)


def word(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """Validator: an id such as a city's, a non-empty string without spaces (ids are slugs).

    For the fields of a rule module's own actions too, so that their notation reads back.
    """
    if not isinstance(value, str):
        raise TypeError(f"{attribute.name} must be a city id string, not {value!r}")
    if not value or len(value.split()) != 1 or value != value.strip():
        raise ValueError(f"{attribute.name} must be a city id without spaces, not {value!r}")


_whole = whole_number
_text = word


def _sorted_plants(value: Iterable[str | int]) -> tuple[str, ...]:
    """The plants of a Power action in their canonical order (a set: order does not matter)."""
    if isinstance(value, str | int):
        raise TypeError(f"plants must be a collection of plant labels, not {value!r}")
    return tuple(sorted(map(card_label, value), key=label_key))


def _amounts(value: AmountsLike) -> Amounts:
    """Canonical form of resource amounts: kinds sorted by name, zeros dropped."""
    items: Iterable[tuple[Resource | str, int]] = (
        value.items() if isinstance(value, Mapping) else value
    )
    merged: dict[Resource, int] = {}
    for kind, n in items:
        key = Resource(kind)
        _check_whole(f"the amount of {key.value}", n)
        if key in merged:
            raise ValueError(f"{key.value} is named twice")
        merged[key] = n
    return tuple(sorted((k, n) for k, n in merged.items() if n))


def vector_amounts(kinds: Sequence[Resource], counts: Sequence[int]) -> Amounts:
    """A count per kind (aligned with ``kinds``) as canonical amounts, as the converter gives.

    For the engine's own Power mixes and discard drops, built from a burn or drop
    vector without the converter's checks.
    """
    return tuple(sorted((k, n) for k, n in zip(kinds, counts, strict=True) if n))


def _fmt_amounts(amounts: Amounts) -> str:
    return " ".join(f"{k.value}={n}" for k, n in amounts)


@attrs.frozen(kw_only=True)
class ChoosePlant:
    """Put an actual-market plant up for auction with an opening bid (AUC-03, AUC-04).

    When the player is the last one left in phase 2 this buys the plant outright
    at its minimum bid (AUC-14).
    """

    player: int = attrs.field(validator=_whole)
    plant: Card = attrs.field(converter=card_label)
    bid: int = attrs.field(validator=_whole)

    def __str__(self) -> str:
        return f"{self.player}:choose {self.plant} {self.bid}"


@attrs.frozen(kw_only=True)
class PassAuction:
    """Pass the whole of phase 2 instead of opening an auction (AUC-03 b, AUC-12)."""

    player: int = attrs.field(validator=_whole)

    def __str__(self) -> str:
        return f"{self.player}:pass"


@attrs.frozen(kw_only=True)
class Bid:
    """Raise the current bid in the running auction (AUC-06, AUC-07)."""

    player: int = attrs.field(validator=_whole)
    amount: int = attrs.field(validator=_whole)

    def __str__(self) -> str:
        return f"{self.player}:bid {self.amount}"


@attrs.frozen(kw_only=True)
class PassBid:
    """Drop out of the running auction; no re-entry into this auction (AUC-06)."""

    player: int = attrs.field(validator=_whole)

    def __str__(self) -> str:
        return f"{self.player}:fold"


@attrs.frozen(kw_only=True)
class DiscardPlant:
    """Remove a plant from the game after going over the plant limit (AUC-17, AUC-18).

    ``drop`` names the tokens returned to the general supply: those that stood on
    the discarded plant and are not moved to the remaining plants.
    """

    player: int = attrs.field(validator=_whole)
    plant: Card = attrs.field(converter=card_label)
    drop: Amounts = attrs.field(default=(), converter=_amounts)

    def __str__(self) -> str:
        tail = f" drop {_fmt_amounts(self.drop)}" if self.drop else ""
        return f"{self.player}:discard {self.plant}{tail}"


@attrs.frozen(kw_only=True)
class BuyResource:
    """Buy ``count`` tokens of one kind from the resource market (RES-02, RES-06)."""

    player: int = attrs.field(validator=_whole)
    resource: Resource = attrs.field(converter=Resource)
    count: int = attrs.field(default=1, validator=_whole)

    def __str__(self) -> str:
        return f"{self.player}:buy {self.count} {self.resource.value}"


@attrs.frozen(kw_only=True)
class EndPurchase:
    """Finish buying resources for this round (RES-02)."""

    player: int = attrs.field(validator=_whole)

    def __str__(self) -> str:
        return f"{self.player}:endbuy"


@attrs.frozen(kw_only=True)
class Build:
    """Place a house in a city, paying slot and connection cost (BLD-03..BLD-05)."""

    player: int = attrs.field(validator=_whole)
    city: str = attrs.field(validator=_text)

    def __str__(self) -> str:
        return f"{self.player}:build {self.city}"


@attrs.frozen(kw_only=True)
class EndBuild:
    """Finish building for this round (BLD-01)."""

    player: int = attrs.field(validator=_whole)

    def __str__(self) -> str:
        return f"{self.player}:endbuild"


@attrs.frozen(kw_only=True)
class Power:
    """Run a set of plants in phase 5, burning ``mix`` in total (BUR-02, BUR-03).

    ``plants`` are card labels (empty: power nothing), kept in a canonical order
    (:func:`powergrid.plants.label_key`) since they form a set. ``mix`` is the
    total of tokens burned per kind; it must be exactly what the running plants
    burn, which only leaves a choice for hybrids (RES-04).
    """

    player: int = attrs.field(validator=_whole)
    plants: tuple[Card, ...] = attrs.field(default=(), converter=_sorted_plants)
    mix: Amounts = attrs.field(default=(), converter=_amounts)

    def __str__(self) -> str:
        if not self.plants:
            tail = f" {_fmt_amounts(self.mix)}" if self.mix else ""
            return f"{self.player}:power none{tail}"
        head = f"{self.player}:power {','.join(map(str, self.plants))}"
        return f"{head} {_fmt_amounts(self.mix)}" if self.mix else head


#: The ``player`` of a chance outcome and what :func:`powergrid.current_player` returns
#: at a chance point of a game with explicit chance (:mod:`powergrid.mechanics.chance_points`).
#: It is distinct from every seat and from every automatic actor (the fund is -1).
CHANCE = -100

#: The random events a caller resolves in a game with explicit chance, by name.
CHANCE_EVENTS = {
    "area": "the play area, when the config leaves it to chance (SET-04)",
    "market": "an initial plant market the setup deals at random (SET-21)",
    "order": "the random player order of round 1 (SET-05)",
    "draw": "the next card taken from the hidden part of the plant deck (CON-13, SET-11)",
}


def _event(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or value not in CHANCE_EVENTS:
        raise ValueError(f"a chance event is one of {', '.join(CHANCE_EVENTS)}, not {value!r}")


def _outcome(_: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, str) or not value or len(value.split()) != 1 or value != value.strip():
        raise ValueError(f"a chance outcome is one word without spaces, not {value!r}")


@attrs.frozen(kw_only=True)
class Reveal:
    """The outcome of one random event, chosen by the caller (explicit chance).

    ``event`` is one of :data:`~powergrid.actions.CHANCE_EVENTS`; ``outcome`` is the plant card's
    label for ``draw`` (``"13"``), the region ids joined by commas for
    ``area`` (``"brown,purple,yellow"``, sorted), the cards by rank joined by
    commas for ``market``, and the seats in player
    order joined by commas for ``order`` (``"2,0,1"``). Its ``player`` is
    :data:`~powergrid.CHANCE`. Only a game with the ``explicit_chance`` option asks for
    one (:mod:`powergrid.mechanics.chance_points`).
    """

    event: str = attrs.field(validator=_event)
    outcome: str = attrs.field(validator=_outcome)

    @property
    def player(self) -> int:
        """Always :data:`~powergrid.CHANCE`: chance, not a seat, acts."""
        return CHANCE

    def __str__(self) -> str:
        return f"chance:{self.event} {self.outcome}"


def trusted(cls: type[A], **fields: Any) -> A:
    """Build an action from fields already in canonical form, skipping validation.

    For the engine's own legal-action lists only, whose values come from the
    state: validating them again costs more than the rest of ``legal_actions``.
    """
    obj = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(obj, name, value)
    return obj


class ModuleActionType(attrs.AttrsInstance, Protocol):
    """An action a rule module declares (:class:`powergrid.rules.ModuleAction`): it has a seat.

    The static type of such actions in :data:`~powergrid.Action`; at run time each is an
    instance of its module's own frozen attrs class.
    """

    @property
    def player(self) -> int:
        """The acting seat."""


Action = Union[
    ChoosePlant,
    PassAuction,
    Bid,
    PassBid,
    DiscardPlant,
    BuyResource,
    EndPurchase,
    Build,
    EndBuild,
    Power,
    Reveal,
    ModuleActionType,
]


@attrs.frozen
class ActionKind:
    """One kind of action of the base game, as the registry :data:`BASE_KINDS` lists it.

    ``verb`` is the first word of its notation (``str(action)`` is ``"<seat>:<verb> ..."``;
    ``chance`` for :class:`Reveal`). ``phase`` is the phase it is played in (``None`` for
    :class:`Reveal`, which answers a chance point in any phase); the phase's table lists
    the kinds of its phase. ``closes`` marks the kinds that end a seat's part and take no
    argument (pass, fold, endbuy, endbuild). The notation, the RL codec's blocks, the
    prompt and the importers derive their tables from the registry, so a new kind is one
    entry here plus the code that is truly its own (its parser, its codec block).

    A rule module's action is a :class:`powergrid.rules.ModuleAction`: it has the same
    ``cls``, ``verb`` and ``name`` (:class:`Kind`), and :func:`action_kinds` lists it after
    the base kinds.
    """

    cls: type
    verb: str
    phase: Phase | None
    closes: bool = False

    @property
    def name(self) -> str:
        """The class name, as JSON documents and pickles name the action."""
        return self.cls.__name__


class Kind(Protocol):
    """What every kind of action has: a base :class:`ActionKind` or a rule module's action."""

    @property
    def cls(self) -> type:
        """The action class."""

    @property
    def verb(self) -> str:
        """The notation's first word."""

    @property
    def name(self) -> str:
        """The class name."""


class Composed(Protocol):
    """Composed rules (a :class:`~powergrid.rules.ruleset.Ruleset`): their module actions."""

    @property
    def actions(self) -> Sequence[Kind]:
        """The module actions of the composition, in its order."""


#: The registry of the base game's kinds of action, in the order the notation's grammar,
#: the RL codec's blocks and the docs list them.
BASE_KINDS: tuple[ActionKind, ...] = (
    ActionKind(ChoosePlant, "choose", Phase.AUCTION),
    ActionKind(PassAuction, "pass", Phase.AUCTION, closes=True),
    ActionKind(Bid, "bid", Phase.AUCTION),
    ActionKind(PassBid, "fold", Phase.AUCTION, closes=True),
    ActionKind(DiscardPlant, "discard", Phase.AUCTION),
    ActionKind(BuyResource, "buy", Phase.RESOURCES),
    ActionKind(EndPurchase, "endbuy", Phase.RESOURCES, closes=True),
    ActionKind(Build, "build", Phase.BUILDING),
    ActionKind(EndBuild, "endbuild", Phase.BUILDING, closes=True),
    ActionKind(Power, "power", Phase.BUREAUCRACY),
    ActionKind(Reveal, "chance", None),
)
_BY_CLASS: dict[type, ActionKind] = {k.cls: k for k in BASE_KINDS}
_BY_VERB: dict[str, ActionKind] = {k.verb: k for k in BASE_KINDS}

#: The notation verbs of the base game's actions (:mod:`powergrid.formats.notation`) and of chance.
BASE_VERBS = frozenset(_BY_VERB)

#: The base game's action classes; the rule modules' own come from their ``actions``.
ACTION_TYPES: tuple[type, ...] = tuple(_BY_CLASS)

#: The kinds that end a seat's part of a phase, in registry order (pass, fold, endbuy, endbuild).
CLOSING: tuple[ActionKind, ...] = tuple(k for k in BASE_KINDS if k.closes)


def action_kinds(rules: Composed | None = None) -> tuple[Kind, ...]:
    """The kinds of action of a game: the base ones, then the game's module actions.

    ``rules`` is a game's composed rules (``state.rules``); without it, the base
    kinds alone. The module actions come in composition order, as the codec's
    blocks and :func:`powergrid.legal_actions` take them.
    """
    return BASE_KINDS if rules is None else (*BASE_KINDS, *rules.actions)


def kind_of(cls: type, rules: Composed | None = None) -> Kind | None:
    """The kind of the action class ``cls``: a base kind, else one of ``rules``' module actions.

    ``None`` for a class the base game and the game's modules do not declare.
    """
    found = _BY_CLASS.get(cls)
    if found is None and rules is not None:
        return next((a for a in rules.actions if a.cls is cls), None)
    return found


def kind_by_verb(verb: str, rules: Composed | None = None) -> Kind | None:
    """The kind whose notation verb is ``verb``: a base kind, else one of ``rules``' module actions.

    ``None`` when neither declares the verb (``powergrid.catalog.module_action_verb``
    searches every module this process knows).
    """
    found = _BY_VERB.get(verb)
    if found is None and rules is not None:
        return next((a for a in rules.actions if a.verb == verb), None)
    return found


def kinds_in(phase: Phase) -> tuple[type, ...]:
    """The base action classes played in ``phase``, in registry order (a phase's own actions)."""
    return tuple(k.cls for k in BASE_KINDS if k.phase is phase)


#: Rule modules' action classes found so far, by name.
_MODULE_CLASSES: dict[str, type] = {}


def module_action_class(name: object) -> type | None:
    """The class of the action a known rule module declares under ``name``, or ``None``.

    The modules known are those of :func:`powergrid.catalog.module_action_named`
    (built in, registered, installed); a class found is remembered.
    """
    if not isinstance(name, str) or not name[:1].isupper():  # class names only (no "str")
        return None
    cls = _MODULE_CLASSES.get(name)
    if cls is None:
        from powergrid.catalog import module_action_named

        found = module_action_named(name)
        if found is None:
            return None
        cls = _MODULE_CLASSES[name] = found.cls
    return cls


def is_action_type(cls: type) -> bool:
    """Whether ``cls`` is an action class: the base game's or a known rule module's."""
    return cls in ACTION_TYPES or module_action_class(cls.__name__) is cls


def __getattr__(name: str) -> type:
    """A rule module's action class by name, for pickles that name it here (older releases).

    Releases before the module actions kept every action class in this module;
    a class a rule module now declares is found through the modules this process
    knows (:func:`powergrid.catalog.module_action_named`).
    """
    found = module_action_class(name) if name[:1].isupper() else None
    if found is not None:
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
