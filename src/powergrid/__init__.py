"""powergrid: the rules of Power Grid (Funkenschlag) as a pure, seeded Python library.

>>> import powergrid as pg
>>> state = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
>>> pg.current_player(state) in (0, 1, 2)
True
"""

from __future__ import annotations

# First, so that Ctrl-C while the command line imports the rest exits 130 in one line.
import powergrid.cli.start  # noqa: F401  (its import sets that up, for the command line only)
from powergrid import _old_paths  # noqa: F401  (old module paths, named by old pickles, import)
from powergrid.actions import (
    CHANCE,
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
    Reveal,
)
from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.deck import Deck, DeckChoice, register_deck
from powergrid.engine.determinize import determinize
from powergrid.engine.game import (
    apply,
    chance_outcomes,
    current_player,
    explain_illegal,
    is_legal,
    legal_actions,
    outcome,
    sampled_outcome,
)
from powergrid.engine.start import new_game
from powergrid.engine.views import PlayerView, PublicView, public_view, view
from powergrid.enums import Phase, Resource
from powergrid.errors import IllegalAction, InvalidRecord, PowerGridError, Reason, RulesConfigError
from powergrid.events import Event
from powergrid.formats.notation import parse_action
from powergrid.formats.position import build_position, edit_position
from powergrid.formats.position_text import parse_position, position_text
from powergrid.formats.records import GameRecord, replay, with_outcomes
from powergrid.formats.serialize import from_json, to_json
from powergrid.outcome import Outcome, Score
from powergrid.plants import Plant
from powergrid.rulebook import RuleText, rule
from powergrid.rules.fund import PlaceFundHouse  # the fund module's own action (FND-05)
from powergrid.state import ActorState, GameState, PlayerState
from powergrid.version import __version__

# The shipped decks may be named in a DeckChoice ("classic", "deluxe").
for _name in ("classic", "deluxe"):
    from powergrid.rules.classic import shipped_deck

    register_deck(shipped_deck(_name))

# Jupyter draws a state and a player view (issue 35). The records live in layers
# below powergrid.svg and must not import it, so the facade, the top layer, lends
# them the method here (see powergrid.svg's docstring).
from powergrid import svg as _svg  # noqa: E402

GameState._repr_svg_ = _svg.repr_svg  # type: ignore[attr-defined]
PlayerView._repr_svg_ = _svg.repr_svg  # type: ignore[attr-defined]

__all__ = [
    "CHANCE",
    "Action",
    "ActorState",
    "Bid",
    "Build",
    "BuyResource",
    "ChoosePlant",
    "Deck",
    "DeckChoice",
    "DiscardPlant",
    "EndBuild",
    "EndPurchase",
    "Event",
    "GameConfig",
    "GameRecord",
    "GameState",
    "IllegalAction",
    "InvalidRecord",
    "Outcome",
    "PassAuction",
    "PassBid",
    "Phase",
    "PlaceFundHouse",
    "Plant",
    "PlayerState",
    "PlayerView",
    "Power",
    "PowerGridError",
    "PublicView",
    "Reason",
    "Resource",
    "Reveal",
    "RngState",
    "RuleText",
    "RulesConfigError",
    "Score",
    "__version__",
    "apply",
    "build_position",
    "chance_outcomes",
    "current_player",
    "determinize",
    "edit_position",
    "explain_illegal",
    "from_json",
    "is_legal",
    "legal_actions",
    "new_game",
    "outcome",
    "parse_action",
    "parse_position",
    "position_text",
    "public_view",
    "replay",
    "rule",
    "sampled_outcome",
    "to_json",
    "view",
    "with_outcomes",
]
