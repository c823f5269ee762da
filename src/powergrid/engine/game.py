"""The functional core: legal_actions, apply, outcome (DESIGN: Public API).

A game starts with :func:`powergrid.engine.start.new_game`.

This module only dispatches: the flow of a round is the table of
:mod:`powergrid.engine.phases.table` (a game's own,
:func:`~powergrid.engine.phases.table.flow_of`, which adds the rule modules' actions to
their phases), the rules are the phase modules' (and the set-up
:mod:`powergrid.engine.phases.game_setup`'s), and the automatic steps between decisions
(end of phase, refill, new round) run here from that table.

Every query (:func:`current_player`, :func:`legal_actions`, :func:`is_legal`,
:func:`explain_illegal`, :func:`apply`) reads the decision point of the state it
is given, kept with that state alone (:class:`powergrid.state.GameState`): no
query changes what another returns, and games may be played in threads side by
side without a lock.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from powergrid.actions import ACTION_TYPES, CHANCE, Action, Reveal, is_action_type
from powergrid.config import GameConfig
from powergrid.engine.phases import game_setup
from powergrid.engine.phases.table import Decision, PhaseRecord, flow_of
from powergrid.errors import IllegalAction, Reason, illegal
from powergrid.frozen import evolve
from powergrid.mechanics import chance_points
from powergrid.mechanics.chance_points import ChancePoint, NeedOutcome
from powergrid.outcome import Outcome
from powergrid.state import GameState


def explicit_setup(cfg: GameConfig, seed: int, given: tuple[Reveal, ...]) -> GameState:
    """The setup with the outcomes ``given``, or its chance point when one more is needed.

    A pending setup's state is laid out with the seed's sample where no
    outcome is given; only its chance point is meant to be read.
    """
    try:
        return setup(cfg, seed, ChancePoint(None, given))
    except NeedOutcome:
        state = setup(cfg, seed, ChancePoint(None, given, fill=True))
        return evolve(state, chance=ChancePoint(None, given))


def setup(cfg: GameConfig, seed: int, point: ChancePoint | None) -> GameState:
    """SET-01..SET-12: the first decision point; ``point`` resolves chance explicitly."""
    state = _advance(game_setup.laid_out(cfg, seed, point))
    if point is None or (state.chance is not None and state.chance.fill):
        return state
    return evolve(state, chance=None)


def seeded_outcomes(state: GameState, action: Action | None) -> tuple[Reveal, ...]:
    """The chance outcomes the seed decides while ``action`` is played (``None``: the setup).

    ``state`` is a point of a game with explicit chance (ignored for the
    setup but its config and seed); this is how a seeded record is turned into
    one that carries its chance outcomes (:func:`powergrid.formats.records.with_outcomes`).
    """
    after = _run(state, ChancePoint(action, fill=True))
    assert after.chance is not None
    return after.chance.given


def _run(state: GameState, point: ChancePoint) -> GameState:
    """Play what ``point`` resolves with its outcomes: the setup, or its action from ``state``.

    The one replay behind every chance point;
    :class:`~powergrid.mechanics.chance_points.NeedOutcome` escapes it at an event whose
    outcome is not given (unless ``point`` fills).
    """
    if point.action is None:
        return setup(state.config, state.secret.rng.seed, point)
    record = (state.rules.flow or flow_of(state.rules))[state.phase]
    return _advance(record.apply(evolve(state, chance=point), point.action))


def current_player(state: GameState) -> int | None:
    """The seat that must act next, or ``None`` once the game is over.

    At a chance point (explicit chance only) it is :data:`~powergrid.CHANCE`.
    """
    return _decision(state)[0]


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player to act, in a stable order; ``()`` when over.

    At a chance point these are the possible :class:`~powergrid.Reveal` outcomes.
    """
    who, record, _ = _decision(state)
    if record is not None:
        return record.legal(state, who)
    if state.chance is not None:
        return tuple(r for r, _ in chance_outcomes(state))
    return ()


