"""The golden games: seeded games over every configuration, reduced to one hash each.

A game is hashed on what the rules decide: every action's notation, every
event's kind, round, player and values (never its text, which may be
reworded), and the outcome. The policy is seeded and picks among the legal
actions with bids and purchase counts collapsed to their minimum
(``powergrid.bots.distinct_choices``), so a game
stays short. ``tests/data/golden.json`` holds the expected hash per
configuration; ``test_golden.py`` replays them.

Run ``python -m tests.golden`` to print the hashes of the current code (for
reviewing a deliberate rules change; the JSON is never rewritten silently).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import powergrid as pg
from powergrid.bots import distinct_choices
from powergrid.testing import config_label
from tests import decks

GAMES_PER_CONFIG = 15
EXPECTED = Path(__file__).parent / "data" / "golden.json"


label = config_label  # a configuration's key in golden.json


def configs() -> Iterator[pg.GameConfig]:
    """Every configuration the golden set plays (every built-in one, and each option)."""
    variants: list[tuple[str, frozenset[str]]] = [
        ("deluxe", frozenset()),
        ("classic", frozenset()),
        ("classic", frozenset({"map_rules"})),
    ]
    for components, options in variants:
        for map_id in ("europe", "north_america"):
            for players in range(2, 7):
                # The 2-player Deluxe games recorded before the fund existed opt
                # out of it; the fund games follow (deluxe/<map>/2/fund).
                without = {"fund"} if components == "deluxe" and players == 2 else set()
                yield pg.GameConfig(
                    players=players,
                    map=map_id,
                    components=components,
                    options=options,
                    without=without,
                )
    for map_id in ("europe", "north_america"):
        yield pg.GameConfig(players=2, map=map_id, modules=("fund",))
    for map_id in ("europe", "north_america"):  # the customised deck's test decks
        yield decks.config("M", 3, map=map_id)
        yield decks.config("P", 4, map=map_id)
    for extra in ((), ("map_rules",)):
        for players in (2, 3):
            yield pg.GameConfig(
                players=players, components="classic", options={"seed_thresholds", *extra}
            )
    for map_id in ("germany_recharged", "usa_recharged"):  # issue 37
        for players in range(3, 7):
            yield pg.GameConfig(players=players, map=map_id, components="recharged")
    yield pg.GameConfig(
        players=4, map="germany_recharged", components="recharged", options={"too_small_rule"}
    )
    for map_id in ("germany_recharged", "usa_recharged"):  # 2 players and the Trust
        yield pg.GameConfig(players=2, map=map_id, components="recharged")
        yield pg.GameConfig(
            players=2, map=map_id, components="recharged", options={"trust_refill_as_three"}
        )
        yield pg.GameConfig(
            players=2, map=map_id, components="recharged", options={"two_player_boardgamers"}
        )
    for players in (2, 4):  # the experienced start, with and without the Trust
        yield pg.GameConfig(
            players=players,
            map="germany_recharged",
            components="recharged",
            modules=("experienced_start",),
        )


def game_lines(config: pg.GameConfig, seed: int) -> Iterator[str]:
    """The hashed lines of one seeded game: actions, then events, then the outcome."""
    rng = random.Random(f"golden:{seed}")
    state = pg.new_game(config, seed=seed)
    while (result := pg.outcome(state)) is None:
        action = rng.choice(distinct_choices(pg.legal_actions(state)))
        yield str(action)
        state = pg.apply(state, action)
    for e in state.events:
        yield f"{e.kind} {e.round} {e.player} {_values(e.values)}"
    yield repr((result.winners, result.ranking, result.reason))
    yield repr([(s.seat, s.powered, s.money, s.cities) for s in result.scores])


def _values(values: tuple[int | str, ...]) -> list[int | str]:
    """Event values as the hashes first recorded them, when plants were numbers.

    A standard deck's card label is its number (``"13"``), so writing such a
    label as the number keeps every expected hash: the games are the same.
    """
    return [int(v) if isinstance(v, str) and v.isdigit() else v for v in values]


def config_hash(config: pg.GameConfig, games: int = GAMES_PER_CONFIG) -> str:
    """SHA-256 over the lines of ``games`` seeded games of one configuration."""
    digest = hashlib.sha256()
    for seed in range(games):
        for line in game_lines(config, seed):
            digest.update(line.encode())
            digest.update(b"\n")
    return digest.hexdigest()


def expected() -> dict[str, str]:
    """The stored hashes, by configuration label."""
    return json.loads(EXPECTED.read_text())  # type: ignore[no-any-return]


if __name__ == "__main__":
    json.dump({label(cfg): config_hash(cfg) for cfg in configs()}, sys.stdout, indent=2)
    print()
