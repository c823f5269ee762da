"""Issue 31 item 3: an installed plugin that fails to load fails alone.

A plugin is a distribution with a ``powergrid.rules`` entry point. Here the
distributions are ``*.dist-info`` folders written into a temporary folder put on
the path, as an installed package would be; their entry points name a module
that does not exist, one that raises at import and an attribute that is not
there. Before the fix every command, ``--help`` included, exited 1 with a
traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import powergrid as pg
from powergrid import catalog
from powergrid.catalog import BrokenPlugin, PluginWarning

MISSING = "no_such_module_for_powergrid_tests"


def write_distribution(folder: Path, name: str, entry_points: dict[str, str]) -> None:
    """A ``<name>-1.0.dist-info`` folder in ``folder``, as pip would leave it."""
    info = folder / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8"
    )
    lines = "".join(f"{ep} = {target}\n" for ep, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[powergrid.rules]\n{lines}", encoding="utf-8")


def run_cli(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    env.pop("PYTHONWARNINGS", None)  # the defaults a user has: each warning shown once
    return subprocess.run(
        [sys.executable, "-m", "powergrid", *args],
        env=env,
        cwd=path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def broken_path(tmp_path: Path) -> Path:
    """A folder holding one distribution whose only entry point names a missing module."""
    write_distribution(tmp_path, "broken-plugin", {"broken": f"{MISSING}:MODULE"})
    return tmp_path


def warning_lines(stderr: str) -> list[str]:
    """The warnings in ``stderr`` (Python prints each as ``file:line: Category: message``)."""
    return [line for line in stderr.splitlines() if ": PluginWarning: " in line]


def assert_one_warning(stderr: str) -> None:
    """Exactly one warning, naming the distribution and the error; no traceback."""
    found = warning_lines(stderr)
    assert len(found) == 1, stderr
    assert "broken-plugin" in found[0]
    assert f"ModuleNotFoundError: No module named '{MISSING}'" in found[0]
    assert "Traceback" not in stderr


def test_help_works_with_a_broken_plugin_installed(broken_path: Path) -> None:
    result = run_cli(broken_path, "--help")
    assert result.returncode == 0, result.stderr
    assert "usage:" in result.stdout
    assert_one_warning(result.stderr)
    play_help = run_cli(broken_path, "play", "--help")
    assert play_help.returncode == 0, play_help.stderr
    assert "europe" in play_help.stdout
    assert "broken" not in play_help.stdout
    assert_one_warning(play_help.stderr)


def test_a_game_without_the_broken_plugin_plays(broken_path: Path) -> None:
    result = run_cli(broken_path, "play", "--players", "3", "--seed", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "Winner" in result.stdout
    assert_one_warning(result.stderr)


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error:")]


def test_a_game_naming_the_broken_module_fails_in_one_line(broken_path: Path) -> None:
    result = run_cli(broken_path, "play", "--players", "3", "--quiet", "--modules", "broken")
    assert result.returncode == 2, result.stderr
    [line] = error_lines(result.stderr)
    assert "'broken'" in line
    assert "broken-plugin" in line
    assert f"No module named '{MISSING}'" in line
    assert "Traceback" not in result.stderr


def test_a_game_naming_the_broken_map_fails_in_one_line(broken_path: Path) -> None:
    result = run_cli(broken_path, "play", "--players", "3", "--quiet", "--map", "broken")
    assert result.returncode == 2, result.stderr
    [line] = error_lines(result.stderr)
    assert "'broken'" in line
    assert "broken-plugin" in line
    assert f"No module named '{MISSING}'" in line


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Three failing entry points and a working one, installed in this process."""
    (tmp_path / "exploding_pg_plugin.py").write_text('raise RuntimeError("boom at import")\n')
    (tmp_path / "fine_pg_plugin.py").write_text(
        'from powergrid.rules import RuleModule\nMODULE = RuleModule(name="fine", version="1")\n'
    )
    write_distribution(
        tmp_path,
        "broken-plugin",
        {
            "broken": f"{MISSING}:MODULE",
            "exploding": "exploding_pg_plugin:MODULE",
            "no_attribute": "fine_pg_plugin:NOT_THERE",
            "fine": "fine_pg_plugin:MODULE",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    catalog.refresh()
    yield tmp_path
    catalog.refresh()
    for name in ("exploding_pg_plugin", "fine_pg_plugin"):
        sys.modules.pop(name, None)


@pytest.mark.usefixtures("installed")
def test_each_failing_plugin_warns_once_and_is_left_out() -> None:
    with pytest.warns(PluginWarning) as caught:
        names = catalog.extra_module_names()
    messages = sorted(str(w.message) for w in caught)
    assert len(messages) == 3, messages
    assert all("broken-plugin" in m and "left out" in m for m in messages)
    assert "RuntimeError: boom at import" in messages[1]
    assert "AttributeError" in messages[2]
    assert "NOT_THERE" in messages[2]
    assert "fine" in names
    assert not {"broken", "exploding", "no_attribute"} & set(names)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per process: listing again warns no more
        assert "broken" not in catalog.map_ids()
        assert catalog.extra_module_names() == names


@pytest.mark.usefixtures("installed")
def test_the_failures_are_listed_with_their_distribution() -> None:
    with pytest.warns(PluginWarning):
        broken = catalog.broken_plugins()
    assert [b.name for b in broken] == ["broken", "exploding", "no_attribute"]
    assert broken[0] == BrokenPlugin(
        name="broken",
        target=f"{MISSING}:MODULE",
        distribution="broken-plugin",
        error=f"ModuleNotFoundError: No module named '{MISSING}'",
    )


@pytest.mark.usefixtures("installed")
def test_only_a_config_naming_a_failed_plugin_is_refused() -> None:
    with pytest.warns(PluginWarning):
        catalog.broken_plugins()
    assert pg.GameConfig(players=3, modules=("fine",)).modules == ("fine",)
    assert pg.GameConfig(players=3).map == "europe"
    with pytest.raises(pg.RulesConfigError) as err:
        pg.GameConfig(players=3, modules=("exploding",))
    assert err.value.field == "modules"
    message = str(err.value)
    assert "'exploding'" in message
    assert "broken-plugin" in message
    assert "exploding_pg_plugin:MODULE" in message
    assert "RuntimeError: boom at import" in message
    broken = catalog.broken_plugin("broken")
    assert broken is not None
    assert broken.distribution == "broken-plugin"
    assert catalog.broken_plugin("fine") is None
    assert catalog.broken_plugin("atlantis") is None
    assert catalog.broken_plugin(["broken"]) is None


@pytest.mark.usefixtures("installed")
def test_a_config_naming_a_failed_plugin_as_its_map_names_the_failure() -> None:
    with pytest.warns(PluginWarning):
        catalog.broken_plugins()
    with pytest.raises(pg.RulesConfigError, match=r"'broken'.*broken-plugin.*No module") as err:
        pg.GameConfig(players=3, map="broken", components="classic")
    assert err.value.field == "map"


@pytest.mark.usefixtures("installed")
def test_naming_a_failed_plugin_first_warns_and_refuses() -> None:
    """The first use may be the config itself: it warns, then raises the error."""
    with pytest.warns(PluginWarning, match="exploding"), pytest.raises(pg.RulesConfigError):
        pg.GameConfig(players=3, modules=("exploding",))


@pytest.mark.usefixtures("installed")
def test_refresh_tries_again_and_warns_again() -> None:
    with pytest.warns(PluginWarning):
        catalog.broken_plugins()
    catalog.refresh()
    with pytest.warns(PluginWarning):
        assert len(catalog.broken_plugins()) == 3
