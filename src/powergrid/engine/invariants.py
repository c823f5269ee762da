"""One definition of a consistent game state: :func:`invariant_violations`.

The decoder refuses a state document that breaks these (formats.documents), the
position builder refuses such a position (powergrid.formats.position), the
conformance checks assert them after every action (testing), and the soak
script runs them over thousands of games. The checks read a state and its
ruleset only, so they sit below everything that produces states.

Besides conservation (every plant card in one place, every token and house
counted) and the rules' own limits, a state obeys hard caps that keep
``legal_actions``, ``apply`` and ``view`` bounded whatever a document says:
money and bids at most :data:`MAX_MONEY`, the round at most :data:`MAX_ROUND`,
the random stream's seed and counter within :data:`MAX_SEED` and
:data:`MAX_COUNTER`. No real game comes near them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from powergrid.enums import Phase
from powergrid.mechanics.chance_points import OPTION as EXPLICIT_CHANCE
from powergrid.mechanics.fuel_storage import fits
from powergrid.mechanics.market import frozen, largest_city_count
from powergrid.mechanics.seeds import SEED_BITS, SEED_BOUND
from powergrid.module_state import area_cards, held_tokens
from powergrid.state import GameState

#: The market's lists of plant cards.
MARKET_LISTS = ("actual", "future", "under_step3", "removed")


def card_places(state: GameState) -> Iterator[tuple[str, str]]:
    """Every plant card with the place it lies in (CON-11): the one list of places.

    Places are named like the position builder's parts: ``market.actual``
    (and ``future``, ``under_step3``, ``removed``), ``top``,
    ``seats.<n>.plants``, ``actors``, a rule module's areas
    (``modules.<name>.<field>``, :mod:`powergrid.module_state`), then the hidden
    ``deck`` and ``removed_unseen``.
    """
    m, s = state.market, state.secret
    for key in MARKET_LISTS:
        yield from ((c, f"market.{key}") for c in getattr(m, key))
    if m.top is not None:
        yield m.top, "top"
    for p in state.players:
        yield from ((c, f"seats.{p.seat}.plants") for c in p.plants)
    yield from ((c, "actors") for a in state.actors for c in a.plants)
    if state.rules.state_specs:
        yield from area_cards(state)
    yield from ((c, "deck") for c in s.deck)
    yield from ((c, "removed_unseen") for c in s.removed_unseen)


def plant_places(state: GameState) -> Counter[str]:
    """How many places hold each plant card: every card must be in exactly one (CON-11)."""
    return Counter(card for card, _ in card_places(state))


#: The most Elektro a player may hold, and the highest bid (an opening bid of
#: ``money`` lists one action per Elektro). A game earns at most 150 a round.
MAX_MONEY = 10_000
#: The highest round; real games end before round 30.
MAX_ROUND = 1_000
#: The largest magnitude of the random stream's seed (new_game reduces larger seeds).
MAX_SEED = SEED_BOUND - 1
#: The most draws the random stream may have made.
MAX_COUNTER = 10**9


def invariant_violations(state: GameState) -> list[str]:
    """Every invariant the state breaks, as sentences (empty when all hold).

    The structure is checked first (seats, counts per kind, phase, caps); the
    rest is only checked on a state whose structure holds, and the rule
    modules' own rules (the ``state_violations`` hook, e.g. the fund's 16
    houses) only on a state that keeps the core's.
    """
    shape = shape_violations(state)
    if shape:
        return shape
    out: list[str] = []
    rules = state.rules
    places = plant_places(state)
    for label in rules.plants:
        if places[label] != 1:
            out.append(f"plant {label} is in {places[label]} places")
    extra = set(places) - set(rules.plants)
    if extra:
        out.append(f"unknown plants {', '.join(sorted(extra))}")
        return out  # the checks below look plants up
    if state.market.deck_size != len(state.secret.deck):
        out.append("public deck size differs from the hidden deck")
    if state.market.step3_in_deck and state.market.step3_in_market:
        out.append("the Step 3 card is in two places")
    out += _resource_violations(state)
    out += _player_violations(state)
    out += _market_violations(state)
    out += _turn_violations(state)
    out += _flow_violations(state) + _pairing_violations(state)
    if out:
        return out  # a module's own rules may rely on the core's
    out = list(rules.hooks.state_violations(state))
    return out or _pending_actor(state)


def _mark_violations(state: GameState) -> list[str]:
    """A rule module's token lies on a plant of the market, or beside it (``None``)."""
    out = []
    plants = set(state.market.plants)
    for name, spec in state.rules.state_specs:
        for field in spec.marks:
            plant = getattr(state.modules[name], field)
            if plant is not None and plant not in plants:
                out.append(
                    f"module {name}'s {spec.key(field)} token lies on plant {plant}, "
                    "which is not in the market"
                )
    return out


