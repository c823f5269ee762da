"""An interactive game at the terminal: human seats against bots (``play --human``).

:func:`run_session` plays a game from a record (new or resumed): bots move
at once, a human seat gets its position and menu (:mod:`powergrid.cli.human_view`)
and a prompt (:mod:`powergrid.cli.human_input`). Every move is narrated by the
sentences of its events. The record grows with each legal action, so at any
moment it is the whole game so far:

- ``undo`` replays the record up to just before the seat's own last
  decision (:func:`powergrid.replay` with ``upto``); the bots' moves after it
  are played again by the bots, which are functions of their seed and the
  state, so they come out the same.
- The game is saved after every decision of a human seat (and every undo)
  to :attr:`Session.save_path`, the ``--record`` file or a fresh
  ``powergrid-<seed>.json`` chosen at the start and told to the player.
  ``save FILE`` writes it elsewhere too. ``quit``, the end of the input,
  Ctrl-C, SIGTERM and SIGHUP save it once more and print the command that
  resumes it; a finished game is saved the same way. Every save is atomic
  (:func:`powergrid.cli.files.write_text`), and a signal during one waits
  until it is done (:mod:`powergrid.cli.signals`).
- A save replaces a file only when it holds an earlier save of this game
  (:func:`powergrid.cli.files.check_overwrite`), a file this session wrote,
  or when forced (``play --force``, ``save FILE --force``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Mapping
from typing import TextIO

import attrs

from powergrid import svg
from powergrid.actions import CHANCE, Action
from powergrid.cli.errors import UserError
from powergrid.cli.files import check_overwrite, write_text
from powergrid.cli.human_input import HELP, Command, Unclear, interpret
from powergrid.cli.human_view import city_lines, decision_lines, menu, short
from powergrid.cli.signals import Stopped, held_signals, signal_name, stop_signals, stopped_by, why
from powergrid.engine.game import apply, current_player, legal_actions, outcome, sampled_outcome
from powergrid.engine.views import view
from powergrid.errors import IllegalAction
from powergrid.formats.records import GameRecord, replay
from powergrid.formats.serialize import to_json
from powergrid.formats.text import count, final, show_lines
from powergrid.state import GameState

#: A bot: the action it plays in a state where its seat is to act.
Chooser = Callable[[GameState], Action]

#: Exit code after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 128 + signal.SIGINT
#: How ``save`` at the prompt is told to replace a file that is not an earlier save of the game.
FORCE = "--force"
#: What a command returns to keep the prompt on the same position.
_AGAIN = "again"


@attrs.define
class Session:
    """One game at the terminal and where its text goes.

    ``record`` is the game so far and ``state`` the state after it. Seats in
    ``humans`` are asked at the prompt, the others play ``bots[seat]``.
    ``save_path`` is where the game is saved after each decision and when it
    stops (``--record``); None has :func:`run_session` choose a fresh default
    name. ``force`` lets those saves replace any file (``play --force``);
    ``owned`` holds the files (real paths) that may be replaced without a
    check: those this session wrote, and a ``--record`` file checked before
    the game. ``resume_command(path)`` is the command line that resumes a
    saved game. ``inp`` is read line by line; when it is not a terminal each
    line is echoed after the prompt, so the output reads as a transcript.
    """

    record: GameRecord
    state: GameState
    humans: frozenset[int]
    bots: Mapping[int, Chooser]
    resume_command: Callable[[str], str]
    save_path: str | None = None
    force: bool = False
    owned: set[str] = attrs.field(factory=set)
    out: TextIO = attrs.field(factory=lambda: sys.stdout)
    inp: TextIO = attrs.field(factory=lambda: sys.stdin)
    mark: int = 0  # the events already narrated
    fresh: bool = False  # save_path is a default name, so another one may replace it

    def say(self, text: str = "") -> None:
        """Print one line (or several) to the session's output."""
        print(text, file=self.out)


def run_session(session: Session) -> int:
    """Play until the game ends or the player stops; return the exit code.

    Announces where the game is saved, then saves it after every decision
    of a human seat (a save that fails is told at the prompt, and the game
    goes on). Returns 0 when the game ended (its record saved, unless it was
    over already), after ``quit`` and at the end of the input (the game
    saved, the resume command printed); 128 + the signal number after Ctrl-C
    (130), SIGTERM (143) or SIGHUP (129), saved the same way. A save that
    fails when the game stops raises :class:`~powergrid.cli.errors.UserError`.
    """
    over = outcome(session.state) is not None  # a finished record: nothing new to save
    if session.save_path is None:
        session.save_path = free_path(f"powergrid-{session.record.seed}")
        session.fresh = True
    if not over:
        session.say(f"The game is saved to {session.save_path} after each of your decisions.")
    with stop_signals():
        try:
            return _play_out(session, over)
        except (KeyboardInterrupt, Stopped) as stop:
            with held_signals(redeliver=False):  # a second Ctrl-C cannot cut this save short
                return _stopped(session, stopped_by(stop))


