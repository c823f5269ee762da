"""The flow of a round as data: one record per phase (CON-03), read by the engine.

Each :class:`PhaseRecord` names its actions, who acts, the legal actions and the
effect of one (the phase module's ``current``, ``legal`` and ``apply``), what
runs when nobody is left to act (``end``), which phase follows (``follows``) and
what starts a phase (``begin``). :data:`FLOW` holds one record per
:class:`~powergrid.enums.Phase`, indexed by the phase's value, so a round reads
from top to bottom here:

========== ======================================= ==================================
phase      ends with                               followed by
========== ======================================= ==================================
setup      nothing (a module's setup decisions)    phase 2
phase 1    the player order (ORD-05)               phase 2 (STP-09, ``start_of_auction``)
phase 2    ``end_of_auction``, a pending Step 3,   phase 3
           the round-1 order (AUC-15, STP-05,
           ORD-04)
phase 3    nothing                                 phase 4 (its Step, STP-03)
phase 4    a pending Step 3 (STP-07)               game over if triggered (END-01),
                                                   else phase 5
phase 5    income, refill, the market (BUR-*)      phase 1 of the next round
game over  (terminal)                              nothing
========== ======================================= ==================================

A rule module's own actions (:class:`powergrid.rules.ModuleAction`) join the
records of the phases they are played in: :func:`flow_of` makes a game's
table, which is :data:`FLOW` itself when no module declares an action.

Phase 1 and game over ask nobody anything (``decides`` is false): for the
queries of :mod:`powergrid.engine.game` a state in either has no player to act and no
legal action, as before this table existed.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from powergrid.actions import Action
from powergrid.engine.phases import auction, building, bureaucracy, order, resources, setup
from powergrid.enums import Phase
from powergrid.errors import Reason, illegal
from powergrid.mechanics import market
from powergrid.outcome import Score, rank
from powergrid.rules import ModuleAction
from powergrid.rules.ruleset import Ruleset
from powergrid.state import GameState, evolve

#: The decision point of a state as the engine derives it: the seat to act (or
#: :data:`~powergrid.CHANCE`, or ``None``), the record of its phase (``None`` when
#: the state asks nobody: game over, phase 1, or a chance point) and the action
#: classes :func:`powergrid.apply` may play at once, without its checks of phase and
#: turn (empty where every action must take the long way: explicit chance).
Decision = tuple[int | None, "PhaseRecord | None", frozenset[type]]


def _nobody(state: GameState) -> int | None:
    """Who acts in a phase that asks nobody: no one."""
    return None


def _nothing(state: GameState, seat: int | None) -> tuple[Action, ...]:
    """The legal actions of a phase that asks nobody: none."""
    return ()


def _over(state: GameState, action: Action) -> GameState:
    """Playing in a phase that asks nobody: the game is over for its players."""
    illegal("The game is over", Reason.GAME_OVER, action)


def _unchanged(state: GameState) -> GameState:
    """An end of phase with nothing to do."""
    return state


@attrs.frozen
class PhaseRecord:
    """One phase of the round: its actions, its turn, its effects and what follows it.

    ``current``, ``legal`` and ``apply`` are the phase module's functions: who must
    act (``None`` once nobody is left, a negative id for an automatic actor), the
    legal actions of that seat in a stable order, and the effect of one action
    whose phase and turn the engine has checked. ``begin`` makes a state of the
    phase before anyone acts in it (from a state of the phase before); ``end`` runs
    when nobody is left to act; ``follows`` names the phase that comes next from
    the state ``end`` returned (``None`` for the last). ``follows_any`` lists every
    phase ``follows`` may name, so the table can be checked whole. A phase whose
    ``decides`` is false asks nobody anything and is passed through at once.
    """

    phase: Phase
    title: str
    actions: tuple[type[Action], ...]
    current: Callable[[GameState], int | None]
    legal: Callable[[GameState, int | None], tuple[Action, ...]]
    apply: Callable[[GameState, Action], GameState]
    begin: Callable[[GameState], GameState]
    end: Callable[[GameState], GameState]
    follows: Callable[[GameState], Phase | None]
    follows_any: tuple[Phase, ...]
    decides: bool = True
    #: ``actions`` as a set, to test ``type(action) in`` it.
    action_set: frozenset[type] = attrs.field(init=False)

    @action_set.default
    def _action_set(self) -> frozenset[type]:
        return frozenset(self.actions)


def _begin_setup(state: GameState) -> GameState:
    """The setup phase lasts while a module asks for setup decisions (FND-05)."""
    return evolve(state, phase=Phase.SETUP)


def _begin_round(state: GameState) -> GameState:
    """Phase 1 of the next round (ORD-05): a new round number, nobody done."""
    return evolve(state, round=state.round + 1, phase=Phase.ORDER, done=frozenset())


def _begin_auction(state: GameState) -> GameState:
    """Phase 2 begins: STP-09 first, then the hook (e.g. a discount token).

    The auction is human-only: automatic actors start it done, so the floor,
    the bidders and the last-player count (AUC-14) are seats alone.
    """
    done = frozenset(a.actor for a in state.actors)
    state = evolve(state, phase=Phase.AUCTION, done=done, bought=frozenset())
    state = market.fill_step3_market(state)
    state = state.rules.hooks.start_of_auction(state)
    return state


def _end_auction(state: GameState) -> GameState:
    """AUC-15: removals, then a pending Step 3 (STP-05), then the round-1 order (ORD-04)."""
    state = state.rules.hooks.end_of_auction(state)
    if state.step3_pending:
        state = market.finish_step3(state)
    if state.round == 1:
        state = order.determine_order(state)
    return state


def _begin_resources(state: GameState) -> GameState:
    return evolve(state, phase=Phase.RESOURCES, done=frozenset())


def _begin_building(state: GameState) -> GameState:
    """Phase 4 builds with the slots of the Step it starts in (STP-03)."""
    return evolve(state, phase=Phase.BUILDING, done=frozenset(), build_step=state.step)


def _end_building(state: GameState) -> GameState:
    """End of phase 4: a classic moment-2 Step 3 (STP-07), then a Step 2 checked now (RCH-71)."""
    if state.step3_pending:
        state = market.finish_step3(state)
    return market.step2_after_building(state)


def _after_building(state: GameState) -> Phase:
    """END-01: the game ends after a phase 4 in which it was triggered."""
    return Phase.GAME_OVER if state.end_triggered else Phase.BUREAUCRACY


def _begin_bureaucracy(state: GameState) -> GameState:
    return evolve(state, phase=Phase.BUREAUCRACY, done=frozenset())


def _finish(state: GameState) -> GameState:
    """END-02/03: final evaluation instead of phase 5, no income; seats only (human-only)."""
    scores = tuple(
        Score(
            seat=p.seat,
            powered=bureaucracy.best_powered(state, p.seat),
            money=p.money,
            cities=p.city_count,
        )
        for p in state.players
    )
    result = rank(scores, f"a player connected {state.rules.end_cities} or more cities")
    state = evolve(state, phase=Phase.GAME_OVER, result=result, done=frozenset())
    winners = " and ".join(state.name_of(s) for s in result.winners)
    return state.log("game_over", f"The game is over; {winners} won.", None, *result.winners)


def _then(phase: Phase | None) -> Callable[[GameState], Phase | None]:
    """A ``follows`` that always names ``phase``."""
    return lambda state: phase


#: One record per phase, indexed by the phase's value (``FLOW[state.phase]``).
FLOW: tuple[PhaseRecord, ...] = (
    PhaseRecord(
        Phase.SETUP,
        "setup",
        setup.ACTIONS,
        setup.current,
        setup.legal,
        setup.apply,
        begin=_begin_setup,
        end=_unchanged,
        follows=_then(Phase.AUCTION),
        follows_any=(Phase.AUCTION,),
    ),
    PhaseRecord(
        Phase.ORDER,
        "phase 1 (player order)",
        (),
        _nobody,
        _nothing,
        _over,
        begin=_begin_round,
        end=order.determine_order,
        follows=_then(Phase.AUCTION),
        follows_any=(Phase.AUCTION,),
        decides=False,
    ),
    PhaseRecord(
        Phase.AUCTION,
        "phase 2 (auction)",
        auction.ACTIONS,
        auction.current,
        auction.legal,
        auction.apply,
        begin=_begin_auction,
        end=_end_auction,
        follows=_then(Phase.RESOURCES),
        follows_any=(Phase.RESOURCES,),
    ),
    PhaseRecord(
        Phase.RESOURCES,
        "phase 3 (buying resources)",
        resources.ACTIONS,
        resources.current,
        resources.legal,
        resources.apply,
        begin=_begin_resources,
        end=_unchanged,
        follows=_then(Phase.BUILDING),
        follows_any=(Phase.BUILDING,),
    ),
    PhaseRecord(
        Phase.BUILDING,
        "phase 4 (building)",
        building.ACTIONS,
        building.current,
        building.legal,
        building.apply,
        begin=_begin_building,
        end=_end_building,
        follows=_after_building,
        follows_any=(Phase.BUREAUCRACY, Phase.GAME_OVER),
    ),
    PhaseRecord(
        Phase.BUREAUCRACY,
        "phase 5 (bureaucracy)",
        bureaucracy.ACTIONS,
        bureaucracy.current,
        bureaucracy.legal,
        bureaucracy.apply,
        begin=_begin_bureaucracy,
        end=bureaucracy.end_of_phase,
        follows=_then(Phase.ORDER),
        follows_any=(Phase.ORDER,),
    ),
    PhaseRecord(
        Phase.GAME_OVER,
        "the end of the game",
        (),
        _nobody,
        _nothing,
        _over,
        begin=_finish,
        end=_unchanged,
        follows=_then(None),
        follows_any=(),
        decides=False,
    ),
)


def flow_of(rules: Ruleset) -> tuple[PhaseRecord, ...]:
    """The table of phases of a game's rules: :data:`FLOW` with the modules' actions added.

    Made on first use and kept on the ruleset (``Ruleset.flow``), so each game's
    rules build it once; without module actions it is :data:`FLOW` itself.
    """
    flow: tuple[PhaseRecord, ...] = rules.flow
    if not flow:
        flow = flow_for(rules.actions)
        object.__setattr__(rules, "flow", flow)  # a cache of the frozen ruleset's
    return flow


def flow_for(actions: tuple[ModuleAction, ...]) -> tuple[PhaseRecord, ...]:
    """:data:`FLOW` with the module actions ``actions`` played in their phases.

    Each phase record a module action is played in gains its class in
    ``actions``, its instances after the phase's own legal actions (seats on
    turn only, modules in composition order) and its effect in ``apply``.
    Without module actions the table is :data:`FLOW` itself, so a base game
    pays nothing for them. (:func:`powergrid.rules.game_actions` checked that
    each has a name and a verb of its own.)
    """
    if not actions:
        return FLOW
    return tuple(
        _with_actions(record, tuple(a for a in actions if record.phase in a.phases))
        for record in FLOW
    )


def _with_actions(record: PhaseRecord, extra: tuple[ModuleAction, ...]) -> PhaseRecord:
    """``record`` with the module actions ``extra`` played next to its own."""
    if not extra or not record.decides:
        return record
    effects = {a.cls: a.apply for a in extra}
    own_legal, own_apply = record.legal, record.apply

    def legal(state: GameState, seat: int | None) -> tuple[Action, ...]:
        out = own_legal(state, seat)
        if seat is None or seat < 0:
            return out
        for action in extra:
            out += tuple(action.legal(state, seat))
        return out

    def apply(state: GameState, action: Action) -> GameState:
        effect = effects.get(type(action))
        if effect is None:  # a subclass instance of a module action, or the phase's own
            effect = next((a.apply for a in extra if isinstance(action, a.cls)), own_apply)
        return effect(state, action)

    classes = tuple(a.cls for a in extra)
    return attrs.evolve(record, actions=record.actions + classes, legal=legal, apply=apply)