def _module_shape(state: GameState) -> list[str]:
    """The state holds one record of the right type per module that keeps one, and no other."""
    specs = state.rules.state_specs
    if tuple(state.modules) != tuple(name for name, _ in specs):
        return [
            f"the modules' states are {', '.join(state.modules) or 'none'}, expected "
            f"{', '.join(name for name, _ in specs) or 'none'}"
        ]
    return [
        f"module {name}'s state is a {type(state.modules[name]).__name__}, "
        f"not a {spec.record.__name__}"
        for name, spec in specs
        if type(state.modules[name]) is not spec.record
    ]


def _chance_point(state: GameState) -> list[str]:
    """A chance point belongs to explicit chance, and its action and outcomes still play."""
    from powergrid.engine.game import chance_outcomes  # the engine imports this module's users

    point = state.chance
    assert point is not None
    if EXPLICIT_CHANCE not in state.config.options:
        return ["a chance point in a game without the explicit_chance option"]
    if point.used or point.fill:
        return ["a stored chance point has used 0 and fill false"]
    try:
        if not chance_outcomes(state):
            return ["the pending chance event has no outcome"]
    except Exception as err:  # a document's point may fail in any way: it cannot resume
        return [f"the pending chance point does not replay: {err}"]
    return []


def _pending_actor(state: GameState) -> list[str]:
    """A state is a decision point: an automatic actor's turn never waits (it runs in apply)."""
    from powergrid.engine.game import current_player  # the engine imports this module's users

    if state.chance is not None:
        return _chance_point(state)
    who = current_player(state)
    if who is not None and who < 0:
        return [f"the turn of automatic actor {who} is pending; actors play inside apply"]
    return []


def shape_violations(state: GameState) -> list[str]:
    """The structural checks: seats, counts per kind, round, step, phase and the caps."""
    n = state.config.players
    seats = set(range(n))
    kinds = len(state.rules.resources)
    if len(state.players) != n or [p.seat for p in state.players] != list(range(n)):
        return [f"players must list seats 0..{n - 1} in order"]
    out = []
    if any(len(p.resources) != kinds for p in state.players):
        out.append(f"each player holds a count for each of {kinds} resource kinds")
    if any(len(a.resources) != kinds for a in state.actors):
        out.append(f"each automatic actor holds a count for each of {kinds} resource kinds")
    out += _module_shape(state)
    for name in ("market", "supply"):
        if len(getattr(state.resources, name)) != kinds:
            out.append(f"resources.{name} needs one count per resource kind")
    actors = {a.actor for a in state.actors}
    if not (state.done <= seats | actors and state.bought <= seats | actors):
        out.append("done and bought may only name seats and automatic actors of the game")
    if not 1 <= state.round <= MAX_ROUND:
        out.append(f"round must be 1 to {MAX_ROUND}")
    if state.step not in (1, 2, 3) or state.build_step not in (1, 2, 3):
        out.append("step and build_step must be 1, 2 or 3")
    if state.phase is Phase.ORDER or (state.phase is Phase.GAME_OVER) != (state.result is not None):
        out.append("phase must be 2 to 5 while playing, game_over (with a result) at the end")
    rng = state.secret.rng
    if not (abs(rng.seed) <= MAX_SEED and 0 <= rng.counter <= MAX_COUNTER):
        out.append(
            f"the random stream needs |seed| < 2**{SEED_BITS} and a counter 0 to {MAX_COUNTER}"
        )
    if any(p.money > MAX_MONEY for p in state.players):
        out.append(f"a player holds more than {MAX_MONEY} Elektro (the cap)")
    return out


