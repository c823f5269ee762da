"""The plant market: draws, sorting, removals and the Step 3 card (CON-07, CON-13).

Every function takes and returns a :class:`GameState`; none mutates.
"""

from __future__ import annotations

import bisect
from typing import Any

from powergrid.enums import Phase
from powergrid.events import EventLog
from powergrid.frozen import evolve
from powergrid.mechanics import chance_points
from powergrid.module_state import area_holding, lifted
from powergrid.state import GameState, PlantMarket


def largest_city_count(state: GameState) -> int:
    """The most cities any player has connected (CON-12).

    Human-only: an automatic actor's houses never count, so BLD-12, the Step 2
    threshold (STP-01) and the game end (END-01) are the seats' alone.
    """
    return max([len(p.cities) for p in state.players])  # city_count, without the property calls


_AUCTION = Phase.AUCTION  # bound once: an enum member lookup is slow on Python 3.11


def frozen(state: GameState) -> bool:
    """Classic STP-05: after the Step 3 card shows in phase 2, the market stays as it is."""
    return _freezes(state, state.market)


def _freezes(state: GameState, m: PlantMarket) -> bool:
    """:func:`frozen` for market record ``m`` (one the caller is about to put in the state)."""
    return (
        m.step3_in_market
        and state.phase is _AUCTION
        and state.rules.components.step3_freezes_auction
    )


def _actual_count(step: int) -> int:
    """CON-07: the actual market holds 4 plants in Steps 1-2 and 6 in Step 3."""
    return 6 if step == 3 else 4


def market_shape(state: GameState) -> tuple[int, int]:
    """CON-07: 4 actual + 4 future in Steps 1-2 (Step 1 future per map, SET-26); 6 in Step 3.

    The base game's ``market_shape`` hook.
    """
    actual = _actual_count(state.step)
    return (actual, state.rules.market_size(state.step) - actual)


def resort(state: GameState) -> GameState:
    """Re-split the market so the lowest plants form the actual market (AUC-10)."""
    plants = state.market.plants
    n_actual, _ = state.rules.hooks.market_shape(state)
    market = evolve(state.market, actual=plants[:n_actual], future=plants[n_actual:])
    return evolve(state, market=market)


def _placed(state: GameState, plants: tuple[str, ...], **market: object) -> PlantMarket:
    """The market record holding ``plants`` (rank order), re-sorted unless frozen (STP-05).

    ``market`` holds other fields of the new record, so that it is copied once.
    """
    m = state.market
    if frozen(state):
        # Only removals happen while frozen: keep each card on its side.
        keep = set(plants)
        actual = tuple([p for p in m.actual if p in keep])
        future = tuple([p for p in m.future if p in keep])
    else:
        rules = state.rules
        shape = rules.hooks.market_shape
        if shape is rules.base_hooks.market_shape:  # the base shape reads the Step alone
            n_actual = _actual_count(state.step)
        else:
            shown = evolve(state, market=evolve(m, actual=plants, future=()))
            n_actual = shape(shown)[0]
        actual, future = plants[:n_actual], plants[n_actual:]
    return evolve(m, actual=actual, future=future, **market)


def take_plant(state: GameState, plant: str) -> GameState:
    """Remove ``plant`` from the market (bought or removed), re-sorting unless frozen.

    Only that card leaves: another card of the same number stays (CDK-20).

    A rule module's token lying on the plant leaves with it (North America's
    discount token, AUC-35; :func:`powergrid.module_state.lifted`).
    """
    return evolve(state, market=taken(state, plant), **lifted(state, plant))


def taken(state: GameState, plant: str, **market: object) -> PlantMarket:
    """The market record of :func:`take_plant`, with other fields of it in ``market``.

    For a caller that carries the record into a larger evolve of the state; it
    merges :func:`powergrid.module_state.lifted` too, for the modules' tokens.
    """
    m = state.market
    plants = tuple([p for p in m.actual + m.future if p != plant])
    return _placed(state, plants, **market)


