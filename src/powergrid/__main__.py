"""Command line: ``python -m powergrid play`` plays a full game between bots.

Exit codes: 0 on success; 2 for usage errors and for a configuration the rules
reject (one line ``error: <message>`` on stderr); 1 for unexpected errors.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Protocol, TextIO

from powergrid.actions import Action
from powergrid.bots import GreedyBot, RandomBot
from powergrid.config import GameConfig
from powergrid.engine import apply, current_player, new_game, outcome
from powergrid.errors import RulesConfigError
from powergrid.events import Event
from powergrid.outcome import Outcome
from powergrid.phases.common import name
from powergrid.state import GameState

#: Safety bound on the number of actions in one game (bot games take a few hundred).
MAX_ACTIONS = 100_000
#: Event kinds shown in the round summaries.
NOTABLE = frozenset(
    {
        "step_started",
        "step3_card_shown",
        "plant_removed",
        "plant_discarded",
        "plant_under_deck",
        "deck_reshuffled",
        "deck_empty",
        "game_end_triggered",
    }
)


class Bot(Protocol):
    """Anything with ``choose(state) -> Action`` (see :mod:`powergrid.bots`)."""

    def choose(self, state: GameState) -> Action:
        """Return a legal action for the player to act."""
        ...


BOT_KINDS: dict[str, type[GreedyBot] | type[RandomBot]] = {"greedy": GreedyBot, "random": RandomBot}


def _parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """Build the top-level parser and its ``play`` subparser."""
    parser = argparse.ArgumentParser(
        prog="python -m powergrid",
        description="Power Grid rules engine: play games between bots.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = sub.add_parser(
        "play",
        help="play a full game between bots and print a summary per round",
        description=(
            "Play a full seeded game between bots. By default seat 0 is a greedy bot and "
            "the seats after it alternate random, greedy, random, ... (even seats greedy, "
            "odd seats random). The bot in seat N gets seed 100 * SEED + N."
        ),
    )
    play.add_argument("--players", type=int, default=4, help="number of players, 2-6 (4)")
    play.add_argument("--map", default="europe", help="map: europe or north_america (europe)")
    play.add_argument("--seed", type=int, default=0, help="game seed (0)")
    play.add_argument(
        "--bots",
        default=None,
        help="comma-separated bot per seat: greedy or random; one name means every seat",
    )
    play.add_argument(
        "--quiet", action="store_true", help="print only the final ranking, no round summaries"
    )
    return parser, play


def _bot_names(parser: argparse.ArgumentParser, spec: str | None, players: int) -> list[str]:
    """Return the bot kind per seat from ``--bots`` (usage errors exit via the parser)."""
    if spec is None:
        return ["greedy" if seat % 2 == 0 else "random" for seat in range(max(players, 0))]
    names = [part.strip().lower() for part in spec.split(",")]
    unknown = [n for n in names if n not in BOT_KINDS]
    if unknown:
        parser.error(f"unknown bot {unknown[0]!r}; choose from {', '.join(BOT_KINDS)}")
    if len(names) == 1:
        return names * max(players, 0)
    if len(names) != players:
        parser.error(f"--bots names {len(names)} bots for {players} players")
    return names


def _money_line(state: GameState, seat: int) -> str:
    p = state.players[seat]
    plants = ",".join(map(str, p.plants)) or "-"
    who = name(state, seat)
    return f"  {who:<12} money {p.money:>3}  plants {plants:<12} cities {p.city_count}"


def _round_summary(state: GameState, number: int, events: Sequence[Event], out: TextIO) -> None:
    """Print the state at the end of round ``number`` and its notable events."""
    orders = [e.values for e in events if e.kind == "order_set"]
    order = orders[-1] if orders else state.order
    print(f"Round {number} (step {state.step})", file=out)
    print("  order: " + ", ".join(name(state, s) for s in order), file=out)
    for seat in order:
        print(_money_line(state, seat), file=out)
    m = state.market
    actual = " ".join(map(str, m.actual)) or "-"
    future = " ".join(map(str, m.future)) or "-"
    print(f"  market: actual {actual} | future {future}", file=out)
    deals = [
        f"{e.values[0]} by {name(state, e.player)} for {e.values[1]}"
        for e in events
        if e.kind == "plant_bought" and e.player is not None
    ]
    if deals:
        print("  bought: " + ", ".join(deals), file=out)
    for e in events:
        if e.kind in NOTABLE:
            print(f"  * {e.text}", file=out)


def _final(state: GameState, result: Outcome, out: TextIO) -> None:
    """Print the final ranking (shared places for equal keys) and the winner(s)."""
    print(f"Game over after round {state.round}: {result.reason}.", file=out)
    print("Final ranking (powered cities, then money, then cities):", file=out)
    for seat in result.ranking:
        s = result.scores[seat]
        place = 1 + sum(1 for o in result.scores if o.key > s.key)
        print(
            f"  {place}. {name(state, seat):<12} powered {s.powered:>2}  money {s.money:>3}  "
            f"cities {s.cities:>2}",
            file=out,
        )
    winners = " and ".join(name(state, w) for w in result.winners)
    label = "Winner" if len(result.winners) == 1 else "Winners (shared)"
    print(f"{label}: {winners}", file=out)


def play_game(state: GameState, bots: Sequence[Bot], out: TextIO, *, quiet: bool) -> GameState:
    """Play ``state`` to the end with one bot per seat, printing round summaries.

    Raises ``RuntimeError`` if the game exceeds :data:`MAX_ACTIONS` actions.
    """
    mark = len(state.events)
    count = 0
    while outcome(state) is None:
        count += 1
        if count > MAX_ACTIONS:
            raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")
        seat = current_player(state)
        assert seat is not None
        before = state.round
        state = apply(state, bots[seat].choose(state))
        if not quiet and (state.round != before or outcome(state) is not None):
            events = state.events.as_tuple()[mark:]
            _round_summary(state, before, [e for e in events if e.round == before], out)
            mark += sum(1 for e in events if e.round == before)
            print(file=out)
    return state


def _play(args: argparse.Namespace, kinds: list[str], out: TextIO) -> int:
    config = GameConfig(players=args.players, map=args.map)
    state = new_game(config, seed=args.seed)
    bots: list[Bot] = [
        BOT_KINDS[kind](seed=args.seed * 100 + seat) for seat, kind in enumerate(kinds)
    ]
    board = state.rules.area.board.name
    print(
        f"Power Grid: {config.players} players on {board} ({', '.join(state.regions)}), "
        f"seed {args.seed}",
        file=out,
    )
    print("Bots: " + ", ".join(f"{name(state, s)} {k}" for s, k in enumerate(kinds)), file=out)
    print(file=out)
    state = play_game(state, bots, out, quiet=args.quiet)
    result = outcome(state)
    assert result is not None
    _final(state, result, out)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code.

    ``--help`` returns 0; usage errors print argparse's message and return 2; a
    configuration the rules reject prints ``error: <message>`` and returns 2;
    anything unexpected prints a traceback and returns 1.
    """
    parser, play = _parsers()
    try:
        args = parser.parse_args(argv)
        kinds = _bot_names(play, args.bots, args.players)
    except SystemExit as stop:  # --help or a usage error
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    try:
        return _play(args, kinds, sys.stdout)
    except RulesConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as err:
        traceback.print_exc()
        print(f"error: unexpected {type(err).__name__}: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
