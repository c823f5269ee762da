"""The game state: frozen records built from tuples (DESIGN: State).

Everything a player may not know lives in :class:`Secret` (the order of the
draw deck, the plants removed unseen at setup, and the random stream), so views
strip it mechanically. Unchanged parts are shared between successive states.

:class:`GameState` and the records it is made of (:mod:`powergrid.state_parts`,
re-exported here) are written as plain classes that :func:`powergrid.record.record`
makes frozen attrs records: in the pure build attrs records *without* slots, on
purpose, since :func:`~powergrid.frozen.evolve` derives a new record by copying
its instance dictionary (about nine times faster than ``attrs.evolve`` over 24
slots); in the compiled build mypyc native classes copied by their ``_replace``.
Records that rarely change (Secret, RngState, Event) stay slotted attrs classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import attrs

from powergrid.actions import CHANCE
from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.enums import Phase
from powergrid.events import EventLog
from powergrid.frozen import evolve as evolve  # re-exported: where the phases import it
from powergrid.module_state import NONE as NO_MODULE_STATE
from powergrid.module_state import ModuleStates, from_pickle
from powergrid.plants import Card
from powergrid.record import mypyc_attr, record
from powergrid.state_parts import ActorState as ActorState
from powergrid.state_parts import AuctionState as AuctionState
from powergrid.state_parts import Board as Board
from powergrid.state_parts import PlantMarket as PlantMarket
from powergrid.state_parts import PlayerState as PlayerState
from powergrid.state_parts import ResourceMarket as ResourceMarket
from powergrid.state_parts import no_field

if TYPE_CHECKING:
    from powergrid.mechanics.chance_points import ChancePoint
    from powergrid.outcome import Outcome
    from powergrid.rules.ruleset import Ruleset


@attrs.frozen
class Secret:
    """Hidden information: deck order above the Step 3 card, unseen removals, RNG."""

    deck: tuple[Card, ...]
    removed_unseen: tuple[Card, ...]
    rng: RngState


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class _DecisionSlot:
    """Where the engine keeps a state's decision point: derived, never part of the value.

    The one slot ``_decision`` holds who acts next, the phase's record and what
    :func:`powergrid.apply` may play at once (``powergrid.engine.phases.table.Decision``).
    The engine sets it on every state it returns and fills it at the first query
    of a state made elsewhere (``evolve``, positions, JSON, pickle). It is not a
    field: equality, hashing and ``repr`` (the attrs fields),
    :func:`~powergrid.frozen.evolve` (which copies the instance dictionary, or the
    fields) and pickling (which stores the fields, exactly as before the slot
    existed) never see it, and no copy can carry the decision point of the state
    it was made from. It is a function of the state's value alone, so two threads
    that fill it at once write the same answer.
    """

    __slots__ = ("_decision",)
    _decision: tuple[int | None, Any, frozenset[type]]  # phases.table.Decision

    def __getstate__(self) -> dict[str, Any]:
        # the pure build's pickle; a native GameState gets its own from record()
        return self.__dict__


_DEFAULT_NAMES = tuple(f"player {seat}" for seat in range(8))  # built once: names are hot


class Named(Protocol):
    """What names seats: a game's config and its automatic actors (a state, a public view)."""

    @property
    def config(self) -> GameConfig:
        """The game's configuration (its ``names``)."""

    @property
    def actors(self) -> tuple[ActorState, ...]:
        """The automatic actors, by id."""


def seat_name(holder: Named, seat: int) -> str:
    """A seat's display name (the configured one, or ``"player N"``), an actor's, or chance's.

    ``GameState.name_of`` and ``PublicView.name_of``: every message, event and
    picture names players through this, so a game with ``GameConfig.names``
    reads the same everywhere. An actor id the game lacks raises ``KeyError``.
    """
    if seat < 0:
        if seat == CHANCE:
            return "chance"
        for actor in holder.actors:
            if actor.actor == seat:
                return actor.name
        raise KeyError(f"no automatic actor {seat} in this game")
    names = holder.config.names
    if names:
        return names[seat]
    return _DEFAULT_NAMES[seat] if seat < len(_DEFAULT_NAMES) else f"player {seat}"