def _play_out(session: Session, over: bool) -> int:
    stop = _loop(session)
    if stop is not None:
        _leave(session, stop)
        return 0
    result = outcome(session.state)
    assert result is not None
    final(session.state, result, session.out)
    if not over:
        session.say(f"The game record is in {_save(session)}.")
    return 0


def _stopped(session: Session, signum: int) -> int:
    """Save after a stop signal and say so; the exit code 128 + ``signum``."""
    if signum == signal.SIGINT:
        _leave(session, why(signum), first="")
    else:
        path = _save(session)
        command = session.resume_command(path)
        line = f"{why(signum)} ({signal_name(signum)}): the game is saved in {path}; "
        _farewell(session, "", f"{line}resume it with: {command}")
    return 128 + signum


def _loop(session: Session) -> str | None:
    """Play moves until the game is over (None) or a human stops (why, for the message)."""
    _narrate(session)
    while outcome(session.state) is None:
        seat = current_player(session.state)
        assert seat is not None
        if seat in session.humans:
            stop = _decide(session, seat)
            if stop is not None:
                return stop
        elif seat == CHANCE:  # a record with explicit chance: the seed decides it now
            _play(session, sampled_outcome(session.state))
        else:
            _play(session, session.bots[seat](session.state))
    return None


def _play(session: Session, action: Action) -> None:
    """Apply a legal action, add it to the record and narrate what happened."""
    session.state = apply(session.state, action)
    session.record = session.record.with_action(action)
    _narrate(session)


def _narrate(session: Session) -> None:
    events = session.state.events.as_tuple()
    for event in events[session.mark :]:
        session.say(f"  {event.text}")
    session.mark = len(events)


def _decide(session: Session, seat: int) -> str | None:
    """Ask ``seat`` until it plays, undoes or stops; return why it stopped, if it did."""
    state = session.state
    choices = menu(state, seat)
    session.say()
    session.say("\n".join(decision_lines(state, seat, choices)))
    picks = [entry.action for entry in choices]
    _complete_with([short(a) for a in legal_actions(state)], session)
    while True:
        line = _read(session, f"{state.name_of(seat)}> ")
        if line is None:
            return "End of input"
        move = interpret(line, state, picks)
        if isinstance(move, Unclear):
            session.say(move.message)
        elif isinstance(move, Command):
            stop = _command(session, seat, move)
            if stop != _AGAIN:
                return stop
        else:
            try:
                _play(session, move)
            except IllegalAction as err:
                session.say(f"Not allowed: {err}")  # the engine's explain_illegal message
                continue
            _autosave(session)
            return None


def _command(session: Session, seat: int, command: Command) -> str | None:
    """Run a command: :data:`_AGAIN` to prompt again, None for a new position, or why to stop."""
    if command.name == "quit":
        return "Quit"
    if command.name == "undo":
        if not _undo(session, seat):
            return _AGAIN
        _autosave(session)
        return None
    if command.name == "help":
        session.say(HELP)
    elif command.name == "show":
        session.say("\n".join(show_lines(session.state, seat)))
    elif command.name == "city":
        session.say("\n".join(city_lines(session.state, seat, command.argument)))
    elif command.name == "map":
        _map(session, seat)
    elif command.name == "save":
        _save_to(session, command.argument)
    else:  # an empty line: the position and menu again
        choices = menu(session.state, seat)
        session.say("\n".join(decision_lines(session.state, seat, choices)))
    return _AGAIN


def _undo(session: Session, seat: int) -> bool:
    """Take back ``seat``'s last decision and every move after it; False if it has none."""
    actions = session.record.actions
    mine = [i for i, a in enumerate(actions) if a.player == seat]
    if not mine:
        session.say(f"Nothing to undo: {session.state.name_of(seat)} has not decided anything yet.")
        return False
    cut = mine[-1]
    later = len(actions) - cut - 1
    session.record = attrs.evolve(session.record, actions=actions[:cut])
    session.state = replay(session.record)
    session.mark = len(session.state.events)
    after = f" and the {later} move{'s' if later != 1 else ''} after it" if later else ""
    session.say(f"Took back {short(actions[cut])}{after}.")
    return True


def _save_to(session: Session, argument: str) -> None:
    """``save FILE [--force]``: write the record; a failure is told at the prompt, not fatal."""
    path, force = _forced(argument)
    if not path:
        session.say(f"save needs a file name: save FILE, or save FILE {FORCE} to replace a file")
        return
    hint = f"type save {path} {FORCE} to replace it"
    try:
        _write(session, path, force=force, hint=hint)
    except UserError as err:
        session.say(str(err))
        return
    actions = count(len(session.record.actions), "action")
    session.say(f"Saved the game ({actions}) to {path}.")


