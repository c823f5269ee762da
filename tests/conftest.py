"""Hypothesis profiles: "dev" (default, quick), "ci" (auto-loaded on CI), "thorough"."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from powergrid import catalog

#: A tiny distribution with ``powergrid.rules`` entry points (see its module docstring).
PLUGINS = Path(__file__).parent / "plugins"

settings.register_profile(
    "dev",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def plugins_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test distribution in tests/plugins is importable and its entry points are found."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    catalog.refresh()
    yield
    catalog.refresh()
