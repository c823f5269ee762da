"""The functional core: new_game, legal_actions, apply, outcome (DESIGN: Public API).

This module only dispatches to the phase modules and runs the automatic steps
between decisions (end of phase, refill, new round); the rules live there.
"""

from __future__ import annotations

from types import ModuleType

from powergrid import market
from powergrid.actions import ACTION_TYPES, Action
from powergrid.catalog import load_map, regions_needed
from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.enums import Phase
from powergrid.errors import IllegalAction, Reason
from powergrid.events import EMPTY_LOG
from powergrid.network import connected_region_sets
from powergrid.outcome import Outcome, Score, rank
from powergrid.phases import auction, building, bureaucracy, order, resources, setup
from powergrid.phases.common import illegal, name
from powergrid.rules import DeckSetup
from powergrid.ruleset import Ruleset, ruleset_for
from powergrid.state import (
    Board,
    GameState,
    PlantMarket,
    PlayerState,
    ResourceMarket,
    Secret,
    evolve,
)

PHASES: dict[Phase, ModuleType] = {
    Phase.SETUP: setup,
    Phase.AUCTION: auction,
    Phase.RESOURCES: resources,
    Phase.BUILDING: building,
    Phase.BUREAUCRACY: bureaucracy,
}
_PHASE_ACTIONS = {phase: frozenset(module.ACTIONS) for phase, module in PHASES.items()}
PHASE_NAMES = {
    Phase.SETUP: "setup",
    Phase.AUCTION: "phase 2 (auction)",
    Phase.RESOURCES: "phase 3 (buying resources)",
    Phase.BUILDING: "phase 4 (building)",
    Phase.BUREAUCRACY: "phase 5 (bureaucracy)",
}


def new_game(config: GameConfig | None = None, *, seed: int = 0) -> GameState:
    """Set up a game (SET-01..SET-12) and return its first decision point.

    The seed decides the play area when ``config.regions`` is ``None``, the deck
    order, the plants removed unseen and the round-1 player order (SET-05). The
    same config and seed always give the same state.
    """
    cfg = config if config is not None else GameConfig()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    rng = RngState(seed)
    if cfg.cities is not None:  # CDK-16: the cities in play, in the regions they lie in
        board = load_map(cfg.map)
        regions = tuple(sorted({board.city_region[board.index[c]] for c in cfg.cities}))
    elif cfg.regions is None:
        regions, rng = rng.choice(
            connected_region_sets(cfg.map, regions_needed(cfg.components, cfg.players))
        )
    else:
        regions = tuple(sorted(cfg.regions))
    rules = ruleset_for(cfg, regions)
    deck = rules.hook("prepare_deck")(rules, rng)
    seats, rng = deck.rng.shuffle(range(cfg.players))  # SET-05: random order for round 1
    state = _first_state(cfg, rules, regions, deck, seats, rng)
    state = state.log(
        "game_started",
        f"{cfg.players} players on {rules.area.board.name} ({', '.join(regions)}), "
        f"{rules.components.name} components; {len(deck.removed_unseen)} plants removed "
        "unseen.",
        None,
        len(deck.removed_unseen),
    )
    state = state.log(
        "order_set",
        "Random player order for round 1: " + ", ".join(name(state, s) for s in seats) + ".",
        None,
        *seats,
    )
    state = rules.hook("setup")(state)  # e.g. a module's automatic actors (ORD-06)
    # A map's Step 1 market may be larger than the deck preparation laid out (SET-26).
    while len(state.market.plants) < rules.market_size(1) and (
        state.market.top is not None or state.secret.deck
    ):
        state = market.draw(state)
    # The setup phase lasts while a module asks for setup decisions (FND-05);
    # the base game asks none, and _advance starts the first phase 2 at once.
    return _advance(evolve(state, phase=Phase.SETUP))


def _first_state(
    cfg: GameConfig,
    rules: Ruleset,
    regions: tuple[str, ...],
    deck: DeckSetup,
    seats: tuple[int, ...],
    rng: RngState,
) -> GameState:
    """The state before the first phase 2: money, markets, an empty board (SET-02..SET-08)."""
    comps = rules.components
    on_market = comps.initial_market(cfg.map)
    return GameState(
        config=cfg,
        regions=regions,
        round=1,
        step=1,  # SET-06: the game starts in Step 1
        phase=Phase.AUCTION,
        order=seats,
        players=tuple(
            # SET-02/SET-03: 50 Elektro, no plants, city count 0
            PlayerState(seat=s, money=comps.starting_money, resources=(0,) * len(comps.resources))
            for s in range(cfg.players)
        ),
        market=PlantMarket(
            actual=deck.actual,
            future=deck.future,
            top=deck.top,
            deck_size=len(deck.deck),
            inactive=deck.inactive,
            quota=deck.quota,
        ),
        resources=ResourceMarket(
            market=on_market,
            # SET-08: every token not on the market starts in the general supply
            supply=tuple(t - m for t, m in zip(comps.totals, on_market, strict=True)),
        ),
        board=Board(houses=((),) * len(rules.area.board.cities)),
        secret=Secret(deck=deck.deck, removed_unseen=deck.removed_unseen, rng=rng),
        events=EMPTY_LOG,
        rules=rules,
    )


