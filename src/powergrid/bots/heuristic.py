"""HeuristicBot: a fast player that plans its capacity, fuel and cities, and times the end.

It keeps its plant capacity a few cities ahead of its network and pays for a
plant what the capacity it needs is worth to it; it buys the fuel to power
the cities it can afford to have by phase 5, cheapest plants first; it builds
the cheapest cities up to what it can power; it powers the most cities for
the least fuel; and it ends the game only when ending it wins. Its numbers
are :class:`Weights`, read from ``heuristic.json`` beside this module.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from importlib import resources
from itertools import combinations

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
from powergrid.bots.basic import (
    _discard,
    _legal,
    _rng,
    _supply,
    distinct_choices,
    setup_choice,
)
from powergrid.engine import queries
from powergrid.engine.game import current_player
from powergrid.enums import Phase
from powergrid.plants import Plant
from powergrid.state import GameState

__all__ = ["HeuristicBot", "Weights", "default_weights"]

#: The price the bot assumes for a token the market has run out of.
SCARCE_PRICE = 12


@attrs.frozen
class Weights:
    """The numbers :class:`HeuristicBot` plays by (the docs page "Bots" explains each).

    - ``city_premium``: Elektro above a plant's number it pays per city of
      capacity it needs (its cities + ``lookahead_cities`` - its capacity).
    - ``upgrade_premium``: the same per city of capacity beyond that need.
    - ``fuel_penalty``: Elektro it pays less per Elektro a plant's fuel costs
      per round at today's prices.
    - ``lookahead_cities``: cities it expects to add before new capacity must
      be there.
    - ``city_cost``: Elektro it expects a city to cost (slot and connection).
    - ``plant_reserve``: the share of a round's fuel and two cities it keeps
      back when it bids.
    - ``end_margin``: powered cities it wants over every rival's reach before
      it builds the city that ends the game.
    - ``patience``: the round from which it ends the game whenever it can.
    """

    city_premium: float
    upgrade_premium: float
    fuel_penalty: float
    lookahead_cities: int
    city_cost: float
    plant_reserve: float
    end_margin: int
    patience: int


@functools.cache
def default_weights() -> Weights:
    """The shipped weights, ``powergrid/bots/heuristic.json``."""
    text = resources.files("powergrid.bots").joinpath("heuristic.json").read_text("utf-8")
    return Weights(**json.loads(text))


@attrs.frozen
class HeuristicBot:
    """A strong, fast player (see the module docstring); a pure function of (seed, state).

    ``weights`` defaults to :func:`~powergrid.bots.heuristic.default_weights`. ``choose`` raises
    ``ValueError`` when the game is over.
    """

    seed: int = 0
    weights: Weights = attrs.field(factory=default_weights)

    def choose(self, state: GameState) -> Action:
        """Return one legal action for the player to act in ``state``."""
        actions = _legal(state)
        first = actions[0]
        seat = current_player(state)
        assert seat is not None  # _legal checked that the game runs
        if state.phase is Phase.SETUP:  # any module's setup decision (FND-05, RCH-13)
            return setup_choice(state, actions, _rng(self.seed, state))
        if isinstance(first, DiscardPlant):
            return _discard(state, actions)
        plan = _Plan(state, seat, self.weights)
        if isinstance(first, Bid | PassBid):
            return plan.bid(actions)
        if isinstance(first, ChoosePlant | PassAuction):
            return plan.open(actions)
        if isinstance(first, BuyResource | EndPurchase):
            return plan.buy(actions)
        if isinstance(first, Build | EndBuild):
            return plan.build(actions)
        return plan.power(actions)


class _Plan:
    """One decision's view of the seat: its hand, capacity, prices and money."""

    def __init__(self, state: GameState, seat: int, weights: Weights) -> None:
        self.state, self.seat, self.w = state, seat, weights
        self.rules = state.rules
        self.me = state.players[seat]
        self.hand = [self.rules.plant(c) for c in self.me.plants]
        self.capacity = sum(p.cities for p in self.hand)

    # Prices and plants

    def unit_price(self, kind: int) -> int:
        """The next token of a kind (by index), or :data:`SCARCE_PRICE` when none is left."""
        if self.state.resources.market[kind] == 0:
            return SCARCE_PRICE
        return queries.resource_price(self.state, self.rules.resources[kind], 1)

    def kinds_of(self, plant: Plant) -> list[int]:
        """The kinds (indexes) a plant burns, in the game's order.

        ``Plant.accepts`` is a set, whose order changes from process to process
        with the string hash seed: ties between kinds must not follow it.
        """
        return sorted(self.rules.kind_index(k) for k in plant.accepts)

    def cheapest_kind(self, plant: Plant) -> int | None:
        """The kind (index) a plant burns most cheaply now, ``None`` for an eco plant."""
        kinds = self.kinds_of(plant)
        return min(kinds, key=self.unit_price) if kinds else None

    def running_cost(self, plant: Plant) -> int:
        """What a round of running the plant costs at today's prices."""
        kind = self.cheapest_kind(plant)
        return 0 if kind is None else plant.burn * self.unit_price(kind)

    def hand_after(self, plant: Plant) -> list[Plant]:
        """The hand after buying ``plant``, the weakest plant dropped at the limit."""
        hand = sorted(self.hand, key=lambda p: (p.cities, p.number))
        if len(hand) >= self.rules.max_plants:
            hand = hand[1:]
        return [*hand, plant]

    # Phase 2

    def worth(self, card: str) -> float:
        """The most the seat would pay for ``card`` (below its minimum bid: not wanted)."""
        plant, w = self.rules.plant(card), self.w
        gain = sum(p.cities for p in self.hand_after(plant)) - self.capacity
        if gain <= 0:
            return 0.0
        need = max(0, self.me.city_count + w.lookahead_cities - self.capacity)
        useful = min(gain, need)
        value = plant.number + w.city_premium * useful + w.upgrade_premium * (gain - useful)
        return value - w.fuel_penalty * self.running_cost(plant)

    def budget(self, card: str) -> float:
        """The money the seat may bid for ``card``, keeping its reserve for fuel and cities."""
        hand = self.hand_after(self.rules.plant(card))
        fuel = sum(self.running_cost(p) for p in hand)
        return self.me.money - self.w.plant_reserve * (fuel + 2 * self.w.city_cost)

    def open(self, actions: tuple[Action, ...]) -> Action:
        """Open the auction on the plant worth most over its minimum bid, or pass."""
        opens = [a for a in distinct_choices(actions) if isinstance(a, ChoosePlant)]
        wanted = [
            (self.worth(a.plant) - a.bid, a)
            for a in opens
            if a.bid <= min(self.worth(a.plant), self.budget(a.plant))
        ]
        if wanted:
            return max(wanted, key=lambda pair: (pair[0], self.rules.rank[pair[1].plant]))[1]
        passes = [a for a in actions if isinstance(a, PassAuction)]
        if passes:
            return passes[0]
        # Round 1 (AUC-02): a plant must be bought; take the best value for money.
        return max(opens, key=lambda a: (self.worth(a.plant) - a.bid, -a.bid))

    def bid(self, actions: tuple[Action, ...]) -> Action:
        """Raise by the minimum while the plant is worth it and affordable, else pass."""
        auction = self.state.auction
        assert auction is not None
        limit = min(self.worth(auction.plant), self.budget(auction.plant))
        raises = [a for a in actions if isinstance(a, Bid) and a.amount <= limit]
        if raises:
            return min(raises, key=lambda a: a.amount)
        return next(a for a in actions if isinstance(a, PassBid))

    # Phase 3

    def power_target(self) -> int:
        """The cities the seat expects to power next phase 5: its cities plus what it can build."""
        cities = self.me.city_count
        if self.state.end_triggered:
            return min(self.capacity, cities)
        builds = int(self.me.money // self.w.city_cost)
        return min(self.capacity, cities + builds)

    def fuel_wanted(self) -> list[int]:
        """Tokens per kind still missing to run the cheapest plants for :meth:`power_target`."""
        left = list(self.me.resources)
        want = [0] * len(left)
        target, powered = self.power_target(), 0
        for plant in sorted(self.hand, key=lambda p: self.running_cost(p) / p.cities):
            if powered >= target:
                break
            powered += plant.cities
            kinds = sorted(self.kinds_of(plant), key=self.unit_price)
            need = plant.burn
            for i in kinds:
                use = min(left[i], need)
                left[i] -= use
                need -= use
            if need and kinds:
                want[kinds[0]] += need
        return want

    def buy(self, actions: tuple[Action, ...]) -> Action:
        """Buy the missing fuel, the most-needed kind first, in as few purchases as allowed."""
        want = self.fuel_wanted()
        kinds = self.rules.resources
        buys = [
            a
            for a in actions
            if isinstance(a, BuyResource) and a.count <= want[kinds.index(a.resource)]
        ]
        if buys:
            return max(buys, key=lambda a: (want[kinds.index(a.resource)], a.count))
        return next(a for a in actions if isinstance(a, EndPurchase))

    # Phase 4

    def powerable(self) -> int:
        """The most cities the seat's plants can supply with the fuel it holds (any subset)."""
        held = self.me.resources
        best = 0
        for size in range(len(self.hand), 0, -1):
            for chosen in combinations(self.hand, size):
                supply = sum(p.cities for p in chosen)
                if supply > best and self._fuelled(chosen, held):
                    best = supply
        return best

    def _fuelled(self, plants: Sequence[Plant], held: tuple[int, ...]) -> bool:
        """Whether ``held`` tokens run all ``plants`` (single-fuel plants served first)."""
        left = list(held)
        for plant in sorted(plants, key=lambda p: len(p.accepts)):
            need = plant.burn
            for kind in self.kinds_of(plant):
                use = min(left[kind], need)
                left[kind] -= use
                need -= use
            if need:
                return False
        return True

    def build(self, actions: tuple[Action, ...]) -> Action:
        """Build the cheapest city while the seat can power it and ending would not lose."""
        end = next(a for a in actions if isinstance(a, EndBuild))
        builds = [a for a in actions if isinstance(a, Build)]
        cities = self.me.city_count
        can_power = self.powerable()
        if not builds:
            return end
        if cities + 1 >= self.rules.end_cities:
            if not self._ending_wins(can_power):
                return end
        elif cities >= can_power and self.state.round < self.w.patience:
            return end
        costs = {a: queries.build_cost(self.state, self.seat, a.city) for a in builds}
        cheapest = min(builds, key=lambda a: (costs[a], a.city))
        return cheapest if costs[cheapest] <= self.me.money else end

    def _ending_wins(self, can_power: int) -> bool:
        """Whether the seat wins if the game ends this round (or the game has gone on too long).

        A rival's reach is what it could power with one more city; on equal
        power the seat wins with more money (END-03). After ``patience``
        rounds the seat ends the game anyway, so that two careful bots cannot
        wait for each other forever.
        """
        if self.state.round >= self.w.patience:
            return True
        mine = min(can_power, self.me.city_count + 1)
        for p in self.state.players:
            if p.seat == self.seat:
                continue
            reach = min(_supply(self.state, p.plants), p.city_count + 1)
            if reach + self.w.end_margin > mine:
                return False
            if reach + self.w.end_margin == mine and p.money >= self.me.money - self.w.city_cost:
                return False
        return True

    # Phase 5

    def power(self, actions: tuple[Action, ...]) -> Action:
        """Power the most cities; on a tie burn the fuel worth least."""
        kinds = self.rules.resources

        def key(a: Power) -> tuple[int, int]:
            burnt = sum(n * self.unit_price(kinds.index(k)) for k, n in a.mix)
            return (queries.cities_powered(self.state, self.seat, a.plants), -burnt)

        return max((a for a in actions if isinstance(a, Power)), key=key)
