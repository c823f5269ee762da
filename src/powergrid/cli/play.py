"""``python -m powergrid play``: its options, the game they ask for, and playing it.

:func:`prepare_play` checks every option before any game starts (the config
is built at once, so the rules reject a bad one in one line; the seats and
``--record`` are checked too) and returns a :class:`PlaySetup`;
:func:`run_play` plays it: between bots all at once with round summaries, or
with human seats at the prompt (:mod:`powergrid.cli.human`). ``--resume FILE``
continues a record instead of starting a game; the seats' roles always come
from the command line.

The game is saved as it goes (see :mod:`powergrid.cli.human` for the terminal
game). ``--record FILE`` is checked before the game starts: it may be
replaced only when it holds an earlier save of the same game, or with
``--force``. Between bots the record is written when the game ends, and a
game stopped by Ctrl-C, SIGTERM or SIGHUP writes what was played before the
program exits with 128 + the signal number.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TextIO

import attrs

from powergrid.actions import CHANCE, Action
from powergrid.bots import BOTS
from powergrid.catalog import COMPONENT_SETS, component_maps, default_modules, map_ids
from powergrid.cli.errors import UserError
from powergrid.cli.files import (
    check_overwrite,
    check_writable,
    checked,
    load_deck,
    load_record,
    write_text,
)
from powergrid.cli.human import Session, run_session
from powergrid.cli.signals import Stopped, held_signals, signal_name, stop_signals, stopped_by, why
from powergrid.config import EXPLICIT_CHANCE, OPTIONS, GameConfig
from powergrid.deck import DeckChoice
from powergrid.engine.game import apply, current_player, outcome, sampled_outcome
from powergrid.engine.start import new_game
from powergrid.errors import RulesConfigError
from powergrid.formats.records import GameRecord, replay
from powergrid.formats.serialize import to_json
from powergrid.formats.text import count, final, header, narrate
from powergrid.state import GameState

#: Safety bound on the number of actions in one game (bot games take a few hundred).
MAX_ACTIONS = 100_000
#: The options that say which game to play; a resumed record already says it.
GAME_OPTIONS = (
    "players",
    "map",
    "seed",
    "components",
    "regions",
    "cities",
    "modules",
    "without",
    "options",
    "deck",
    "variant",
    "names",
)


class Bot(Protocol):
    """Anything with ``choose(state) -> Action`` (see :mod:`powergrid.bots`)."""

    def choose(self, state: GameState) -> Action:
        """Return a legal action for the player to act."""
        ...


#: The bots ``--bots`` names (:data:`powergrid.bots.BOTS`).
BOT_KINDS = BOTS


def _map_help() -> str:
    """The ``--map`` help: the installed maps, and those a component set is limited to."""
    limits = [
        f"{name} components: {', '.join(sorted(maps))} only"
        for name in ("deluxe", "recharged")
        if (maps := component_maps(name)) is not None
    ]
    return f"map: {', '.join(map_ids())} (europe{''.join('; ' + x for x in limits)})"


def add_play_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subparser; values are checked by :func:`prepare_play`."""
    play = sub.add_parser(
        "play",
        help="play a game: bots, or you against bots (--human SEAT)",
        description=(
            "Play a full seeded game. Seats named by --human are played at the prompt "
            "(type help there); the others are bots. By default seat 0 is a greedy bot and "
            "the seats after it alternate random, greedy, random, ... (even seats greedy, "
            "odd seats random). The bot in seat N gets seed 100 * SEED + N."
        ),
    )
    add = play.add_argument
    add("--players", metavar="N", type=int, help="number of players, 2-6 (4)")
    add("--map", metavar="ID", help=_map_help())
    add("--seed", metavar="N", type=int, help="game seed (0)")
    add("--human", metavar="SEAT", action="append", help="a seat you play (number or name); repeat")
    add(
        "--bots",
        help="comma-separated bot per bot seat: random, greedy, heuristic or mcts (about a second "
        "a decision); one name: all of them",
    )
    add(
        "--components",
        metavar="SET",
        help="component set: deluxe, classic or recharged (deluxe; recharged plays on "
        "germany_recharged and usa_recharged)",
    )
    add(
        "--regions",
        metavar="IDS",
        help="comma-separated region ids of the play area (the seed chooses)",
    )
    add(
        "--modules",
        metavar="NAMES",
        help="comma-separated extra rule modules, added to the game's default ones (the fund "
        "in a 2-player Deluxe game, else none); none: no extra module",
    )
    add(
        "--without",
        metavar="NAMES",
        help="comma-separated default modules to leave out, e.g. fund (a 2-player Deluxe game "
        "without the fund)",
    )
    add(
        "--options",
        metavar="NAMES",
        help=f"comma-separated rule switches: {', '.join(sorted(OPTIONS))}",
    )
    add("--names", metavar="NAMES", help="comma-separated player names, one per seat")
    add(
        "--deck",
        metavar="FILE",
        action="append",
        help="a plant deck (a Deck JSON document); give it twice for variant M or P. Plays "
        "the classic components with the custom_deck module (RULES.md section 10)",
    )
    add(
        "--variant",
        choices=("M", "P", "free"),
        help="how the decks make the game's deck: M (mixed, inactive area), P (plus "
        "plants), free (one deck as given; the default with one --deck)",
    )
    add(
        "--cities",
        metavar="IDS",
        help="comma-separated city ids in play instead of regions (variant P, CDK-16)",
    )
    add("--resume", metavar="FILE", help="continue the game of a record (save, --record, cut)")
    add("--quiet", action="store_true", help="bots only: print only the final ranking")
    add(
        "--record",
        metavar="FILE",
        help="write the game record (JSON) to FILE, at the prompt after each of your decisions; "
        "an existing FILE must hold an earlier save of the same game",
    )
    add("--force", action="store_true", help="let --record replace FILE whatever it holds")