def leave_play(state: GameState, plant: str, reason: str) -> GameState:
    """The one exit: ``plant``, already out of the market or a hand, leaves play.

    Every plant that leaves play passes here (CON-11): removed from the market
    (``"removed"``), drawn too small (``"too_small"``, BLD-12) or discarded
    (``"discarded"``, AUC-17). The ``leave_play`` hook decides where it goes;
    the base game lays it face up beside the game (``market.removed``), a
    module may keep it in an area of its own (CDK-08).
    """
    return state.rules.hooks.leave_play(state, plant, reason)


def _gone(state: GameState, plant: str) -> str:
    """Where a plant that left play went, as the ``leave_play`` hook decided (CDK-08)."""
    return _gone_from(state, plant, state.market.removed)


def _gone_from(state: GameState, plant: str, removed: tuple[str, ...]) -> str:
    """:func:`_gone`, from the market's ``removed`` cards and the modules' areas."""
    if plant in removed:
        return "is removed from the game"
    area = area_holding(state, plant) if state.rules.state_specs else None
    return "leaves play" if area is None else f"goes to {area}"


def _removal(
    state: GameState, plant: str, why: str, events: EventLog | None = None
) -> dict[str, Any] | None:
    """:func:`remove_from_game` as changes for one evolve, when the base ``leave_play`` is in force.

    The base game lays the plant beside the game (``market.removed``); with another
    ``leave_play`` hook this returns ``None`` and the caller takes the general path.
    ``events`` is the log to add to (the state's unless a caller changed it).
    """
    rules = state.rules
    if rules.hooks.leave_play is not rules.base_hooks.leave_play:
        return None
    m = state.market
    text = f"Plant {plant} is removed from the game ({why})."
    log = state.events if events is None else events
    return {
        "market": taken(state, plant, removed=m.removed + (plant,)),
        "events": log.added("plant_removed", state.round, text, None, (plant,)),
        **lifted(state, plant),
    }


def remove_from_game(state: GameState, plant: str, why: str) -> GameState:
    """Remove a market plant from the game face up (CON-11)."""
    changes = _removal(state, plant, why)
    if changes is not None:
        return evolve(state, **changes)
    state = leave_play(take_plant(state, plant), plant, "removed")
    return state.log("plant_removed", f"Plant {plant} {_gone(state, plant)} ({why}).", None, plant)


def remove_lowest(state: GameState, why: str) -> GameState:
    """Remove the lowest-ranked plant of the market from the game, if there is one."""
    plants = state.market.plants
    if not plants:
        return state
    return remove_from_game(state, plants[0], why)


def draw(state: GameState) -> GameState:
    """Draw until one card is resolved (CON-13, AUC-10, BLD-12, STP-05..STP-08, STP-12).

    Each card passes the ``draw_filter`` hook first (the one entrance: a
    customised deck may set a card aside and draw again, CDK-09). A plant is
    sorted into the market; one not above the largest city count leaves play
    at once and another card is drawn (BLD-12). The Step 3 card starts the
    Step 3 procedure of the current phase. An empty deck draws nothing, and so
    does the classic freeze (STP-05): once the Step 3 card shows in phase 2, no
    replacement is drawn for the rest of that phase, the end-of-phase removals
    (AUC-20, AUC-33) included; the market is refilled at the next phase 2 (STP-09).
    """
    if _plain_draws(state, state.market):
        return _quick_draw(state, {})
    return _draw(state)


def draw_with(state: GameState, **changes: Any) -> GameState:
    """``draw(evolve(state, **changes))``, copying the state once where the base hooks rule.

    ``changes`` are fields of the state set before the draw (the market, the
    events so far, ...); the draw's own changes are merged into them.
    """
    if _plain_draws(state, changes.get("market", state.market)):
        return _quick_draw(state, changes)
    return _draw(evolve(state, **changes))


def _plain_draws(state: GameState, m: PlantMarket) -> bool:
    """Whether a draw with market ``m`` may take :func:`_quick_draw`: base hooks, no freeze.

    The base ``draw_filter``, ``leave_play``, ``after_market_entry`` and
    ``market_shape`` hooks, no explicit chance, and not the STP-05 freeze.
    """
    if state.chance is not None or _freezes(state, m) or not state.rules.too_small:
        return False
    hooks, base_hooks = state.rules.hooks, state.rules.base_hooks
    return (
        hooks.draw_filter is base_hooks.draw_filter
        and hooks.leave_play is base_hooks.leave_play
        and hooks.after_market_entry is base_hooks.after_market_entry
        and hooks.market_shape is base_hooks.market_shape
    )


