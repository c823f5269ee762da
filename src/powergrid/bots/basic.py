"""The baseline bots: :class:`RandomBot` and :class:`GreedyBot` (see :mod:`powergrid.bots`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from powergrid.actions import (
    Action,
    Bid,
    Build,
    BuyResource,
    ChoosePlant,
    DiscardPlant,
    EndBuild,
    EndPurchase,
    PassAuction,
    PassBid,
    Power,
)
from powergrid.engine import queries
from powergrid.engine.game import current_player, legal_actions
from powergrid.enums import Phase
from powergrid.rules.fund import PlaceFundHouse
from powergrid.state import GameState

__all__ = ["GreedyBot", "RandomBot", "distinct_choices"]

#: Elektro the greedy bot keeps back for fuel when it buys a plant.
PLANT_RESERVE = 15
#: Elektro the greedy bot keeps back for building when it buys fuel.
FUEL_RESERVE = 20
#: How far above the plant number the greedy bot bids at most.
BID_MARGIN = 5
#: Cities the greedy bot expects to add this round when it buys fuel.
EXPECTED_BUILDS = 2
#: From this round on the greedy bot builds whatever it can power or not, so
#: that games where no bot would reach the game end still end.
PATIENCE = 20


def _rng(seed: int, state: GameState) -> random.Random:
    """Return the random stream of one decision point (round and event count identify it)."""
    return random.Random(f"{seed}:{state.round}:{len(state.events)}")


def _legal(state: GameState) -> tuple[Action, ...]:
    actions = legal_actions(state)
    if not actions:
        raise ValueError("the game is over: there is no action to choose")
    return actions


def distinct_choices(actions: Sequence[Action]) -> tuple[Action, ...]:
    """Collapse legal actions into one choice per meaningful decision, in first-seen order.

    All opening bids on one plant become its minimum bid, all raises in a running
    auction become the minimum raise, and all purchase counts of one resource
    kind become a purchase of one token. Every other action stays as it is.
    The result is a subset of ``actions``.
    """
    best: dict[object, Action] = {}
    for action in actions:
        # type() is, not isinstance: this runs on every legal action of every
        # bot decision, and the action classes are final.
        cls = type(action)
        key: object
        if cls is ChoosePlant:
            key = ("choose", action.plant)  # type: ignore[union-attr]
            old = best.get(key)
            if old is not None and old.bid <= action.bid:  # type: ignore[union-attr]
                continue
        elif cls is Bid:
            key = "bid"
            old = best.get(key)
            if old is not None and old.amount <= action.amount:  # type: ignore[union-attr]
                continue
        elif cls is BuyResource:
            if action.count != 1:  # type: ignore[union-attr]
                continue
            key = ("buy", action.resource)  # type: ignore[union-attr]
        else:
            key = action
        best[key] = action
    return tuple(best.values())


@attrs.frozen
class RandomBot:
    """Choose uniformly among the distinct legal choices (see :func:`distinct_choices`).

    Bids are always the minimum, and resources are bought one token at a time,
    so games between random bots look like (poor) games of Power Grid and end.
    ``choose`` raises ``ValueError`` when the game is over.
    """

    seed: int = 0

    def choose(self, state: GameState) -> Action:
        """Return one legal action for the player to act in ``state``."""
        return _rng(self.seed, state).choice(distinct_choices(_legal(state)))


@attrs.frozen
class GreedyBot:
    """A simple heuristic player; a baseline, not a strong opponent.

    - Phase 2: open the highest-numbered actual plant that raises its total
      plant capacity (cities its plants can supply, counting the plant it would
      have to discard at the limit) when its capacity is at most its cities +
      ``EXPECTED_BUILDS`` (more it could not use yet), whose fuel the market
      holds (or that needs none), and that it can afford at the minimum bid
      while keeping ``PLANT_RESERVE`` Elektro; otherwise pass (in round 1,
      where passing is illegal, take the cheapest plant). In a running auction
      it raises by the minimum while the plant improves its capacity and the
      bid stays within the plant number + ``BID_MARGIN`` and its reserve,
      else it drops out. Over the plant limit it discards the plant that
      supplies fewest cities, returning as few tokens as possible.
    - Phase 3: it buys one token at a time of the kind it lacks most to run
      enough plants for its cities + ``EXPECTED_BUILDS`` (hybrids take the
      cheaper kind), while keeping ``FUEL_RESERVE`` Elektro for building.
    - Phase 4: it builds in the cheapest city (ties broken by its seeded
      random stream) while it has at most as many cities as its plants supply
      (from round ``PATIENCE`` on, whatever it supplies, so that the game ends).
    - Phase 5: it powers the most cities, burning as few tokens as possible.
    - Setup decisions, any rule module's action of the setup phase
      (``setup_choice``): the fund's or the Trust's house (FND-05) in the
      most remote city it may choose (farthest from its nearest neighbour),
      so that it blocks what the players want least; any other choice of a
      city (a start city, RCH-13) the most central one (nearest to its
      nearest neighbour); any other decision at random from its stream.

    ``choose`` raises ``ValueError`` when the game is over.
    """

    seed: int = 0

    def choose(self, state: GameState) -> Action:
        """Return one legal action for the player to act in ``state``."""
        actions = _legal(state)
        first = actions[0]
        if state.phase is Phase.SETUP:
            return setup_choice(state, actions, _rng(self.seed, state))
        if isinstance(first, DiscardPlant):
            return _discard(state, actions)
        if isinstance(first, Bid | PassBid):
            return _bid(state, actions)
        if isinstance(first, ChoosePlant | PassAuction):
            return _open(state, actions)
        if isinstance(first, BuyResource | EndPurchase):
            return _buy(state, actions)
        if isinstance(first, Build | EndBuild):
            return _build(state, actions, _rng(self.seed, state))
        return _power(state, actions)


def _seat(state: GameState) -> int:
    seat = current_player(state)
    assert seat is not None  # _legal checked that the game runs
    return seat


def _supply(state: GameState, plants: Sequence[str]) -> int:
    """Cities the given plants supply together (fuel not considered)."""
    return sum(state.rules.plant(n).cities for n in plants)


def _supply_with(state: GameState, seat: int, plant: str) -> int:
    """Supply after buying ``plant``, discarding the weakest plant at the limit."""
    owned = sorted(state.players[seat].plants, key=lambda n: state.rules.plant(n).cities)
    if len(owned) >= state.rules.max_plants:
        owned = owned[1:]
    return _supply(state, owned) + state.rules.plant(plant).cities


def _improves(state: GameState, seat: int, plant: str) -> bool:
    """Whether buying ``plant`` adds capacity the seat can use and fuel (see GreedyBot)."""
    p = state.players[seat]
    now = _supply(state, p.plants)
    if _supply_with(state, seat, plant) <= now:
        return False
    if now > p.city_count + EXPECTED_BUILDS:  # it could not use more capacity yet
        return False
    card = state.rules.plant(plant)
    kinds = [state.rules.kind_index(k) for k in card.accepts]
    return not kinds or sum(state.resources.market[i] for i in kinds) >= card.burn


def _open(state: GameState, actions: tuple[Action, ...]) -> Action:
    """Phase 2 without a running auction: open the best useful plant, or pass."""
    seat = _seat(state)
    money = state.players[seat].money
    opens = [a for a in distinct_choices(actions) if isinstance(a, ChoosePlant)]
    useful = [
        a for a in opens if a.bid <= money - PLANT_RESERVE and _improves(state, seat, a.plant)
    ]
    if useful:
        return max(useful, key=lambda a: state.rules.rank[a.plant])
    passes = [a for a in actions if isinstance(a, PassAuction)]
    if passes:
        return passes[0]
    return min(opens, key=lambda a: (a.bid, state.rules.rank[a.plant]))


def _bid(state: GameState, actions: tuple[Action, ...]) -> Action:
    """In a running auction, raise by the minimum while the plant is worth it, else fold."""
    auction = state.auction
    assert auction is not None
    seat = _seat(state)
    money = state.players[seat].money
    cap = min(state.rules.number(auction.plant) + BID_MARGIN, money - PLANT_RESERVE)
    raises = [a for a in actions if isinstance(a, Bid) and a.amount <= cap]
    if raises and _improves(state, seat, auction.plant):
        return min(raises, key=lambda a: a.amount)
    return next(a for a in actions if isinstance(a, PassBid))


def _discard(state: GameState, actions: tuple[Action, ...]) -> Action:
    """Over the plant limit: drop the weakest plant, returning the fewest tokens."""
    discards = [a for a in actions if isinstance(a, DiscardPlant)]

    def key(a: DiscardPlant) -> tuple[int, int, int]:
        return (
            state.rules.plant(a.plant).cities,
            state.rules.rank[a.plant],
            sum(n for _, n in a.drop),
        )

    return min(discards, key=key)


def _fuel_wanted(state: GameState, seat: int) -> list[int]:
    """Tokens per kind still missing to run the plants needed next phase 5."""
    rules = state.rules
    p = state.players[seat]
    left = list(p.resources)
    want = [0] * len(left)
    market = state.resources.market
    target = p.city_count + EXPECTED_BUILDS
    powered = 0
    for n in sorted(p.plants, key=lambda n: -rules.plant(n).cities):
        if powered >= target:
            break
        plant = rules.plant(n)
        powered += plant.cities
        kinds = [rules.kind_index(k) for k in sorted(plant.accepts)]
        need = plant.burn
        for i in kinds:
            use = min(left[i], need)
            left[i] -= use
            need -= use
        if need:
            cheapest = min(kinds, key=lambda i: (market[i] == 0, _unit_price(state, i)))
            want[cheapest] += need
    return want


def _unit_price(state: GameState, kind: int) -> int:
    """The next token of a kind (by index), or 0 when the market has none left."""
    if state.resources.market[kind] == 0:
        return 0
    return queries.resource_price(state, state.rules.resources[kind], 1)


def _buy(state: GameState, actions: tuple[Action, ...]) -> Action:
    """Phase 3: one token of the most-needed kind, keeping money for building."""
    seat = _seat(state)
    money = state.players[seat].money
    want = _fuel_wanted(state, seat)
    kinds = state.rules.resources
    options = [
        a
        for a in actions
        if isinstance(a, BuyResource)
        and a.count == 1
        and want[kinds.index(a.resource)] > 0
        and queries.resource_price(state, a.resource, 1) <= money - FUEL_RESERVE
    ]
    if options:
        return max(options, key=lambda a: want[kinds.index(a.resource)])
    return next(a for a in actions if isinstance(a, EndPurchase))


def _build(state: GameState, actions: tuple[Action, ...], rng: random.Random) -> Action:
    """Phase 4: the cheapest city while cities stay within plant supply, then EndBuild."""
    seat = _seat(state)
    p = state.players[seat]
    builds = [a for a in actions if isinstance(a, Build)]
    end = next(a for a in actions if isinstance(a, EndBuild))
    patient = state.round < PATIENCE  # after that, build on so that the game ends
    if not builds or (p.city_count > _supply(state, p.plants) and patient):
        return end
    costs = {a: queries.build_cost(state, seat, a.city) for a in builds}
    low = min(costs.values())
    return rng.choice([a for a in builds if costs[a] == low])


def setup_choice(state: GameState, actions: Sequence[Action], rng: random.Random) -> Action:
    """A setup decision of any rule module (``Phase.SETUP``), for every bot.

    The bots know nothing of a module's action but its fields: an action with
    a ``city`` names a city, which is the fund's or the Trust's (FND-05) for a
    :class:`PlaceFundHouse` (the most remote city: it should block least) and
    the seat's own otherwise (a start city, RCH-13: the most central one).
    Without a city it is a seeded random choice. Ties go to the seeded stream.
    """
    cities = [a for a in actions if isinstance(getattr(a, "city", None), str)]
    if len(cities) != len(actions):
        return rng.choice(distinct_choices(tuple(actions)))
    area = state.rules.area
    index = area.board.index

    def nearest(a: Action) -> int:
        i = index[getattr(a, "city")]  # noqa: B009 - any module's action with a city
        return min((area.cost[i][j] for j in area.cities if j != i), default=0)

    sign = 1 if isinstance(actions[0], PlaceFundHouse) else -1
    best = max(sign * nearest(a) for a in actions)
    return rng.choice([a for a in actions if sign * nearest(a) == best])


def _power(state: GameState, actions: tuple[Action, ...]) -> Action:
    """Phase 5: power the most cities; on a tie burn the fewest tokens."""
    seat = _seat(state)
    cities = state.players[seat].city_count
    powers = [a for a in actions if isinstance(a, Power)]

    def key(a: Power) -> tuple[int, int]:
        return (min(_supply(state, a.plants), cities), -sum(n for _, n in a.mix))

    return max(powers, key=key)
