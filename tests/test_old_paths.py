"""Module paths of 0.1.0 still import, as the very modules they became (issue 33).

Pickles name the module of every class and function they hold, so a pickle
written by 0.1.0 needs ``powergrid.ruleset`` or ``powergrid.state`` to import;
``tests/data/pickles`` holds such pickles and the tests of module state load
them. Here: every moved path, and the names a 0.1.0 caller reached through them.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import powergrid as pg
from powergrid._old_paths import OLD_PATHS

DATA = Path(__file__).parent / "data" / "pickles"


@pytest.mark.parametrize("old", sorted(OLD_PATHS))
def test_an_old_path_is_the_new_module(old: str) -> None:
    assert importlib.import_module(old) is importlib.import_module(OLD_PATHS[old])


def test_an_old_pickle_loads_in_a_fresh_process() -> None:
    """Unpickling imports the modules a pickle names before anything else of the package.

    The fixture was written by db67e11 (0.1.0's layout: ``powergrid.ruleset``,
    ``powergrid.state``); it must load in a process that imported nothing yet.
    """
    data = (DATA / "deluxe_north_america_3.state.pickle").read_bytes()
    assert b"powergrid.ruleset" in data
    script = (
        "import pickle, sys\n"
        "state = pickle.loads(sys.stdin.buffer.read())\n"
        "import powergrid.rules.ruleset as r\n"
        "assert type(state.rules) is r.Ruleset\n"
        "print(state.round)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], input=data, capture_output=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr.decode()
    facts = json.loads((DATA / "facts.json").read_text(encoding="utf-8"))
    assert int(out.stdout) == facts["deluxe_north_america_3"]["round"]  # written with it


def test_the_names_of_moved_modules_are_reached_through_old_paths() -> None:
    """0.1.0's ``from powergrid.engine import apply`` and the like keep working."""
    engine = importlib.import_module("powergrid.engine")
    assert engine.apply is pg.apply
    assert engine.legal_actions is pg.legal_actions
    new = importlib.import_module("powergrid.rules.ruleset")
    assert importlib.import_module("powergrid.ruleset").ruleset_for is new.ruleset_for
    auction = importlib.import_module("powergrid.engine.phases.auction")
    assert importlib.import_module("powergrid.phases.auction").min_bid is auction.min_bid
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        engine.nothing  # noqa: B018


def test_no_old_path_is_a_module_of_today() -> None:
    """An old path that names a real module again would shadow it: the table must not."""
    for old in OLD_PATHS:
        spec = importlib.machinery.PathFinder.find_spec(
            old.rpartition(".")[2], [str(p) for p in pg.__path__]
        )
        if "." not in old.removeprefix("powergrid."):
            assert spec is None, old