def _map(session: Session, seat: int) -> None:
    """``map``: the picture of the game as ``seat`` sees it, beside the save; say where.

    The file is the save's name with ``.svg`` (``powergrid-7.svg``); this
    session's own picture is replaced each time, any other file only with
    ``play --force``. A failure is told at the prompt, not fatal.
    """
    base = session.save_path or f"powergrid-{session.record.seed}.json"
    path = os.path.splitext(base)[0] + ".svg"
    if _key(path) not in session.owned and os.path.lexists(path) and not session.force:
        session.say(f"{path} is not this game's picture; not overwritten (play --force)")
        return
    picture = svg.game(view(session.state, seat), seat=seat, reach=True)
    try:
        write_text(path, picture + "\n")
    except UserError as err:
        session.say(str(err))
        return
    session.owned.add(_key(path))
    session.say(f"Wrote the picture to {path}; open it in a browser.")


def _forced(argument: str) -> tuple[str, bool]:
    """The file name of ``save`` and whether ``--force`` came before or after it."""
    if argument == FORCE:
        return "", True
    if argument.endswith(f" {FORCE}"):
        return argument.removesuffix(FORCE).rstrip(), True
    if argument.startswith(f"{FORCE} "):
        return argument.removeprefix(FORCE).lstrip(), True
    return argument, False


def _leave(session: Session, why: str, first: str | None = None) -> None:
    """Save the unfinished game and say how to resume it (``first``: a line before that)."""
    path = _save(session)
    lines = [] if first is None else [first]
    lines += [f"{why}: the game is saved in {path}. Resume it with:"]
    _farewell(session, *lines, f"  {session.resume_command(path)}")


def _farewell(session: Session, *lines: str) -> None:
    """Print the last lines; a terminal that is gone (SIGHUP) or a closed pipe is no error."""
    try:
        for line in lines:
            session.say(line)
        session.out.flush()
    except (OSError, ValueError):
        with contextlib.suppress(OSError, ValueError):  # later flushes go nowhere, quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, session.out.fileno())


def _autosave(session: Session) -> None:
    """Save after a decision; a failure is told at the prompt and the game goes on."""
    try:
        _save(session)
    except UserError as err:
        session.say(f"Could not save the game: {err}. Type save FILE to save it elsewhere.")


def _save(session: Session) -> str:
    """Write the record to :attr:`Session.save_path`; return the path."""
    path = session.save_path
    assert path is not None  # run_session chose one
    if session.fresh and _key(path) not in session.owned and os.path.lexists(path):
        path = session.save_path = free_path(f"powergrid-{session.record.seed}")  # taken since
    _write(session, path, force=session.force, hint="play with --force to replace it")
    return path


def _write(session: Session, path: str, *, force: bool, hint: str) -> None:
    """Write the record to ``path`` unless that would replace a file it may not (UserError)."""
    key = _key(path)
    if not force and key not in session.owned:
        check_overwrite(path, session.record, hint=hint)
    session.owned.add(key)  # before the write: a signal after it must not make it a stranger
    write_text(path, to_json(session.record, indent=2) + "\n")


def _key(path: str) -> str:
    """The real path of ``path``: the same file by any name is the same file."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def free_path(stem: str) -> str:
    """``<stem>.json`` in the current directory, or ``<stem>-2.json``... if that exists."""
    path, n = f"{stem}.json", 1
    while os.path.lexists(path):
        n += 1
        path = f"{stem}-{n}.json"
    return path


def _read(session: Session, prompt: str) -> str | None:
    """One line from the player without its newline; None at the end of the input."""
    if _is_terminal(session):
        try:
            return input(prompt)
        except EOFError:
            session.say()
            return None
    session.out.write(prompt)
    session.out.flush()
    line = session.inp.readline()
    if not line:
        session.say()
        return None
    line = line.rstrip("\r\n")
    session.say(line)  # the echo a terminal would show
    return line


def _is_terminal(session: Session) -> bool:
    return session.inp is sys.stdin and session.out is sys.stdout and sys.stdin.isatty()


def _complete_with(options: list[str], session: Session) -> None:
    """Offer ``options`` and the commands to Tab completion, when reading from a terminal."""
    if not _is_terminal(session):
        return
    try:
        import readline  # not on every platform; completion is a convenience only
    except ImportError:
        return
    words = sorted({*options, "help", "show", "undo", "save ", "city ", "map", "quit"})

    def complete(text: str, index: int) -> str | None:
        found = [w for w in words if w.startswith(text)]
        return found[index] if index < len(found) else None

    readline.set_completer_delims("")  # complete the whole line: notations hold spaces
    readline.set_completer(complete)
    libedit = "libedit" in (readline.__doc__ or "")
    readline.parse_and_bind("bind ^I rl_complete" if libedit else "tab: complete")
