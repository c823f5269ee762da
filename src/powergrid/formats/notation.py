"""The compact text notation of actions: ``str(action)`` and :func:`parse_action`.

Grammar (one action per string; ``<seat>:`` may be left out when a state is
given, and then means the player to act)::

    [<seat>:]choose <plant> <bid>          ChoosePlant
    [<seat>:]pass                          PassAuction
    [<seat>:]bid <amount>                  Bid
    [<seat>:]fold                          PassBid
    [<seat>:]discard <plant> [drop <kind>=<n> ...]   DiscardPlant
    [<seat>:]buy <count> <kind>            BuyResource
    [<seat>:]endbuy                        EndPurchase
    [<seat>:]build <city>                  Build
    [<seat>:]endbuild                      EndBuild
    [<seat>:]power none [<kind>=<n> ...]   Power (no plant)
    [<seat>:]power <plant>,<plant> [<kind>=<n> ...]  Power
    chance:<event> <outcome>               Reveal (explicit chance only)
    [<seat>:]<verb> ...                    a rule module's own action (its declared verb)

The verbs are those of the registry of action kinds
(:data:`powergrid.actions.BASE_KINDS`); :data:`VERBS` pairs each with its parser.
A rule module's action (:class:`powergrid.rules.ModuleAction`) reads back
through its declared verb and parser: that of the game's modules when a
state is given, else of the modules this process knows
(:func:`powergrid.catalog.module_action_verb`).

>>> from powergrid import Bid, parse_action
>>> str(Bid(player=2, amount=17))
'2:bid 17'
>>> parse_action("2:bid 17")
Bid(player=2, amount=17)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from powergrid.actions import (
    BASE_KINDS,
    Action,
    Bid,
    Build,
    BuyResource,
    ChoosePlant,
    DiscardPlant,
    Power,
    Reveal,
    kind_by_verb,
)
from powergrid.enums import Resource
from powergrid.errors import InvalidRecord
from powergrid.plants import card_label
from powergrid.state import GameState


def _int(word: str, what: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or len(word) > 9:
        raise InvalidRecord(f"{what} must be a whole number, not {word!r} in {text!r}")
    return int(word)


def _kind(word: str, text: str) -> Resource:
    try:
        return Resource(word)
    except ValueError:
        names = ", ".join(r.value for r in Resource)
        raise InvalidRecord(f"unknown resource {word!r} in {text!r} (known: {names})") from None


def _amounts(words: list[str], text: str) -> dict[Resource, int]:
    out: dict[Resource, int] = {}
    for word in words:
        kind, eq, n = word.partition("=")
        if not eq:
            raise InvalidRecord(f"expected <kind>=<count>, not {word!r} in {text!r}")
        key = _kind(kind, text)
        if key in out:
            raise InvalidRecord(f"{key.value} is named twice in {text!r}")
        out[key] = _int(n, f"the amount of {kind}", text)
    return out


def _arity(words: list[str], n: int, text: str) -> None:
    if len(words) != n:
        raise InvalidRecord(f"{words[0]!r} takes {n - 1} argument(s): {text!r}")


def _plant(word: str, what: str, text: str) -> str:
    """A plant label; leading zeros are dropped, as people copy them from "03" (CLI display)."""
    if word.startswith("0"):
        rest = word.lstrip("0")
        word = rest if rest[:1].isdigit() else "0" + rest
    try:
        return card_label(word)
    except ValueError:
        raise InvalidRecord(
            f"{what} must be a plant label (e.g. 13, 46+, 14o), not {word!r} in {text!r}"
        ) from None


def _choose(p: int, w: list[str], t: str) -> Action:
    _arity(w, 3, t)
    return ChoosePlant(player=p, plant=_plant(w[1], "the plant", t), bid=_int(w[2], "the bid", t))


def _bid(p: int, w: list[str], t: str) -> Action:
    _arity(w, 2, t)
    return Bid(player=p, amount=_int(w[1], "the bid", t))


def _discard(p: int, w: list[str], t: str) -> Action:
    if len(w) < 2 or (len(w) > 2 and w[2] != "drop") or len(w) == 3:
        raise InvalidRecord(f"expected 'discard <plant> [drop <kind>=<n> ...]': {t!r}")
    return DiscardPlant(player=p, plant=_plant(w[1], "the plant", t), drop=_amounts(w[3:], t))


def _buy(p: int, w: list[str], t: str) -> Action:
    _arity(w, 3, t)
    return BuyResource(player=p, resource=_kind(w[2], t), count=_int(w[1], "the count", t))


def _build(p: int, w: list[str], t: str) -> Action:
    _arity(w, 2, t)
    return Build(player=p, city=w[1])


def _power(p: int, w: list[str], t: str) -> Action:
    if len(w) < 2:
        raise InvalidRecord(f"expected 'power none' or 'power <plant>,...': {t!r}")
    if w[1] == "none":
        return Power(player=p, mix=_amounts(w[2:], t))
    plants = [_plant(x, "a plant", t) for x in w[1].split(",")]
    return Power(player=p, plants=plants, mix=_amounts(w[2:], t))


def parse_action(text: str, state: GameState | None = None) -> Action:
    """Parse the notation of one action (the inverse of ``str(action)``).

    Without a ``<seat>:`` prefix the action belongs to the player to act in
    ``state``. Bad syntax raises :class:`~powergrid.InvalidRecord`; whether the
    action is legal is for :func:`powergrid.apply` to say.
    """
    if not isinstance(text, str):
        raise InvalidRecord(f"an action must be a string, not {type(text).__name__}")
    if len(text) > 1000:
        raise InvalidRecord("an action's notation is at most 1000 characters")
    head, colon, rest = text.strip().partition(":")
    if colon and head.strip() == "chance":
        return _reveal(rest.split(), text)
    if colon:
        seat = _int(head.strip(), "the seat", text)
    else:
        rest = head
        seat = _current(state, text)
    words = rest.split()
    if not words:
        raise InvalidRecord(f"empty action {text!r}")
    verb = VERBS.get(words[0]) or _module_verb(words[0], state)
    if verb is None:
        known = ", ".join((*_module_verbs(state), *VERBS))
        raise InvalidRecord(f"unknown action {words[0]!r} in {text!r}; known: {known}")
    try:
        return verb(seat, words, text)
    except (TypeError, ValueError) as err:
        if isinstance(err, InvalidRecord):
            raise
        raise InvalidRecord(f"{err} in {text!r}") from None


def _module_verb(word: str, state: GameState | None) -> Callable[[int, list[str], str], Any] | None:
    """The parser of a rule module's action verb: the game's modules first, then any known."""
    found: Any = None if state is None else kind_by_verb(word, state.rules)
    if found is None or found.cls is Reveal:
        from powergrid.catalog import module_action_verb

        found = module_action_verb(word)
    if found is None:
        return None
    return found.parse if found.parse is not None else by_fields(found.cls)


def _module_verbs(state: GameState | None) -> tuple[str, ...]:
    """The verbs of the game's module actions, then of the built-in modules' (the fund's)."""
    from powergrid.catalog import known_module_actions

    mine = state.rules.actions if state is not None else ()
    builtin = known_module_actions(installed=False, registered=False)
    return tuple(dict.fromkeys(a.verb for a in (*mine, *builtin)))


def by_fields(cls: type) -> Callable[[int, list[str], str], Any]:
    """A parser for an action class whose notation is ``<seat>:<verb> <field> <field> ...``.

    The words after the verb fill the fields after ``player`` in their order:
    whole numbers for ``int`` fields, the word itself otherwise. It is the
    default parser of a :class:`powergrid.rules.ModuleAction`.
    """
    fields = [f for f in attrs.fields(cls) if f.name != "player"]

    def parse(seat: int, words: list[str], text: str) -> Any:
        _arity(words, len(fields) + 1, text)
        values = {
            f.name: _int(w, f"the {f.name}", text) if f.type in (int, "int") else w
            for f, w in zip(fields, words[1:], strict=True)
        }
        return cls(player=seat, **values)

    return parse


#: The parsers of the base kinds whose words need more than :func:`by_fields` reads.
_PARSERS: dict[type, Callable[[int, list[str], str], Action]] = {
    ChoosePlant: _choose,
    Bid: _bid,
    DiscardPlant: _discard,
    BuyResource: _buy,
    Build: _build,
    Power: _power,
}

#: The parser of each base verb, in the registry's order (:data:`powergrid.actions.BASE_KINDS`);
#: a kind without its own parser (``pass``, ``fold``, ``endbuy``, ``endbuild``) reads by fields.
#: ``chance`` is not here: a chance outcome has no seat (``chance:<event> <outcome>``).
VERBS: dict[str, Callable[[int, list[str], str], Action]] = {
    k.verb: _PARSERS.get(k.cls) or by_fields(k.cls) for k in BASE_KINDS if k.cls is not Reveal
}


def _reveal(words: list[str], text: str) -> Action:
    if len(words) != 2:
        raise InvalidRecord(f"a chance outcome is 'chance:<event> <outcome>', not {text!r}")
    try:
        return Reveal(event=words[0], outcome=words[1])
    except ValueError as err:
        raise InvalidRecord(f"{err} in {text!r}") from None


def _current(state: GameState | None, text: str) -> int:
    if state is None:
        raise InvalidRecord(f"{text!r} names no seat ('<seat>:...') and no state was given")
    from powergrid.engine.game import current_player

    seat = current_player(state)
    if seat is None:
        raise InvalidRecord(f"{text!r} names no seat and the game is over")
    return seat
