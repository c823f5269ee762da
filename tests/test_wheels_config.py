"""The compiled wheels users get (issue 34 item 4): the cibuildwheel recipe and ``make wheels``.

``pip install powergrid-rules`` picks the compiled wheel where CI built one for the
platform, so these tests read ``[tool.cibuildwheel]`` in pyproject.toml as cibuildwheel
would and check what a user depends on: compiled wheels for CPython 3.11, 3.12 and
3.13 only, on manylinux, musllinux, macOS and Windows; the build switch of
``hatch_build.py`` on every platform (without it a "compiled" wheel would be the pure
one); a test that proves each wheel is compiled and plays the golden games; and the
``make wheels`` target that runs the same recipe locally, outside ``make test``.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

import hatch_build

ROOT = Path(__file__).resolve().parent.parent
SWITCH = "HATCH_BUILD_HOOK_ENABLE_CUSTOM"
PLATFORMS = ("linux", "macos", "windows")

#: Identifiers as cibuildwheel names builds (its documentation's table), for the
#: interpreters and platforms a selector might let through.
CANDIDATES = [
    f"{python}-{platform}"
    for python in ("cp310", "cp311", "cp312", "cp313", "cp314", "cp314t", "pp310", "pp311")
    for platform in (
        "manylinux_x86_64",
        "manylinux_i686",
        "manylinux_aarch64",
        "musllinux_x86_64",
        "musllinux_i686",
        "musllinux_aarch64",
        "macosx_x86_64",
        "macosx_arm64",
        "win_amd64",
        "win32",
    )
]


@pytest.fixture(scope="module")
def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def cibw(pyproject: dict[str, Any]) -> dict[str, Any]:
    table: dict[str, Any] = pyproject["tool"]["cibuildwheel"]
    return table


def selectors(value: str | list[str]) -> list[str]:
    """A build/skip option as its list of globs (a string is space-separated)."""
    return value.split() if isinstance(value, str) else list(value)


def selected(cibw: dict[str, Any], identifier: str) -> bool:
    """Whether cibuildwheel's build and skip options let ``identifier`` through."""
    build = selectors(cibw.get("build", "*"))
    skip = selectors(cibw.get("skip", ""))
    matches = fnmatch.fnmatchcase
    return any(matches(identifier, g) for g in build) and not any(
        matches(identifier, g) for g in skip
    )


def option(cibw: dict[str, Any], platform: str, name: str) -> Any:
    """The value cibuildwheel uses on ``platform``: a platform table replaces the global one."""
    return cibw.get(platform, {}).get(name, cibw.get(name))


def test_compiled_wheels_are_built_for_cpython_3_11_to_3_13_only(cibw: dict[str, Any]) -> None:
    """CPython 3.11-3.13 (the versions pyproject.toml classifies) and no other interpreter."""
    pythons = {c.split("-")[0] for c in CANDIDATES if selected(cibw, c)}
    assert pythons == {"cp311", "cp312", "cp313"}


def test_the_classifiers_name_the_same_python_versions(pyproject: dict[str, Any]) -> None:
    """A Python the project says it supports gets a compiled wheel, and only those do."""
    versions = {
        c.rsplit(" :: ", 1)[1]
        for c in pyproject["project"]["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    }
    assert versions == {"3.11", "3.12", "3.13"}


def test_the_four_platform_families_are_built_64_bit(cibw: dict[str, Any]) -> None:
    """manylinux and musllinux on Linux, macOS x86_64 and arm64, Windows AMD64; no 32-bit."""
    assert option(cibw, "linux", "archs") == ["auto64"]  # x86_64, or aarch64 on an ARM runner
    assert sorted(option(cibw, "macos", "archs")) == ["arm64", "x86_64"]
    assert option(cibw, "windows", "archs") == ["AMD64"]
    families = (
        "manylinux_x86_64",
        "manylinux_aarch64",
        "musllinux_x86_64",
        "musllinux_aarch64",
        "macosx_x86_64",
        "macosx_arm64",
        "win_amd64",
    )
    for family in families:
        assert all(selected(cibw, f"{py}-{family}") for py in ("cp311", "cp312", "cp313"))
    for thirty_two_bit in ("manylinux_i686", "musllinux_i686", "win32"):
        assert not selected(cibw, f"cp312-{thirty_two_bit}")


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_platform_builds_with_the_compile_switch(cibw: dict[str, Any], platform: str) -> None:
    """Each platform's build environment sets the switch of hatch_build.py to 1."""
    environment = option(cibw, platform, "environment")
    assert isinstance(environment, dict)  # a table: a string would need cibuildwheel's parser
    assert environment.get(SWITCH) == "1"
    assert SWITCH in (hatch_build.__doc__ or "")
    for override in cibw.get("overrides", []):
        if "environment" in override and override.get("inherit", {}).get("environment") is None:
            assert override["environment"].get(SWITCH) == "1", override["select"]


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_wheel_is_tested_compiled_on_the_golden_games(
    cibw: dict[str, Any], platform: str
) -> None:
    """The test command runs the compiled-module check and the golden games, in the CI's mode."""
    command = option(cibw, platform, "test-command")
    assert "{project}/tests/test_golden.py" in command
    assert "{project}/tests/test_compiled.py" in command
    assert option(cibw, platform, "test-environment") == {"POWERGRID_COMPILED": "1"}
    # {project} is on the path only for `tests` and `hatch_build`; copying or adding
    # src would let the tests import the sources instead of the installed wheel.
    assert "src" not in " ".join(option(cibw, platform, "test-sources") or [])
    assert "PYTHONPATH" not in command
    assert "PYTHONPATH" not in option(cibw, platform, "test-environment")
    requires = " ".join(option(cibw, platform, "test-requires"))
    for needed in ("pytest", "hypothesis", "hatchling"):  # conftest.py, test_compiled.py
        assert needed in requires


def makefile_targets() -> dict[str, str]:
    """Each target of the Makefile with its line of prerequisites."""
    text = (ROOT / "Makefile").read_text()
    return dict(re.findall(r"^([\w-]+):(?!=)(.*)$", text, flags=re.MULTILINE))


def test_make_wheels_exists_and_stays_out_of_make_test() -> None:
    """``make wheels`` builds and checks the local wheel; ``make test`` never runs it."""
    targets = makefile_targets()
    assert "wheels" in targets
    seen: set[str] = set()
    todo = ["test"]
    while todo:
        target = todo.pop()
        if target in seen or target not in targets:
            continue
        seen.add(target)
        todo.extend(targets[target].split())
    assert "wheels" not in seen
    assert "compiled-check" in seen  # the sanity of the walk: it does reach the others
    recipe = (ROOT / "Makefile").read_text().split("\nwheels:", 1)[1].split("\n\n", 1)[0]
    assert f"{SWITCH}=1" in recipe
    assert "tools/check_compiled_wheel.py" in recipe
