"""Where every plant card, token and house of a position lies (powergrid.formats.position).

The derivations of the position builder: a card named in one place leaves
every place not named, every card on view nowhere goes to the hidden deck or
the plants removed unseen, the supply holds the tokens neither on the market
nor on a plant (CON-10), and the board follows the owners' city lists. The
readers here check one value each and raise :class:`~powergrid.InvalidRecord`
with its path.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from powergrid.engine.invariants import MARKET_LISTS, card_places
from powergrid.enums import Resource
from powergrid.errors import InvalidRecord
from powergrid.frozen import evolve
from powergrid.module_state import ModuleStates, held_tokens, keyed_fields
from powergrid.outside_text import shown
from powergrid.plants import Card, card_label
from powergrid.state import GameState

_HIDDEN = ("deck", "removed_unseen")
_STEP3 = {"deck": (True, False), "market": (False, True), "out": (False, False)}


def whole(value: Any, path: str, *, low: int = 0) -> int:
    """A whole number of at least ``low`` (``path`` names it in the error)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidRecord(
            f"expected a whole number of at least {low}, not {shown(value)}", path=path
        )
    return value


def seat_list(value: Any, path: str) -> tuple[int, ...]:
    """A list of seat (or actor) numbers."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidRecord(f"expected a list of seats, not {shown(value)}", path=path)
    out = []
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidRecord(f"expected a seat number, not {shown(v)}", path=f"{path}[{i}]")
        out.append(v)
    return tuple(out)


def token_counts(state: GameState, value: Any, path: str) -> tuple[int, ...]:
    """A count per resource kind of the game from ``{kind: n}`` (missing kinds are 0)."""
    kinds = state.rules.resources
    if not isinstance(value, Mapping):
        raise InvalidRecord(f"expected an object of kind: count, not {shown(value)}", path=path)
    counts = [0] * len(kinds)
    for kind, n in value.items():
        try:
            i = kinds.index(Resource(kind))
        except ValueError:
            names = ", ".join(k.value for k in kinds)
            raise InvalidRecord(f"this game's kinds are {names}", path=f"{path}.{kind}") from None
        counts[i] = whole(n, f"{path}.{kind}")
    return tuple(counts)


def card_list(value: Any, path: str) -> tuple[str, ...]:
    """A list of plant labels (a whole number names the plain card of that number)."""
    if isinstance(value, str | bytes | int) or not isinstance(value, Iterable):
        raise InvalidRecord(f"expected a list of plants, not {shown(value)}", path=path)
    out = []
    for i, v in enumerate(value):
        try:
            out.append(card_label(v))
        except (TypeError, ValueError) as err:
            raise InvalidRecord(str(err), path=f"{path}[{i}]") from None
    return tuple(out)


def known_cards(state: GameState, cards: Iterable[str], path: str) -> None:
    """Refuse a card that the game's deck does not hold."""
    for i, card in enumerate(cards):
        if card not in state.rules.plants:
            raise InvalidRecord(f"the game's deck has no plant {card}", path=f"{path}[{i}]")


