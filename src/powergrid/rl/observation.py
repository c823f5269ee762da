"""A fixed-size observation for agents: :class:`ObservationEncoder`.

One float32 vector per (state, seat), every value in [0, 1], built only from
what that seat may know: the state without its secret (deck order, plants
removed unseen and the random stream are never read), so states that differ
only there encode alike. The layout is relative to the observer: block
``seat0`` is the observer, ``seatK`` the seat K places on clockwise (seat
``(viewer + K) % n``), and every owner, bidder or order position names a
relative seat ``seatK`` or an automatic actor (the 2-player ``fund``).

The size depends only on the game-defining config (players, map, components,
modules, deck). Scales come from its ruleset; what the rules leave open uses
the saturating map ``x / (x + SCALE)`` with this module's ``*_SCALE``
constants (0 stays 0, 1 is never reached, nothing is clipped).

Symbols: ``n`` seats, ``a`` automatic actors (1 with the fund, else 0),
``P = n + a``, ``K`` resource kinds, ``F = 14 + K`` plant features, ``M``
the largest plant market of any Step, ``H = max_plants + 1`` hand slots (one
over the limit while a discard is pending, AUC-17), ``N`` deck cards, ``C``
board cities.

=============  =======================  ==============================================
block          size                     meaning
=============  =======================  ==============================================
``global``     21                       phase one-hot (SETUP..GAME_OVER), Step one-hot,
                                        build Step one-hot, players one-hot (2-6), round
                                        (``ROUND_SCALE``), end triggered, Step 3 pending
``resources``  3 K                      per kind: market tokens / track length, general
                                        supply / total tokens, next price / dearest
                                        price of the track (0: none on sale)
``market``     4 + M (F + 2)            hidden deck cards / N, Step 3 card in the
                                        market, in the deck, removal quota / its start;
                                        slot ``i``: the i-th market plant by rank,
                                        actual first (an actual slot is the codec's):
                                        plant features, ``actual``, ``discount``
``auction``    2 + F                    running, bid (``BID_SCALE``), the plant
``seatK``      13 + K + P + H (F + 1)   present, money (``MONEY_SCALE``), cities / 22,
                                        reached the Step 2 and the game-end counts,
                                        plants / H, tokens per kind / total, order
                                        position one-hot, flags (finished the phase,
                                        bought this round, in the auction, high bidder,
                                        auctioneer, to act, must discard), hand slots
                                        by rank: plant features and ``new`` (AUC-17)
actor's name   6 + K + P + H F          present, cities and supply houses / starting
                                        houses, plants / H, tokens per kind / total,
                                        order position one-hot, finished, bought, hand
``cards``      N (7 + P)                per deck card by rank, one-hot: ``unseen`` (deck,
                                        unseen removals, out of the game), ``actual``,
                                        ``future``, ``owner.<seatK or actor>``,
                                        ``removed`` face up, ``inactive`` area,
                                        ``under_step3``, ``top`` of the deck face up
``board``      C (4 + P)                field by field over the board's cities: in
                                        play, houses / 3, ``open`` (a slot of the build
                                        Step is free), the observer's connection cost
                                        (``COST_SCALE``; 1 out of reach), then per city
                                        ``owner.<seatK or actor>``
=============  =======================  ==============================================

Plant features: present, rank / (N - 1), printed number / the deck's highest,
kind one-hot over :data:`powergrid.plants.KINDS`, accepts per game kind, burn
/ largest burn, cities / most cities, plus plant. Tokens are a player's, not
a plant's, so a slot holds no token count. Sizes: 4-player Deluxe Europe
1479, 2-player Deluxe fund game on Europe 1277.

>>> import powergrid as pg
>>> from powergrid.rl.observation import ObservationEncoder
>>> encoder = ObservationEncoder(pg.GameConfig(players=4, map="europe"))
>>> obs = encoder.encode(pg.new_game(encoder.config, seed=1), seat=2)
>>> obs.shape == (encoder.size,), float(obs[encoder.feature_names().index("seat0.money")])
(True, 0.5)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import ClassVar, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from powergrid.config import GameConfig
from powergrid.engine.game import current_player
from powergrid.engine.start import new_game
from powergrid.enums import Phase
from powergrid.mechanics.network import INF, PlayArea, network_costs
from powergrid.module_state import area_cards
from powergrid.plants import KINDS, Plant
from powergrid.rl.codec import check_config
from powergrid.rules import HOUSES_PER_PLAYER
from powergrid.rules.ruleset import Ruleset
from powergrid.state import Board, GameState

#: Money ``m`` encodes as ``m / (m + MONEY_SCALE)``: the 50 Elektro of the start give 0.5.
MONEY_SCALE = 50.0
#: A bid ``b`` encodes as ``b / (b + BID_SCALE)``.
BID_SCALE = 30.0
#: Round ``r`` encodes as ``r / (r + ROUND_SCALE)``.
ROUND_SCALE = 10.0
#: A connection cost ``c`` encodes as ``c / (c + COST_SCALE)``.
COST_SCALE = 20.0

Floats = npt.NDArray[np.float32]

_FLAGS = ("done", "bought", "in_auction", "high_bidder", "auctioneer", "to_act", "discard")
_LATE_PLACES = ("removed", "inactive", "under_step3", "top")
_CITY_FIELDS = ("in_play", "houses", "open", "connect")
_RESERVED = re.compile(r"seat\d+|global|resources|market|auction|cards|board")
#: Templates kept per play area met; a run over many areas must not grow forever.
_TEMPLATES = 64


class _SeatAt(NamedTuple):
    """Where one seat's facts go for one viewer: feature indices and card place."""

    money: int
    tokens: int
    flags: int
    hand: int
    owner: int