def current_player(state: GameState) -> int | None:
    """The seat that must act next, or ``None`` once the game is over."""
    module = PHASES.get(state.phase)
    return None if module is None else module.current(state)


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the player to act, in a stable order; ``()`` when over."""
    module = PHASES.get(state.phase)
    return () if module is None else module.legal(state)


def apply(state: GameState, action: Action) -> GameState:
    """Play ``action`` and return the next decision point; ``state`` is never changed.

    Raises :class:`~powergrid.IllegalAction` (with a stable ``.reason``) when the
    rules forbid the action; automatic steps (end of phase, refills, draws,
    the next round) run before this returns.
    """
    module = PHASES.get(state.phase)
    if module is None:
        illegal("The game is over", Reason.GAME_OVER, action)
    who = module.current(state)
    # The common case first, in two lookups: an action of this phase by the
    # player to act (``who`` is then a seat). Anything else is explained below.
    if type(action) not in _PHASE_ACTIONS[state.phase] or action.player != who:
        _check_turn(state, module, who, action)
    return _advance(module.apply(state, action))


def _check_turn(state: GameState, module: ModuleType, who: int, action: Action) -> None:
    """Raise what is wrong with an action of another phase or another player, if anything.

    An instance of a subclass of this phase's actions passes, as it always did.
    """
    if not isinstance(action, ACTION_TYPES):
        illegal(f"{action!r} is not a powergrid action", Reason.UNKNOWN_ACTION, action)
    if not isinstance(action, module.ACTIONS):
        illegal(
            f"{type(action).__name__} is not played in {PHASE_NAMES[state.phase]}",
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
    if action.player != who:
        illegal(
            f"It is {name(state, who)}'s turn, not {name(state, action.player)}'s",
            Reason.NOT_YOUR_TURN,
            action,
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


def _advance(state: GameState) -> GameState:
    """Run automatic steps until a player must decide or the game is over."""
    while True:
        module = PHASES.get(state.phase)
        if module is None:
            return state
        who = module.current(state)
        if who is not None and who >= 0:
            return state
        if who is not None:  # an automatic actor's place in the order (ORD-06)
            state = state.rules.hook("actor_turn")(state, who)
            state = evolve(state, done=state.done | {who})
        elif state.phase is Phase.SETUP:
            state = _start_auction(state)
        elif state.phase is Phase.AUCTION:
            state = _end_auction(state)
        elif state.phase is Phase.RESOURCES:
            state = evolve(state, phase=Phase.BUILDING, done=frozenset(), build_step=state.step)
        elif state.phase is Phase.BUILDING:
            state = _end_building(state)
        else:
            state = _new_round(bureaucracy.end_of_phase(state))


def _start_auction(state: GameState) -> GameState:
    """Phase 2 begins: STP-09 first, then the hook (e.g. a discount token).

    The auction is human-only: automatic actors start it done, so the floor,
    the bidders and the last-player count (AUC-14) are seats alone.
    """
    done = frozenset(a.actor for a in state.actors)
    state = evolve(state, phase=Phase.AUCTION, done=done, bought=frozenset())
    state = market.fill_step3_market(state)
    state = state.rules.hook("start_of_auction")(state)
    return state


def _end_auction(state: GameState) -> GameState:
    """AUC-15: removals, then a pending Step 3 (STP-05), then the round-1 order (ORD-04)."""
    state = state.rules.hook("end_of_auction")(state)
    if state.step3_pending:
        state = market.finish_step3(state)
    if state.round == 1:
        state = order.determine_order(state)
    return evolve(state, phase=Phase.RESOURCES, done=frozenset())


def _end_building(state: GameState) -> GameState:
    """End of phase 4: a classic moment-2 Step 3 (STP-07), then game end (END-01)."""
    if state.step3_pending:
        state = market.finish_step3(state)
    if state.end_triggered:
        return _finish(state)
    return evolve(state, phase=Phase.BUREAUCRACY, done=frozenset())


def _new_round(state: GameState) -> GameState:
    """Phase 1 of the next round (ORD-05), then phase 2."""
    state = evolve(state, round=state.round + 1, phase=Phase.ORDER, done=frozenset())
    return _start_auction(order.determine_order(state))


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
    winners = " and ".join(name(state, s) for s in result.winners)
    return state.log("game_over", f"The game is over; {winners} won.", None, *result.winners)