@attrs.frozen
class PlaySetup:
    """A checked ``play`` command: the game so far, who plays which seat, where to save.

    ``record`` holds the resumed actions (none for a new game) and ``state``
    the state after them; ``kinds`` maps each bot seat to its bot's name.
    """

    record: GameRecord
    state: GameState
    humans: frozenset[int]
    kinds: dict[int, str]
    args: argparse.Namespace
    prog: str


def prepare_play(args: argparse.Namespace, prog: str) -> PlaySetup:
    """Check every ``play`` option and set the game up; nothing is played or printed.

    Raises :class:`UserError`, :class:`~powergrid.RulesConfigError`,
    :class:`~powergrid.InvalidRecord` or :class:`~powergrid.IllegalAction` (a
    resumed record that does not replay), each reported in one line.
    """
    if args.resume is None:
        config = _named(lambda: play_config(args), args)
        record = GameRecord(config=config, seed=0 if args.seed is None else args.seed)
        state = new_game(config, seed=record.seed)
    else:
        given = [f"--{opt}" for opt in GAME_OPTIONS if getattr(args, opt) is not None]
        if given:
            raise UserError(
                f"--resume plays on the game of its record (config and seed): leave out "
                f"{', '.join(given)}"
            )
        record = load_record(args.resume)
        state = checked(args.resume, lambda: replay(record))
    humans = _humans(args.human or [], state)
    players = len(state.players)
    kinds = _bot_kinds(args.bots, [s for s in range(players) if s not in humans], players)
    if args.record is not None:
        check_writable(args.record)
        if not args.force:
            check_overwrite(args.record, record, hint="add --force to replace it")
    return PlaySetup(record=record, state=state, humans=humans, kinds=kinds, args=args, prog=prog)


def _named(build: Callable[[], GameConfig], args: argparse.Namespace) -> GameConfig:
    """Build a config; a field the rules reject is reported under its option's name.

    A map the component set has no tables for suggests the sets that have.
    """
    try:
        return build()
    except RulesConfigError as err:
        option = "variant" if err.field == "deck.variant" else err.field.partition(".")[0]
        if option not in GAME_OPTIONS:
            raise
        message = f"--{option}: {err}"
        if err.field == "components":
            message += _components_hint(args)
        raise RulesConfigError(message, field=err.field) from None


def _components_hint(args: argparse.Namespace) -> str:
    """``; play it with --components classic`` when another set knows the map, else nothing."""
    board = args.map or "europe"
    given = args.components or ("classic" if args.deck else "deluxe")
    others = [
        c
        for c in COMPONENT_SETS
        if c != given and ((maps := component_maps(c)) is None or board in maps)
    ]
    if not others or given not in COMPONENT_SETS:
        return ""
    return f"; play {board} with " + " or ".join(f"--components {c}" for c in others)


def _items(text: str | None) -> list[str] | None:
    return None if text is None else [part.strip() for part in text.split(",")]