def apply(state: GameState, action: Action) -> GameState:
    """Play ``action`` and return the next decision point; ``state`` is never changed.

    Raises :class:`~powergrid.IllegalAction` (with a stable ``.reason``) when the
    rules forbid the action; automatic steps (end of phase, refills, draws,
    the next round) run before this returns.
    """
    who, record, at_once = _decision(state)
    # The common case first: an action of the phase by the player to act, in a
    # game without explicit chance (at_once is empty in one with it).
    if type(action) in at_once and action.player == who:
        assert record is not None
        return _advance(record.apply(state, action))
    if state.chance is not None:
        return _resolve_chance(state, action)
    if record is None:
        illegal("The game is over", Reason.GAME_OVER, action)
    if type(action) not in record.action_set or action.player != who:
        _check_turn(state, record, who, action)
    if chance_points.OPTION in state.config.options:
        return _play_explicit(state, ChancePoint(action))
    return _advance(record.apply(state, action))


def _play_explicit(state: GameState, point: ChancePoint) -> GameState:
    """Play the action of ``point`` with its outcomes; a chance point if one more is due."""
    try:
        after = _run(state, point)
    except NeedOutcome:
        return evolve(state, chance=point)
    return evolve(after, chance=None)


def chance_outcomes(state: GameState) -> tuple[tuple[Reveal, Fraction], ...]:
    """The outcomes of the pending chance event with their probabilities; ``()`` if none.

    Outcomes come in a stable order and their probabilities sum to 1. Only a
    game with explicit chance has chance points (:mod:`powergrid.mechanics.chance_points`).
    """
    point = state.chance
    if point is None:
        return ()
    try:
        _run(state, point)
    except NeedOutcome as need:
        return need.chances
    raise AssertionError("a chance point whose event has an outcome already")


def sampled_outcome(state: GameState) -> Reveal:
    """The outcome the seed's sample gives the pending chance event (the seed decides it).

    Applying it at every chance point plays the game the seed would have dealt,
    which is how a command-line game plays on from a record with explicit
    chance. Raises ``ValueError`` when no chance event is pending.
    """
    point = state.chance
    if point is None:
        raise ValueError("no chance event is pending")
    after = _run(state, attrs.evolve(point, fill=True))
    assert after.chance is not None
    return after.chance.given[len(point.given)]


def _resolve_chance(state: GameState, action: Action) -> GameState:
    """Apply a chance outcome at a chance point: the pending action, one outcome more."""
    point = state.chance
    assert point is not None
    if not isinstance(action, Reveal):
        illegal(
            f"Chance acts first: the {_pending_event(state)} is not resolved yet",
            Reason.NOT_YOUR_TURN,
            action,
        )
    given = (*point.given, action)
    if point.action is None:
        return explicit_setup(state.config, state.secret.rng.seed, given)
    return _play_explicit(evolve(state, chance=None), ChancePoint(point.action, given))


def _pending_event(state: GameState) -> str:
    outcomes = chance_outcomes(state)
    return outcomes[0][0].event if outcomes else "chance event"


def _check_turn(state: GameState, record: PhaseRecord, who: int | None, action: Action) -> None:
    """Raise what is wrong with an action of another phase or another player, if anything.

    An instance of a subclass of this phase's actions passes, as it always did.
    """
    if not isinstance(action, ACTION_TYPES) and not _module_action(state, action):
        illegal(f"{action!r} is not a powergrid action", Reason.UNKNOWN_ACTION, action)
    if isinstance(action, Reveal):
        illegal(
            f"No chance event is pending, so {action} cannot be played",
            Reason.NOT_AN_OUTCOME,
            action,
        )
    if not isinstance(action, record.actions):
        illegal(
            f"{type(action).__name__} is not played in {record.title}",
            Reason.WRONG_PHASE,
            action,
        )
    if not _is_seat(state, action.player):
        illegal(
            f"There is no seat {action.player} in this {len(state.players)}-player game "
            f"(seats 0 to {len(state.players) - 1})",
            Reason.UNKNOWN_SEAT,
            action,
        )
    if who is None:  # only a state built by hand stops between phases
        illegal(f"Nobody is to act: {record.title} is over", Reason.NOT_YOUR_TURN, action)
    if action.player != who:
        illegal(
            f"It is {state.name_of(who)}'s turn, not {state.name_of(action.player)}'s",
            Reason.NOT_YOUR_TURN,
            action,
        )