def _turn_violations(state: GameState) -> list[str]:
    """Who may act: a discarding seat, an auction's bidders, the discount token."""
    out = []
    seats = set(range(len(state.players)))
    if state.discarding is not None and (
        state.discarding not in seats
        or state.new_plant not in state.players[state.discarding].plants
        or state.phase is not Phase.AUCTION
    ):
        out.append("discard must name a seat holding the plant just bought, in phase 2")
    if state.discarding is None and state.new_plant is not None:
        out.append("new_plant is only set while a discard is pending")
    a = state.auction
    if a is not None and (
        state.phase is not Phase.AUCTION
        or not a.active
        or not set(a.active) <= seats
        or len(set(a.active)) != len(a.active)
        or {a.high_bidder, a.auctioneer} - seats
        or a.active[-1] != a.high_bidder
        or a.plant not in state.market.actual
        or a.bid > state.players[a.high_bidder].money
        or state.discarding is not None
    ):
        out.append(
            "the auction must run in phase 2 among distinct seats, on an actual plant, "
            "at a bid its high bidder can pay"
        )
    if state.phase is Phase.AUCTION and not state.bought <= state.done:
        out.append("a seat that bought a plant this round is done with phase 2 (AUC-09)")
    return out


def _flow_violations(state: GameState) -> list[str]:
    """Step, Step 3 card and game end agree with the market and the board."""
    out = []
    m, rules = state.market, state.rules
    largest = largest_city_count(state)
    # RCH-71: an edition that checks Step 2 after phase 4 stays in Step 1 until it ends
    waits = rules.components.step2_after_building and state.phase is Phase.BUILDING
    if state.step == 1 and largest >= rules.step2_cities and not waits:
        out.append(f"a player has {largest} cities, so Step 2 has begun (STP-01)")
    if state.step == 1 and not (m.step3_in_deck or state.step3_pending):
        out.append("the Step 3 card has come out, so Step 1 is over (STP-10)")
    if state.step == 3 and (m.step3_in_deck or m.step3_in_market):
        out.append("in Step 3 the Step 3 card is out of the game")
    if m.step3_in_market and not state.step3_pending:
        out.append("the Step 3 card lies in the market only while Step 3 is pending")
    if state.step3_pending and not m.step3_in_market and state.phase is not Phase.BUREAUCRACY:
        # RCH-73: only a phase 5 waits for Step 3 with the card already gone
        out.append("the Step 3 card lies in the market while Step 3 is pending")
    if state.phase is not Phase.GAME_OVER and state.end_triggered != (largest >= rules.end_cities):
        out.append(f"the game end is triggered exactly when a player has {rules.end_cities} cities")
    return out


def _pairing_violations(state: GameState) -> list[str]:
    """A paired deck's promise (CDK-03): two cards of one number are never in play together."""
    rules = state.rules
    if not rules.deck.paired:
        return []
    in_play = [*state.market.plants, *(c for p in state.players for c in p.plants)]
    in_play += [c for a in state.actors for c in a.plants]
    seen: dict[tuple[int, bool], str] = {}
    for card in in_play:
        plant = rules.plants[card]
        other = seen.setdefault((plant.number, plant.plus), card)
        if other != card:
            return [f"plants {other} and {card} of a paired deck are in play together"]
    return []


def _resource_violations(state: GameState) -> list[str]:
    out = []
    rules = state.rules
    kept = held_tokens(state)
    for i, kind in enumerate(rules.resources):
        held = sum(p.resources[i] for p in state.players)
        held += sum(a.resources[i] for a in state.actors) + kept[i]
        total = state.resources.market[i] + state.resources.supply[i] + held
        if total != rules.tables.totals[i]:
            out.append(f"{kind.value}: {total} tokens, expected {rules.tables.totals[i]}")
        if state.resources.market[i] > len(rules.tables.slot_prices[i]):
            out.append(f"{kind.value}: market over capacity")
        if min(state.resources.market[i], state.resources.supply[i]) < 0:
            out.append(f"{kind.value}: negative count")
    return out