@mypyc_attr(serializable=True, allow_interpreted_subclasses=True)
class GameState(_DecisionSlot):
    """A point in a game. Never mutated: :func:`powergrid.apply` returns a new one.

    ``regions`` is the play area (SET-04). ``order`` is the player order (seats,
    position 1 first; CON-04). ``done`` holds the seats that finished the
    current phase (CON-06); in phase 2,
    ``bought`` holds those who bought a plant this round. ``discarding`` is the
    seat that must discard a plant before play continues (AUC-17). ``build_step`` is
    the Step whose slots may be used in the current phase 4 (STP-03).
    ``actors`` holds the automatic actors a rule module added (none in the
    base game); their ids may stand in ``order``, ``done`` and the board.
    ``chance`` is the pending chance event of a game with explicit chance
    (:mod:`powergrid.mechanics.chance_points`), ``None`` at every other point. ``modules``
    holds each rule module's own state record under the module's name
    (:mod:`powergrid.module_state`; empty when no module keeps one).

    """

    __attrs_attrs__: ClassVar[Any]  # set by record(); makes it an attrs class to mypy

    config: GameConfig
    regions: tuple[str, ...]
    round: int
    step: int
    phase: Phase
    order: tuple[int, ...]
    players: tuple[PlayerState, ...]
    market: PlantMarket
    resources: ResourceMarket
    board: Board
    secret: Secret
    events: EventLog
    done: frozenset[int]
    bought: frozenset[int]
    auction: AuctionState | None
    discarding: int | None
    new_plant: Card | None
    build_step: int
    step3_pending: bool
    end_triggered: bool
    result: Outcome | None
    actors: tuple[ActorState, ...]
    chance: ChancePoint | None
    modules: ModuleStates
    rules: Ruleset

    def __init__(
        self,
        config: GameConfig,
        regions: tuple[str, ...],
        round: int,
        step: int,
        phase: Phase,
        order: tuple[int, ...],
        players: tuple[PlayerState, ...],
        market: PlantMarket,
        resources: ResourceMarket,
        board: Board,
        secret: Secret,
        events: EventLog,
        done: frozenset[int] = frozenset(),
        bought: frozenset[int] = frozenset(),
        auction: AuctionState | None = None,
        discarding: int | None = None,
        new_plant: Card | None = None,
        build_step: int = 1,
        step3_pending: bool = False,
        end_triggered: bool = False,
        result: Outcome | None = None,
        actors: tuple[ActorState, ...] = (),
        chance: ChancePoint | None = None,
        modules: ModuleStates = NO_MODULE_STATE,
        rules: Ruleset = None,  # type: ignore[assignment]  # set by new_game
    ) -> None:
        self.config = config
        self.regions = regions
        self.round = round
        self.step = step
        self.phase = phase
        self.order = order
        self.players = players
        self.market = market
        self.resources = resources
        self.board = board
        self.secret = secret
        self.events = events
        self.done = done
        self.bought = bought
        self.auction = auction
        self.discarding = discarding
        self.new_plant = new_plant
        self.build_step = build_step
        self.step3_pending = step3_pending
        self.end_triggered = end_triggered
        self.result = result
        self.actors = actors
        self.chance = chance
        self.modules = modules
        self.rules = rules

    def _replace(self, changes: dict[str, Any]) -> GameState:
        config, regions, round, step, phase, order = (
            self.config,
            self.regions,
            self.round,
            self.step,
            self.phase,
            self.order,
        )
        players, market, resources, board, secret, events = (
            self.players,
            self.market,
            self.resources,
            self.board,
            self.secret,
            self.events,
        )
        done, bought, auction, discarding, new_plant, build_step = (
            self.done,
            self.bought,
            self.auction,
            self.discarding,
            self.new_plant,
            self.build_step,
        )
        step3_pending, end_triggered, result, actors, chance, modules = (
            self.step3_pending,
            self.end_triggered,
            self.result,
            self.actors,
            self.chance,
            self.modules,
        )
        rules = self.rules
        for name, value in changes.items():
            if name == "events":
                events = value
            elif name == "done":
                done = value
            elif name == "phase":
                phase = value
            elif name == "players":
                players = value
            elif name == "market":
                market = value
            elif name == "resources":
                resources = value
            elif name == "board":
                board = value
            elif name == "auction":
                auction = value
            elif name == "order":
                order = value
            elif name == "bought":
                bought = value
            elif name == "round":
                round = value
            elif name == "step":
                step = value
            elif name == "discarding":
                discarding = value
            elif name == "new_plant":
                new_plant = value
            elif name == "build_step":
                build_step = value
            elif name == "step3_pending":
                step3_pending = value
            elif name == "end_triggered":
                end_triggered = value
            elif name == "result":
                result = value
            elif name == "actors":
                actors = value
            elif name == "chance":
                chance = value
            elif name == "modules":
                modules = value
            elif name == "secret":
                secret = value
            elif name == "regions":
                regions = value
            elif name == "config":
                config = value
            elif name == "rules":
                rules = value
            else:
                no_field(self, name)
        return GameState(
            config,
            regions,
            round,
            step,
            phase,
            order,
            players,
            market,
            resources,
            board,
            secret,
            events,
            done,
            bought,
            auction,
            discarding,
            new_plant,
            build_step,
            step3_pending,
            end_triggered,
            result,
            actors,
            chance,
            modules,
            rules,
        )

    # A state is an immutable value: a copy may be the state itself. Pickling
    # needs nothing special: the event log pickles flat and the ruleset by
    # reference (powergrid.rules.ruleset).
    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self

    @staticmethod
    def _upgrade_pickle(values: dict[str, Any]) -> dict[str, Any]:
        """The fields of a state pickled by an older release, as today's (see record())."""
        if "modules" not in values:  # pickled before rule modules kept their own state
            values = from_pickle(values, values["rules"].state_specs, PlantMarket)
        if "discard" in values:  # pickled before the field was named for what it holds
            values = {("discarding" if k == "discard" else k): v for k, v in values.items()}
        return values

    def player(self, seat: int) -> PlayerState:
        """The :class:`PlayerState` of ``seat``."""
        return self.players[seat]

    def name_of(self, seat: int) -> str:
        """A seat's display name: what messages and events call it.

        The same as :func:`~powergrid.state.seat_name` of this state.
        """
        return seat_name(self, seat)

    def actor(self, actor: int) -> ActorState:
        """The :class:`ActorState` with id ``actor`` (KeyError when there is none)."""
        for a in self.actors:
            if a.actor == actor:
                return a
        raise KeyError(f"no automatic actor {actor} in this game")

    def with_actor(self, a: ActorState) -> GameState:
        """A copy of this state with one actor's record replaced."""
        return evolve(self, actors=tuple(a if x.actor == a.actor else x for x in self.actors))

    def replaced(self, p: PlayerState) -> tuple[PlayerState, ...]:
        """The players tuple with one player's record replaced."""
        return self.players[: p.seat] + (p,) + self.players[p.seat + 1 :]

    def events_with(
        self, kind: str, text: str, player: int | None = None, *values: int | str
    ) -> EventLog:
        """The event log with one event appended (to merge into a single evolve)."""
        return self.events.added(kind, self.round, text, player, values)

    def log(self, kind: str, text: str, player: int | None = None, *values: int | str) -> GameState:
        """A copy of this state with one event appended to the log."""
        return evolve(self, events=self.events_with(kind, text, player, *values))


record(GameState, rules=attrs.field(default=None, eq=False, repr=False))
