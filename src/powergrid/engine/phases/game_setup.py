"""Setting up a game (SET-01..SET-12): the state before the first decision.

The engine (:func:`powergrid.new_game`) runs the automatic steps from the state
laid out here; with explicit chance the caller's outcomes replace the seed's
sample (the play area, the initial market, the round-1 order).
"""

from __future__ import annotations

import attrs

from powergrid import module_state
from powergrid.catalog import load_map, regions_needed
from powergrid.chance import RngState
from powergrid.config import GameConfig
from powergrid.engine.phases.table import FLOW
from powergrid.enums import Phase
from powergrid.events import EMPTY_LOG
from powergrid.mechanics import chance_points, market
from powergrid.mechanics.chance_points import ChancePoint
from powergrid.mechanics.network import connected_region_sets
from powergrid.rules import DeckSetup
from powergrid.rules.ruleset import Ruleset, ruleset_for
from powergrid.state import (
    Board,
    GameState,
    PlantMarket,
    PlayerState,
    ResourceMarket,
    Secret,
    evolve,
)


def laid_out(cfg: GameConfig, seed: int, point: ChancePoint | None) -> GameState:
    """SET-01..SET-12: the game laid out, in the setup phase, before anyone acts.

    ``point`` resolves chance explicitly (:mod:`powergrid.mechanics.chance_points`); the state
    carries it. The engine runs the automatic steps from here to the first
    decision point (:func:`powergrid.new_game`).
    """
    regions, rng, point = _play_area(cfg, RngState(seed), point)
    rules = ruleset_for(cfg, regions)
    deck = rules.hooks.prepare_deck(rules, rng)
    seats, rng = deck.rng.shuffle(range(cfg.players))  # SET-05: random order for round 1
    if point is not None:
        point, deck = _dealt_market(point, rules, deck)
        sampled = ",".join(map(str, seats))
        point, chosen = chance_points.pick(point, chance_points.order_chances(cfg.players), sampled)
        seats = tuple(int(s) for s in chosen.split(","))
    state = _first_state(cfg, rules, regions, deck, seats, rng)
    state = evolve(state, chance=point)
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
        "Random player order for round 1: " + ", ".join(state.name_of(s) for s in seats) + ".",
        None,
        *seats,
    )
    state = rules.hooks.setup(state)  # e.g. a module's automatic actors (ORD-06)
    # A map's Step 1 market may be larger than the deck preparation laid out (SET-26).
    while len(state.market.plants) < rules.market_size(1) and (
        state.market.top is not None or state.secret.deck
    ):
        state = market.draw(state)
    # The setup phase lasts while a module asks for setup decisions (FND-05);
    # the base game asks none, and the engine starts the first phase 2 at once.
    return FLOW[Phase.SETUP].begin(state)


def _play_area(
    cfg: GameConfig, rng: RngState, point: ChancePoint | None
) -> tuple[tuple[str, ...], RngState, ChancePoint | None]:
    """SET-04: the regions in play, the random stream after choosing them, the chance point."""
    if cfg.cities is not None:  # CDK-16: the cities in play, in the regions they lie in
        board = load_map(cfg.map)
        return tuple(sorted({board.city_region[board.index[c]] for c in cfg.cities})), rng, point
    if cfg.regions is not None:
        return tuple(sorted(cfg.regions)), rng, point
    areas = connected_region_sets(cfg.map, regions_needed(cfg.components, cfg.players))
    regions, rng = rng.choice(areas)
    if point is not None:
        point, chosen = chance_points.pick(
            point, chance_points.area_chances(areas), ",".join(regions)
        )
        regions = tuple(chosen.split(","))
    return regions, rng, point


def _dealt_market(
    point: ChancePoint, rules: Ruleset, deck: DeckSetup
) -> tuple[ChancePoint, DeckSetup]:
    """SET-21 with explicit chance: the caller's initial market, the sample's cards exchanged.

    The cards of the dealt pile are interchangeable until seen, so each chosen
    card changes place with a sampled market card wherever it lay hidden.
    """
    if not deck.dealt:
        return point, deck
    market_cards = deck.actual + deck.future
    chances = chance_points.market_chances(deck.dealt, len(market_cards), rules.rank)
    point, chosen = chance_points.pick(point, chances, ",".join(rules.ranked(market_cards)))
    wanted = chosen.split(",")
    swap = dict(
        zip(
            [c for c in wanted if c not in market_cards],
            [c for c in market_cards if c not in wanted],
            strict=True,
        )
    )
    hidden = tuple(swap.get(c, c) for c in deck.deck)
    removed = rules.ranked(swap.get(c, c) for c in deck.removed_unseen)
    ranked = rules.ranked(wanted)
    n = len(deck.actual)
    deck = attrs.evolve(
        deck, actual=ranked[:n], future=ranked[n:], deck=hidden, removed_unseen=removed
    )
    return point, deck


def _first_state(
    cfg: GameConfig,
    rules: Ruleset,
    regions: tuple[str, ...],
    deck: DeckSetup,
    seats: tuple[int, ...],
    rng: RngState,
) -> GameState:
    """The state before the first phase 2: money, markets, an empty board (SET-02..SET-08)."""
    tables = rules.tables  # the component tables in force (a module may change them)
    on_market = tables.initial_market
    return GameState(
        config=cfg,
        regions=regions,
        round=1,
        step=1,  # SET-06: the game starts in Step 1
        phase=Phase.AUCTION,
        order=seats,
        players=tuple(
            # SET-02/SET-03: 50 Elektro (the tables' starting money), no plants, city count 0
            PlayerState(seat=s, money=tables.starting_money, resources=(0,) * len(tables.resources))
            for s in range(cfg.players)
        ),
        market=PlantMarket(
            actual=deck.actual,
            future=deck.future,
            top=deck.top,
            deck_size=len(deck.deck),
        ),
        resources=ResourceMarket(
            market=on_market,
            # SET-08: every token not on the market starts in the general supply
            supply=tuple(t - m for t, m in zip(tables.totals, on_market, strict=True)),
        ),
        board=Board(houses=((),) * len(rules.area.board.cities)),
        secret=Secret(deck=deck.deck, removed_unseen=deck.removed_unseen, rng=rng),
        events=EMPTY_LOG,
        modules=module_state.initial(rules.state_specs, deck.modules),
        rules=rules,
    )