def _player_violations(state: GameState) -> list[str]:
    out = []
    rules = state.rules
    houses = Counter[int]()
    for city_houses in state.board.houses:
        houses.update(city_houses)
        if len(city_houses) != len(set(city_houses)):
            out.append("a player has two houses in one city (BLD-06)")
        # A seat builds only on a slot its Step allows; an automatic actor's
        # house may stand on a later slot (the fund's 15 slot in Step 1, FND-08).
        if len(city_houses) > 3 or any(
            s >= 0 and j >= state.step for j, s in enumerate(city_houses)
        ):
            out.append("a city holds more houses than its Step allows (BLD-05)")
    for p in state.players:
        limit = rules.max_plants + (1 if state.discarding == p.seat else 0)
        if len(p.plants) > limit:
            out.append(f"seat {p.seat} owns {len(p.plants)} plants")
        if p.plants != rules.ranked(p.plants):
            out.append(f"seat {p.seat}'s plants are not in rank order")
        if p.money < 0:
            out.append(f"seat {p.seat} has negative money")
        slots = tuple(rules.plant_slots[n] for n in p.plants)
        if state.discarding != p.seat and not fits(slots, p.resources):
            out.append(f"seat {p.seat} holds tokens its plants cannot store")
        if houses[p.seat] != p.city_count:
            out.append(f"seat {p.seat}: board and city list disagree")
        if not all(rules.area.contains(c) for c in p.cities):
            out.append(f"seat {p.seat} has a house outside the play area")
    return out + _actor_violations(state, houses)


def _actor_violations(state: GameState, houses: Counter[int]) -> list[str]:
    """Automatic actors hold what they are listed with, and only they and seats act."""
    out = []
    kinds = len(state.rules.resources)
    ids = [a.actor for a in state.actors]
    if len(set(ids)) != len(ids) or any(i >= 0 for i in ids):
        out.append("automatic actors need distinct negative ids")
    for a in state.actors:
        if houses[a.actor] != a.city_count:
            out.append(f"actor {a.name}: board and city list disagree")
        if a.houses < 0 or a.plants != state.rules.ranked(a.plants):
            out.append(f"actor {a.name}: negative houses in supply or plants out of rank order")
        if len(a.resources) != kinds:
            out.append(f"actor {a.name} needs one count per resource kind")
    known = set(range(len(state.players))) | set(ids)
    if not set(houses) <= known:
        out.append(f"houses of unknown owners {sorted(set(houses) - known)}")
    order = state.order
    if sorted(s for s in order if s >= 0) != list(range(len(state.players))):
        out.append("the player order must name every seat once")
    if not set(order) <= known or len(set(order)) != len(order):
        out.append("the player order names an unknown or repeated id")
    return out


def _market_violations(state: GameState) -> list[str]:
    out = []
    m = state.market
    rules = state.rules
    if m.plants != rules.ranked(m.plants) or len(set(m.plants)) != len(m.plants):
        out.append("market not sorted by rank")
    if rules.too_small and m.plants and rules.number(m.plants[0]) <= largest_city_count(state):
        out.append("a too-small plant stays in the market (BLD-12)")
    stocked = m.top is not None or m.deck_size > 0 or m.step3_in_deck
    settled = state.discarding is None and not frozen(state) and state.phase is not Phase.GAME_OVER
    size = len(m.plants) + (1 if m.step3_in_market else 0)
    want = state.rules.market_size(state.step)
    if state.step3_pending and not m.step3_in_market:
        want = 6  # RCH-73: the Step 3 market, shown in the Step 2 phase 5 before Step 3
    if state.step < 3 and stocked and settled and size != want:
        out.append(f"market holds {size} cards in Step {state.step}, expected {want}")
    # Step 3: classic may run short after the STP-05 freeze until STP-09 refills
    # the market to 6 at the next phase 2, so exactly 6 is only due in phase 2.
    if state.step == 3 and size > 6:
        out.append(f"market holds {size} cards in Step 3")
    if state.step == 3 and stocked and settled and state.phase is Phase.AUCTION and size != 6:
        out.append(f"market holds {size} cards in a Step 3 auction, expected 6")
    out += _mark_violations(state)
    n_actual, _ = state.rules.hooks.market_shape(state)
    if not frozen(state) and m.actual != m.plants[:n_actual]:
        out.append("actual market is not the lowest plants")
    return out
