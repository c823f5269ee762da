"""The arena (powergrid.arena): many seeded games between policies, on every backend.

The same seeds give the same games in-process, on a process pool and on Ray;
seats rotate game by game; a broken policy ends its game only, with a report
naming the policy, the seat and the game seed; shared wins (END-04) count 1/k.
"""

from __future__ import annotations

import gc
import json
import pathlib

import pytest

import powergrid as pg
from powergrid.arena import ArenaResult, GameResult, run_arena, wilson
from powergrid.bots import GreedyBot
from powergrid.cli.main import main
from powergrid.outcome import Score, rank

FOUR = ["greedy", "random", "random", "tests.arena_policies:first_legal"]


def test_in_process_and_pool_give_the_same_results() -> None:
    """One game description, one game: backend and worker count change nothing."""
    one = run_arena(FOUR, games=8, seed=5)
    pool = run_arena(FOUR, games=8, seed=5, backend="pool", workers=2)
    assert pool == one
    assert [g.index for g in pool.games] == list(range(8))


def test_a_pool_worker_freezes_what_outlives_its_first_game() -> None:
    """A pool chunk plays the chunk's games unchanged, and gc.freeze()s after the first.

    Run here, in this process, as a pool worker runs it; unfrozen afterwards.
    """
    from powergrid.arena.backends import pool_chunk
    from powergrid.arena.games import make_job, play_chunk

    config = pg.GameConfig(players=4)
    jobs = [make_job(config, 5, i, tuple(FOUR), False, False) for i in range(3)]
    expected = play_chunk(jobs)
    assert gc.get_freeze_count() == 0
    try:
        assert pool_chunk(jobs) == expected
        assert gc.get_freeze_count() > 0
        frozen = gc.get_freeze_count()
        assert pool_chunk(jobs[:1]) == expected[:1]  # a worker freezes once
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_ray_gives_the_same_results() -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_arena(FOUR, games=6, seed=9, backend="ray")
    finally:
        ray.shutdown()
    assert on_ray == run_arena(FOUR, games=6, seed=9)


def test_seats_rotate_and_seeds_follow_the_game_number() -> None:
    result = run_arena(["greedy", "random", "tests.arena_policies:first_legal"], games=4, seed=3)
    assert [g.seed for g in result.games] == [3, 4, 5, 6]
    names = ("greedy", "random", "tests.arena_policies:first_legal")
    for g in result.games:
        assert g.seats == tuple(names[(s + g.index) % 3] for s in range(3))
        assert g.outcome == pg.outcome(pg.replay(_record_of(g, result.config)))


def _record_of(game: GameResult, config: pg.GameConfig) -> pg.GameRecord:
    again = run_arena(list(game.seats), games=1, seed=game.seed, config=config, records=True)
    record = again.games[0].record
    assert record is not None
    return record


def test_records_replay_to_their_outcome() -> None:
    config = pg.GameConfig(players=2, map="north_america")  # the fund, SET-25
    result = run_arena(["greedy", "random"], games=3, config=config, records=True)
    for g in result.games:
        assert g.record is not None
        assert g.record.seed == g.seed
        final = pg.replay(g.record)
        assert pg.outcome(final) == g.outcome
        assert final.round == g.rounds
        assert len(g.record.actions) == g.actions


def test_a_policy_that_raises_ends_its_game_and_the_arena_goes_on() -> None:
    crash = "tests.arena_policies:Crashes"
    result = run_arena(["greedy", crash, "random"], games=3, seed=11)
    assert len(result.errors) == 3  # it sits in every game, so it breaks every game
    first = result.errors[0]
    assert first.outcome is None
    assert first.broken == first.seats.index(crash)
    assert first.error == (
        f"game 0 (seed 11): policy {crash!r} in seat {first.broken} raised RuntimeError: "
        "the policy's model file is missing"
    )
    stats = {s.policy: s for s in result.summary}
    assert stats[crash].errors == 3
    assert stats["greedy"].games == 0  # broken games count in no win rate


def test_an_illegal_action_is_reported_with_the_engines_message() -> None:
    """AUC-13: passing the auction phase in round 1 is illegal."""
    bad = "tests.arena_policies:passes_in_round_one"
    result = run_arena([bad, "greedy"], games=2, seed=0, backend="pool", workers=2)
    assert len(result.errors) == 2
    for g in result.errors:
        assert g.error is not None
        assert f"policy {bad!r} in seat {g.broken} played an illegal action" in g.error
        assert f"(seed {g.seed})" in g.error


