"""Issue 36 item 4: the codec and the observation encoder work without gymnasium and pettingzoo.

A fresh interpreter gets a ``sys.meta_path`` finder that refuses gymnasium and
pettingzoo (and their submodules) as if they were not installed; the codec and
the encoder must import and encode a game there, and the environments must say
which extra to install when they are named.
"""

from __future__ import annotations

import subprocess
import sys

BLOCKED = """
import sys

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("gymnasium", "pettingzoo"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

for name in [m for m in sys.modules if m.split(".")[0] in ("gymnasium", "pettingzoo")]:
    del sys.modules[name]
sys.meta_path.insert(0, Refuse())
"""

PLAY = """
import random
import numpy as np
import powergrid as pg
from powergrid.rl import ActionCodec, ObservationEncoder, rank_utility
from powergrid.rl.observation import ObservationEncoder as Same

assert Same is ObservationEncoder
config = pg.GameConfig(players=3, map="europe")
codec, encoder = ActionCodec(config), ObservationEncoder(config)
state, rnd, steps = pg.new_game(config, seed=2), random.Random(2), 0
while (seat := pg.current_player(state)) is not None and steps < 200:
    obs = encoder.encode(state, seat)
    assert obs.shape == (encoder.size,)
    index = rnd.choice(np.flatnonzero(codec.mask(state)).tolist())
    state = pg.apply(state, codec.decode(index, state))
    steps += 1
print("played", steps)
print("loaded", sorted({m.split(".")[0] for m in sys.modules} & {"gymnasium", "pettingzoo"}))
try:
    from powergrid.rl import env
except ModuleNotFoundError as err:
    print("env:", err.name, "|", err)
"""


def run(code: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", BLOCKED + code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_the_codec_and_the_encoder_play_a_game_without_the_environments_packages() -> None:
    out = run(PLAY)
    assert out[0] == "played 200"
    assert out[1] == "loaded []"  # neither was imported along the way
    name, message = out[2].removeprefix("env: ").split(" | ")
    assert name == "gymnasium"
    assert message.endswith('pip install "powergrid-rules[rl]"')


def test_the_refusing_finder_does_refuse() -> None:
    """The probe is real: with the finder in place gymnasium cannot be imported."""
    out = run("try:\n    import gymnasium\nexcept ModuleNotFoundError as e:\n    print(e.name)")
    assert out == ["gymnasium"]