class _ActorAt(NamedTuple):
    """Where an automatic actor's facts go (the same for every viewer)."""

    cities: int
    tokens: int
    hand: int
    owner: int
    houses: float


def _plant_fields(kinds: Iterable[str]) -> list[str]:
    kind, accepts = (f"kind.{k}" for k in KINDS), (f"accepts.{k}" for k in kinds)
    return ["present", "rank", "number", *kind, *accepts, "burn", "cities", "plus"]


def _plant_rows(cards: tuple[Plant, ...], kinds: tuple[str, ...]) -> Floats:
    """The plant features of every card, one row per card in rank order."""
    top = max(1, len(cards) - 1)
    number = max(1, *(c.number for c in cards))
    burn = max(1, *(c.burn for c in cards))
    powers = max(1, *(c.cities for c in cards))
    rows = np.zeros((len(cards), len(_plant_fields(kinds))), dtype=np.float32)
    for i, c in enumerate(cards):
        kind = [float(k == c.kind) for k in KINDS]
        accepts = [float(k in c.accepts) for k in kinds]
        tail = [c.burn / burn, c.cities / powers, float(c.plus)]
        rows[i] = [1.0, i / top, c.number / number, *kind, *accepts, *tail]
    return rows


def _actor_names(names: Iterable[str]) -> tuple[str, ...]:
    """Feature-name prefixes of the actors: ``"the fund"`` becomes ``fund``."""
    out: list[str] = []
    for j, name in enumerate(names):
        word = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_").removeprefix("the_")
        clash = not word or word in out or _RESERVED.fullmatch(word)
        out.append(f"actor{j}" if clash else word)
    return tuple(out)


def _floats(array: Floats) -> memoryview[float]:
    """A flat float view of a C-contiguous float32 array: item writes cost no numpy call."""
    return array.data.cast("B").cast("f")


def _copied(view: memoryview[float]) -> memoryview[float]:
    """A read-only copy of part of an observation, to write back later."""
    return _floats(np.array(view, dtype=np.float32)).toreadonly()


#: A board met by an encoder: the board, its build Step and rules, its houses and owners blocks.
_BoardBlock: TypeAlias = (
    "tuple[Board, tuple[int, Ruleset], tuple[memoryview[float], memoryview[float]]]"
)


@functools.lru_cache(maxsize=8192)
def _connect_row(area: PlayArea, cities: tuple[str, ...]) -> memoryview[float]:
    """A network's saturated connection cost to every board city (1: out of reach or play)."""
    cost = np.asarray(network_costs(area, cities), dtype=np.float64)
    reachable = np.asarray(area.in_area) & (cost < INF)  # an empty network costs 0 everywhere
    row = np.where(reachable, cost / (cost + COST_SCALE), 1.0).astype(np.float32)
    return _floats(row).toreadonly()  # shared by every encode of this network


