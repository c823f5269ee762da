"""A Gymnasium single-agent environment: :class:`PowerGridEnv` (``powergrid/PowerGrid-v0``).

The learner holds one seat; the other seats are played by opponents (the
built-in bots by name, or any callable ``state -> action`` or object with
``choose(state)``), between the learner's decisions. The observation is the
learner's float32 vector in [0, 1] (:class:`~powergrid.rl.ObservationEncoder`);
the action is an index of :class:`~powergrid.rl.ActionCodec`, whose mask for
the current state :meth:`PowerGridEnv.action_masks` returns (the name
sb3-contrib's MaskablePPO looks for) and ``info["action_mask"]`` repeats.

**Reward.** 0 on every step until the game ends, then the learner's
:func:`~powergrid.rl.rank_utility`: +1 for a sole win, -1 for last place, zero
summed over the table. A truncation (``max_rounds``) ends the episode with 0.

**Illegal actions.** With ``illegal_action="terminate"`` (the default, which
Gymnasium's checker needs: it samples unmasked actions) an index outside the
mask ends the episode with ``illegal_reward`` (-1, the worst utility) and the
engine's explanation in ``info["illegal"]``; with ``"raise"`` it raises
:class:`~powergrid.IllegalAction`. After the episode ends, ``action_masks()``
is all ones (as pgx does), so masked samplers that run into an autoreset
never face an empty mask.

>>> import gymnasium as gym
>>> import powergrid.rl
>>> env = gym.make("powergrid/PowerGrid-v0", players=3, opponents="random")
>>> obs, info = env.reset(seed=3)
>>> obs.shape == env.observation_space.shape and bool(info["action_mask"].any())
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from powergrid.actions import Action
from powergrid.bots import BOTS
from powergrid.config import GameConfig
from powergrid.engine.determinize import decision_rng, determinize
from powergrid.engine.game import apply, current_player, outcome
from powergrid.engine.start import new_game
from powergrid.errors import IllegalAction
from powergrid.formats.records import GameRecord
from powergrid.formats.text import show_lines
from powergrid.rl.aec import game_config
from powergrid.rl.codec import ActionCodec
from powergrid.rl.observation import ObservationEncoder
from powergrid.rl.rewards import rank_utility
from powergrid.state import GameState

Policy = Callable[[GameState], Action]
Opponent = str | Policy | Any
_BOTS = BOTS

#: The id under which ``import powergrid.rl`` registers the environment.
ENV_ID = "powergrid/PowerGrid-v0"


class PowerGridEnv(gym.Env[npt.NDArray[np.float32], np.int64]):
    """Power Grid from one seat, the others played by opponents (see the module docstring).

    ``seat`` is the learner's seat; ``opponents`` is one opponent for every
    other seat, or a single one for all of them: ``"random"``, ``"greedy"``, ``"heuristic"``
    (the built-in bots, seeded from the game seed and the seat, so the same
    seed gives the same game), a callable ``state -> action`` or an object
    with ``choose(state)``. Other keyword arguments make the
    :class:`~powergrid.GameConfig` (or pass ``config=``). ``reset(seed=s)``
    plays ``powergrid.new_game(config, seed=s)``; without a seed the game seed
    comes from the environment's ``np_random``. An opponent sees only what its
    seat may know: the state :func:`powergrid.determinize` makes for it, with
    the rng of :func:`~powergrid.engine.determinize.decision_rng`, unless
    ``full_information`` hands it the real state (deck order included).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        illegal_action: Literal["terminate", "raise"] = "terminate",
        illegal_reward: float = -1.0,
        max_rounds: int | None = None,
        render_mode: str | None = None,
        full_information: bool = False,
        **fields: Any,
    ) -> None:
        self.config = game_config(config, fields)
        n = self.config.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat of the {n}-player game (0..{n - 1}), not {seat}")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(
                f"illegal_action must be 'terminate' or 'raise', not {illegal_action!r}"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        if max_rounds is not None and max_rounds < 1:
            raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
        self.seat = seat
        self._opponents = _opponents(opponents, n, seat)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.full_information = bool(full_information)
        self.codec = ActionCodec(self.config)
        self.encoder = ObservationEncoder(self.config)
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.codec.size)
        self.state: GameState | None = None
        self.game_seed: int | None = None
        self._actions: list[Action] = []
        self._over = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start a game and play the opponents up to the learner's first decision."""
        super().reset(seed=seed)
        self.game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**32))
        self.state = new_game(self.config, seed=self.game_seed)
        self._actions = []
        self._over = False
        self._play_opponents()
        return self._observe(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the learner's action index, then the opponents; the Gymnasium 5-tuple."""
        state = self._game()
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            chosen = self.codec.decode(int(action), state)
        except IllegalAction as err:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = {**self._info(), "illegal": str(err)}
            return self._observe(), self.illegal_reward, True, False, info
        self._apply(chosen)
        self._play_opponents()
        state = self._game()
        result = outcome(state)
        terminated = result is not None
        truncated = not terminated and self.max_rounds is not None and state.round > self.max_rounds
        self._over = terminated or truncated
        reward = rank_utility(result)[self.seat] if result is not None else 0.0
        return self._observe(), reward, terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which indices are legal now (all ones once the episode is over)."""
        if self._over or current_player(self._game()) is None:
            return np.ones(self.codec.size, dtype=np.bool_)
        return self.codec.mask(self._game()).astype(np.bool_)

    def render(self) -> str | None:
        """The table as text seen from the learner's seat (the CLI's ``show``)."""
        if self.render_mode != "ansi":
            return None
        return "\n".join(show_lines(self._game(), viewer=self.seat))

    def record(self) -> GameRecord:
        """The game so far as a record (config, seed, actions of every seat)."""
        if self.game_seed is None:
            raise RuntimeError("no game yet: call reset() first")
        return GameRecord(config=self.config, seed=self.game_seed, actions=tuple(self._actions))

    def _game(self) -> GameState:
        if self.state is None:
            raise RuntimeError("no game yet: call reset() first")
        return self.state

    def _apply(self, action: Action) -> None:
        self.state = apply(self._game(), action)
        self._actions.append(action)

    def _play_opponents(self) -> None:
        """Let the other seats act until the learner must decide or the game stops."""
        while True:
            state = self._game()
            seat = current_player(state)
            if seat is None or seat == self.seat:
                return
            if self.max_rounds is not None and state.round > self.max_rounds:
                return
            self._apply(self._choose(seat, state))

    def _choose(self, seat: int, state: GameState) -> Action:
        policy = self._opponents[seat]
        assert self.game_seed is not None
        if not self.full_information:
            state = determinize(state, seat, decision_rng(self.game_seed, seat, len(self._actions)))
        if isinstance(policy, str):
            bot = _BOTS[policy](seed=random.Random(f"{self.game_seed}:{seat}").randrange(2**32))
            return bot.choose(state)
        choose = getattr(policy, "choose", None)
        action: Action = choose(state) if callable(choose) else policy(state)
        return action  # the engine checks it when it is applied

    def _observe(self) -> npt.NDArray[np.float32]:
        return self.encoder.encode(self._game(), self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "round": self._game().round}


def _opponents(given: Opponent | Sequence[Opponent], n: int, seat: int) -> dict[int, Opponent]:
    """One opponent per other seat, checked (a bot name must be one we ship)."""
    others = [s for s in range(n) if s != seat]
    if isinstance(given, str) or not isinstance(given, Sequence):
        chosen = [given] * len(others)
    else:
        chosen = list(given)
        if len(chosen) != len(others):
            raise ValueError(
                f"give one opponent or {len(others)} (one per other seat), not {len(chosen)}"
            )
    for o in chosen:
        if isinstance(o, str) and o not in _BOTS:
            raise ValueError(f"unknown bot {o!r}; the bots are {', '.join(_BOTS)}")
        if not isinstance(o, str) and not callable(o) and not callable(getattr(o, "choose", None)):
            raise TypeError(
                f"an opponent is a bot name, a callable or has choose(state), not {o!r}"
            )
    return dict(zip(others, chosen, strict=True))
