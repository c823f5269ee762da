"""Where every plant card, token and house of a position lies (powergrid.position).

The derivations of the position builder: a card named in one place leaves
every place not named, every card on view nowhere goes to the hidden deck or
the plants removed unseen, the supply holds the tokens neither on the market
nor on a plant (CON-10), and the board follows the owners' city lists. The
readers here check one value each and raise :class:`~powergrid.InvalidRecord`
with its path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from powergrid.copies import evolve
from powergrid.enums import Resource
from powergrid.errors import InvalidRecord
from powergrid.invariants import MARKET_LISTS, card_places
from powergrid.outside_text import shown
from powergrid.plants import card_label
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
    for key in ("top", "discount"):
        if key in parts:
            value = parts[key]
            changes[key] = None if value is None else card_list([value], key)[0]
            if changes[key] is not None:
                known_cards(state, [changes[key]], key)
    if "step3" in parts:
        if parts["step3"] not in _STEP3:
            raise InvalidRecord("expected deck, market or out", path="step3")
        changes["step3_in_deck"], changes["step3_in_market"] = _STEP3[parts["step3"]]
    on_view = set(changes.get("actual", m.actual)) | set(changes.get("future", m.future))
    if "top" not in changes and m.top in on_view:
        changes["top"] = None
    if "discount" not in changes and m.discount is not None:
        actual = changes.get("actual", m.actual)
        if actual[:1] != (m.discount,):
            changes["discount"] = None  # the token only ever lies on the lowest actual plant
    state = evolve(state, market=evolve(m, **changes))
    return _hidden(_release(state, parts), parts)


def _named_places(parts: Mapping[str, Any]) -> set[str]:
    named = {f"market.{k}" for k in MARKET_LISTS if k in parts}
    named |= {"top"} if "top" in parts else set()
    seats = parts.get("seats")
    if isinstance(seats, Mapping):
        named |= {f"seats.{s}.plants" for s, given in seats.items() if "plants" in given}
    if "actors" in parts:
        named |= {"actors"}
    return named


def _release(state: GameState, parts: Mapping[str, Any]) -> GameState:
    """A card a named part places leaves every place the caller did not name."""
    named = _named_places(parts)
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
    return evolve(state, market=evolve(m, **keep), players=players, actors=actors)


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
