"""A fixed-size integer action space for one configuration: :class:`ActionCodec`.

Learners want a fixed set of action indices and a mask of the legal ones.
The engine's own actions are exact (every opening bid, every purchase
count); the codec maps a useful subset of them onto indices, in blocks:

============  ==============================  ===========================================
block         size                            index ``start + ...`` means
============  ==============================  ===========================================
``end``       4                               0 pass the auction phase, 1 fold (leave the
                                              running auction), 2 end buying, 3 end building
``choose``    actual slots x 8                ``slot * 8 + k``: open the plant in that
                                              actual-market slot (lowest first) at its
                                              minimum bid + ``RAISES[k]``
``bid``       8                               ``k``: bid the minimum raise + ``RAISES[k]``
``discard``   plant limit + 1                 ``slot``: discard the plant in that slot of
                                              one's hand (lowest first), returning as few
                                              tokens as the rules allow
``buy``       resource kinds                  ``kind``: buy one token of that kind (the
                                              game's kinds, in state order)
``build``     board cities                    ``city``: build in the city with that board
                                              index
``power``     2 ** plant limit x (H + 1)      ``mask * (H + 1) + g``: run the plants whose
                                              hand slots are the bits of ``mask``, the
                                              hybrids burning ``g`` tokens of the first
                                              hybrid kind and the rest of the second
<verb>        a module action's instances     ``k``: the ``k``-th instance the rule module
                                              declares (``ModuleAction.instances``), e.g.
                                              ``fund``: a fund house in the city with that
                                              board index (fund games only)
============  ==============================  ===========================================

A rule module's own actions (:class:`powergrid.rules.ModuleAction`) get one
block each after the base ones, named by their verb, in composition order:
index ``k`` is the ``k``-th of the instances the module lists for the game's
rules, played by the seat on turn. An action declared without ``instances``
has no index (say why in the module's documentation).

``RAISES`` is ``(0, 1, 2, 3, 5, 8, 13, 21)``: fine steps near the minimum,
where most bidding happens, and a jump of 21 in one action. ``H`` is the
most tokens the hybrids of a full hand of the deck can burn (8 in Deluxe,
9 in a 2-player classic game with its limit of 4 plants).

**What the codec leaves out, by design.** Opening bids and raises between
the buckets (a bid of minimum + 4 has no index; minimum + 3 then a raise does
the same in two steps), purchases of more than one token at a time (buy them
one by one), and discards that return more tokens than necessary. Every
other legal action has exactly one index, so no legal state has an empty
mask. A module action without declared instances has no index.

The codec is a function of the state: :meth:`~powergrid.rl.ActionCodec.legal` builds the
table of the state's legal actions by index in one pass over
:func:`powergrid.legal_actions`, so the engine stays the only judge of
legality, and :meth:`~powergrid.rl.ActionCodec.mask`, :meth:`~powergrid.rl.ActionCodec.encode` and
:meth:`~powergrid.rl.ActionCodec.decode` read that table (kept for the last state seen).

>>> import powergrid as pg
>>> from powergrid.rl import ActionCodec
>>> config = pg.GameConfig(players=4, map="europe")
>>> codec = ActionCodec(config)
>>> state = pg.new_game(config, seed=1)
>>> codec.describe(codec.encode(pg.legal_actions(state)[0], state))
'choose slot 0 +0'
>>> codec.decode(codec.block("choose").start + 1, state) == pg.legal_actions(state)[1]
True
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, ClassVar, SupportsIndex

import attrs
import numpy as np
import numpy.typing as npt

from powergrid.actions import (
    BASE_KINDS,
    CLOSING,
    Action,
    Bid,
    Build,
    BuyResource,
    ChoosePlant,
    DiscardPlant,
    Power,
    action_kinds,
)
from powergrid.config import GameConfig
from powergrid.engine.game import apply, current_player, legal_actions
from powergrid.engine.queries import min_bid
from powergrid.engine.start import new_game
from powergrid.enums import Resource
from powergrid.errors import IllegalAction, Reason
from powergrid.rules.ruleset import Ruleset
from powergrid.state import GameState

#: Raises over the minimum that an opening bid or a bid may add (see the module docstring).
RAISES: tuple[int, ...] = (0, 1, 2, 3, 5, 8, 13, 21)
_RAISE_INDEX = {r: k for k, r in enumerate(RAISES)}
#: The ``end`` block: the kinds that close a seat's part, in the registry's order.
_END: tuple[type, ...] = tuple(k.cls for k in CLOSING)
_CLOSE_TEXT = {
    "pass": "pass the auction",
    "fold": "fold",
    "endbuy": "end buying",
    "endbuild": "end building",
}
_END_TEXT = tuple(_CLOSE_TEXT[k.verb] for k in CLOSING)
#: The kinds with a block of their own, in the registry's order; each block is named by its verb.
_OWN_BLOCKS = tuple(k for k in BASE_KINDS if k.phase is not None and not k.closes)


@attrs.frozen
class Block:
    """One block of the action space: indices ``start`` to ``stop - 1``, and what they mean."""

    name: str
    start: int
    size: int
    meaning: str

    @property
    def stop(self) -> int:
        """One past the block's last index."""
        return self.start + self.size

    @property
    def slice(self) -> slice:
        """The block's indices as a slice of a mask."""
        return slice(self.start, self.stop)


