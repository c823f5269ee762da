"""What a picture shows, read alike from a :class:`GameState` or a view.

A :class:`Scene` holds only what everyone at the table may see (a
:class:`~powergrid.PublicView`) plus the build costs of one seat: the drawing
code reads nothing else, so a picture of a :class:`~powergrid.PlayerView`
cannot show a hidden card or another seat's secret. A game state is drawn as
its spectator's view, with its modules' records as the state holds them.
"""

from __future__ import annotations

from typing import Any

import attrs

from powergrid.actions import CHANCE
from powergrid.engine.views import PlayerView, PublicView, public_view
from powergrid.engine.views import view as seat_view
from powergrid.events import Event
from powergrid.module_state import ModuleStates
from powergrid.rules.ruleset import Ruleset, ruleset_for
from powergrid.state import GameState

Drawable = GameState | PlayerView | PublicView


@attrs.frozen
class Scene:
    """A view of the game, the rules it plays and one seat's build costs (``costs``)."""

    view: PublicView
    rules: Ruleset
    modules: ModuleStates
    seat: int | None
    costs: dict[str, int] | None


def scene_of(drawn: Drawable, seat: int | None, reach: bool) -> Scene:
    """The scene of a state, a player's view or a public view (``TypeError`` otherwise).

    ``seat`` defaults to a player view's viewer. With ``reach`` the scene
    carries ``seat``'s build costs: those of the seat's view of a state, or a
    player view's own (another seat's raises ``ValueError``).
    """
    if isinstance(drawn, GameState):
        view, modules, rules = public_view(drawn), drawn.modules, drawn.rules
    elif isinstance(drawn, PlayerView):
        view, modules = drawn.public, drawn.modules
        rules = ruleset_for(view.config, view.regions)
        seat = drawn.viewer if seat is None else seat
    elif isinstance(drawn, PublicView):
        view, modules = drawn, drawn.modules
        rules = ruleset_for(view.config, view.regions)
    else:
        raise TypeError(f"draws a GameState, PlayerView or PublicView, not {drawn!r}")
    if seat is not None and not 0 <= seat < len(view.players):
        raise ValueError(f"seat {seat} is not in this {len(view.players)}-player game")
    if reach and seat is None:
        raise ValueError("reach=True needs a seat (or a PlayerView)")
    costs = _costs(drawn, view, seat) if reach and seat is not None else None
    return Scene(view=view, rules=rules, modules=modules, seat=seat, costs=costs)


def _costs(drawn: Drawable, view: PublicView, seat: int) -> dict[str, int]:
    """The cities ``seat`` could build in now (Step and own houses allowing), with their cost."""
    if isinstance(drawn, PlayerView):
        if seat != drawn.viewer:
            raise ValueError(f"a view of seat {drawn.viewer} knows no build costs of seat {seat}")
        return dict(drawn.build_costs)
    if not isinstance(drawn, GameState):
        raise ValueError("a public view knows no seat's build costs: draw a state or PlayerView")
    return dict(seat_view(drawn, seat).build_costs)


def last_event(view: PublicView) -> Event | None:
    """The last event that a seat or an actor caused (the last action), or ``None``."""
    last = None
    for event in view.events:
        if event.player is not None and event.player != CHANCE:
            last = event
    return last


def houses_by_index(scene: Scene) -> dict[int, tuple[int, ...]]:
    """The houses of each city with houses, by the board's city index."""
    index = scene.rules.area.board.index
    return {index[city]: seats for city, seats in scene.view.houses}


def describe(value: Any) -> str:
    """A record value as short text (a tuple's items joined by spaces)."""
    return " ".join(map(str, value)) if isinstance(value, tuple | frozenset) else str(value)
