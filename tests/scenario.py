"""Build concrete test states from RULES.md scenarios.

Start from ``new(...)`` and reshape with ``arrange`` (market, phase, turn) and
``give`` (a player's money, plants, tokens and cities). The helpers keep the
state consistent: plants placed somewhere are taken out of wherever they were,
displaced plants go to the unseen-removed pile, and tokens given to players or
the market come out of the general supply, so conservation still holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

import powergrid as pg
from powergrid.enums import Phase, Resource
from powergrid.plants import card_label
from powergrid.state import GameState

_UNSET: Any = object()

# Europe play areas used across the tests: three connected regions (British Isles,
# central, Alps) holding 21 cities, grown to 4 and 5 regions for more players.
R3 = ("british_isles_low_countries", "central", "alps_italy_hungary")
R4 = (*R3, "france_iberia")
R5 = (*R4, "scandinavia_baltic")
REGIONS = {2: R3, 3: R3, 4: R4, 5: R5, 6: R5}
CITIES_21 = (
    "bremen", "berlin", "rhein_main", "stuttgart", "munchen", "praha", "katowice",
    "glasgow", "dublin", "birmingham", "london", "randstad", "vlaanderen", "rhein_ruhr",
    "zurich", "milano", "roma", "napoli", "wien", "budapest", "zagreb",
)  # fmt: skip


#: Component variants that play a board's map rules (CON-02, OQ-31): the Deluxe game,
#: and the classic components opted in with the ``map_rules`` option. A parametrize
#: list for map-rule tests; pass each id to ``new(components=...)`` or ``variant()``.
MAP_RULES = ("classic+map_rules", "deluxe")


def variant(components: str) -> dict[str, Any]:
    """GameConfig keywords for a component variant id.

    ``"classic"`` and ``"deluxe"`` name a component set; ``"classic+map_rules"`` is the
    classic set with the ``map_rules`` option (the board's map rules, OQ-31).
    """
    name, _, option = components.partition("+")
    return {"components": name, "options": frozenset([option] if option else [])}


def new(
    players: int = 3,
    map: str = "europe",
    seed: int = 0,
    regions: Sequence[str] | None = None,
    components: str = "classic",
    **config: Any,
) -> GameState:
    """A fresh game (phase 2 of round 1); classic components unless told otherwise.

    ``components`` may be a variant id such as ``"classic+map_rules"`` (see ``variant``);
    its option joins any ``options`` given.
    """
    kw = variant(components)
    given = config.pop("options", ())
    options = kw["options"] | frozenset([given] if isinstance(given, str) else given)
    cfg = pg.GameConfig(
        players=players,
        map=map,
        regions=regions,
        components=kw["components"],
        options=options,
        **config,
    )
    return pg.new_game(cfg, seed=seed)


Cards = Sequence[int | str]  # plants by label; a number n names the plain card "n"


def labels(*cards: int | str) -> tuple[str, ...]:
    """Card labels from numbers or labels (``labels(3, 4, "46+") == ("3", "4", "46+")``)."""
    return tuple(map(card_label, cards))


def _all_plants(state: GameState) -> set[str]:
    return set(state.rules.plants)


def _placed(state: GameState) -> set[str]:
    m = state.market
    out = set(m.actual) | set(m.future) | set(m.under_step3) | set(m.removed)
    if m.top is not None:
        out.add(m.top)
    for p in state.players:
        out |= set(p.plants)
    return out


def _rebalance_plants(state: GameState, deck: Cards | None) -> GameState:
    """Put every plant that is nowhere visible into the deck or the unseen pile."""
    placed = _placed(state)
    if deck is not None:
        deck_t = labels(*deck)
        clash = placed & set(deck_t)
        assert not clash, f"plants {sorted(clash)} are both in the deck and placed"
    else:
        deck_t = tuple(p for p in state.secret.deck if p not in placed)
    rest = state.rules.ranked(_all_plants(state) - placed - set(deck_t))
    secret = attrs.evolve(state.secret, deck=deck_t, removed_unseen=rest)
    market = attrs.evolve(state.market, deck_size=len(deck_t))
    return attrs.evolve(state, secret=secret, market=market)


def arrange(
    state: GameState,
    *,
    actual: Cards | None = None,
    future: Cards | None = None,
    deck: Cards | None = None,
    top: int | str | None = _UNSET,
    step3_in_deck: bool | None = None,
    step3_in_market: bool | None = None,
    under_step3: Cards | None = None,
    round: int | None = None,
    step: int | None = None,
    phase: Phase | None = None,
    order: Sequence[int] | None = None,
    done: Iterable[int] | None = None,
    bought: Iterable[int] | None = None,
    build_step: int | None = None,
    market_tokens: Mapping[Resource | str, int] | None = None,
    end_triggered: bool | None = None,
    discount: int | str | None = _UNSET,
) -> GameState:
    """Reshape the public game state; only the fields given change.

    Plants are labels or numbers (a number names the plain card of that number).

    A North America discount token that no longer lies on the lowest actual plant
    is taken off unless ``discount`` sets it explicitly.
    """
    m = state.market
    changes: dict[str, Any] = {}
    if actual is not None:
        changes["actual"] = labels(*actual)
    if future is not None:
        changes["future"] = labels(*future)
    if top is not _UNSET:
        changes["top"] = None if top is None else card_label(top)
    if step3_in_deck is not None:
        changes["step3_in_deck"] = step3_in_deck
    if step3_in_market is not None:
        changes["step3_in_market"] = step3_in_market
    if under_step3 is not None:
        changes["under_step3"] = labels(*under_step3)
    shown = set(changes.get("actual", m.actual)) | set(changes.get("future", m.future))
    if "top" not in changes and m.top in shown:
        changes["top"] = None
    actual_now = tuple(changes.get("actual", m.actual))
    if discount is not _UNSET:
        changes["discount"] = None if discount is None else card_label(discount)
    elif m.discount is not None and actual_now[:1] != (m.discount,):
        changes["discount"] = None  # the token only ever lies on the lowest actual plant
    state = attrs.evolve(state, market=attrs.evolve(m, **changes))
    if changes or deck is not None:
        state = _rebalance_plants(state, deck)
    top_changes: dict[str, Any] = {}
    for key, value in (
        ("round", round),
        ("step", step),
        ("phase", phase),
        ("build_step", build_step),
        ("end_triggered", end_triggered),
    ):
        if value is not None:
            top_changes[key] = value
    if order is not None:
        top_changes["order"] = tuple(order)
    if done is not None:
        top_changes["done"] = frozenset(done)
    if bought is not None:
        top_changes["bought"] = frozenset(bought)
    if phase is not None and build_step is None and phase is Phase.BUILDING:
        top_changes["build_step"] = step if step is not None else state.step
    state = attrs.evolve(state, **top_changes)
    if market_tokens is not None:
        state = set_market_tokens(state, market_tokens)
    return state


def set_market_tokens(state: GameState, tokens: Mapping[Resource | str, int]) -> GameState:
    """Set how many tokens of each named kind lie on the market (rest from/to supply)."""
    kinds = state.rules.resources
    market = list(state.resources.market)
    supply = list(state.resources.supply)
    for kind, n in tokens.items():
        i = kinds.index(Resource(kind))
        room = len(state.rules.components.slot_prices[i])
        assert 0 <= n <= room, f"{kind} track holds at most {room}"
        supply[i] -= n - market[i]
        market[i] = n
        assert supply[i] >= 0, f"not enough {kind} in the supply"
    res = attrs.evolve(state.resources, market=tuple(market), supply=tuple(supply))
    return attrs.evolve(state, resources=res)


def give(
    state: GameState,
    seat: int,
    *,
    money: int | None = None,
    plants: Cards | None = None,
    resources: Mapping[Resource | str, int] | None = None,
    cities: Sequence[str] | None = None,
) -> GameState:
    """Set one player's money, plants, tokens and cities (on the board).

    Tokens come from the general supply, then from the market's cheapest end;
    tokens taken away go back to the supply.
    """
    p = state.players[seat]
    if money is not None:
        p = attrs.evolve(p, money=money)
    if plants is not None:
        p = attrs.evolve(p, plants=state.rules.ranked(labels(*plants)))
    if resources is not None:
        kinds = state.rules.resources
        held = [0] * len(kinds)
        for kind, n in resources.items():
            held[kinds.index(Resource(kind))] = n
        # Tokens come from the supply first, then from the market's cheapest end.
        supply = list(state.resources.supply)
        market = list(state.resources.market)
        for i, (old, want) in enumerate(zip(p.resources, held, strict=True)):
            supply[i] += old - want
            if supply[i] < 0:
                market[i] += supply[i]
                supply[i] = 0
            assert market[i] >= 0, f"not enough {kinds[i].value} in the game"
        res = attrs.evolve(state.resources, supply=tuple(supply), market=tuple(market))
        state = attrs.evolve(state, resources=res)
        p = attrs.evolve(p, resources=tuple(held))
    if cities is not None:
        index = state.rules.area.board.index
        houses = [tuple(s for s in h if s != seat) for h in state.board.houses]
        for c in cities:
            houses[index[c]] = houses[index[c]] + (seat,)
        state = attrs.evolve(state, board=attrs.evolve(state.board, houses=tuple(houses)))
        p = attrs.evolve(p, cities=tuple(cities))
    state = state.with_player(p)
    if plants is not None:
        m = state.market
        taken = set(labels(*plants))
        shown = attrs.evolve(
            m,
            actual=tuple(x for x in m.actual if x not in taken),
            future=tuple(x for x in m.future if x not in taken),
            top=None if m.top in taken else m.top,
            removed=tuple(x for x in m.removed if x not in taken),
        )
        state = _rebalance_plants(attrs.evolve(state, market=shown), None)
    return state


def occupy(state: GameState, city: str, seats: Sequence[int]) -> GameState:
    """Put houses of ``seats`` in ``city`` (also adds the city to those players)."""
    for seat in seats:
        p = state.players[seat]
        state = give(state, seat, cities=(*p.cities, city))
    return state


def play(state: GameState, *actions: Any) -> GameState:
    """Apply actions in turn."""
    for action in actions:
        state = pg.apply(state, action)
    return state


def kinds(state: GameState) -> dict[str, int]:
    """Market tokens per kind name (for assertions)."""
    return {k.value: n for k, n in zip(state.rules.resources, state.resources.market, strict=True)}


def held(state: GameState, seat: int) -> dict[str, int]:
    """A player's tokens per kind name, zeros left out."""
    p = state.players[seat]
    return {k.value: n for k, n in zip(state.rules.resources, p.resources, strict=True) if n}


def pass_rest(state: GameState) -> GameState:
    """Everyone still to act in phase 2 passes."""
    while state.phase is Phase.AUCTION:
        who = pg.current_player(state)
        assert who is not None
        state = pg.apply(state, pg.PassAuction(player=who))
    return state


def do_nothing(state: GameState) -> GameState:
    """The player to act in phase 3, 4 or 5 buys, builds or powers nothing."""
    who = pg.current_player(state)
    assert who is not None
    if state.phase is Phase.RESOURCES:
        return pg.apply(state, pg.EndPurchase(player=who))
    if state.phase is Phase.BUILDING:
        return pg.apply(state, pg.EndBuild(player=who))
    return pg.apply(state, pg.Power(player=who))


def to_next_auction(state: GameState) -> GameState:
    """Play phases 3-5 doing nothing until the next phase 2 begins."""
    while state.phase is not Phase.AUCTION:
        state = do_nothing(state)
    return state