def integer(value: Any, path: str) -> int:
    """A whole number, negative ones included."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRecord(f"expected a whole number, not {shown(value)}", path=path)
    return value


def lay_board(state: GameState, houses: Any) -> GameState:
    """Houses per city from the owners' city lists; ``houses`` orders a city's houses."""
    board = state.rules.area.board
    owners: list[list[int]] = [[] for _ in board.cities]
    for p in state.players:
        for city in p.cities:
            owners[board.index[city]].append(p.seat)
    for a in state.actors:
        for city in a.cities:
            owners[board.index[city]].append(a.actor)
    built = [
        _in_build_order(owned, old) for owned, old in zip(owners, state.board.houses, strict=True)
    ]
    if houses is not None:
        if not isinstance(houses, Mapping):
            raise InvalidRecord("expected an object of city: seats", path="houses")
        for city, seats in houses.items():
            path = f"houses.{city}"
            if city not in board.index:
                raise InvalidRecord(f"unknown city {shown(city)}", path=path)
            i = board.index[city]
            order = seat_list(seats, path)
            if sorted(order) != sorted(built[i]):
                raise InvalidRecord(
                    f"{city} holds houses of {sorted(built[i]) or 'nobody'}, not {sorted(order)}",
                    path=path,
                )
            built[i] = order
    return evolve(state, board=evolve(state.board, houses=tuple(built)))


def _in_build_order(owners: list[int], old: tuple[int, ...]) -> tuple[int, ...]:
    """Houses already on the board keep their build order; new ones follow by seat."""
    return tuple(sorted(owners, key=lambda s: (old.index(s), s) if s in old else (len(old), s)))


def place_plants(state: GameState, parts: Mapping[str, Any]) -> GameState:
    """The market parts applied, then every card put in exactly one place."""
    m = state.market
    changes: dict[str, Any] = {}
    for key in MARKET_LISTS:
        if key in parts:
            changes[key] = card_list(parts[key], key)
            known_cards(state, changes[key], key)
    if "top" in parts:
        value = parts["top"]
        changes["top"] = None if value is None else card_list([value], "top")[0]
        if changes["top"] is not None:
            known_cards(state, [changes["top"]], "top")
    if "step3" in parts:
        if parts["step3"] not in _STEP3:
            raise InvalidRecord("expected deck, market or out", path="step3")
        changes["step3_in_deck"], changes["step3_in_market"] = _STEP3[parts["step3"]]
    on_view = set(changes.get("actual", m.actual)) | set(changes.get("future", m.future))
    if "top" not in changes and m.top in on_view:
        changes["top"] = None
    state = _module_parts(evolve(state, market=evolve(m, **changes)), parts)
    return _hidden(_release(state, parts), parts)


def _module_parts(state: GameState, parts: Mapping[str, Any]) -> GameState:
    """The rule modules' state fields a position names; tokens left off the market are lifted.

    A module's token lies on a market plant (``StateSpec.marks``): one whose plant
    the named parts took off the market goes with it, unless the parts place it.
    """
    keyed = keyed_fields(state.rules.state_specs)
    records = dict(state.modules)
    for key, (name, field, hint, _) in keyed.items():
        if key in parts:
            value = field_value(state, hint, parts[key], key)
            records[name] = attrs.evolve(records[name], **{field: value})
    market = set(state.market.plants)
    for name, spec in state.rules.state_specs:
        for field in spec.marks:
            plant = getattr(records[name], field)
            if plant is not None and plant not in market and spec.key(field) not in parts:
                records[name] = attrs.evolve(records[name], **{field: None})
    return evolve(state, modules=ModuleStates(tuple(records.items())))


def field_value(state: GameState, hint: Any, value: Any, path: str) -> Any:
    """A module state field's value from a position part, checked by its declared type."""
    origin = typing.get_origin(hint)
    if hint == Card:
        card = card_list([value], path)[0]
        known_cards(state, [card], path)
        return card
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        return field_value(state, next(a for a in args if a is not type(None)), value, path)
    if origin in (tuple, frozenset):
        if isinstance(value, str | bytes) or not isinstance(value, Iterable):
            raise InvalidRecord(f"expected a list, not {shown(value)}", path=path)
        inner = typing.get_args(hint)[0]
        items = [field_value(state, inner, v, f"{path}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else frozenset(items)
    if hint is bool:
        if not isinstance(value, bool):
            raise InvalidRecord(f"expected true or false, not {shown(value)}", path=path)
        return value
    if hint is int:
        return whole(value, path)
    if hint is str and isinstance(value, str):
        return value
    raise InvalidRecord(f"expected a value of type {hint}, not {shown(value)}", path=path)


def area_keys(state: GameState) -> list[tuple[str, str]]:
    """``(position key, place)`` of every module area of the game (``modules.<name>.<field>``)."""
    return [
        (spec.key(field), f"modules.{name}.{field}")
        for name, spec in state.rules.state_specs
        for field in spec.areas
    ]


def _named_places(state: GameState, parts: Mapping[str, Any]) -> set[str]:
    named = {f"market.{k}" for k in MARKET_LISTS if k in parts}
    named |= {where for key, where in area_keys(state) if key in parts}
    named |= {"top"} if "top" in parts else set()
    seats = parts.get("seats")
    if isinstance(seats, Mapping):
        named |= {f"seats.{s}.plants" for s, given in seats.items() if "plants" in given}
    if "actors" in parts:
        named |= {"actors"}
    return named


def _release(state: GameState, parts: Mapping[str, Any]) -> GameState:
    """A card a named part places leaves every place the caller did not name."""
    named = _named_places(state, parts)
    claimed = {c for c, where in _placed(state) if where in named}
    if not claimed:
        return state
    m = state.market
    keep = {
        k: tuple(c for c in getattr(m, k) if c not in claimed)
        for k in MARKET_LISTS
        if f"market.{k}" not in named
    }
    if "top" not in named and m.top in claimed:
        keep["top"] = None  # type: ignore[assignment]
    players = tuple(
        p
        if f"seats.{p.seat}.plants" in named
        else evolve(p, plants=tuple(c for c in p.plants if c not in claimed))
        for p in state.players
    )
    actors = state.actors
    if "actors" not in named:
        actors = tuple(
            evolve(a, plants=tuple(c for c in a.plants if c not in claimed)) for a in actors
        )
    return evolve(
        state,
        market=evolve(m, **keep),
        players=players,
        actors=actors,
        modules=_released_areas(state, named, claimed),
    )


def _released_areas(state: GameState, named: set[str], claimed: set[str]) -> ModuleStates:
    """The modules' records with claimed cards gone from the areas the caller did not name."""
    records = dict(state.modules)
    for name, spec in state.rules.state_specs:
        for field in spec.areas:
            if f"modules.{name}.{field}" not in named:
                kept = tuple(c for c in getattr(records[name], field) if c not in claimed)
                records[name] = attrs.evolve(records[name], **{field: kept})
    return ModuleStates(tuple(records.items()))


def _placed(state: GameState) -> list[tuple[str, str]]:
    """(card, where) for every card on view or in a hand."""
    return [(c, where) for c, where in card_places(state) if where not in _HIDDEN]


def _hidden(state: GameState, parts: Mapping[str, Any]) -> GameState:
    """Every card not on view goes to the deck (``deck_size`` of them) or unseen."""
    seen: dict[str, str] = {}
    for card, where in _placed(state):
        if card in seen:
            raise InvalidRecord(f"plant {card} is placed twice (also in {seen[card]})", path=where)
        seen[card] = where
    secret = state.secret
    if "deck" in parts:
        deck = card_list(parts["deck"], "deck")
        known_cards(state, deck, "deck")
        for card in deck:
            if card in seen:
                raise InvalidRecord(f"plant {card} is in the deck and in {seen[card]}", path="deck")
    else:
        # The deck keeps its cards and order; more cards, when asked for, come from
        # the unseen pile, then from those a named part displaced (by rank).
        kept = [c for c in secret.deck if c not in seen]
        spare = [c for c in secret.removed_unseen if c not in seen]
        taken = {*seen, *kept, *spare}
        spare += [c for c in state.rules.ranked(state.rules.plants) if c not in taken]
        size = whole(parts["deck_size"], "deck_size") if "deck_size" in parts else len(kept)
        if size > len(kept) + len(spare):
            raise InvalidRecord(
                f"only {len(kept) + len(spare)} plants are left for the deck, not {size}",
                path="deck_size",
            )
        deck = tuple((kept + spare)[:size])
    in_deck = set(deck)
    unseen = state.rules.ranked(c for c in state.rules.plants if c not in seen and c not in in_deck)
    if "removed_unseen" in parts:
        given = state.rules.ranked(card_list(parts["removed_unseen"], "removed_unseen"))
        if given != unseen:
            raise InvalidRecord(
                "the plants removed unseen are exactly those in no other place",
                path="removed_unseen",
            )
    rng = _rng(parts["rng"]) if "rng" in parts else secret.rng
    secret = evolve(secret, deck=deck, removed_unseen=unseen, rng=rng)
    market = evolve(state.market, deck_size=len(deck))
    return evolve(state, secret=secret, market=market)


def _rng(value: Any) -> Any:
    from powergrid.chance import RngState

    if isinstance(value, RngState):
        return value
    if not (isinstance(value, tuple | list) and len(value) == 2):
        raise InvalidRecord("expected [seed, counter]", path="rng")
    return RngState(integer(value[0], "rng[0]"), whole(value[1], "rng[1]"))


def set_market_tokens(state: GameState, value: Any) -> GameState:
    """Tokens on the resource market per kind, ``{kind: count}`` (missing kinds: 0)."""
    market = token_counts(state, value, "market_tokens")
    return evolve(state, resources=evolve(state.resources, market=market))


def fill_supply(state: GameState, *, fixed_market: bool) -> GameState:
    """CON-10: the supply holds what is neither on the market nor on a plant.

    Tokens given to plants come from the supply; when it runs out, and the
    caller did not fix the market, from the market's cheapest end (RES-06).
    """
    totals = state.rules.tables.totals
    holdings: list[tuple[int, ...]] = [p.resources for p in state.players]
    holdings += [a.resources for a in state.actors]
    holdings.append(held_tokens(state))  # tokens a rule module keeps (RCH-13's markers)
    held = [sum(h) for h in zip(*holdings, strict=True)]
    market, supply = list(state.resources.market), []
    for i, kind in enumerate(state.rules.resources):
        n = totals[i] - market[i] - held[i]
        if n < 0 and not fixed_market:
            market[i] = max(0, market[i] + n)  # the shortfall leaves the market
            n = totals[i] - market[i] - held[i]
        if n < 0:
            raise InvalidRecord(
                f"{totals[i]} {kind.value} tokens exist, but the market and the plants hold "
                f"{totals[i] - n}",
                path="market_tokens" if fixed_market else "seats",
            )
        supply.append(n)
    res = evolve(state.resources, market=tuple(market), supply=tuple(supply))
    return evolve(state, resources=res)