def _quota(state: GameState) -> int:
    """A customised deck's removals still due (CDK-07), 0 in a game without its module."""
    held = state.modules.get("custom_deck")
    return int(getattr(held, "quota", 0))


def _marked(state: GameState) -> frozenset[str]:
    """The market plants a rule module's token lies on (the ``discount`` feature: AUC-31)."""
    return frozenset(
        getattr(state.modules[name], field)
        for name, spec in state.rules.state_specs
        for field in spec.marks
    )


class ObservationEncoder:
    """A fixed-size float32 observation in [0, 1] of one configuration's games, per seat.

    ``size``, ``slices`` (the blocks of the module docstring, in order,
    tiling ``0..size``) and :meth:`feature_names` depend only on the
    game-defining ``config``; ``VERSION`` is bumped on any change of the
    layout. :meth:`encode` reads the state directly (never its secret)
    through index tables made here, cheap enough for every step of a game.
    """

    VERSION: ClassVar[int] = 0

    def __init__(self, config: GameConfig) -> None:
        if not isinstance(config, GameConfig):
            raise TypeError(f"expected a GameConfig, not {config!r}")
        start = new_game(config, seed=0)  # board, deck and tables do not depend on the seed
        rules = start.rules
        self.config: GameConfig = rules.config
        self._n = config.players
        actors = start.actors
        self._actor_ids = tuple(a.actor for a in actors)
        names = _actor_names(a.name for a in actors)
        self._owners = (*(f"seat{k}" for k in range(self._n)), *names)
        kinds = tuple(k.value for k in rules.resources)
        self._cards = tuple(sorted(rules.deck.cards, key=lambda c: rules.rank[c.label]))
        self._hand = rules.max_plants + 1
        self._market = max(rules.market_size(step) for step in (1, 2, 3))
        self._quota = max(1, _quota(start))  # CDK-07: the quota only falls from its start
        self._rows = _plant_rows(self._cards, kinds)
        self._width = self._rows.shape[1]
        self._names, self.slices = self._layout(rules, kinds)
        self.size: int = len(self._names)
        at = {name: i for i, name in enumerate(self._names)}
        self._tables(at, rules, kinds)
        self._seat_tables(at, kinds)
        self._actor_at = {
            a.actor: _ActorAt(
                at[f"{o}.cities"],
                at[f"{o}.tokens.{kinds[0]}"],
                at[f"{o}.plant0.present"],
                3 + self._n + j,
                float(max(1, a.houses + a.city_count)),  # its houses come from its supply
            )
            for j, (a, o) in enumerate(zip(actors, names, strict=True))
        }
        self._templates: dict[Ruleset, Floats] = {}
        # Per viewer, the board block of the last board met: successive states share the
        # board record until a house is built (kept with it, so its id is never reused).
        self._boards: list[_BoardBlock | None] = [None] * self._n

    def _layout(
        self, rules: Ruleset, kinds: tuple[str, ...]
    ) -> tuple[tuple[str, ...], Mapping[str, slice]]:
        """Every feature name, block by block, and each block's slice."""
        owners, plant, hand = self._owners, _plant_fields(kinds), range(self._hand)
        order = [f"order.{pos + 1}" for pos in range(len(owners))]
        tokens = [f"tokens.{k}" for k in kinds]
        market = ["deck_size", "step3_in_market", "step3_in_deck", "quota"]
        market += [
            f"slot{i}.{f}" for i in range(self._market) for f in (*plant, "actual", "discount")
        ]
        seat = ["present", "money", "cities", "step2_cities", "end_cities", "plants", *tokens]
        seat += [*order, *_FLAGS, *(f"plant{j}.{f}" for j in hand for f in (*plant, "new"))]
        actor = ["present", "cities", "houses", "plants", *tokens, *order, "done", "bought"]
        actor += [f"plant{j}.{f}" for j in hand for f in plant]
        places = ("unseen", "actual", "future", *(f"owner.{o}" for o in owners), *_LATE_PLACES)
        cities = rules.area.board.cities
        board = [f"{c}.{f}" for f in _CITY_FIELDS for c in cities]
        board += [f"{c}.owner.{o}" for c in cities for o in owners]
        glob = [f"phase.{p.name.lower()}" for p in Phase] + [f"step.{s}" for s in (1, 2, 3)]
        glob += [f"build_step.{s}" for s in (1, 2, 3)] + [f"players.{p}" for p in range(2, 7)]
        glob += ["round", "end_triggered", "step3_pending"]
        blocks = [
            ("global", glob),
            ("resources", [f"{k}.{f}" for k in kinds for f in ("market", "supply", "price")]),
            ("market", market),
            ("auction", ["active", "bid", *(f"plant.{f}" for f in plant)]),
            *((o, seat) for o in owners[: self._n]),
            *((o, actor) for o in owners[self._n :]),
            ("cards", [f"{c.label}.{p}" for c in self._cards for p in places]),
            ("board", board),
        ]
        names: list[str] = []
        slices: dict[str, slice] = {}
        for block, fields in blocks:
            slices[block] = slice(len(names), len(names) + len(fields))
            names += (f"{block}.{f}" for f in fields)
        return tuple(names), slices

    def _tables(self, at: dict[str, int], rules: Ruleset, kinds: tuple[str, ...]) -> None:
        """Index tables of the blocks that do not depend on the viewer."""
        self._phase, self._pending = at["global.phase.setup"], at["global.step3_pending"]
        self._step, self._build = at["global.step.1"] - 1, at["global.build_step.1"] - 1
        self._round, self._ended = at["global.round"], at["global.end_triggered"]
        self._const = [at[f"global.players.{self._n}"], *(at[f"{o}.present"] for o in self._owners)]
        self._res = tuple(at[f"resources.{k}.market"] for k in kinds)
        prices = rules.tables.slot_prices
        self._inv_totals = tuple(1.0 / t for t in rules.tables.totals)
        self._fill = tuple(tuple(c / len(p) for c in range(len(p) + 1)) for p in prices)
        # RES-06 and BUR-05: the track fills from its dearest space, so count c sells
        # first at the price of space len - c.
        self._slots = len(rules.tables.house_costs)  # BLD-05: three slots per city
        self._price = tuple(
            (0.0, *(p[len(p) - c] / (max(p) or 1) for c in range(1, len(p) + 1))) for p in prices
        )
        self._deck, self._auction = at["market.deck_size"], at["auction.active"]
        self._mslot = tuple(at[f"market.slot{i}.present"] for i in range(self._market))
        self._card_at = {c.label: at[f"cards.{c.label}.unseen"] for c in self._cards}
        self._plant = {c.label: _floats(self._rows[i]) for i, c in enumerate(self._cards)}
        self._late = 3 + len(self._owners)  # the first place after the owners
        self._step2, self._end_at = rules.step2_cities, rules.end_cities
        cities, first = rules.area.board.cities, self._owners[0]
        self._in_play, self._cities = at[f"board.{cities[0]}.in_play"], len(cities)
        self._city_owner = tuple(at[f"board.{c}.owner.{first}"] for c in cities)

    def _seat_tables(self, at: dict[str, int], kinds: tuple[str, ...]) -> None:
        """Per viewer: where each seat, actor and id of the order lands."""
        n, owners, ids = self._n, self._owners, self._actor_ids
        self._rel = tuple(
            {**{s: (s - v) % n for s in range(n)}, **{a: n + j for j, a in enumerate(ids)}}
            for v in range(n)
        )
        fields = ("money", f"tokens.{kinds[0]}", "done", "plant0.present")
        blocks = [
            _SeatAt._make([*(at[f"{o}.{f}"] for f in fields), 3 + k])
            for k, o in enumerate(owners[:n])
        ]
        self._seat_at = tuple(tuple(blocks[(s - v) % n] for s in range(n)) for v in range(n))

        def per_viewer(field: str) -> tuple[dict[int, int], ...]:
            return tuple({i: at[f"{owners[k]}.{field}"] for i, k in r.items()} for r in self._rel)

        flags = ("order.1", "done", "bought")
        self._order_at, self._done_at, self._bought_at = map(per_viewer, flags)

    def __reduce__(self) -> tuple[type[ObservationEncoder], tuple[GameConfig]]:
        # By config: the tables hold memoryviews, which do not pickle, and rebuild cheaply.
        return (ObservationEncoder, (self.config,))

    def feature_names(self) -> tuple[str, ...]:
        """A readable, unique name per entry (``"seat1.money"``, ``"board.berlin.owner.seat0"``)."""
        return self._names

    def encode(self, state: GameState, seat: int, out: Floats | None = None) -> Floats:
        """The observation of ``state`` for ``seat``: float32, shape ``(size,)``, in [0, 1].

        Writes into ``out`` (a C-contiguous float32 array of shape ``(size,)``)
        when given and returns it. Raises ValueError for a state of another
        game-defining config or a seat that does not exist, TypeError for a
        seat that is no whole number.
        """
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"seat must be a seat number, not {seat!r}")
        if not 0 <= seat < self._n:
            raise ValueError(f"seat {seat} does not exist in a {self._n}-player game")
        blank = self._template(state)
        fits = isinstance(out, np.ndarray) and out.shape == blank.shape and out.dtype == blank.dtype
        if out is None:
            out = blank.copy()
        elif fits and out.flags.c_contiguous:
            np.copyto(out, blank)
        else:
            raise ValueError(f"out must be a C-contiguous float32 array of shape ({self.size},)")
        mv = _floats(out)
        self._put_global(state, seat, mv)
        self._put_market(state, mv)
        self._put_seats(state, seat, mv)
        if state.actors:
            self._put_actors(state, mv)
        self._put_board(state, seat, mv)
        return out

    def _template(self, state: GameState) -> Floats:
        """What every state of a play area shares, after checking the state's config once."""
        blank = self._templates.get(state.rules) if isinstance(state, GameState) else None
        if blank is None:
            check_config(self.config, state, "observation encoder")  # TypeError for a non-state
            rules = state.rules
            blank = np.zeros(self.size, dtype=np.float32)
            blank[self._const] = 1.0
            blank[list(self._card_at.values())] = 1.0  # unseen until a public place shows it
            c, at = self._cities, self._in_play
            blank[at : at + c] = blank[at + 2 * c : at + 3 * c] = rules.area.in_area  # all open
            if len(self._templates) >= _TEMPLATES:
                self._templates.clear()
            self._templates[rules] = blank
        return blank

    def _put_global(self, state: GameState, seat: int, mv: memoryview[float]) -> None:
        """The global block, the resource market and the running auction."""
        mv[self._phase + state.phase] = mv[self._step + state.step] = 1.0
        mv[self._build + state.build_step] = 1.0
        if state.end_triggered:
            mv[self._ended] = 1.0
        if state.step3_pending:
            mv[self._pending] = 1.0
        mv[self._round] = state.round / (state.round + ROUND_SCALE)
        res = state.resources
        for k, count in enumerate(res.market):
            at = self._res[k]
            mv[at] = self._fill[k][count]
            mv[at + 1] = res.supply[k] * self._inv_totals[k]
            mv[at + 2] = self._price[k][count]
        auction = state.auction
        if auction is not None:
            at = self._auction
            mv[at] = 1.0
            mv[at + 1] = auction.bid / (auction.bid + BID_SCALE)
            mv[at + 2 : at + 2 + self._width] = self._plant[auction.plant]
            seats = self._seat_at[seat]
            for s in auction.active:
                mv[seats[s].flags + 2] = 1.0
            mv[seats[auction.high_bidder].flags + 3] = 1.0
            mv[seats[auction.auctioneer].flags + 4] = 1.0

    def _put_market(self, state: GameState, mv: memoryview[float]) -> None:
        """The plant market's slots and every public place of a card."""
        m, card_at = state.market, self._card_at
        plants, quota = m.plants, _quota(state)
        if len(plants) > self._market or quota > self._quota:
            raise ValueError(f"a market of {len(plants)} or a quota of {quota} is off the layout")
        mv[self._deck] = m.deck_size / len(self._cards)
        mv[self._deck + 3] = quota / self._quota
        marked = _marked(state)
        if m.step3_in_market:
            mv[self._deck + 1] = 1.0
        if m.step3_in_deck:
            mv[self._deck + 2] = 1.0
        n_actual, width = len(m.actual), self._width
        for i, card in enumerate(plants):
            at, slot = card_at[card], self._mslot[i]
            mv[at] = 0.0
            mv[slot : slot + width] = self._plant[card]
            if i < n_actual:
                mv[at + 1] = mv[slot + width] = 1.0
            else:
                mv[at + 2] = 1.0
            if card in marked:
                mv[slot + width + 1] = 1.0
        late = self._late
        top = () if m.top is None else (m.top,)
        held = tuple(c for c, _ in area_cards(state)) if state.rules.state_specs else ()
        for place, cards in enumerate((m.removed, held, m.under_step3, top), late):
            for card in cards:
                at = card_at[card]
                mv[at] = 0.0
                mv[at + place] = 1.0

    def _put_hand(
        self, plants: tuple[str, ...], at: int, owner: int, stride: int, mv: memoryview[float]
    ) -> None:
        """A holder's plants: hand slots of ``stride`` entries from ``at``, and their places."""
        if len(plants) > self._hand:
            raise ValueError(f"a hand of {len(plants)} plants exceeds the layout's {self._hand}")
        card_at, plant, width = self._card_at, self._plant, self._width
        for card in plants:
            place = card_at[card]
            mv[place] = 0.0
            mv[place + owner] = 1.0
            mv[at : at + width] = plant[card]
            at += stride

    def _put_seats(self, state: GameState, seat: int, mv: memoryview[float]) -> None:
        """Every seat's block, and the order, finished and bought flags of all."""
        seats, inv_totals, hand = self._seat_at[seat], self._inv_totals, self._hand
        for p in state.players:
            at = seats[p.seat]
            money, cities = p.money, len(p.cities)
            mv[at.money] = money / (money + MONEY_SCALE)
            mv[at.money + 1] = cities / HOUSES_PER_PLAYER
            mv[at.money + 4] = len(p.plants) / hand
            if cities >= self._step2:
                mv[at.money + 2] = 1.0
            if cities >= self._end_at:
                mv[at.money + 3] = 1.0
            t = at.tokens
            for k, tokens in enumerate(p.resources):
                mv[t + k] = tokens * inv_totals[k]
            if p.plants:
                self._put_hand(p.plants, at.hand, at.owner, self._width + 1, mv)
        turn = current_player(state)
        if turn is not None and turn >= 0:  # nobody's turn at a chance point (CHANCE < 0)
            mv[seats[turn].flags + 5] = 1.0
        if state.discarding is not None:
            at = seats[state.discarding]
            mv[at.flags + 6] = 1.0
            plants = state.players[state.discarding].plants
            if state.new_plant in plants:
                new = plants.index(state.new_plant)
                mv[at.hand + new * (self._width + 1) + self._width] = 1.0
        order, done, bought = self._order_at[seat], self._done_at[seat], self._bought_at[seat]
        for pos, who in enumerate(state.order):
            mv[order[who] + pos] = 1.0
        for who in state.done:
            mv[done[who]] = 1.0
        for who in state.bought:
            mv[bought[who]] = 1.0

    def _put_actors(self, state: GameState, mv: memoryview[float]) -> None:
        inv_totals = self._inv_totals
        for a in state.actors:
            at = self._actor_at.get(a.actor)
            if at is None:
                raise ValueError(f"automatic actor {a.actor} is not in this encoder's layout")
            mv[at.cities] = len(a.cities) / at.houses
            mv[at.cities + 1] = a.houses / at.houses
            mv[at.cities + 2] = len(a.plants) / self._hand
            t = at.tokens
            for k, tokens in enumerate(a.resources):
                mv[t + k] = tokens * inv_totals[k]
            if a.plants:
                self._put_hand(a.plants, at.hand, at.owner, self._width, mv)

    def _put_board(self, state: GameState, seat: int, mv: memoryview[float]) -> None:
        """Houses per city: count, whether a slot is still open, one flag per owner."""
        rel, build, third = self._rel[seat], state.build_step, 1.0 / self._slots
        c = self._cities
        houses, is_open, connect = self._in_play + c, self._in_play + 2 * c, self._in_play + 3 * c
        mv[connect : connect + c] = _connect_row(state.rules.area, state.players[seat].cities)
        owners = self._city_owner[0]
        end = owners + c * len(self._owners)
        last = self._boards[seat]
        if last is not None and last[0] is state.board and last[1] == (build, state.rules):
            mv[houses : is_open + c], mv[owners:end] = last[2]
            return
        for i, here in enumerate(state.board.houses):
            if here:
                count = len(here)
                mv[houses + i] = count * third
                if count >= build:
                    mv[is_open + i] = 0.0
                at = self._city_owner[i]
                for s in here:
                    mv[at + rel[s]] = 1.0
        kept = (_copied(mv[houses : is_open + c]), _copied(mv[owners:end]))
        self._boards[seat] = (state.board, (build, state.rules), kept)
