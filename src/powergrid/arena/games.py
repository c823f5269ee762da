"""One game of an arena: its description (a job), how it is played, and its result.

A job is a small picklable tuple (config, game seed, game number, policy per
seat, whether to keep the record, whether policies see the whole state),
enough to play the game in any process; :func:`play_chunk` is what a pool or
Ray worker runs.

Fair play: unless the job asks for full information, a policy is given the
state :func:`~powergrid.determinize` makes for its seat (its view agrees, the
hidden cards and the random stream are drawn again), with the rng of
:func:`~powergrid.engine.determinize.decision_rng`, so a policy that searches
ahead never sees the real draws and the games stay a function of the job.
"""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from powergrid.actions import Action
from powergrid.bots import BOTS
from powergrid.config import GameConfig
from powergrid.engine.determinize import decision_rng, determinize
from powergrid.engine.game import apply, current_player, outcome
from powergrid.engine.start import new_game
from powergrid.errors import PowerGridError
from powergrid.formats.records import GameRecord
from powergrid.outcome import Outcome
from powergrid.state import GameState

#: The built-in bots by name.
#: A game that runs longer than this many actions is reported as broken.
MAX_ACTIONS = 20_000


@attrs.frozen
class GameResult:
    """One game of an arena: who sat where, how it ended, or what broke it.

    ``seats`` names the policy of each seat. ``outcome`` is ``None`` when a
    policy broke the game: ``error`` then says what happened and ``broken`` is
    the seat whose policy did it. ``record`` is the game's record when the
    arena was asked to keep records.
    """

    index: int
    seed: int
    seats: tuple[str, ...]
    outcome: Outcome | None
    actions: int
    rounds: int
    error: str | None = None
    broken: int | None = None
    record: GameRecord | None = None


def policy_name(policy: str | object) -> str:
    """How a policy is named in results: its spec string, or the object's name."""
    if isinstance(policy, str):
        return policy
    return getattr(policy, "__qualname__", None) or type(policy).__qualname__


def resolve(spec: str | object) -> Any:
    """The object a policy spec names (a built-in bot class, or ``module:name``)."""
    if not isinstance(spec, str):
        return spec
    if spec in BOTS:
        return BOTS[spec]
    module, sep, attr = spec.partition(":")
    if not sep or not module or not attr:
        raise ValueError(
            f"unknown policy {spec!r}: use {', '.join(BOTS)} or module:callable (e.g. mybots:Smart)"
        )
    try:
        target: Any = importlib.import_module(module)
        for part in attr.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as err:
        raise ValueError(f"policy {spec!r} cannot be loaded: {err}") from err
    return target


Job = tuple[GameConfig, int, int, tuple[str | object, ...], bool, bool]


def make_job(
    config: GameConfig,
    seed: int,
    index: int,
    policies: tuple[str | object, ...],
    keep: bool,
    full_information: bool = False,
) -> Job:
    """The description of game ``index``: small, picklable, enough to play it anywhere."""
    n = len(policies)
    seats = tuple(policies[(s + index) % n] for s in range(n))
    return (config, seed + index, index, seats, keep, full_information)


def play_chunk(jobs: Sequence[Job]) -> list[GameResult]:
    """Play several games (one unit of work for a pool or Ray worker)."""
    return [play_job(job) for job in jobs]


def play_job(job: Job) -> GameResult:
    """Play one game to its end, or until a policy breaks it (then say which and how)."""
    config, seed, index, seats, keep, full = job
    state = new_game(config, seed=seed)
    players = [_instance(resolve(spec), seed, seat) for seat, spec in enumerate(seats)]
    names = tuple(policy_name(p) for p in seats)
    actions: list[Action] = []
    broke: tuple[int, str] | None = None
    while (seat := current_player(state)) is not None:
        if len(actions) >= MAX_ACTIONS:
            broke = (seat, f"the game did not end within {MAX_ACTIONS} actions")
            break
        try:
            given = (
                state if full else determinize(state, seat, decision_rng(seed, seat, len(actions)))
            )
            action = _decide(players[seat], given)
            state = apply(state, action)
        except Exception as err:  # a broken policy ends its game, not the arena
            broke = (seat, _what_broke(err))
            break
        actions.append(action)
    record = GameRecord(config=config, seed=seed, actions=tuple(actions)) if keep else None
    result = GameResult(
        index=index,
        seed=seed,
        seats=names,
        outcome=outcome(state),
        actions=len(actions),
        rounds=state.round,
        record=record,
    )
    if broke is None:
        return result
    seat, what = broke
    error = f"game {index} (seed {seed}): policy {names[seat]!r} in seat {seat} {what}"
    return attrs.evolve(result, outcome=None, error=error, broken=seat)


def _instance(target: Any, seed: int, seat: int) -> Any:
    """A policy ready to play one seat of one game (classes are made with a derived seed)."""
    if not isinstance(target, type):
        return target
    try:
        takes_seed = "seed" in inspect.signature(target).parameters
    except (TypeError, ValueError):  # a signature Python cannot read: assume the usual one
        takes_seed = True
    if not takes_seed:
        return target()
    return target(seed=random.Random(f"{seed}:{seat}").randrange(2**32))


def _decide(policy: Any, state: GameState) -> Action:
    choose = getattr(policy, "choose", None)
    action: Action = choose(state) if callable(choose) else policy(state)
    return action


def _what_broke(err: Exception) -> str:
    if isinstance(err, PowerGridError):
        return f"played an illegal action: {err}"
    return f"raised {type(err).__name__}: {err}"


def chunks(jobs: Sequence[Job], workers: int) -> Iterator[Sequence[Job]]:
    """Jobs in slices of a size that keeps every worker busy and progress visible."""
    size = max(1, min(50, len(jobs) // (workers * 4) or 1))
    for i in range(0, len(jobs), size):
        yield jobs[i : i + size]
