"""The engine core names no rule module (issue 32; DESIGN.md, Rule modules).

North America's discount token, the customised deck's inactive area and quota and the
fund with its ``PlaceFundHouse`` belong to their rule modules. The core (everything of
the package outside the rule modules, the frontends, the bots and the test tools) reaches
them only through the module interface: a module's hooks, state, actions and tables.

The check reads each core module's tokens: identifiers (split at underscores and capital
letters, so ``fund_house`` and ``PlaceFundHouse`` both name the fund) and string literals
other than docstrings. Comments and docstrings may cite a module as an example of what a
mechanism serves; code may not depend on one.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import powergrid

ROOT = Path(powergrid.__file__).parent

#: The words that name a module's own parts.
MODULE_WORDS = ("discount", "inactive", "quota", "fund", "placefundhouse")

#: Outside the core: the rule modules, the package's facade (it re-exports the contract's
#: ``PlaceFundHouse`` from the fund module), the frontends, the bots and the test tools.
NOT_CORE = (
    "rules/",
    "rl/",
    "__init__.py",
    "__main__.py",
    "_old_paths.py",  # the table of moved modules names the fund's old helper files
    "arena/",
    "interop/",
    "bots/",
    "cli/",
    "rulebook.py",
    "testing.py",
)


def core_files() -> list[Path]:
    """Every module of the engine core."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith(NOT_CORE):
            out.append(path)
    return out


def _words(identifier: str) -> set[str]:
    parts = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", identifier)
    return {p.lower() for p in parts} | {identifier.lower()}


def module_names_in(source: str) -> list[tuple[int, str]]:
    """``(line, token)`` of every identifier or non-docstring string naming a module's part."""
    found = []
    previous = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and _words(tok.string) & set(MODULE_WORDS):
            found.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and previous not in (tokenize.NEWLINE, tokenize.INDENT):
            words = {w.lower() for w in re.findall(r"[A-Za-z]+", tok.string)}
            if words & set(MODULE_WORDS):
                found.append((tok.start[0], tok.string))
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok.type
    return found


def test_the_check_sees_identifiers_and_strings_but_not_docstrings() -> None:
    """The scanner flags code that names a module, and lets documentation cite one."""
    code = (
        '"""A docstring may say discount."""\n'
        "def f(state):\n"
        '    """Nor does this one: the fund."""\n'
        "    # a comment about the inactive area\n"
        "    token = state.market.discount\n"
        '    return state.modules["custom_deck"].quota, PlaceFundHouse, "fund"\n'
    )
    assert module_names_in(code) == [
        (5, "discount"),
        (6, "quota"),
        (6, "PlaceFundHouse"),
        (6, '"fund"'),
    ]


def test_the_engine_core_names_no_module() -> None:
    """No core module names discount, inactive, quota, fund or PlaceFundHouse in code."""
    files = core_files()
    assert ROOT / "engine" / "game.py" in files
    assert ROOT / "mechanics" / "market.py" in files
    assert ROOT / "state.py" in files
    offences = [
        f"{path.relative_to(ROOT)}:{line}: {token}"
        for path in files
        for line, token in module_names_in(path.read_text(encoding="utf-8"))
    ]
    assert offences == []