def play_config(args: argparse.Namespace) -> GameConfig:
    """The config ``play`` asks for: players, map, components, area, modules, deck, names."""
    players = 4 if args.players is None else args.players
    board = args.map or "europe"
    regions, names = _items(args.regions), _items(args.names)
    options = [o for o in _items(args.options) or [] if o and o.lower() != "none"]
    if EXPLICIT_CHANCE in options:
        raise UserError(
            "--options: play lets the seed decide chance; explicit_chance is for programs "
            "that resolve it themselves (powergrid.mechanics.chance_points)"
        )
    mods, without = _module_choice(args, players)
    if args.deck is None:
        if args.variant is not None or args.cities is not None:
            raise UserError("--variant and --cities go with --deck FILE (a customised deck)")
        return GameConfig(
            players=players,
            map=board,
            components=args.components or "deluxe",
            regions=regions,
            names=names,
            options=options,
            modules=mods,
            without=without,
        )
    decks = [load_deck(path) for path in args.deck]
    variant = args.variant or ("free" if len(decks) == 1 else None)
    if variant is None:
        raise UserError("two decks make variant M or P: say which with --variant")
    return GameConfig(
        players=players,
        map=board,
        components=args.components or "classic",
        modules=mods if "custom_deck" in mods else (*mods, "custom_deck"),
        without=without,
        deck=DeckChoice(variant=variant, decks=decks),
        regions=regions,
        cities=_items(args.cities),
        names=names,
        options=options,
    )


def _module_choice(args: argparse.Namespace, players: int) -> tuple[tuple[str, ...], list[str]]:
    """The modules ``--modules`` adds and the defaults ``--without`` leaves out.

    ``--modules none`` names no extra module; where the game has default
    modules (the fund of a 2-player Deluxe game, SET-25) it is refused unless
    ``--without`` says what becomes of them, since before format 5 it meant
    "no module at all" and would now silently play the fund.
    """
    chosen = _items(args.modules) or []
    mods = tuple(m for m in chosen if m.lower() != "none")
    without = [m for m in _items(args.without) or [] if m and m.lower() != "none"]
    if len(mods) < len(chosen) and args.without is None and args.deck is None:
        components = args.components or "deluxe"
        defaults = default_modules(components, players) if components in COMPONENT_SETS else ()
        if defaults:
            raise UserError(
                f"--modules none adds no module, and a {players}-player {components} game "
                f"still plays its default {', '.join(defaults)}: to leave it out, say "
                f"--without {','.join(defaults)}"
            )
    return mods, without


def _humans(texts: Sequence[str], state: GameState) -> frozenset[int]:
    """The seats ``--human`` names, by number or configured name."""
    players = len(state.players)
    names = state.config.names or ()
    seats: list[int] = []
    for text in texts:
        seat = names.index(text) if text in names else int(text) if text.isdigit() else -1
        if not 0 <= seat < players:
            raise UserError(f"--human {text!r}: no such seat; seats are 0 to {players - 1}")
        if seat in seats:
            raise UserError(f"--human names seat {seat} twice")
        seats.append(seat)
    return frozenset(seats)


def _bot_kinds(spec: str | None, seats: Sequence[int], players: int) -> dict[int, str]:
    """The bot of each seat in ``seats`` (those without ``--human``) from ``--bots``."""
    if spec is None:
        return {s: "greedy" if s % 2 == 0 else "random" for s in seats}
    kinds = [part.strip().lower() for part in spec.split(",")]
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        raise UserError(f"--bots: unknown bot {unknown[0]!r}; choose from {', '.join(BOT_KINDS)}")
    if not seats:
        raise UserError("--bots names bots, but every seat is played by --human")
    if len(kinds) == 1:
        return dict.fromkeys(seats, kinds[0])
    if len(kinds) != len(seats):
        seated = ", ".join(map(str, seats))
        plural = "s" if len(seats) > 1 else ""
        where = f"{players} players" if len(seats) == players else f"bot seat{plural} {seated}"
        raise UserError(f"--bots names {len(kinds)} bots for {where}")
    return dict(zip(seats, kinds, strict=True))