def _quick_draw(state: GameState, changes: dict[str, Any]) -> GameState:
    """:func:`draw` with the base hooks, onto ``state`` with ``changes``, in one evolve.

    CON-13, AUC-10, BLD-12, STP-12 as there. Every card is kept
    (``keep_every_card``), a too-small one lies beside the game
    (``beside_the_game``) and nothing follows an entry (``unchanged``): the
    events and records are those of the general path, :func:`_draw`.
    """
    m = changes.get("market", state.market)
    secret = changes.get("secret", state.secret)
    events = changes.get("events", state.events)
    biggest = max([len(p.cities) for p in changes.get("players", state.players)])  # CON-12
    plants, rnd = state.rules.plants, state.round
    deck, n = secret.deck, 0  # n: cards taken from the deck
    top, removed = m.top, m.removed
    while True:  # every exit has taken the face-up top card, if there was one
        if top is not None:
            card, top = top, None
        elif n < len(deck):
            card = deck[n]
            n += 1
        else:
            break
        if plants[card].number > biggest:
            market = _entered(state, m, card, top=None, removed=removed, deck_size=m.deck_size - n)
            events = events.added(
                "plant_drawn", rnd, f"Plant {card} enters the market.", None, (card,)
            )
            return _drawn(state, changes, market, n, events)
        removed += (card,)  # the base leave_play: beside the game (CON-11)
        gone = _gone_from(state, card, removed)
        text = f"Drawn plant {card} is too small and {gone} (BLD-12)."
        events = events.added("plant_removed", rnd, text, None, (card,))
    market = evolve(m, top=None, removed=removed, deck_size=m.deck_size - n)
    if m.step3_in_deck:
        return step3_card_drawn(_drawn(state, changes, market, n, events))
    text = "The draw deck is empty: no plant is drawn (STP-12)."
    return _drawn(state, changes, market, n, events.added("deck_empty", rnd, text, None, ()))


def _entered(state: GameState, m: PlantMarket, card: str, **market: object) -> PlantMarket:
    """Market ``m`` with ``card`` sorted in by rank, in the base shape, not frozen (AUC-10)."""
    plants = m.actual + m.future
    rank = state.rules.rank
    i = bisect.bisect(plants, rank[card], key=rank.__getitem__)
    plants = plants[:i] + (card,) + plants[i:]
    n_actual = _actual_count(state.step)
    return evolve(m, actual=plants[:n_actual], future=plants[n_actual:], **market)


def _drawn(
    state: GameState, changes: dict[str, Any], market: PlantMarket, n: int, events: EventLog
) -> GameState:
    """``state`` with ``changes``, the drawn ``market``, ``n`` cards off the deck, ``events``."""
    changes["market"] = market
    changes["events"] = events
    if n:
        secret = changes.get("secret", state.secret)
        changes["secret"] = evolve(secret, deck=secret.deck[n:])
    return evolve(state, **changes)


def _draw(state: GameState) -> GameState:
    """:func:`draw` through every hook (the general path)."""
    if frozen(state):
        return state.log(
            "no_replacement", "No replacement is drawn while the Step 3 card shows (STP-05)."
        )
    keep_card = state.rules.hooks.draw_filter
    while True:  # a loop, not recursion: a filter may set many cards aside
        if state.market.top is None and not state.secret.deck:
            if state.market.step3_in_deck:
                return step3_card_drawn(state)
            return state.log("deck_empty", "The draw deck is empty: no plant is drawn (STP-12).")
        face_up = state.market.top is not None
        state, card = _take_card(state)
        state, keep = keep_card(state, card, face_up)
        if not keep:
            continue
        if not state.rules.too_small or state.rules.plants[card].number > largest_city_count(state):
            return _enter_market(state, card)
        state = leave_play(state, card, "too_small")
        # worded from where the leave_play hook put the card, hence after it
        text = f"Drawn plant {card} is too small and {_gone(state, card)} (BLD-12)."
        state = state.log("plant_removed", text, None, card)


