"""Rule modules from outside the powergrid package, found through its entry points.

This folder is a tiny distribution (``powergrid_testmods-1.0.dist-info`` holds
its metadata and ``powergrid.rules`` entry points); a test puts the folder on
``sys.path`` and the modules become available by name, with no edit to
powergrid. Each module exercises one part of the module interface:

- ``bargain`` wraps ``min_bid``: every opening bid is one Elektro lower, never
  below 1, and the rule it wraps still decides first (North America's token
  plant still opens at 1, AUC-31).
- ``audit`` wraps ``draw_filter`` and ``leave_play`` to log every card that
  enters through a draw and every plant that leaves play, so a test can check
  that each passes the one entrance and the one exit.
- ``classic_only``, ``needs_bargain``: declared needs (component set, players,
  another module) that a config must meet.
- ``greedy_removal`` replaces ``end_of_auction`` without wrapping it, which
  composition refuses where a component set or map defines that hook.
- ``testland`` is a map from outside: its board (Europe's, renamed) travels
  in ``data["board"]``; it has no map rules of its own.
- ``robot`` adds an automatic actor at position 2 of the player order: each
  round it takes one token in phase 3 and, once, puts a house in phase 4.
"""

from __future__ import annotations

from powergrid.data import load
from powergrid.enums import Phase
from powergrid.rules import RuleModule
from powergrid.rules.hooks import DrawFilter, LeavePlay, MinBid
from powergrid.state import ActorState, GameState, evolve


def cheaper_openings(previous: MinBid) -> MinBid:
    """One Elektro off every opening bid, after the rule in force (min 1)."""

    def min_bid(state: GameState, plant: str) -> int:
        return max(1, previous(state, plant) - 1)

    return min_bid


def audited_draws(previous: DrawFilter) -> DrawFilter:
    """Log each drawn card, then let the filter in force decide."""

    def draw_filter(state: GameState, card: str, face_up: bool) -> tuple[GameState, bool]:
        state = state.log("audit_drawn", f"Card {card} is drawn.", None, card)
        return previous(state, card, face_up)

    return draw_filter


REASONS = ("removed", "too_small", "discarded")


def audited_exits(previous: LeavePlay) -> LeavePlay:
    """Log each plant leaving play with its reason, then let the exit in force place it."""

    def leave_play(state: GameState, plant: str, reason: str) -> GameState:
        state = state.log("audit_left", f"Plant {plant} leaves ({reason}).", None, plant)
        state = state.log("audit_reason", reason, None, REASONS.index(reason))
        return previous(state, plant, reason)

    return leave_play


def greedy_end_of_auction(state: GameState) -> GameState:
    """Replaces end_of_auction outright (and so would drop AUC-20, AUC-21 or AUC-33)."""
    return state


BARGAIN = RuleModule(name="bargain", version="1.0", wraps={"min_bid": cheaper_openings})
AUDIT = RuleModule(
    name="audit",
    version="1.0",
    wraps={"draw_filter": audited_draws, "leave_play": audited_exits},
)
CLASSIC_ONLY = RuleModule(
    name="classic_only",
    version="1.0",
    components={"classic"},
    players={3, 4},
    rule="TEST-01",
)
NEEDS_BARGAIN = RuleModule(name="needs_bargain", version="1.0", requires=("bargain",))
GREEDY_REMOVAL = RuleModule(
    name="greedy_removal", version="1.0", hooks={"end_of_auction": greedy_end_of_auction}
)


# --- an automatic actor ---------------------------------------------------------------------

ROBOT = -1  # the robot's public identity: not a seat


def robot_setup(state: GameState) -> GameState:
    """The robot joins at position 2 of the round-1 order (where the fund will stand)."""
    kinds = len(state.rules.resources)
    robot = ActorState(actor=ROBOT, name="the robot", resources=(0,) * kinds)
    order = state.order[:1] + (ROBOT,) + state.order[1:]
    return evolve(state, actors=(*state.actors, robot), order=order)


def robot_order(state: GameState, seats: tuple[int, ...]) -> tuple[int, ...]:
    """After every re-order the robot stands at position 2 again."""
    return seats[:1] + (ROBOT,) + seats[1:]


def robot_turn(state: GameState, actor: int) -> GameState:
    """Phase 3: take the cheapest token of the first kind on the market; phase 4: one house."""
    robot = state.actor(actor)
    if state.phase is Phase.RESOURCES:
        for i, count in enumerate(state.resources.market):
            if count:
                market = state.resources.market
                res = evolve(state.resources, market=market[:i] + (count - 1,) + market[i + 1 :])
                held = robot.resources[:i] + (robot.resources[i] + 1,) + robot.resources[i + 1 :]
                state = evolve(state, resources=res).with_actor(evolve(robot, resources=held))
                return state.log("robot_took", "The robot takes a token.", actor, i)
        return state
    if state.phase is Phase.BUILDING and not robot.cities:
        board = state.rules.area.board
        for i in state.rules.area.cities:
            if not state.board.houses[i]:
                houses = state.board.houses
                new = evolve(state.board, houses=houses[:i] + ((actor,),) + houses[i + 1 :])
                state = evolve(state, board=new).with_actor(
                    evolve(robot, cities=(board.cities[i],))
                )
                return state.log("robot_built", f"The robot builds in {board.cities[i]}.", actor, i)
    return state


ROBOT_MODULE = RuleModule(
    name="robot",
    version="1.0",
    hooks={"setup": robot_setup, "player_order": robot_order, "actor_turn": robot_turn},
)


# --- a map from outside ---------------------------------------------------------------------

TESTLAND = RuleModule(
    name="testland",
    version="1.0",
    data={"board": {**load("maps/europe.json"), "name": "Testland"}},
)