def bot_states(
    state: GameState, bots: Sequence[Bot], played: list[Action] | None = None
) -> Iterator[GameState]:
    """Yield each state after one bot move until the game ends.

    Every chosen action is appended to ``played`` if given. Raises
    ``RuntimeError`` if the game exceeds :data:`MAX_ACTIONS` actions.
    """
    count = 0
    while outcome(state) is None:
        count += 1
        if count > MAX_ACTIONS:
            raise RuntimeError(f"the game did not end within {MAX_ACTIONS} actions")
        seat = current_player(state)
        assert seat is not None
        # A record with explicit chance plays on with the seed deciding chance.
        action = sampled_outcome(state) if seat == CHANCE else bots[seat].choose(state)
        state = apply(state, action)
        if played is not None:  # only once applied: a game stopped here records what was played
            played.append(action)
        yield state


def run_play(setup: PlaySetup, out: TextIO) -> int:
    """Play the game of ``setup``, printing to ``out``; return the exit code."""
    state, seed = setup.state, setup.record.seed
    header(state, seed, out)
    bots = {s: BOT_KINDS[k](seed=seed * 100 + s) for s, k in setup.kinds.items()}
    if setup.humans:
        roles = {**setup.kinds, **dict.fromkeys(setup.humans, "human")}
        print(
            "Seats: " + ", ".join(f"{state.name_of(s)} {roles[s]}" for s in sorted(roles)), file=out
        )
    else:
        print(
            "Bots: " + ", ".join(f"{state.name_of(s)} {k}" for s, k in setup.kinds.items()),
            file=out,
        )
    if setup.args.resume is not None:
        print(
            f"Resumed {count(len(setup.record.actions), 'action')} from {setup.args.resume}",
            file=out,
        )
    if not setup.humans:
        print(file=out)
        return _play_bots(setup, [bots[s] for s in range(len(state.players))], out)
    print('At the prompt type an action, its number in the menu, or "help".', file=out)
    session = Session(
        record=setup.record,
        state=state,
        humans=setup.humans,
        bots={s: bot.choose for s, bot in bots.items()},
        resume_command=lambda path: resume_command(setup, path),
        save_path=setup.args.record,
        force=setup.args.force,
        owned=set() if setup.args.record is None else {os.path.realpath(setup.args.record)},
        out=out,
        inp=sys.stdin,
        mark=len(state.events) if setup.record.actions else 0,
    )
    return run_session(session)


def _play_bots(setup: PlaySetup, bots: Sequence[Bot], out: TextIO) -> int:
    state = setup.state
    played = list(setup.record.actions)
    path = setup.args.record
    if path is None:
        later = list(bot_states(state, bots, played))  # the whole game before any summary,
    else:  # so the record is written even if stdout closes early
        later = _recorded_bots(setup, bots, played, path)
    state = narrate(state, later, out, quiet=setup.args.quiet)
    result = outcome(state)
    assert result is not None
    final(state, result, out)
    return 0


def _recorded_bots(
    setup: PlaySetup, bots: Sequence[Bot], played: list[Action], path: str
) -> list[GameState]:
    """Play the bots' game and write its record to ``path``, also when a signal stops it.

    Stopped by Ctrl-C, SIGTERM or SIGHUP, the actions played so far are
    written and :class:`~powergrid.cli.signals.Stopped` carries the line
    that says where (the command line prints it and exits 128 + signal).
    """
    with stop_signals():
        try:
            later = list(bot_states(setup.state, bots, played))
        except (KeyboardInterrupt, Stopped) as stop:
            signum = stopped_by(stop)
            with held_signals(redeliver=False):  # a second Ctrl-C cannot cut this save short
                _write_record(setup, played, path)
            raise Stopped(
                signum,
                f"{why(signum).lower()} ({signal_name(signum)}): the game so far "
                f"({count(len(played), 'action')}) is saved in {path}; resume it with: "
                f"{resume_command(setup, path)}",
            ) from None
        _write_record(setup, played, path)
    return later


def _write_record(setup: PlaySetup, played: list[Action], path: str) -> None:
    record = attrs.evolve(setup.record, actions=tuple(played))
    write_text(path, to_json(record, indent=2) + "\n")


def resume_command(setup: PlaySetup, path: str) -> str:
    """The command line that resumes the game saved in ``path`` with the same seats."""
    words = [setup.prog, "play", "--resume", shlex.quote(path)]
    for seat in sorted(setup.humans):
        words += ["--human", str(seat)]
    if setup.args.bots is not None:
        words += ["--bots", shlex.quote(setup.args.bots)]
    if setup.args.record is not None:
        words += ["--record", shlex.quote(setup.args.record)]
    return " ".join(words)