def config_rules(config: GameConfig) -> Ruleset:
    """The composed rules of ``config`` (board, deck, tables; the play area is the seed's)."""
    if not isinstance(config, GameConfig):
        raise TypeError(f"expected a GameConfig, not {config!r}")
    return new_game(config, seed=0).rules


def check_config(expected: GameConfig, state: GameState, what: str) -> None:
    """Raise ValueError unless ``state`` is a game of the game-defining config ``expected``."""
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, not {state!r}")
    if state.rules.config != expected:
        raise ValueError(
            f"this {what} was made for {expected.label} games; the state is a "
            f"{state.rules.config.label} game"
        )


class ActionCodec:
    """A fixed-size integer action space for one configuration (see the module docstring).

    ``size`` is the number of indices and ``blocks`` their layout; both depend
    only on the config (players, map, components, modules, deck), so one codec
    serves every game of it. Methods that take a state raise ``ValueError``
    for a state of another configuration.
    """

    #: The layout's version; any change of blocks or buckets bumps it.
    VERSION: ClassVar[int] = 0

    def __init__(self, config: GameConfig) -> None:
        rules = config_rules(config)
        self.config: GameConfig = rules.config
        self._kinds: tuple[Resource, ...] = rules.resources
        self._cities: tuple[str, ...] = rules.area.board.cities
        self._city_index: Mapping[str, int] = rules.area.board.index
        self._plant_limit = rules.max_plants
        self._hybrid, self._hmax = _hybrid_split(rules)
        self._slots = rules.market_size(3)
        # A rule module's action: its block's name and its instances (of seat 0) by index.
        self._modules: dict[type, tuple[str, dict[Action, int]]] = {}
        self._instances: dict[str, tuple[Action, ...]] = {}
        for declared in rules.actions:
            if declared.instances is not None:
                found = tuple(declared.instances(rules))
                self._instances[declared.verb] = found
                self._modules[declared.cls] = (declared.verb, {a: k for k, a in enumerate(found)})
        self.blocks: tuple[Block, ...] = self._layout(rules)
        self._by_name = {b.name: b for b in self.blocks}
        self.size: int = self.blocks[-1].stop
        self._start = {b.name: b.start for b in self.blocks}
        self._last: tuple[GameState, dict[int, Action], dict[Action, int]] | None = None

    def _layout(self, rules: Ruleset) -> tuple[Block, ...]:
        end = ", ".join(f"{k} {text}" for k, text in enumerate(_END_TEXT))
        rows = [("end", len(_END), end)]
        own = self._own_blocks()
        for kind in action_kinds(rules):
            if kind.verb in own:
                rows.append((kind.verb, *own[kind.verb]))
            elif kind.verb in self._instances:
                if any(kind.verb == row[0] for row in rows):  # "end" is no verb, but a block
                    raise ValueError(
                        f"a module action's verb {kind.verb!r} names a block of the codec"
                    )
                found = self._instances[kind.verb]
                meaning = f"the k-th instance of the module action {kind.verb!r}"
                rows.append((kind.verb, len(found), meaning))
        blocks, start = [], 0
        for name, size, meaning in rows:
            blocks.append(Block(name=name, start=start, size=size, meaning=meaning))
            start += size
        return tuple(blocks)

    def _own_blocks(self) -> dict[str, tuple[int, str]]:
        """The size and meaning of each base kind's block, by verb (in the registry's order)."""
        n_raise, width = len(RAISES), self._hmax + 1
        sizes = {
            "choose": (self._slots * n_raise, "slot * 8 + k: actual slot at minimum + RAISES[k]"),
            "bid": (n_raise, "k: the minimum raise + RAISES[k]"),
            "discard": (self._plant_limit + 1, "hand slot, returning the fewest tokens"),
            "buy": (len(self._kinds), "one token of the kind, in the game's kind order"),
            "build": (len(self._cities), "one house in the city with that board index"),
            "power": ((2**self._plant_limit) * width, f"mask * {width} + hybrid tokens of kind 1"),
        }
        # A base kind without a block could not be encoded: every legal action needs an index.
        return {k.verb: sizes[k.verb] for k in _OWN_BLOCKS}

    def block(self, name: str) -> Block:
        """The block called ``name`` (KeyError naming the blocks when there is none)."""
        try:
            return self._by_name[name]
        except KeyError:
            names = ", ".join(self._by_name)
            raise KeyError(f"no block {name!r}; the blocks are {names}") from None

    # --- the table of a state -----------------------------------------------------------

    def legal(self, state: GameState) -> Mapping[int, Action]:
        """The state's expressible legal actions by index, in the engine's order."""
        return self._table(state)[1]

    def mask(self, state: GameState) -> npt.NDArray[np.int8]:
        """A 0/1 ``int8`` vector of ``size``: 1 where the index is a legal action now."""
        out = np.zeros(self.size, dtype=np.int8)
        table = self._table(state)[1]
        if table:
            out[list(table)] = 1
        return out

    def encode(self, action: Action, state: GameState) -> int | None:
        """The index of a legal ``action`` in ``state``, or None when it has none.

        None means the action is not legal in ``state`` or lies outside the
        codec (a bid between buckets, a purchase of several tokens, a discard
        returning more tokens than needed; see the module docstring).
        """
        table = self._table(state)
        if not table[2] and table[1]:  # the reverse lookup is built on first use
            table[2].update((a, i) for i, a in table[1].items())
        return table[2].get(action)

    def decode(self, index: SupportsIndex, state: GameState) -> Action:
        """The legal action with ``index`` in ``state``.

        Accepts numpy integers. An index outside ``0..size-1`` raises
        ``ValueError``; an index that is not legal now (its mask entry is 0)
        raises :class:`~powergrid.IllegalAction` saying why, with the reason
        the engine gives (or ``Reason.NOT_IN_MASK`` when the index names
        nothing in this state, e.g. a market slot that is empty).
        """
        i = self._index(index)
        action = self._table(state)[1].get(i)
        if action is not None:
            return action
        raw = self._raw(i, state)
        why, reason = "it names nothing in this state", Reason.NOT_IN_MASK
        if raw is not None:
            try:
                apply(state, raw)
            except IllegalAction as err:
                why, reason = str(err), err.reason
            else:
                why = f"{raw} is legal, but has another index"
        raise IllegalAction(
            f"Action index {i} ({self.describe(i)}) is not legal here: {why}",
            reason=reason,
            action=raw,
        )

    def describe(self, index: SupportsIndex) -> str:
        """What an index means, in words (``"choose slot 2 +2"``); needs no state."""
        i = self._index(index)
        block = self._block_of(i)
        k = i - block.start
        if block.name == "end":
            return _END_TEXT[k]
        if block.name == "choose":
            return f"choose slot {k // len(RAISES)} +{RAISES[k % len(RAISES)]}"
        if block.name == "bid":
            return f"bid +{RAISES[k]}"
        if block.name == "discard":
            return f"discard slot {k}"
        if block.name == "buy":
            return f"buy 1 {self._kinds[k].value}"
        if block.name == "build":
            return f"build {self._cities[k]}"
        if block.name in self._instances:
            return str(self._instances[block.name][k]).partition(":")[2]
        mask, g = divmod(k, self._hmax + 1)
        slots = ",".join(str(s) for s in range(self._plant_limit) if mask >> s & 1) or "none"
        tail = f" {self._hybrid[0].value}={g}" if self._hybrid and g else ""
        return f"power slots {slots}{tail}"

    def _block_of(self, i: int) -> Block:
        """The block holding index ``i`` (already checked to lie in the action space)."""
        return next(b for b in self.blocks if b.start <= i < b.stop)

    def _index(self, index: SupportsIndex) -> int:
        i = operator.index(index)
        if not 0 <= i < self.size:
            raise ValueError(f"action index {i} is outside 0..{self.size - 1}")
        return i

    def _table(self, state: GameState) -> tuple[GameState, dict[int, Action], dict[Action, int]]:
        last = self._last
        if last is not None and last[0] is state:
            return last
        check_config(self.config, state, "codec")
        by_index: dict[int, Action] = {}
        mins: dict[str, int] = {}  # each plant's minimum bid, once per table, not per bid
        for action in legal_actions(state):
            i = self._encode(action, state, mins)
            if i is None:
                continue
            old = by_index.get(i)
            # Several discards of one plant differ in the tokens they return:
            # the index stands for the one returning fewest (first on a tie).
            if old is None or (type(old) is DiscardPlant and _dropped(action) < _dropped(old)):
                by_index[i] = action
        table: tuple[GameState, dict[int, Action], dict[Action, int]] = (state, by_index, {})
        self._last = table
        return table

    def __getstate__(self) -> dict[str, Any]:
        # The table of the last state is a cache, not part of the codec.
        return {**self.__dict__, "_last": None}

    # --- one action's index -------------------------------------------------------------

    def _encode(self, action: Action, state: GameState, mins: dict[str, int]) -> int | None:
        """The index ``action`` would have in ``state`` (discards: any drop; see _table)."""
        cls = type(action)
        if cls is ChoosePlant:
            return self._choose_index(action, state, mins)  # type: ignore[arg-type]
        if cls is Bid:
            assert state.auction is not None
            k = _RAISE_INDEX.get(action.amount - state.auction.bid - 1)  # type: ignore[union-attr]
            return None if k is None else self._start["bid"] + k
        if cls in _END:
            return _END.index(cls)
        if cls is BuyResource:
            if action.count != 1:  # type: ignore[union-attr]
                return None
            return self._start["buy"] + self._kinds.index(action.resource)  # type: ignore[union-attr]
        if cls is Build:
            return self._start["build"] + self._city_index[action.city]  # type: ignore[union-attr]
        if cls is DiscardPlant:
            hand = state.players[action.player].plants
            return self._start["discard"] + hand.index(action.plant)  # type: ignore[union-attr]
        if cls is Power:
            return self._power_index(action, state)  # type: ignore[arg-type]
        module = self._modules.get(cls)
        if module is None:
            return None
        k = module[1].get(attrs.evolve(action, player=0))  # type: ignore[misc]
        return None if k is None else self._start[module[0]] + k

    def _choose_index(
        self, action: ChoosePlant, state: GameState, mins: dict[str, int]
    ) -> int | None:
        actual = state.market.actual
        if action.plant not in actual:
            return None
        slot = actual.index(action.plant)
        lo = mins.get(action.plant)
        if lo is None:
            lo = mins[action.plant] = min_bid(state, action.plant)
        k = _RAISE_INDEX.get(action.bid - lo)
        if k is None or slot >= self._slots:
            return None
        return self._start["choose"] + slot * len(RAISES) + k

    def _power_index(self, action: Power, state: GameState) -> int | None:
        rules = state.rules
        hand = state.players[action.player].plants
        mask = sum(1 << hand.index(p) for p in action.plants)
        g = 0
        if self._hybrid:
            first = self._hybrid[0]
            plain = sum(
                rules.plants[p].burn
                for p in action.plants
                if rules.plants[p].accepts == frozenset({first})
            )
            g = dict(action.mix).get(first, 0) - plain
        if not 0 <= g <= self._hmax:
            return None
        return self._start["power"] + mask * (self._hmax + 1) + g

    # --- the action an index names, legal or not (for decode's message) -------------------

    def _raw(self, i: int, state: GameState) -> Action | None:
        seat = current_player(state)
        if seat is None:
            return None
        block = self._block_of(i)
        k = i - block.start
        n = len(RAISES)
        if block.name == "end":
            closing: Action = _END[k](player=seat)
            return closing
        if block.name == "choose":
            actual = state.market.actual
            if k // n >= len(actual):
                return None
            plant = actual[k // n]
            return ChoosePlant(player=seat, plant=plant, bid=min_bid(state, plant) + RAISES[k % n])
        if block.name == "bid":
            bid = state.auction.bid + 1 + RAISES[k] if state.auction else None
            return None if bid is None else Bid(player=seat, amount=bid)
        if block.name == "discard":
            hand = state.players[seat].plants
            return DiscardPlant(player=seat, plant=hand[k]) if k < len(hand) else None
        if block.name == "buy":
            return BuyResource(player=seat, resource=self._kinds[k])
        if block.name == "build":
            return Build(player=seat, city=self._cities[k])
        if block.name in self._instances:
            return attrs.evolve(self._instances[block.name][k], player=seat)  # type: ignore[misc]
        return self._raw_power(seat, k, state)

    def _raw_power(self, seat: int, k: int, state: GameState) -> Action | None:
        mask, g = divmod(k, self._hmax + 1)
        hand = state.players[seat].plants
        if mask >> len(hand):
            return None
        plants = [hand[s] for s in range(len(hand)) if mask >> s & 1]
        mix: dict[Resource, int] = {}
        hybrid = 0
        for p in plants:
            card = state.rules.plants[p]
            if card.is_hybrid:
                hybrid += card.burn
            elif card.accepts:
                (kind,) = card.accepts
                mix[kind] = mix.get(kind, 0) + card.burn
        if g > hybrid:
            return None
        if hybrid:
            first, second = self._hybrid
            mix[first] = mix.get(first, 0) + g
            mix[second] = mix.get(second, 0) + hybrid - g
        return Power(player=seat, plants=plants, mix=mix)


def _dropped(action: Action) -> int:
    """Tokens a discard returns to the supply."""
    assert isinstance(action, DiscardPlant)
    return sum(n for _, n in action.drop)


def _hybrid_split(rules: Ruleset) -> tuple[tuple[Resource, ...], int]:
    """The hybrid kinds in the game's order, and the most a full hand's hybrids burn.

    The power block's split counts tokens of the first kind, which fixes the
    mix only when every hybrid card burns the same two kinds; a deck with
    other hybrids cannot be encoded, so the codec refuses it.
    """
    hybrids = [p for p in rules.deck.cards if p.is_hybrid]
    pairs = {p.accepts for p in hybrids}
    if len(pairs) > 1 or any(len(a) != 2 for a in pairs):
        shown = "; ".join(sorted("/".join(sorted(a)) for a in pairs))
        raise ValueError(
            f"the action codec needs every hybrid plant to burn the same two kinds; this "
            f"deck's hybrids burn {shown}"
        )
    if not hybrids:
        return (), 0
    kinds = tuple(k for k in rules.resources if k in next(iter(pairs)))
    burns = sorted((p.burn for p in hybrids), reverse=True)
    return kinds, sum(burns[: rules.max_plants])
