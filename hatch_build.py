"""The optional compiled build: mypyc compiles the engine's hot modules into the wheel.

Off by default: ``pip install powergrid-rules`` and every build without the switch
give the pure-Python package. With ``HATCH_BUILD_HOOK_ENABLE_CUSTOM=1`` in the
environment of a wheel build (``pip install .`` or ``pip wheel .`` from a checkout,
or ``pip install --no-binary powergrid-rules powergrid-rules`` from the sdist),
this hook compiles :data:`COMPILED` with mypyc and a C compiler and ships the
extension modules beside the Python sources, in a platform wheel. Python imports an
extension module before a source file of the same name, so the compiled modules
replace their sources and everything else stays interpreted.

The compiled build plays exactly the games of the pure one: ``make compiled-check``
builds it and runs the golden games and a subset of the tests against it
(``tests/test_compiled.py`` checks that the compiled modules are the ones imported).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules compiled, relative to ``src``: the engine's dispatch and phases, the
#: mechanics (market, fuel storage, burning, networks), the state records (native
#: classes here, :mod:`powergrid.record`) and their copy (``frozen.evolve``), where
#: random self-play spends its time. The actions and the event log stay interpreted.
COMPILED = (
    "powergrid/frozen.py",
    "powergrid/state.py",
    "powergrid/state_parts.py",
    "powergrid/events.py",
    "powergrid/mechanics/burning.py",
    "powergrid/mechanics/fuel_storage.py",
    "powergrid/mechanics/market.py",
    "powergrid/mechanics/network.py",
    "powergrid/engine/game.py",
    "powergrid/engine/phases/auction.py",
    "powergrid/engine/phases/building.py",
    "powergrid/engine/phases/bureaucracy.py",
    "powergrid/engine/phases/common.py",
    "powergrid/engine/phases/discard.py",
    "powergrid/engine/phases/order.py",
    "powergrid/engine/phases/resources.py",
)


class CompiledBuild(BuildHookInterface):  # type: ignore[type-arg]
    """Compile :data:`COMPILED` with mypyc into a wheel (only when enabled, see the module)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Build the extension modules in a scratch copy of ``src`` and add them to the wheel."""
        if self.target_name != "wheel" or version == "editable":
            return
        scratch = self._scratch = Path(tempfile.mkdtemp(prefix="powergrid-mypyc-"))
        src = Path(self.root) / "src"
        shutil.copytree(src / "powergrid", scratch / "powergrid")
        subprocess.run([sys.executable, "-m", "mypyc", *COMPILED], cwd=scratch, check=True)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = sorted(scratch.glob(f"*{suffix}")) + sorted(scratch.glob(f"powergrid/**/*{suffix}"))
        if len(built) < len(COMPILED):
            raise RuntimeError(f"mypyc built {len(built)} modules for {len(COMPILED)} sources")
        for path in built:
            build_data["force_include"][str(path)] = str(path.relative_to(scratch))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the scratch copy once the wheel holds the extension modules."""
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