def test_a_shared_win_counts_one_half() -> None:
    """END-04: a tie on powered cities, money and cities is a shared win."""
    tie = rank((Score(0, 10, 5, 12), Score(1, 10, 5, 12), Score(2, 3, 0, 4)), "end")
    game = GameResult(index=0, seed=0, seats=("a", "b", "c"), outcome=tie, actions=1, rounds=9)
    config = pg.GameConfig(players=3)
    result = ArenaResult(config=config, seed=0, policies=("a", "b", "c"), games=(game,))
    stats = {s.policy: s for s in result.summary}
    assert stats["a"].wins == stats["b"].wins == 0.5
    assert stats["a"].place == 1.5
    assert stats["c"].place == 3.0
    assert stats["c"].wins == 0


def test_wilson_intervals() -> None:
    """The 95% Wilson score interval: 0 of 10 -> [0, 0.2775], 5 of 10 -> [0.2366, 0.7634]."""
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_arena_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="2 policies for a 3-player game"):
        run_arena(["greedy", "random"], games=1, config=pg.GameConfig(players=3))
    with pytest.raises(ValueError, match="unknown policy 'smart'"):
        run_arena(["greedy", "smart"], games=1)
    with pytest.raises(ValueError, match="cannot be loaded"):
        run_arena(["greedy", "tests.arena_policies:missing"], games=1)
    with pytest.raises(ValueError, match="sends policies by name"):
        run_arena(["greedy", lambda s: pg.legal_actions(s)[0]], games=1, backend="pool")
    with pytest.raises(ValueError, match="backend must be"):
        run_arena(["greedy", "random"], games=1, backend="cluster")  # type: ignore[arg-type]


def test_in_process_takes_policy_objects() -> None:
    result = run_arena([GreedyBot(seed=1), "random"], games=2)
    assert result.policies == ("GreedyBot", "random")
    assert not result.errors


# --- the command line ----------------------------------------------------------------------


def test_cli_arena_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--games", "6", "--bots", "greedy,random,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Arena: 6 games of deluxe/europe/3, seeds 1.., inprocess\n")
    lines = out.splitlines()
    assert lines[1].split()[:3] == ["policy", "games", "wins"]
    assert lines[2].split()[:2] == ["greedy", "6"]
    assert lines[3].split()[:2] == ["random", "12"]


def test_the_console_command_freezes_after_its_first_game_and_main_does_not(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The console script owns its process; main() called from Python leaves gc alone.

    Both print the same summary: freezing changes no game.
    """
    from powergrid.cli.main import console

    argv = ["arena", "--games", "3", "--bots", "greedy,random", "--seed", "4", "--no-progress"]
    assert main(argv) == 0
    assert gc.get_freeze_count() == 0
    from_python = capsys.readouterr().out
    monkeypatch.setattr("sys.argv", ["powergrid", *argv])
    try:
        assert console() == 0
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert capsys.readouterr().out == from_python


def test_the_installed_command_and_python_m_are_the_console_entry() -> None:
    """``powergrid`` and ``python -m powergrid`` run console(), not main()."""
    import importlib.metadata
    import runpy
    from unittest import mock

    (script,) = importlib.metadata.entry_points(group="console_scripts", name="powergrid")
    assert script.value == "powergrid.cli.main:console"
    with (
        mock.patch("powergrid.cli.main.console", return_value=0) as called,
        pytest.raises(SystemExit) as stop,
    ):
        runpy.run_module("powergrid", run_name="__main__")
    assert stop.value.code == 0
    called.assert_called_once_with()


def test_cli_arena_writes_records(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.json"
    config.write_text(pg.to_json(pg.GameConfig(players=2, map="europe", components="classic")))
    folder = tmp_path / "games"
    argv = ["arena", "--games", "3", "--bots", "greedy,random", "--config", str(config)]
    assert main([*argv, "--records", str(folder), "--workers", "2"]) == 0
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == ["game-00000.json", "game-00001.json", "game-00002.json"]
    record = pg.from_json(files[1].read_text())
    assert isinstance(record, pg.GameRecord)
    assert record.seed == 1
    assert json.loads(files[0].read_text())["type"] == "GameRecord"
    assert "pool" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "greedy,nope"], "unknown policy 'nope'"),
        (["--bots", "greedy,random", "--workers", "0"], "--workers must be 1 or more"),
        (["--bots", "greedy,random", "--config", "/nonexistent.json"], "cannot read"),
        (["--bots", "greedy,random", "--records", "/proc/no/such"], "cannot write records"),
        (["--bots", "greedy,random,random,random,random,random,random"], "players"),
    ],
)
def test_cli_arena_errors_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "--games", "1", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert message in err
    assert err.count("\n") == 1


def test_the_cli_docs_show_a_real_arena(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md's arena example is what the command prints."""
    text = (pathlib.Path(__file__).parent.parent / "docs" / "cli.md").read_text()
    section = text.split("## arena", 1)[1]
    command = section.split("```sh\n", 1)[1].split("\n", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0]
    argv = command.split()
    assert argv[:3] == ["python", "-m", "powergrid"]
    assert main(argv[3:]) == 0
    assert capsys.readouterr().out == shown
