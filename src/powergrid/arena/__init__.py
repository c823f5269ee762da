"""Many seeded games between policies: :func:`run_arena`, on one process, a pool or Ray.

A *policy* is named by a string, so that it can be sent to another process:
``"random"``, ``"greedy"`` and ``"heuristic"`` are the built-in bots, and ``"module:name"``
names an object of an importable module: a class (made once per game and
seat as ``cls(seed=...)``, or ``cls()`` if it takes no seed), an object with
``choose(state)``, or a function ``state -> action``. The in-process backend
also takes such objects themselves.

Game ``i`` of an arena is ``new_game(config, seed=seed + i)`` with the seats
rotated: seat ``s`` plays policy ``(s + i) % players``, so over ``players``
games every policy sits in every seat. A bot's seed comes from the game seed
and its seat. Everything is a function of (config, seed, policies, game
number), so every backend and worker count gives the same games.

A policy sees only what its seat may know: by default it is given, at each
decision, :func:`powergrid.determinize` of the state for its seat (the view
agrees; the deck order, the plants removed unseen and the random stream are
drawn again with an rng derived from the game seed, the seat and the
decision number), so a bot that takes a ``GameState`` keeps working and a bot
that searches ahead cannot see the real draws. ``full_information=True``
hands every policy the real state instead (research only: such a bot may
read the future).

A policy that raises, or returns an action the rules forbid, ends that game
only: its :class:`GameResult` names the policy, the seat and the game seed,
and the arena goes on. Such games count in no win rate.

>>> from powergrid.arena import run_arena
>>> result = run_arena(["greedy", "random"], games=4, seed=1)
>>> [(s.policy, s.games) for s in result.summary]
[('greedy', 4), ('random', 4)]
>>> len(result.games), result.errors
(4, ())
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

import attrs

from powergrid.arena.games import GameResult, make_job, play_job, policy_name, resolve
from powergrid.config import EXPLICIT_CHANCE, GameConfig
from powergrid.outcome import Outcome

__all__ = ["ArenaResult", "GameResult", "PolicyStats", "run_arena", "wilson"]

#: The z value of the win rates' 95% Wilson intervals.
Z95 = 1.959963984540054

Backend = Literal["inprocess", "pool", "ray"]
Progress = Callable[[int, int], None]


@attrs.frozen
class PolicyStats:
    """One policy's figures over the arena's finished games.

    ``wins`` counts a win shared by ``k`` seats (END-04) as ``1/k``;
    ``win_low`` and ``win_high`` bound the win rate's 95% Wilson interval.
    ``powered`` is the mean of the cities it powered in the last round
    (END-02), ``place`` its mean place (1 is first; tied seats share the
    mean of their places), ``rounds`` the mean length of its games.
    ``errors`` counts the games this policy broke.
    """

    policy: str
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    powered: float
    place: float
    rounds: float
    errors: int


@attrs.frozen
class ArenaResult:
    """The games of an arena, in game order, and their summary per policy.

    ``full_information`` says whether the policies were given the real states
    (otherwise each saw states determinized for its seat).
    """

    config: GameConfig
    seed: int
    policies: tuple[str, ...]
    games: tuple[GameResult, ...]
    full_information: bool = False

    @property
    def errors(self) -> tuple[GameResult, ...]:
        """The games a policy broke."""
        return tuple(g for g in self.games if g.error is not None)

    @property
    def summary(self) -> tuple[PolicyStats, ...]:
        """One :class:`PolicyStats` per distinct policy, in the order first named."""
        return tuple(_stats(name, self.games) for name in dict.fromkeys(self.policies))

    def table(self) -> str:
        """The summary as a text table, then one line per broken game."""
        lines = [
            f"{'policy':<20} {'games':>6} {'wins':>7} {'win rate (95% CI)':>23} "
            f"{'powered':>8} {'place':>6} {'rounds':>7}"
        ]
        for s in self.summary:
            ci = f"{s.win_rate:6.1%} [{s.win_low:5.1%}, {s.win_high:5.1%}]"
            lines.append(
                f"{s.policy:<20} {s.games:>6} {s.wins:>7.1f} {ci:>23} "
                f"{s.powered:>8.2f} {s.place:>6.2f} {s.rounds:>7.1f}"
            )
        lines += [f"broken: {g.error}" for g in self.errors]
        return "\n".join(lines)


def run_arena(
    policies: Sequence[str | object],
    games: int,
    *,
    config: GameConfig | None = None,
    seed: int = 0,
    backend: Backend = "inprocess",
    workers: int | None = None,
    ray_address: str | None = None,
    records: bool = False,
    progress: Progress | None = None,
    full_information: bool = False,
) -> ArenaResult:
    """Play ``games`` seeded games between ``policies``, one per seat (see the module docstring).

    ``config`` defaults to a game of ``len(policies)`` players; its player
    count must equal the number of policies. ``backend`` is ``"inprocess"``,
    ``"pool"`` (a process pool of ``workers`` processes, default the CPU
    count) or ``"ray"`` (``ray.init(address=ray_address)``, a local instance
    when the address is None, unless Ray is already initialised; needs
    ``pip install "powergrid-rules[ray]"``). ``progress(done, total)`` is called as
    games finish. With ``records`` every :class:`GameResult` keeps its record.
    Policies get states determinized for their seats, unless
    ``full_information`` hands them the real ones (see the module docstring).
    """
    config = config if config is not None else GameConfig(players=len(policies))
    names = _check(policies, games, config, backend)
    full = bool(full_information)
    jobs = [make_job(config, seed, i, tuple(policies), records, full) for i in range(games)]
    if backend == "inprocess":
        results = _collect(map(play_job, jobs), games, progress)
    else:
        from powergrid.arena import backends

        run = backends.pool if backend == "pool" else backends.ray
        results = _collect(run(jobs, workers, ray_address), games, progress)
    results.sort(key=lambda g: g.index)
    return ArenaResult(
        config=config, seed=seed, policies=names, games=tuple(results), full_information=full
    )


def _check(
    policies: Sequence[str | object], games: int, config: GameConfig, backend: str
) -> tuple[str, ...]:
    if backend not in ("inprocess", "pool", "ray"):
        raise ValueError(f"backend must be inprocess, pool or ray, not {backend!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a whole number >= 0, not {games!r}")
    if len(policies) != config.players:
        given = f"{len(policies)} {'policy' if len(policies) == 1 else 'policies'}"
        raise ValueError(f"{given} for a {config.players}-player game: give one per seat")
    if EXPLICIT_CHANCE in config.options:
        raise ValueError("the arena lets each game's seed decide chance: drop explicit_chance")
    for p in policies:
        target = resolve(p)
        if not callable(target) and not callable(getattr(target, "choose", None)):
            raise ValueError(f"policy {policy_name(p)!r} is neither callable nor has choose(state)")
        if backend != "inprocess" and not isinstance(p, str):
            raise ValueError(
                f"the {backend} backend sends policies by name: give {policy_name(p)!r} as "
                "'module:callable'"
            )
    return tuple(policy_name(p) for p in policies)


def _collect(
    results: Iterable[GameResult], total: int, progress: Progress | None
) -> list[GameResult]:
    out: list[GameResult] = []
    for result in results:
        out.append(result)
        if progress is not None:
            progress(len(out), total)
    return out


def _stats(name: str, games: Sequence[GameResult]) -> PolicyStats:
    played = [(g, s) for g in games for s, p in enumerate(g.seats) if p == name]
    done = [(g, s) for g, s in played if g.outcome is not None]
    wins = sum(1 / len(g.outcome.winners) for g, s in done if g.outcome and s in g.outcome.winners)
    n = len(done)
    low, high = wilson(wins, n)
    places = [_place(g.outcome, s) for g, s in done if g.outcome is not None]
    return PolicyStats(
        policy=name,
        games=n,
        wins=wins,
        win_rate=wins / n if n else 0.0,
        win_low=low,
        win_high=high,
        powered=_mean(g.outcome.scores[s].powered for g, s in done if g.outcome is not None),
        place=_mean(places),
        rounds=_mean(g.rounds for g, _ in done),
        errors=sum(1 for g, s in played if g.broken == s),
    )


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate ``wins / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # At p = 0 or 1 a bound is exactly 0 or 1; rounding would leave it a hair inside.
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return low, high


def _place(result: Outcome, seat: int) -> float:
    """The seat's place, 1 first; seats equal on every END-03 criterion share the mean place."""
    key = result.scores[seat].key
    ahead = sum(1 for s in result.scores if s.key > key)
    tied = sum(1 for s in result.scores if s.key == key)
    return ahead + (tied + 1) / 2


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0
