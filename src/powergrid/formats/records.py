"""Game records: the canonical save (config + seed + actions) and :func:`replay`.

A record stores every decision of a game in order; replaying it from the seed
reproduces every state exactly. It also stores the versions of the rule
modules it was made with, so a record from a different rule version fails
loudly instead of silently replaying into another game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import attrs

from powergrid.actions import ACTION_TYPES, Action, is_action_type
from powergrid.config import GameConfig
from powergrid.engine.game import apply, seeded_outcomes
from powergrid.engine.start import new_game
from powergrid.errors import IllegalAction, InvalidRecord
from powergrid.mechanics.chance_points import OPTION as EXPLICIT_CHANCE
from powergrid.mechanics.seeds import game_seed
from powergrid.outside_text import shown
from powergrid.rules.ruleset import ruleset_modules
from powergrid.state import GameState
from powergrid.version import FORMAT, __version__


def module_versions(config: GameConfig) -> tuple[tuple[str, str], ...]:
    """The ``(name, version)`` of every rule module a config plays with, and the library's."""
    return (("powergrid", __version__), *ruleset_modules(config))


def _versions(value: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted((str(k), str(v)) for k, v in items))


def _actions(value: Iterable[Action]) -> tuple[Action, ...]:
    out = tuple(value)
    for a in out:
        if not is_action_type(type(a)) and not isinstance(a, ACTION_TYPES):
            raise TypeError(f"a record holds actions, not {a!r}")
    return out


@attrs.frozen(kw_only=True)
class GameRecord:
    """A whole game as config, seed and the list of actions played.

    ``seed`` is any ``int``, stored whole when its magnitude is below ``2**2048``
    and reduced like :func:`powergrid.new_game` reduces it otherwise
    (:func:`powergrid.mechanics.seeds.game_seed`), so a record replays the game
    ``new_game(config, seed=seed)`` starts and always reads back from JSON; a
    seed that is not an ``int`` raises :class:`~powergrid.RulesConfigError`.
    ``versions`` maps ``"powergrid"`` and each rule module's name to its version;
    it defaults to this library's. ``format`` is the record format
    (:data:`powergrid.version.FORMAT`; older documents are upgraded on reading).
    """

    config: GameConfig
    seed: int = attrs.field(converter=game_seed)
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_actions)
    format: int = FORMAT
    versions: tuple[tuple[str, str], ...] = attrs.field(
        default=attrs.Factory(lambda self: module_versions(self.config), takes_self=True),
        converter=_versions,
    )

    def with_action(self, action: Action) -> GameRecord:
        """A record with one more action at the end."""
        return attrs.evolve(self, actions=(*self.actions, action))


def check_versions(record: GameRecord) -> None:
    """Raise InvalidRecord if a rule module of the record differs from this library's."""
    if type(record.format) is not int or record.format != FORMAT:
        raise InvalidRecord(
            f"unknown format version {shown(record.format)}; this library reads format {FORMAT}",
            path="format",
        )
    ours = dict(module_versions(record.config))
    for name, version in record.versions:
        if name == "powergrid":
            continue  # the library version is informational; rules carry their own
        if name not in ours:
            raise InvalidRecord(
                f"the record uses rule module {shown(name)}, which this game does not",
                path=f"versions.{name}",
            )
        if ours[name] != version:
            raise InvalidRecord(
                f"the record was made with rule module {name} version {version}; this "
                f"library has version {ours[name]}",
                path=f"versions.{name}",
            )
    theirs = dict(record.versions)
    for name in ours:
        if name != "powergrid" and name not in theirs:
            raise InvalidRecord(
                f"the record does not say which version of rule module {name} it was made with",
                path=f"versions.{name}",
            )


def states(record: GameRecord) -> Iterator[GameState]:
    """Every state of a record's game: the start, then one after each action."""
    check_versions(record)
    state = new_game(record.config, seed=record.seed)
    yield state
    for i, action in enumerate(record.actions):
        state = _applied(state, action, i)
        yield state


def _applied(state: GameState, action: Action, i: int) -> GameState:
    """``apply``, an IllegalAction naming the action's place ``i`` in the record."""
    try:
        return apply(state, action)
    except IllegalAction as err:
        raise IllegalAction(
            f"action {i} ({action}) is illegal: {err}",
            reason=err.reason,
            action=action,
            index=i,
        ) from None


def replay(record: GameRecord, *, upto: int | None = None) -> GameState:
    """The state after the record's actions (the first ``upto`` of them if given).

    Raises :class:`~powergrid.InvalidRecord` for a record from other rule
    versions and :class:`~powergrid.IllegalAction` (with ``.index``) for the
    first action that is illegal where it stands.
    """
    count = len(record.actions) if upto is None else upto
    if not 0 <= count <= len(record.actions):
        raise ValueError(f"upto must be between 0 and {len(record.actions)}, not {upto}")
    last: GameState | None = None
    for state in states(attrs.evolve(record, actions=record.actions[:count])):
        last = state
    assert last is not None
    return last


def with_outcomes(record: GameRecord) -> GameRecord:
    """The same game as a record with explicit chance: its chance outcomes written in.

    The config gains the ``explicit_chance`` option and every outcome the seed
    decided (play area, dealt market, round-1 order, each hidden card drawn)
    stands as a :class:`~powergrid.Reveal` right after the action that met it
    (the setup's first). Replayed, it plays the same game as ``record``; edited,
    it plays the game those outcomes make. A record with explicit chance
    already is returned unchanged.
    """
    if EXPLICIT_CHANCE in record.config.options:
        return record
    check_versions(record)
    config = attrs.evolve(record.config, options=record.config.options | {EXPLICIT_CHANCE})
    state = new_game(config, seed=record.seed)
    actions: list[Action] = list(seeded_outcomes(state, None))
    for action in actions:
        state = apply(state, action)
    for i, action in enumerate(record.actions):
        after = _applied(state, action, i)
        outcomes = seeded_outcomes(state, action)
        actions.append(action)
        state = after
        for reveal in outcomes:
            state = apply(state, reveal)
            actions.append(reveal)
    return attrs.evolve(record, config=config, actions=tuple(actions))
