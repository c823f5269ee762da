"""Install a compiled wheel into a new venv outside the repository and run its CI tests there.

``make wheels`` runs this on the wheel it has just built for the local platform. The
tests are the recipe CI runs on every wheel, read from ``[tool.cibuildwheel]`` in
pyproject.toml: ``test-requires`` are installed beside the wheel and ``test-command``
runs from a scratch directory with ``test-environment`` set and ``{project}`` standing
for this checkout, as cibuildwheel runs it. PYTHONPATH is cleared and ``src`` is on no
path, so the tests can only import the installed wheel; this script prints where
``powergrid.engine.game`` comes from and stops if that is not an extension module of
the new venv.

Usage: python tools/check_compiled_wheel.py WHEEL
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile
import time
import tomllib
import venv
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: Run by the venv's python: where the engine is imported from, and whether that
#: file is an extension module (its suffix is the interpreter's EXT_SUFFIX).
WHERE = (
    "import sysconfig, powergrid.engine.game as g\n"
    "print(g.__file__)\n"
    "print(g.__file__.endswith(sysconfig.get_config_var('EXT_SUFFIX')))\n"
)


def recipe() -> dict[str, Any]:
    """The ``[tool.cibuildwheel]`` table of pyproject.toml: the tests CI runs on each wheel."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        table: dict[str, Any] = tomllib.load(f)["tool"]["cibuildwheel"]
    if not isinstance(table.get("test-environment", {}), dict):
        raise SystemExit("test-environment is not a table: this script reads no other form")
    return table


def main(wheel: pathlib.Path) -> None:
    started = time.monotonic()
    ci = recipe()
    with tempfile.TemporaryDirectory(prefix="powergrid-wheel-") as tmp:
        home = pathlib.Path(tmp)
        venv.create(home / "venv", with_pip=True)
        bindir = home / "venv" / ("Scripts" if os.name == "nt" else "bin")
        python = bindir / "python"
        install = [str(wheel.resolve()), *ci["test-requires"]]
        run([python, "-m", "pip", "install", "--quiet", *install], home)
        work = home / "work"
        work.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
        env.update(ci.get("test-environment", {}))
        where = run([python, "-c", WHERE], work, env).split()
        print(f"powergrid.engine.game: {where[0]}")
        if not where[0].startswith(str(home / "venv")) or where[1] != "True":
            raise SystemExit("the engine is not the compiled module of the installed wheel")
        command = ci["test-command"].replace("{project}", str(ROOT))
        command = command.replace("{package}", str(ROOT))
        print(f"$ {command}", flush=True)
        result = subprocess.run(command, shell=True, cwd=work, env=env)
        if result.returncode != 0:
            raise SystemExit(f"the tests failed against {wheel.name}")
    print(f"{wheel.name}: compiled, golden games played ({time.monotonic() - started:.0f} s)")


def run(
    command: list[str | pathlib.Path], cwd: pathlib.Path, env: dict[str, str] | None = None
) -> str:
    """Run ``command`` in ``cwd``; return its standard output, or exit showing both outputs."""
    result = subprocess.run(
        [str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True
    )
    if result.returncode != 0:
        print(result.stdout, result.stderr, sep="\n", file=sys.stderr)
        raise SystemExit(f"failed: {' '.join(map(str, command))}")
    return result.stdout


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python tools/check_compiled_wheel.py WHEEL")
    main(pathlib.Path(sys.argv[1]))
