"""A PettingZoo AEC environment: :func:`env` (wrapped) and :func:`raw_env`.

Every seat is an agent ``player_<seat>``; a rule module's automatic actors
(the 2-player fund) are not agents, their turns run inside the engine. The
observation of an agent is a dict ``{"observation": float32 vector in [0, 1]
(powergrid.rl.ObservationEncoder), "action_mask": int8 vector}``, the mask
being that of :class:`~powergrid.rl.ActionCodec` for the agent to act and all
zeros for the others. Rewards are terminal: each seat's
:func:`~powergrid.rl.rank_utility` when the game ends, 0 before and 0 at a
truncation (``max_rounds``).

>>> from powergrid.rl import env
>>> e = env(players=3, map="europe")
>>> e.reset(seed=1)
>>> e.agent_selection in e.agents
True
>>> obs, reward, terminated, truncated, info = e.last()
>>> int(obs["action_mask"].sum()) > 0
True
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from powergrid.actions import Action
from powergrid.config import EXPLICIT_CHANCE, GameConfig
from powergrid.engine.game import apply, current_player, outcome
from powergrid.engine.start import new_game
from powergrid.formats.records import GameRecord
from powergrid.formats.text import show_lines
from powergrid.rl.codec import ActionCodec
from powergrid.rl.observation import ObservationEncoder
from powergrid.rl.rewards import rank_utility
from powergrid.state import GameState

Observation = dict[str, npt.NDArray[Any]]

#: The environment's name: the codec and observation versions live in its suffix.
NAME = "powergrid_v0"


def game_config(config: GameConfig | None, fields: dict[str, Any]) -> GameConfig:
    """The config an environment plays: ``config`` itself, or one built from keyword fields.

    Explicit chance is refused: an environment's agents are seats, and its
    ``reset(seed=...)`` lets the seed decide chance.
    """
    if config is not None:
        if fields:
            raise TypeError(f"give a config or config fields, not both: {sorted(fields)}")
    else:
        if "map" in fields and fields["map"] is None:
            del fields["map"]
        config = GameConfig(**fields)
    if EXPLICIT_CHANCE in config.options:
        raise ValueError(
            "the environments let the seed decide chance; play a config with the "
            "explicit_chance option through powergrid.apply (powergrid.mechanics.chance_points)"
        )
    return config


class PowerGridAEC(AECEnv[str, Observation, int]):
    """Power Grid as a PettingZoo AEC environment (see the module docstring).

    ``reset(seed=s)`` plays the game ``powergrid.new_game(config, seed=s)``
    and re-seeds the stream of later seeds; ``reset()`` without a seed takes
    the stream's next seed (a fresh environment's first unseeded reset draws
    one from the operating system). ``game_seed`` and :meth:`record` give the
    game back as a replayable :class:`~powergrid.GameRecord`. An index that is
    not legal raises :class:`~powergrid.IllegalAction` here; :func:`env` wraps
    this class so that such an index ends the game instead.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class-level convention
        "name": NAME,
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        render_mode: str | None = None,
        max_rounds: int | None = None,
        **fields: Any,
    ) -> None:
        super().__init__()
        self.config = game_config(config, fields)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of ansi, human or None, not {render_mode!r}")
        if max_rounds is not None and max_rounds < 1:
            raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
        self.render_mode = render_mode
        self.max_rounds = max_rounds
        self.codec = ActionCodec(self.config)
        self.encoder = ObservationEncoder(self.config)
        self.possible_agents = [f"player_{s}" for s in range(self.config.players)]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
            }
        )
        # api_test wants the same space object on every call.
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._stream: random.Random | None = None
        self.game_seed: int | None = None
        self.state: GameState | None = None
        self._actions: list[Action] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (one object per agent, as api_test requires)."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(codec.size)``: an index of the action codec."""
        return self._act_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (see the class docstring for seeds); ``options`` is unused."""
        if seed is not None:
            self._stream = random.Random(seed)
            game_seed = int(seed)
        else:
            if self._stream is None:
                self._stream = random.Random(secrets.randbits(64))
            game_seed = self._stream.randrange(2**32)
        self.game_seed = game_seed
        self.state = new_game(self.config, seed=game_seed)
        self._actions = []
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> Observation:
        """The observation of ``agent``: its encoded view and, if it is to act, its mask."""
        state = self._game()
        seat = self.possible_agents.index(agent)
        acting = agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent)
        )
        mask = self.codec.mask(state) if acting else np.zeros(self.codec.size, np.int8)
        return {"observation": self.encoder.encode(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action index (``None`` for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action index, not None")
        state = self._game()
        chosen = self.codec.decode(action, state)
        self._cumulative_rewards[agent] = 0.0
        self.state = state = apply(state, chosen)
        self._actions.append(chosen)
        self._clear_rewards()
        result = outcome(state)
        if result is not None:
            utility = rank_utility(result)
            for a in self.agents:
                self.rewards[a] = utility[self.possible_agents.index(a)]
                self.terminations[a] = True
        elif self.max_rounds is not None and state.round > self.max_rounds:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (the CLI's ``show``); printed in ``human`` mode."""
        if self.render_mode is None:
            return None
        text = "\n".join(show_lines(self._game()))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds plain values only."""

    def record(self) -> GameRecord:
        """The game so far as a record (config, seed, actions): ``powergrid.replay`` rebuilds it."""
        if self.game_seed is None:
            raise RuntimeError("no game yet: call reset() first")
        return GameRecord(config=self.config, seed=self.game_seed, actions=tuple(self._actions))

    def _game(self) -> GameState:
        if self.state is None:
            raise RuntimeError("no game yet: call reset() first")
        return self.state

    def _select(self) -> None:
        """Point agent_selection at the seat to act (unchanged once the game is over)."""
        seat = current_player(self._game())
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]


def raw_env(config: GameConfig | None = None, **kwargs: Any) -> PowerGridAEC:
    """The unwrapped environment: an illegal index raises :class:`~powergrid.IllegalAction`."""
    return PowerGridAEC(config, **kwargs)


def env(
    config: GameConfig | None = None, *, illegal_reward: float = -1.0, **kwargs: Any
) -> AECEnv[str, Observation, int]:
    """The environment behind PettingZoo's usual wrappers.

    An index outside the mask ends the game: the mover gets ``illegal_reward``
    (the worst rank utility by default), everyone else 0. Indices outside the
    action space and calls out of order raise, as PettingZoo's wrappers do.
    """
    e: AECEnv[str, Observation, int] = raw_env(config, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
