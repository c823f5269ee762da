"""Install a built wheel into a new venv outside the repository and try it as a user would.

Runs the README's examples (as doctests), ``powergrid --help`` and
``python -m powergrid rule AUC-33`` (which reads the packaged RULES.md, so it
proves the rules text is in the wheel) with the installed package only: the
venv lives in a temporary directory and the commands run there, so the
repository's ``src`` cannot be imported by mistake.

Usage: python tools/check_wheel.py DIST_DIR
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import tempfile
import venv

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main(dist: pathlib.Path) -> None:
    wheels = sorted(dist.glob("*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one wheel in {dist}, found {[w.name for w in wheels]}")
    with tempfile.TemporaryDirectory() as tmp:
        home = pathlib.Path(tmp)
        venv.create(home / "venv", with_pip=True)
        python = home / "venv" / "bin" / "python"
        run([python, "-m", "pip", "install", "--quiet", str(wheels[0].resolve())], home)
        shutil.copy(ROOT / "README.md", home / "README.md")
        check = (
            "import doctest, sys, powergrid\n"
            "assert 'site-packages' in powergrid.__file__, powergrid.__file__\n"
            "r = doctest.testfile('README.md', module_relative=False,"
            " optionflags=doctest.ELLIPSIS)\n"
            "sys.exit(1 if r.failed or not r.attempted else 0)\n"
        )
        run([python, "-c", check], home)
        run([home / "venv" / "bin" / "powergrid", "--help"], home)
        rule = run([python, "-m", "powergrid", "rule", "AUC-33"], home)
        if not rule.startswith("AUC-33\n") or "discount token" not in rule:
            raise SystemExit(f"powergrid rule AUC-33 printed no rule from the wheel:\n{rule}")
    print(f"{wheels[0].name}: installs, runs the README, powergrid --help and rule AUC-33")


def run(command: list[str | pathlib.Path], cwd: pathlib.Path) -> str:
    """Run ``command`` in ``cwd``; return its standard output, or exit showing both outputs."""
    result = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout, result.stderr, sep="\n", file=sys.stderr)
        raise SystemExit(f"failed: {' '.join(map(str, command))}")
    return result.stdout


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
