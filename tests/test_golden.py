"""The guard for identical games: seeded games over every configuration keep their hash.

The hashes in ``tests/data/golden.json`` change only on purpose, with the rule
change named in the commit: a refactor or a speed-up must keep every game
move for move (actions, event kinds and values, outcomes). See
``tests/golden.py`` for what is hashed and how to print the current hashes.

History: the ``classic/*`` hashes changed when classic games stopped playing
the board's map rules (CON-02, OQ-31); the hashes of today's
``classic/*/map_rules`` games are those the classic games had before. When the
2-player Deluxe games began to play the fund by default (SET-25), their
stored games became the opted-out ``deluxe/*/2`` (same hashes; ``modules=()``
then, ``without={"fund"}`` since format 5)
and the fund games ``deluxe/*/2/fund`` were added.
"""

from __future__ import annotations

import pytest

import powergrid as pg
from tests import golden

CONFIGS = list(golden.configs())


def test_every_configuration_has_a_stored_hash() -> None:
    """The golden set covers each configuration once, and nothing stale is stored."""
    labels = [golden.label(cfg) for cfg in CONFIGS]
    assert len(set(labels)) == len(labels)
    assert sorted(labels) == sorted(golden.expected())
    assert len(CONFIGS) * golden.GAMES_PER_CONFIG >= 300  # a few hundred games


@pytest.mark.parametrize("config", CONFIGS, ids=golden.label)
def test_seeded_games_are_identical_to_the_golden_record(config: pg.GameConfig) -> None:
    """Every seeded game of the configuration hashes as stored."""
    assert golden.config_hash(config) == golden.expected()[golden.label(config)]


def test_the_hash_sees_a_changed_game() -> None:
    """A different seed, policy or player count gives a different hash."""
    base = pg.GameConfig(players=3)
    assert golden.config_hash(base, games=1) != golden.config_hash(
        pg.GameConfig(players=4), games=1
    )
    lines = list(golden.game_lines(base, 0))
    assert lines != list(golden.game_lines(base, 1))
    assert any(line.startswith("order_set ") for line in lines)
