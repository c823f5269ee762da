"""The arena's process pool and Ray backends: games go out in chunks, results come back.

Both send :data:`powergrid.arena.games.Job` tuples (config, game seed, game number,
policy names, whether to keep the record, whether policies see the whole state) and
run :func:`powergrid.arena.games.play_chunk` on the other side, so what a game does
never depends on where it runs. Results arrive in the order chunks finish;
:func:`powergrid.arena.run_arena` sorts them.
Ray is the distributed engine our users run already: this module only hands
it work, it schedules nothing itself.
"""

from __future__ import annotations

import concurrent.futures
import gc
import multiprocessing
import os
from collections.abc import Iterator, Sequence
from typing import Any

from powergrid.arena.games import GameResult, Job, chunks, play_chunk


def pool(jobs: Sequence[Job], workers: int | None, address: str | None) -> Iterator[GameResult]:
    """Play the jobs on a pool of ``workers`` processes (default: the CPU count)."""
    del address  # only Ray has one
    count = workers or os.cpu_count() or 1
    # spawn, not fork: a fork of a process with threads (a test runner, a notebook) may hang.
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=count, mp_context=context) as ex:
        futures = [ex.submit(pool_chunk, chunk) for chunk in chunks(jobs, count)]
        for future in concurrent.futures.as_completed(futures):
            yield from future.result()


def pool_chunk(jobs: Sequence[Job]) -> list[GameResult]:
    """:func:`play_chunk` in a pool worker: after its first game, ``gc.freeze()`` once.

    The arena owns a pool worker's process, so what is alive after one game
    (modules, rule tables, the caches of plants, hands and networks) lives as long as
    the worker: frozen, the garbage collector no longer walks it (in a heuristic
    arena the collector's share of the time fell from 3% to 1.3%; see
    docs/performance.md). Ray's workers are Ray's processes and are left alone.
    """
    if gc.get_freeze_count() or not jobs:
        return play_chunk(jobs)
    first = play_chunk(jobs[:1])
    gc.freeze()
    return first + play_chunk(jobs[1:])


def ray(jobs: Sequence[Job], workers: int | None, address: str | None) -> Iterator[GameResult]:
    """Play the jobs as Ray tasks; start Ray at ``address`` (local if None) unless it runs."""
    try:
        import ray as ray_module
    except ImportError as err:
        raise RuntimeError(
            'the ray backend needs Ray: pip install "powergrid-rules[ray]" (or pip install ray)'
        ) from err
    started = not ray_module.is_initialized()
    if started:
        ray_module.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        remote: Any = ray_module.remote(play_chunk)
        resources: Any = ray_module.cluster_resources  # untyped in Ray
        count = workers or int(resources().get("CPU", 1))
        pending = [remote.remote(list(chunk)) for chunk in chunks(jobs, count)]
        while pending:
            done, pending = ray_module.wait(pending, num_returns=1)
            yield from ray_module.get(done[0])
    finally:
        if started:
            ray_module.shutdown()
