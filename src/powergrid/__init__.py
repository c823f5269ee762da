"""powergrid: the rules of Power Grid (Funkenschlag) as a pure, seeded Python library.

>>> import powergrid as pg
>>> state = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
>>> pg.current_player(state) in (0, 1, 2)
True
"""

from __future__ import annotations

from powergrid.actions import (
    Action,
    Bid,
    Build,
    BuyResource,
    ChoosePlant,
    DiscardPlant,
    EndBuild,
    EndPurchase,
    PassAuction,
    PassBid,
    Power,
)
from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.engine import (
    apply,
    current_player,
    explain_illegal,
    is_legal,
    legal_actions,
    new_game,
    outcome,
)
from powergrid.enums import Phase, Resource
from powergrid.errors import IllegalAction, InvalidRecord, PowerGridError, Reason, RulesConfigError
from powergrid.events import Event
from powergrid.outcome import Outcome, Score
from powergrid.plants import Plant
from powergrid.state import GameState, PlayerState

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Bid",
    "Build",
    "BuyResource",
    "ChoosePlant",
    "DiscardPlant",
    "EndBuild",
    "EndPurchase",
    "Event",
    "GameConfig",
    "GameState",
    "IllegalAction",
    "InvalidRecord",
    "Outcome",
    "PassAuction",
    "PassBid",
    "Phase",
    "Plant",
    "PlayerState",
    "Power",
    "PowerGridError",
    "Reason",
    "Resource",
    "RngState",
    "RulesConfigError",
    "Score",
    "__version__",
    "apply",
    "current_player",
    "explain_illegal",
    "is_legal",
    "legal_actions",
    "new_game",
    "outcome",
]