def _take_card(state: GameState) -> tuple[GameState, str]:
    """The next card: the face-up top card if there is one, else the deck's first.

    With explicit chance the caller names the hidden card
    (:mod:`~powergrid.mechanics.chance_points`).
    """
    m, secret = state.market, state.secret
    if m.top is not None:
        return evolve(state, market=evolve(m, top=None)), m.top
    if state.chance is not None:
        state = _chosen_on_top(state)
        secret = state.secret
    state = evolve(
        state,
        secret=evolve(secret, deck=secret.deck[1:]),
        market=evolve(m, deck_size=m.deck_size - 1),
    )
    return state, secret.deck[0]


def _chosen_on_top(state: GameState) -> GameState:
    """Explicit chance: the caller's outcome of this draw, brought to the top of the deck."""
    assert state.chance is not None
    rules = state.rules
    chances = rules.hooks.draw_chances(state)
    point, card = chance_points.pick(state.chance, chances, state.secret.deck[0])
    classes = chance_points.card_classes(rules.deck)
    secret = chance_points.bring_to_top(state.secret, card, classes, rules.rank)
    return evolve(state, chance=point, secret=secret)


def _enter_market(state: GameState, card: str) -> GameState:
    plants = state.market.plants
    rank = state.rules.rank
    i = bisect.bisect(plants, rank[card], key=rank.__getitem__)
    market = _placed(state, plants[:i] + (card,) + plants[i:])
    note = state.events_with("plant_drawn", f"Plant {card} enters the market.", None, card)
    state = evolve(state, market=market, events=note)
    return state.rules.hooks.after_market_entry(state, card)


def enforce_too_small(state: GameState) -> GameState:
    """BLD-12: remove and replace every market plant not above the largest city count.

    The test is the printed number, so a plus plant is as small as the plain
    plant of its number (CDK-14); the market's lowest plant is tested first.
    Called after every build, so a market with nothing too small returns at once.
    An edition that plays without the rule (Recharged, RCH-36) returns at once too.
    """
    if not state.rules.too_small:
        return state
    plants = state.rules.plants
    while True:
        m = state.market
        lowest = m.actual or m.future  # the lowest plant is the first of the actual market
        if not lowest or plants[lowest[0]].number > largest_city_count(state):
            return state
        state = _remove_and_draw(state, lowest[0], "too small, BLD-12")


def _reshuffle(state: GameState) -> GameState:
    m, secret = state.market, state.secret
    pool = secret.deck + m.under_step3
    deck, rng = secret.rng.shuffle(pool)
    state = evolve(
        state,
        secret=evolve(secret, deck=deck, rng=rng),
        market=evolve(m, step3_in_deck=False, under_step3=(), deck_size=len(deck)),
    )
    return state.log(
        "deck_reshuffled", f"The Step 3 card is drawn; {len(deck)} plants are reshuffled.", None
    )


def start_step2(state: GameState) -> GameState:
    """STP-02: Step 2 begins: remove the lowest plant, draw a replacement (hooks).

    ``step2_replacement`` says whether to draw; ``start_of_step2`` runs last.
    """
    state = evolve(state, step=2).log("step_started", "Step 2 begins.", None, 2)
    replace = state.rules.hooks.step2_replacement(state)
    state = remove_lowest(state, "start of Step 2, STP-02")
    if replace:
        state = draw(state)
    return state.rules.hooks.start_of_step2(state)


def step3_card_drawn(state: GameState) -> GameState:
    """The Step 3 card came up: reshuffle, then the moment of the current phase.

    STP-10: in Step 1 the Step 2 start comes first, its replacement drawn from
    the reshuffled deck. Phase 2 (moment 1) and classic phase 4 leave the card in
    the market until the end of the phase; otherwise it is resolved at once.
    """
    state = _reshuffle(state)
    if state.step == 1:
        state = start_step2(state)
    # STP-05/STP-06: in phase 2 (a replacement at its end included) the card waits
    delayed = state.phase is Phase.AUCTION or (
        state.phase is Phase.BUILDING and not state.rules.components.step3_phase4_immediate
    )
    if delayed:
        state = evolve(state, market=evolve(state.market, step3_in_market=True), step3_pending=True)
        return state.log(
            "step3_card_shown", "The Step 3 card lies in the market until the phase ends.", None
        )
    return finish_step3(state)


