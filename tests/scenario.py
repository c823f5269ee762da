"""Build concrete test states from RULES.md scenarios.

Start from ``new(...)`` and reshape with ``arrange`` (market, phase, turn) and
``give`` (a player's money, plants, tokens and cities). The helpers keep the
state consistent: plants placed somewhere are taken out of wherever they were,
displaced plants go to the unseen-removed pile, and tokens given to players or
the market come out of the general supply, so conservation still holds.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import powergrid as pg
from powergrid.enums import Phase, Resource
from powergrid.errors import Reason
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
    """Reshape the public game state through the position builder; only given fields change.

    Plants are labels or numbers. The builder (``pg.edit_position``) keeps
    plants, tokens and houses conserved; ``strict=False`` lets a test reshape
    a position in several calls, or test one rule function on a partial one.
    """
    given = {
        "actual": actual,
        "future": future,
        "deck": deck,
        "under_step3": under_step3,
        "round": round,
        "step": step,
        "phase": phase,
        "order": order,
        "done": done,
        "bought": bought,
        "build_step": build_step,
        "end_triggered": end_triggered,
    }
    parts: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    if top is not _UNSET:
        parts["top"] = top
    if discount is not _UNSET:
        parts["discount"] = discount
    if market_tokens is not None:
        current = dict(zip(state.rules.resources, state.resources.market, strict=True))
        parts["market_tokens"] = {
            k.value: n
            for k, n in {**current, **{Resource(k): n for k, n in market_tokens.items()}}.items()
        }
    if step3_in_deck is not None or step3_in_market is not None:
        in_deck = state.market.step3_in_deck if step3_in_deck is None else step3_in_deck
        in_market = state.market.step3_in_market if step3_in_market is None else step3_in_market
        parts["step3"] = "deck" if in_deck else "market" if in_market else "out"
    return pg.edit_position(state, strict=False, **parts)


def set_market_tokens(state: GameState, tokens: Mapping[Resource | str, int]) -> GameState:
    """Set how many tokens of each named kind lie on the market (rest from/to supply)."""
    return arrange(state, market_tokens=tokens)


def give(
    state: GameState,
    seat: int,
    *,
    money: int | None = None,
    plants: Cards | None = None,
    resources: Mapping[Resource | str, int] | None = None,
    cities: Sequence[str] | None = None,
) -> GameState:
    """Set one player's money, plants, tokens and cities (on the board), through the builder.

    Tokens come from the general supply, then from the market's cheapest end;
    tokens taken away go back to the supply. Plants given leave wherever they were.
    """
    given = {"money": money, "plants": plants, "cities": cities}
    seat_parts: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    if resources is not None:
        seat_parts["resources"] = {Resource(k).value: n for k, n in resources.items()}
    return pg.edit_position(state, strict=False, seats={seat: seat_parts})


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


def finish_phase(state: GameState) -> GameState:
    """Every remaining player ends the current phase doing nothing (2: passing)."""
    phase = state.phase
    while state.phase is phase and phase is not Phase.GAME_OVER:
        seat = pg.current_player(state)
        assert seat is not None
        action: pg.Action
        if phase is Phase.AUCTION:
            action = pg.PassAuction(player=seat)
        elif phase is Phase.RESOURCES:
            action = pg.EndPurchase(player=seat)
        elif phase is Phase.BUILDING:
            action = pg.EndBuild(player=seat)
        else:
            action = pg.Power(player=seat)
        state = pg.apply(state, action)
    return state


def opening_minimum(state: GameState, plant: int | str) -> int:
    """The smallest opening bid on ``plant`` offered by legal_actions."""
    label = card_label(plant)
    bids = [
        a.bid for a in pg.legal_actions(state) if isinstance(a, pg.ChoosePlant) and a.plant == label
    ]
    assert bids, f"plant {plant} cannot be opened"
    return min(bids)


def snapshot(state: GameState) -> tuple[Any, ...]:
    """A deep copy of every field an action could change."""
    return copy.deepcopy(
        (
            state.players,
            state.market,
            state.resources,
            state.secret,
            state.auction,
            state.done,
            state.bought,
            state.discarding,
            state.new_plant,
            state.order,
            state.round,
            state.step,
            state.phase,
            len(state.events),
        )
    )


def reject(state: GameState, action: pg.Action, reason: Reason, *words: str) -> str:
    """Assert ``action`` is illegal with ``reason``, a message holding ``words``, no change.

    Returns the message. The action is neither legal nor listed among the legal actions.
    """
    before = state
    fields = snapshot(state)
    with pytest.raises(pg.IllegalAction) as err:
        pg.apply(state, action)
    assert err.value.reason is reason, err.value.reason
    assert err.value.action == action
    message = str(err.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert state == before
    assert snapshot(state) == fields
    assert not pg.is_legal(state, action)
    assert action not in pg.legal_actions(state)
    return message


def buy_alone(state: GameState, seat: int, plant: int | str, bid: int) -> GameState:
    """``seat`` opens ``plant`` at ``bid`` and every other bidder drops out."""
    state = pg.apply(state, pg.ChoosePlant(player=seat, plant=plant, bid=bid))
    while state.auction is not None:
        who = pg.current_player(state)
        assert who is not None
        assert who != seat
        state = pg.apply(state, pg.PassBid(player=who))
    return state
