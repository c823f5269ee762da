"""Issue 31 item 6: without an extra, the error says which ``pip install`` adds it.

Each check runs in a fresh interpreter where the extra's packages cannot be
imported (``sys.modules[name] = None`` makes ``import name`` fail as if it were
not installed), so the packages this test run has installed do not hide the error.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
for name in {blocked!r}:
    sys.modules[name] = None
import powergrid  # the core needs none of them
try:
{attempt}
except ImportError as err:
    print(type(err).__name__, "|", err.name, "|", err)
else:
    print("no error")
"""


def probe(blocked: tuple[str, ...], attempt: str) -> str:
    code = PROBE.format(blocked=blocked, attempt="    " + attempt.replace("\n", "\n    "))
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize(
    ("missing", "attempt"),
    [
        ("numpy", "import powergrid.rl"),
        ("numpy", "from powergrid.rl.codec import Block"),
        # issue 36 item 4: the codec and the encoder need numpy alone, the environments all
        ("gymnasium", "from powergrid.rl import env"),
        ("gymnasium", "import powergrid.rl\npowergrid.rl.PowerGridEnv"),
        ("pettingzoo", "from powergrid.rl import raw_env"),
        ("pettingzoo", "from powergrid.rl import ENV_ID"),
    ],
)
def test_rl_without_its_extra_names_the_install_command(missing: str, attempt: str) -> None:
    kind, name, message = probe((missing,), attempt).split(" | ")
    assert kind == "ModuleNotFoundError"
    assert name == missing
    assert f"({missing} is missing)" in message
    assert message.endswith('pip install "powergrid-rules[rl]"')


def test_the_testing_helpers_without_hypothesis_name_the_install_command() -> None:
    attempt = "import powergrid.testing as t\nprint('imported')\nt.configs()"
    out = probe(("hypothesis", "hypothesis.strategies"), attempt).splitlines()
    assert out[0] == "imported"  # the conformance checks need no hypothesis
    kind, name, message = out[1].split(" | ")
    assert (kind, name) == ("ModuleNotFoundError", "hypothesis")
    assert message.endswith('pip install "powergrid-rules[testing]"')
    for strategy in ("seeds", "positions"):
        line = probe(("hypothesis",), f"import powergrid.testing as t\nt.{strategy}()")
        assert line.endswith('pip install "powergrid-rules[testing]"'), strategy


def test_with_the_extras_installed_nothing_is_refused() -> None:
    assert probe((), "import powergrid.rl, powergrid.testing\npowergrid.testing.seeds()") == (
        "no error"
    )
