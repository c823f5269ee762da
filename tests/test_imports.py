"""The package's import graph has no cycles (imports inside functions count too).

Imports made only for type checking (under ``if TYPE_CHECKING:``) do not count:
they never run. ``from powergrid.mechanics import market`` counts as importing
``powergrid.mechanics.market``; ``from powergrid import __version__`` as importing the
package itself. The check reads the source, so it also sees imports that only
run on some paths.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import powergrid

ROOT = Path(powergrid.__file__).parent


def module_names() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = ("powergrid", *path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skipped


def imported(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The package modules that module ``name`` imports anywhere in its source."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    yield sub
                elif base in modules:
                    yield base


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (itself excluded)."""
    modules = module_names()
    return {
        name: {m for m in imported(name, path, modules) if m != name}
        for name, path in modules.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path ``[a, b, ..., a]``, or None (depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_package_import_graph_has_no_cycles() -> None:
    """No module of powergrid imports, directly or through others, a module importing it."""
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle or [])


#: The modules of the lowest layer: the records and words every other layer uses.
VOCABULARY = """
    actions catalog chance config data deck enums errors events frozen module_state record
    outcome outside_text plants rulebook state state_parts version _old_paths
"""
#: The layers of the package, lowest first (docs/concepts.md opens with this tree). A
#: module belongs to the layer of its longest listed prefix; it may import its own
#: layer and those below, never one above.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("vocabulary", tuple(f"powergrid.{m}" for m in VOCABULARY.split())),
    ("mechanics", ("powergrid.mechanics",)),
    ("rules", ("powergrid.rules",)),
    ("engine", ("powergrid.engine",)),
    ("formats", ("powergrid.formats",)),
    ("tools", ("powergrid.bots", "powergrid.testing", "powergrid.module_api", "powergrid.svg")),
    ("frontends", ("powergrid.arena", "powergrid.interop", "powergrid.rl")),
    ("command line and facade", ("powergrid.cli", "powergrid.__main__")),
)


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of a module (its longest matching prefix decides).

    The package itself (``powergrid/__init__.py``, the facade) is the top layer.
    """
    if module == "powergrid":
        return len(LAYERS) - 1
    best, depth = -1, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > depth:
                best, depth = index, len(prefix)
    assert best >= 0, f"{module} is in no layer: add it to LAYERS"
    return best


def test_no_layer_imports_one_above_it() -> None:
    """Vocabulary < mechanics < rules < engine < formats < tools < frontends < command line."""
    graph = import_graph()
    upward = [
        f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})"
        for a, targets in sorted(graph.items())
        for b in sorted(targets)
        if layer_of(b) > layer_of(a)
    ]
    assert upward == []


def test_the_layer_check_sees_an_upward_import() -> None:
    """The check itself: a phase importing the formats would be reported, a market the state not."""
    assert layer_of("powergrid.engine.phases.auction") == 3
    assert layer_of("powergrid.formats.serialize") > layer_of("powergrid.engine.game")
    assert layer_of("powergrid.state") < layer_of("powergrid.mechanics.market")
    assert layer_of("powergrid") == len(LAYERS) - 1


def test_the_top_level_stays_small() -> None:
    """About twenty modules beside the folders (issue 33): a new module finds its layer's folder.

    The vocabulary has no folder; issue 34 added two of its modules (``record``, the
    records' value behaviour, which must stay interpreted, and ``state_parts``, the
    records a state is made of, split from ``state`` to keep modules small).
    """
    top = [p for p in ROOT.glob("*.py") if p.name != "__init__.py"]
    assert len(top) <= 22, sorted(p.name for p in top)


def test_importing_powergrid_loads_no_network_modules() -> None:
    """``import powergrid`` stays light: no urllib.request, http.client or ssl.

    xml.sax.saxutils (once used to escape the pictures' text) brought them in:
    about 5 MiB of resident memory and 20 ms in every process, arena workers included.
    """
    code = (
        "import sys, powergrid; "
        "print(sorted(m for m in ('ssl', 'http.client', 'urllib.request') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_config_checks_import_nothing_above_them() -> None:
    """A GameConfig validates itself against package data only, never the engine or rules.

    The data records a config may hold (a customised deck's ``Deck`` and its
    ``Plant`` cards, their resource kinds) count as data, and so do the checks
    of outside text (``outside_text``: what a name may hold, how a message
    quotes a value), which import nothing of the package; so does the table of
    versions (``version``: the module API a module may declare, issue 32 item 7).
    """
    graph = import_graph()
    reach: set[str] = set()
    todo = ["powergrid.config"]
    while todo:
        for m in graph[todo.pop()] - reach:
            reach.add(m)
            todo.append(m)
    data = {"powergrid.catalog", "powergrid.data", "powergrid.errors", "powergrid.outside_text"}
    data.add("powergrid.data.boards")  # a board read from its data (the maps the config names)
    data.add("powergrid.version")
    records = {"powergrid.deck", "powergrid.plants", "powergrid.enums"}
    assert reach <= data | records, sorted(reach)


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The checker itself reports a ring, with function-level imports counted."""
    ring = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(ring) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    modules = {"powergrid.x": Path("x.py"), "powergrid.y": Path("y.py")}
    source = "def f():\n    from powergrid import y\n"
    assert "powergrid.y" in set(_imports_of_source(source, modules))


def _imports_of_source(source: str, modules: dict[str, Path]) -> Iterator[str]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.py"
        path.write_text(source, encoding="utf-8")
        yield from list(imported("powergrid.x", path, modules))
