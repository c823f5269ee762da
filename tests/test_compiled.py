"""The optional compiled build (``hatch_build.py``): what it compiles, and that it is used.

``make compiled-check`` runs this file with ``POWERGRID_COMPILED=1`` against the
compiled wheel, beside the golden games and the tests of the compiled modules; then
every module of :data:`hatch_build.COMPILED` must be imported from an extension
module, or that run would test the pure sources again. In the ordinary run the
sources are what is imported.
"""

from __future__ import annotations

import importlib
import os
import sysconfig
from pathlib import Path

import pytest

import hatch_build
import powergrid as pg

ROOT = Path(__file__).resolve().parent.parent
COMPILED_RUN = os.environ.get("POWERGRID_COMPILED") == "1"


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def test_every_compiled_module_is_a_source_module() -> None:
    """The list names existing modules of the package, each once."""
    assert len(set(hatch_build.COMPILED)) == len(hatch_build.COMPILED)
    for path in hatch_build.COMPILED:
        assert (ROOT / "src" / path).is_file(), path


def test_the_state_records_are_native_only_in_the_compiled_build() -> None:
    """Compiled run: the records are mypyc native classes (no ``__dict__``); else attrs'."""
    from powergrid.record import is_native
    from powergrid.state import GameState, PlayerState

    state = pg.new_game(pg.GameConfig(players=3), seed=1)
    assert is_native(GameState) is COMPILED_RUN
    assert is_native(PlayerState) is COMPILED_RUN
    assert hasattr(state, "__dict__") is not COMPILED_RUN


@pytest.mark.parametrize("path", hatch_build.COMPILED)
def test_the_build_under_test_is_imported(path: str) -> None:
    """Compiled run: an extension module; ordinary run: the source file."""
    module = importlib.import_module(module_name(path))
    assert module.__file__ is not None
    if COMPILED_RUN:
        assert module.__file__.endswith(sysconfig.get_config_var("EXT_SUFFIX")), module.__file__
    else:
        assert module.__file__.endswith(".py"), module.__file__


def test_only_an_extension_module_counts_as_compiled() -> None:
    """A module without a file (builtins, a notebook's __main__) is not compiled: its
    classes keep their own annotations, which the JSON decoder reads."""
    from powergrid.record import is_compiled

    assert is_compiled("builtins") is False
    assert is_compiled("no.such.module") is False
    assert is_compiled("powergrid.state") is COMPILED_RUN
    assert is_compiled("powergrid.config") is False  # never compiled


_OTHER_BUILD = """
import pickle, sys
import powergrid as pg
state = pickle.loads(sys.stdin.buffer.read())
assert pg.legal_actions(state)  # plays on
sys.stdout.buffer.write(pickle.dumps((pg.to_json(state), state)))
"""


@pytest.mark.skipif(not COMPILED_RUN, reason="the compiled run has both builds at hand")
def test_a_pickle_of_either_build_loads_in_the_other() -> None:
    """Both builds pickle a record as its class and field dictionary, so a state pickled
    by the compiled build loads in the pure one, and the pure one's pickle back here."""
    import pickle
    import subprocess
    import sys

    state = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=3)
    for _ in range(40):  # into the auction, with an event log and a running bid
        state = pg.apply(state, pg.legal_actions(state)[-1])
    pure = subprocess.run(
        [sys.executable, "-c", _OTHER_BUILD],
        input=pickle.dumps(state),
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        check=True,
    )
    text, back = pickle.loads(pure.stdout)
    assert text == pg.to_json(state)
    assert back == state
    assert pg.legal_actions(back) == pg.legal_actions(state)


_DEEP_CHAIN = """
import powergrid as pg
from powergrid.frozen import evolve
from powergrid.state import PlayerState


class Node:
    def __init__(self, prev, value):
        self.prev, self.value = prev, value


state = pg.new_game(pg.GameConfig(players=3), seed=1)
for _ in range(5):
    head = None
    for i in range(3000):  # each node holds the last reference to its own records
        head = Node(head, (evolve(state, round=i), evolve(state.players[0], money=i)))
    del head  # freed one node inside the other: far deeper than CPython's trashcan limit
    fresh = [PlayerState(1, k) for k in range(5000)]
    assert [p.money for p in fresh] == list(range(5000))
log = state.events
for i in range(20000):
    log = log.added("bid", 1, "x", 0, (i,))
del log
print("ok")
"""


def test_records_freed_deep_inside_a_chain_leave_memory_intact() -> None:
    """A record freed deep inside a long chain of objects (CPython then defers the
    freeing, the "trashcan") leaves the interpreter whole, and so does a long event log.

    Native records marked ``acyclic`` (not tracked by the garbage collector) crashed
    here: deferring them wrote to a collector header they do not have. Run in a
    subprocess, so that a crash fails this test rather than the test run.
    """
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", _DEEP_CHAIN], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "ok"