def _module_action(state: GameState, action: object) -> bool:
    """Whether ``action`` is a rule module's: of this game, or of a module this process knows."""
    return any(isinstance(action, a.cls) for a in state.rules.actions) or is_action_type(
        type(action)
    )


def _is_seat(state: GameState, seat: object) -> bool:
    return isinstance(seat, int) and 0 <= seat < len(state.players)


def explain_illegal(state: GameState, action: Action) -> str | None:
    """Why ``action`` is illegal in ``state``, or ``None`` when it is legal."""
    try:
        apply(state, action)
    except IllegalAction as err:
        return str(err)
    return None


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``apply(state, action)`` would succeed."""
    return explain_illegal(state, action) is None


def outcome(state: GameState) -> Outcome | None:
    """The :class:`~powergrid.Outcome` of a finished game, ``None`` while it runs."""
    return state.result


_AT_ONCE_NEVER: frozenset[type] = frozenset()


def _decision(state: GameState) -> Decision:
    """The decision point of ``state``: from its slot, or derived once and kept there.

    :func:`_advance` fills the slot of every state the engine returns; a state
    made elsewhere (``evolve``, a position, JSON, pickle) gets it at its first
    query. The slot belongs to that one state and is never copied
    (:class:`powergrid.state.GameState`), so a query changes no answer of any
    other state and needs no lock.
    """
    try:
        known: Decision = state._decision
        return known
    except AttributeError:
        found = _derive(state)
        object.__setattr__(state, "_decision", found)  # derived, not part of the value
        return found


def _derive(state: GameState) -> Decision:
    """Who acts in ``state``, in which phase, and what :func:`apply` may play at once."""
    if state.chance is not None:
        return (CHANCE, None, _AT_ONCE_NEVER)
    record: PhaseRecord = (state.rules.flow or flow_of(state.rules))[state.phase]
    if not record.decides:
        return (None, None, _AT_ONCE_NEVER)
    return (record.current(state), record, _at_once(state, record))


def _at_once(state: GameState, record: PhaseRecord) -> frozenset[type]:
    """The actions :func:`apply` plays without its checks: none with explicit chance.

    With explicit chance every action runs through :func:`_play_explicit`.
    """
    if chance_points.OPTION in state.config.options:
        return _AT_ONCE_NEVER
    return record.action_set


def _advance(state: GameState) -> GameState:
    """Run automatic steps until a player must decide or the game is over.

    The flow between phases is the game's table (``flow_of(state.rules)``,
    :mod:`powergrid.engine.phases.table`); the state returned carries its decision
    point (:func:`_decision`).
    """
    flow: tuple[PhaseRecord, ...] = state.rules.flow or flow_of(state.rules)
    while True:
        record = flow[state.phase]
        who = record.current(state)
        if who is not None and who >= 0:
            # Explicit chance runs every automatic step on a state carrying its
            # chance point (_run, setup), so a state without one is from a game
            # without explicit chance, where the phase's actions play at once.
            if state.chance is None:
                object.__setattr__(state, "_decision", (who, record, record.action_set))
            return state
        if who is not None:  # an automatic actor's place in the order (ORD-06)
            state = state.rules.hooks.actor_turn(state, who)
            state = evolve(state, done=state.done | {who})
            continue
        state = record.end(state)
        following = record.follows(state)
        if following is None:  # the game is over
            return state
        state = flow[following].begin(state)