def finish_step3(state: GameState) -> GameState:
    """STP-05/07/08: remove the lowest plant and the Step 3 card, no replacement; Step 3."""
    return begin_step3(_drop_step3_card(state, "start of Step 3"))


def _drop_step3_card(state: GameState, why: str) -> GameState:
    """STP-08: the Step 3 card and the lowest plant leave the market; nothing replaces them."""
    state = evolve(state, market=evolve(state.market, step3_in_market=False))
    return remove_lowest(state, why)


def begin_step3(state: GameState) -> GameState:
    """STP-11: Step 3 begins (20 slots from the next phase 4, the Step 3 refill, 6 plants)."""
    state = evolve(state, step=3, step3_pending=False)
    return resort(state).log("step_started", "Step 3 begins.", None, 3)


def step2_after_building(state: GameState) -> GameState:
    """RCH-71: an edition that checks Step 2 once after phase 4 starts it here.

    Step 2 begins when a player's network has reached the threshold (the
    seats' alone, CON-12), unless the game has ended (END-01: no phase 5
    follows). A Step 3 card drawn as its replacement is resolved at once (STP-08,
    RCH-73): the lowest plant and the card leave, nothing is drawn; Step 2 holds
    through phase 5 (Step 2 refill), ``step3_pending`` says Step 3 follows it.
    """
    rules = state.rules
    if (
        not rules.components.step2_after_building
        or state.step != 1
        or state.end_triggered
        or largest_city_count(state) < rules.step2_cities
    ):
        return state
    state = start_step2(state)
    if not state.step3_pending:
        return state
    return _drop_step3_card(state, "the Step 3 card is the Step 2 replacement, RCH-73")


def fill_step3_market(state: GameState) -> GameState:
    """STP-09: at the start of a phase 2 of Step 3, draw until the market holds 6."""
    while (
        state.step == 3
        and len(state.market.plants) < 6
        and (state.market.top is not None or state.secret.deck)
    ):
        state = draw(state)
    return state


def market_update(state: GameState, **changes: Any) -> GameState:
    """BUR-07: Steps 1-2 push the highest future plant under the deck; Step 3 removes the lowest.

    Then a replacement is drawn. ``changes`` are fields of the state set just
    before (the refill's, BUR-08): with the base hooks they and the update are
    one copy of the state.
    """
    m = state.market
    if state.step < 3:
        if not m.future:
            return draw_with(state, **changes)
        top = m.future[-1]
        text = f"Plant {top} goes under the draw deck (BUR-07)."
        log = changes.get("events", state.events)
        changes["events"] = log.added("plant_under_deck", state.round, text, None, (top,))
        changes.update(lifted(state, top))
        if m.step3_in_deck:
            market = taken(state, top, under_step3=m.under_step3 + (top,))
            return draw_with(state, market=market, **changes)
        # no Step 3 card left to push under: the bottom of the deck
        secret = evolve(state.secret, deck=state.secret.deck + (top,))
        market = taken(state, top, deck_size=m.deck_size + 1)
        return draw_with(state, market=market, secret=secret, **changes)
    if not m.actual and not m.future:
        return draw_with(state, **changes)
    return _remove_and_draw(state, (m.actual or m.future)[0], "phase 5 of Step 3, BUR-07", changes)


def _remove_and_draw(
    state: GameState, plant: str, why: str, changes: dict[str, Any] | None = None
) -> GameState:
    """:func:`remove_from_game`, then :func:`draw`: one copy of the state with the base hooks.

    ``changes`` are fields of the state set before the removal, merged into that copy.
    """
    changes = changes or {}
    removal = _removal(state, plant, why, changes.get("events"))
    if removal is None:
        if changes:
            state = evolve(state, **changes)
        return draw(remove_from_game(state, plant, why))
    changes.update(removal)
    return draw_with(state, **changes)
