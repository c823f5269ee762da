"""Power Grid as an OpenSpiel game: ``pyspiel.load_game("python_powergrid", params)``.

Importing this module registers the Python game ``python_powergrid`` with
``pyspiel.register_game`` (it needs the ``open_spiel`` package, part of the
rl extra where its wheels exist). The game runs over explicit chance
(:mod:`powergrid.mechanics.chance_points`): every random event is an OpenSpiel
chance node, and every player decision an index of the fixed-size
:class:`~powergrid.rl.ActionCodec`.

**Parameters** (all optional; :data:`PARAMETERS` holds the defaults): ``players``
(2), ``map`` (``"europe"``), ``components`` (``"deluxe"``), ``modules``,
``without``, ``regions`` and ``options`` (comma-separated lists, empty by
default: the default modules, the play area left to chance, no options; the
``explicit_chance`` option is always added) and ``max_rounds`` (40).

**Chance outcome ids** are stable: within one configuration the same outcome
always has the same id, an index into a fixed enumeration per event: a
``draw`` by the card's deck rank, an ``order`` by the rank of the permutation
(lexicographic), an ``area`` and a Deluxe ``market`` by their place in the
library's list of that event's outcomes (areas sorted, markets as
combinations of the dealt pile in rank order), as
:class:`~powergrid.rl.chance_ids.ChanceIds` numbers them. The probabilities
are the library's exact ones (:func:`powergrid.chance_outcomes`) as floats.

**Returns** are the zero-sum rank utility (:func:`powergrid.rl.rank_utility`):
``1 - 2 * place / (n - 1)``, +1 for a sole win, -1 for last place, tied seats
sharing the mean of their places; they sum to 0 and are paid at the end only.

**Truncation (the adapter's, not a rule).** The rules do not bound a game:
players who never build never end it. So the adapter ends a game when round
``max_rounds + 1`` would begin, or when its players have made
``max_game_length`` decisions (``max_rounds * players * 150``), and scores it
by the END-03 order at that point, each seat's cities powered in the last
phase 5 it played standing in for END-02's (:func:`last_powered`), then money,
then cities.

The information-state string of a seat is the public history in record
notation (every action and chance outcome is public in Power Grid); the
observation tensor is :class:`~powergrid.rl.ObservationEncoder`'s, all zeros
while the setup's own chance events are pending. Neither reads the hidden deck
order. A state serializes by pickle (OpenSpiel pickles a Python state's
attributes): the engine's state, the history texts and the decision count.

>>> import pyspiel
>>> from powergrid.rl import openspiel
>>> game = pyspiel.load_game(
...     "python_powergrid", {"players": 3, "map": "usa", "components": "classic"}
... )
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(174, 42, 18000)
>>> state = game.new_initial_state()
>>> state.current_player() == pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0]
(True, (0, 0.08333333333333333))
>>> state.action_to_string(pyspiel.PlayerId.CHANCE, 0)
'chance:area brown,green,red'
>>> state.apply_action(0)  # the area
>>> state.apply_action(0)  # the order 0,1,2
>>> state.current_player(), state.action_to_string(0, state.legal_actions()[0])
(0, 'choose slot 0 +0')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np

try:
    import pyspiel
except ImportError as missing:  # pragma: no cover - the tests skip without it
    raise ModuleNotFoundError(
        'powergrid.rl.openspiel needs open_spiel: pip install "powergrid-rules[rl]"',
        name="pyspiel",
    ) from missing

from powergrid.actions import CHANCE, Action
from powergrid.config import EXPLICIT_CHANCE, GameConfig
from powergrid.engine.game import apply, chance_outcomes, current_player
from powergrid.engine.start import new_game
from powergrid.formats.serialize import from_json, to_json
from powergrid.outcome import Outcome, Score, rank
from powergrid.rl.chance_ids import ChanceIds, Chances
from powergrid.rl.codec import ActionCodec
from powergrid.rl.observation import Floats, ObservationEncoder
from powergrid.rl.rewards import rank_utility
from powergrid.state import GameState

#: The registered game's short name.
NAME = "python_powergrid"
#: The game parameters and their defaults (lists are comma-separated strings).
PARAMETERS: Mapping[str, int | str] = {
    "players": 2,
    "map": "europe",
    "components": "deluxe",
    "modules": "",
    "without": "",
    "regions": "",
    "options": "",
    "max_rounds": 40,
}
#: Decisions per seat and round that ``max_game_length`` allows (a generous bound; enforced).
MOVES_PER_SEAT_ROUND = 150
#: Why a truncated game ended (its :class:`~powergrid.Outcome` ``reason``).
TRUNCATED = "truncated by the OpenSpiel adapter"


def _words(text: object) -> tuple[str, ...]:
    return tuple(w.strip() for w in str(text).split(",") if w.strip())


def config_of(params: Mapping[str, Any]) -> GameConfig:
    """The explicit-chance :class:`~powergrid.GameConfig` that game parameters describe.

    Missing parameters take :data:`PARAMETERS`' defaults; an unknown one
    raises ValueError, a bad value :class:`~powergrid.RulesConfigError`.
    """
    unknown = set(params) - set(PARAMETERS)
    if unknown:
        raise ValueError(f"unknown parameters {sorted(unknown)}; known: {', '.join(PARAMETERS)}")
    p = {**PARAMETERS, **params}
    return GameConfig(
        players=int(p["players"]),
        map=str(p["map"]),
        components=str(p["components"]),
        modules=_words(p["modules"]),
        without=frozenset(_words(p["without"])),
        regions=_words(p["regions"]) or None,
        options=frozenset(_words(p["options"])) | {EXPLICIT_CHANCE},
    )


class Kit:
    """What every state of one configuration shares: codec, encoder, chance ids, bounds."""

    def __init__(self, config: GameConfig, max_rounds: int) -> None:
        if max_rounds < 1:
            raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
        self.config = config
        self.max_rounds = max_rounds
        self.start: GameState = new_game(config, seed=0)
        self.codec = ActionCodec(config)
        self.encoder = ObservationEncoder(config)
        self.chance = ChanceIds(self.start)
        self.max_game_length: int = max_rounds * config.players * MOVES_PER_SEAT_ROUND
        # Each card leaves the hidden deck at most twice: before Step 3, and once more
        # after the reshuffle (BUR-07); the setup adds its area, market and order.
        self.max_chance_nodes: int = 3 + 2 * len(self.chance.outcomes["draw"])

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        return _kit_from_json, (to_json(self.config), self.max_rounds)

    def __deepcopy__(self, memo: dict[int, Any]) -> Kit:
        return self  # shared by every state of the configuration; never changed


@functools.lru_cache(maxsize=32)
def kit(config: GameConfig, max_rounds: int) -> Kit:
    """The :class:`Kit` of ``config`` and ``max_rounds``, made once."""
    return Kit(config, max_rounds)


def _kit_from_json(config: str, max_rounds: int) -> Kit:
    return kit(from_json(config), max_rounds)


def _setting_up(state: GameState) -> bool:
    """Whether the setup itself waits for an outcome (the state is then a placeholder)."""
    return state.chance is not None and state.chance.action is None


@attrs.frozen(slots=False)  # a __dict__ for the cached chances
class Now:
    """One point of a game as the adapter holds it: immutable, so clones share it.

    ``state`` is the engine's state, ``texts`` the public history in record
    notation, ``decisions`` the players' decisions so far, ``truncated`` the
    adapter's outcome when it cut the game short.
    """

    state: GameState
    texts: tuple[str, ...] = ()
    decisions: int = 0
    truncated: Outcome | None = None

    def __reduce__(self) -> tuple[Any, tuple[GameState, tuple[str, ...], int, bool]]:
        # The engine's state pickles (its pickles stay loadable across releases); the
        # adapter's outcome is derived from it again.
        return _restored, (self.state, self.texts, self.decisions, self.over_cut)

    def __deepcopy__(self, memo: dict[int, Any]) -> Now:
        return self

    @functools.cached_property
    def chances(self) -> Chances:
        """The pending chance event's outcomes and odds (``()`` at a decision), found once.

        Finding them replays the pending action (or the setup), so a chance
        node's outcomes, legal actions and action strings share one replay.
        """
        return chance_outcomes(self.state)

    @property
    def over_cut(self) -> bool:
        """Whether the adapter ended the game (truncation)."""
        return self.truncated is not None

    def result(self) -> Outcome | None:
        """The game's outcome, or the adapter's at a truncation; None while it runs."""
        return self.state.result or self.truncated


def _restored(state: GameState, texts: tuple[str, ...], decisions: int, cut: bool) -> Now:
    return Now(state, texts, decisions, _ranked_now(state) if cut else None)


def last_powered(state: GameState) -> tuple[int, ...]:
    """Per seat, the cities it powered in the last phase 5 it played (BUR-03; 0 before any).

    Read from the public ``powered`` events. A truncation comes right after a
    phase 5, when the fuel is burnt, so what the seats just powered measures
    them better than what their plants could power with the tokens left.
    """
    found: dict[int, int] = {}
    n = len(state.players)
    for event in reversed(state.events.as_tuple()):
        if event.kind == "powered" and event.player is not None and event.player not in found:
            found[event.player] = int(event.values[0])
            if len(found) == n:
                break
    return tuple(found.get(seat, 0) for seat in range(n))


def _ranked_now(state: GameState) -> Outcome:
    """The END-03 order at a truncation: last powered (for END-02), money, cities."""
    powered = last_powered(state)
    scores = tuple(
        Score(seat=p.seat, powered=powered[p.seat], money=p.money, cities=p.city_count)
        for p in state.players
    )
    return rank(scores, TRUNCATED)


def table_text(state: GameState) -> str:
    """A short text of what everyone sees: round, phase, market, each seat's holdings."""
    if _setting_up(state):
        given = state.chance.given if state.chance is not None else ()
        return "setup; outcomes so far: " + (" ".join(str(r) for r in given) or "none")
    market = state.market
    lines = [
        f"round {state.round}, step {state.step}, {state.phase.name.lower()}",
        f"market {' '.join(market.actual)} | {' '.join(market.future)}",
        f"resources {state.resources.market}",
    ]
    who = current_player(state)
    lines.append("over" if who is None else "chance" if who == CHANCE else f"seat {who} to act")
    for p in state.players:
        plants = " ".join(p.plants) or "-"
        lines.append(
            f"seat {p.seat}: {p.money} Elektro, {p.city_count} cities, plants {plants}, "
            f"tokens {p.resources}"
        )
    return "\n".join(lines)


class PowerGridObserver:
    """OpenSpiel's observer: the encoder's tensor, or the information-state string."""

    def __init__(self, game_kit: Kit, history: bool, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self._kit = game_kit
        self._history = history
        self.tensor: Floats | None = None
        self.dict: dict[str, Floats] = {}
        if not history:
            self.tensor = np.zeros(game_kit.encoder.size, np.float32)
            self.dict["observation"] = self.tensor

    def set_from(self, state: PowerGridState, player: int) -> None:
        """Write ``state`` as ``player`` sees it into ``tensor`` (zeros during the setup)."""
        if self.tensor is None:
            return
        game_state = state.now.state
        if _setting_up(game_state):
            self.tensor.fill(0.0)
        else:
            self._kit.encoder.encode(game_state, player, out=self.tensor)

    def string_from(self, state: PowerGridState, player: int) -> str:
        """The information-state string (history) or the observation string of ``player``."""
        now = state.now
        if self._history:
            return "\n".join((f"seat {player}", *now.texts))
        return f"seat {player}\n{table_text(now.state)}"


def _game_type() -> Any:
    return pyspiel.GameType(
        short_name=NAME,
        long_name="Power Grid (powergrid-rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(PARAMETERS),
    )


GAME_TYPE = _game_type()


class PowerGridGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one configuration (see the module docstring for the parameters).

    ``num_distinct_actions`` is the codec's size, ``max_chance_outcomes`` the
    largest chance enumeration (1,287 for a Deluxe North America market),
    utilities lie in [-1, 1] and sum to 0, and ``max_game_length`` is
    ``max_rounds * players * 150`` decisions.
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        self.kit = kit(config_of(params), int(params["max_rounds"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.kit.codec.size,
            max_chance_outcomes=self.kit.chance.size,
            num_players=self.kit.config.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.kit.max_game_length,
        )
        super().__init__(GAME_TYPE, info, dict(params))

    def new_initial_state(self) -> PowerGridState:
        """A new game at its first chance point (the setup's)."""
        return PowerGridState(self)

    def max_chance_nodes_in_history(self) -> int:
        """At most two draws per card (before Step 3 and after the reshuffle) and the setup's."""
        return self.kit.max_chance_nodes

    def make_py_observer(
        self,
        iig_obs_type: Any = None,
        params: Mapping[str, Any] | None = None,
    ) -> PowerGridObserver:
        """The observer: with perfect recall, the information state (history); else the view."""
        history = iig_obs_type is not None and iig_obs_type.perfect_recall
        return PowerGridObserver(self.kit, history, params)


class PowerGridState(pyspiel.State):  # type: ignore[misc]
    """One point of a game; OpenSpiel mutates it by ``apply_action``.

    ``now`` (a :class:`Now`) holds the engine's state; ``game_state`` reads it.
    Pass ``start`` to begin from another point of a game of the game's
    configuration (e.g. a new game whose seed dealt another hidden sample);
    the history of the information state then begins there. A state of
    another configuration raises ValueError.
    """

    def __init__(self, game: PowerGridGame, start: GameState | None = None) -> None:
        super().__init__(game)
        self.kit: Kit = game.kit
        if start is not None and start.config != self.kit.config:
            raise ValueError(
                f"this OpenSpiel game was made for {self.kit.config.label} games; "
                f"the state is a {start.config.label} game"
            )
        self.now = Now(start if start is not None else self.kit.start)

    @property
    def game_state(self) -> GameState:
        """The engine's state of this point (a chance point at chance nodes)."""
        return self.now.state

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` at a chance point, ``TERMINAL`` at the end."""
        if self.now.result() is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        who = current_player(self.now.state)
        if who is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if who == CHANCE else who

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.kit.codec.legal(self.now.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending event's outcomes as (stable id, exact probability), sorted by id."""
        return self.kit.chance.pairs(self.now.chances)

    def _pending_event(self) -> str:
        return self.now.chances[0][0].event

    def _apply_action(self, action: int) -> None:
        now = self.now
        chosen: Action
        if self.is_chance_node():
            chosen = self.kit.chance.reveal(self._pending_event(), action)
            decisions = now.decisions
        else:
            chosen = self.kit.codec.decode(action, now.state)
            decisions = now.decisions + 1
        state = apply(now.state, chosen)
        cut = None
        # The adapter's truncation, at a decision point only: a chance point's fields are
        # those before its action.
        running = state.result is None and state.chance is None
        if running and (state.round > self.kit.max_rounds or decisions >= self.kit.max_game_length):
            cut = _ranked_now(state)
        self.now = Now(state, (*now.texts, str(chosen)), decisions, cut)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.is_chance_node():
                return str(self.kit.chance.reveal(self._pending_event(), action))
            return f"chance outcome {action}"
        return self.kit.codec.describe(action)

    def is_terminal(self) -> bool:
        """Whether the game is over, by the rules or by the adapter's truncation."""
        return self.now.result() is not None or current_player(self.now.state) is None

    def returns(self) -> list[float]:
        """The rank utility of each seat at the end; zeros while the game runs."""
        result = self.now.result()
        if result is None:
            return [0.0] * self.kit.config.players
        return list(rank_utility(result))

    def __str__(self) -> str:
        return table_text(self.now.state)


pyspiel.register_game(GAME_TYPE, PowerGridGame)

__all__ = [
    "GAME_TYPE",
    "MOVES_PER_SEAT_ROUND",
    "NAME",
    "PARAMETERS",
    "TRUNCATED",
    "Kit",
    "Now",
    "PowerGridGame",
    "PowerGridObserver",
    "PowerGridState",
    "config_of",
    "kit",
    "last_powered",
    "table_text",
]
