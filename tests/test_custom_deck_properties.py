"""Properties of whole seeded games with a customised deck, Variants M and P (RULES.md §10).

Every test plays seeded random classic games with the ``custom_deck`` module
and the sample decks of ``tests/decks.py`` on both boards: Variant M (the
classic deck, labels ``...o``, mixed with the test "other" deck, labels
``...e``, 2-6 players) and Variant P (the classic deck plus six synthetic plus
plants ``46+`` ..., 3-6 players; the 2-player row is refused, OQ-21). After
every action it checks, independently of the module's own code:

- every plant card lies in exactly one place (CON-11), the inactive area and
  the cards removed face up included (CDK-06, CDK-08);
- Variant M: a card enters the market only while a card of its number (and
  plus flag, CDK-10) lies in the inactive area and the quota is used up,
  except plants 1 and 2 and the face-up card's first draw (CDK-03, CDK-04,
  CDK-07, CDK-09, EC-56, EC-57, EC-68), replayed here from the events of each
  action; two cards of one number are never in play together;
- Variant M: the inactive area and the removed plants only grow, the quota
  only falls, never below 0, and only by removing drawn cards (CDK-06..CDK-08,
  EC-58); every plant leaving play goes to the inactive area;
- Variant P: no inactive area and no quota (CDK-13); a plus plant ranks
  directly above the plain plant of its number, in the deck and in the market
  (CDK-14, EC-59);
- the games end with every invariant kept, replay from their record (also
  after a JSON round trip of the record) and survive JSON and pickle.
"""

from __future__ import annotations

import functools
import pickle
from collections import Counter
from collections.abc import Iterable, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.engine.invariants import card_places, plant_places
from powergrid.enums import Phase
from powergrid.state import GameState
from powergrid.testing import invariant_violations, playout
from tests.decks import ORIGINAL, PLUS_NUMBERS, config, other_deck
from tests.module_parts import inactive, quota
from tests.test_fund_properties import Step

MAPS = ("europe", "north_america")
#: CDK-02: the numbers revealed at setup in Variant M; 1 and 2 are single copies (CDK-03).
REVEALED = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 14})
SINGLES = frozenset({1, 2})
#: CDK-01: the original plants left out of Variant M.
LEFT_OUT = frozenset({17, 18})
#: SET-12 "plants removed at setup": Variant M's removal quota (CDK-07, OQ-22).
QUOTA = {2: 8, 3: 8, 4: 4, 5: 0, 6: 0}
#: CDK-15 (EC-60): players -> (Step 2 at, game end at, plants removed at setup).
P_TABLE = {3: (8, 20, 10), 4: (8, 20, 5), 5: (8, 18, 0), 6: (7, 15, 0)}
#: A random game of these configs lasts about 20-35 rounds (430-950 actions).
MAX_ROUNDS = 300

SEEDS = st.integers(0, 2**16)
M_GAMES = st.tuples(st.just("M"), st.integers(2, 6), st.sampled_from(MAPS))
P_GAMES = st.tuples(st.just("P"), st.integers(3, 6), st.sampled_from(MAPS))
GAMES = st.one_of(M_GAMES, P_GAMES)
#: A game is played in about 0.1 s and checked in about 0.2 s (15 games: 3-4 s a test).
FEW = settings(max_examples=15, deadline=None)

Spec = tuple[str, int, str]
Key = tuple[int, bool]


def custom_config(spec: Spec) -> pg.GameConfig:
    variant, players, map_id = spec
    cfg = config(variant, players, map=map_id)
    assert cfg.modules == ("custom_deck",)
    return cfg


@functools.lru_cache(maxsize=16)
def custom_game(spec: Spec, seed: int, policy: int) -> tuple[Step, ...]:
    """Every action of a seeded random game of ``spec``, with the states around it."""
    pairs = list(playout(custom_config(spec), seed, policy))
    assert pairs, "a game starts with decisions"
    final = pg.apply(*pairs[-1])
    afters = [s for s, _ in pairs[1:]] + [final]
    log = final.events.as_tuple()  # every state's log is a prefix of the final one
    return tuple(
        Step(before, action, after, log[len(before.events) : len(after.events)])
        for (before, action), after in zip(pairs, afters, strict=True)
    )


def states_of(steps: Sequence[Step]) -> list[GameState]:
    """The start of the game, then the state after each action."""
    return [steps[0].before, *(s.after for s in steps)]


def key(state: GameState, card: str) -> Key:
    """What pairs two cards in Variant M: the printed number and the plus flag (CDK-10)."""
    plant = state.rules.plant(card)
    return (plant.number, plant.plus)


def keys(state: GameState, cards: Iterable[str]) -> set[Key]:
    return {key(state, c) for c in cards}


def in_play(state: GameState) -> list[str]:
    """The plants in the market and on the seats."""
    return [*state.market.plants, *(c for p in state.players for c in p.plants)]


def deck_cards(state: GameState) -> set[str]:
    """The cards still to be drawn: the deck, the face-up top card, those under the Step 3 card."""
    top = {state.market.top} if state.market.top is not None else set()
    return {*state.secret.deck, *state.market.under_step3, *top}


# --- CON-11: one place per card ---------------------------------------------------------------


def places(state: GameState) -> dict[str, list[str]]:
    """Each card and the places holding it, read from the state's fields directly."""
    m, s = state.market, state.secret
    lists = {
        "deck": s.deck,
        "actual": m.actual,
        "future": m.future,
        "top": (m.top,) if m.top is not None else (),
        "inactive": inactive(state),
        "removed": m.removed,
        "under_step3": m.under_step3,
        "removed_unseen": s.removed_unseen,
        **{f"seat {p.seat}": p.plants for p in state.players},
        **{f"actor {a.actor}": a.plants for a in state.actors},
    }
    out: dict[str, list[str]] = {}
    for place, cards in lists.items():
        for card in cards:
            out.setdefault(card, []).append(place)
    return out


def place_problems(state: GameState) -> list[str]:
    where = places(state)
    out = [f"{c} lies in {p}" for c, p in where.items() if len(p) != 1]
    missing = set(state.rules.plants) - set(where)
    unknown = set(where) - set(state.rules.plants)
    if missing:
        out.append(f"cards nowhere: {sorted(missing)}")
    if unknown:
        out.append(f"cards not in the game: {sorted(unknown)}")
    if plant_places(state) != Counter({c: len(p) for c, p in where.items()}):
        out.append("powergrid.engine.invariants.card_places lists other places")
    return out


@FEW
@given(spec=GAMES, seed=SEEDS)
def test_every_card_lies_in_exactly_one_place(spec: Spec, seed: int) -> None:
    """CON-11, CDK-06, CDK-08, CDK-13: deck, market, top, seats, inactive, removed, unseen.

    Counted from the state's fields, the inactive area and the plants removed
    face up included; ``card_places`` names the same places. Only Variant P
    removes plants unseen at setup (CDK-12), Variant M never (CDK-07).
    """
    steps = custom_game(spec, seed, seed)
    for state in states_of(steps):
        assert place_problems(state) == [], state.events.as_tuple()[-4:]
        named = {place for _, place in card_places(state)}
        if spec[0] == "M":
            assert not state.secret.removed_unseen
        else:
            assert "modules.custom_deck.plants" not in named


# --- Variant M: setup -------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 6), map_id=st.sampled_from(MAPS), seed=SEEDS)
def test_variant_m_setup_reveals_a_paired_market(players: int, map_id: str, seed: int) -> None:
    """CDK-01..CDK-05, CDK-07, CDK-10, EC-55: the deck, the reveal and the quota at setup.

    The game's cards are the original deck without 17 and 18 (``o``) and the
    other deck (``e``) over the other deck's Step 3 card; the market holds one
    plant of each number 1-8, each but 1 and 2 with its copy inactive; the 14
    lies face up on the deck, its copy inactive; the inactive area holds one
    card of each of 3-8 and 14 and nothing else; the quota is SET-12's count
    and nothing is removed yet.
    """
    state = pg.new_game(custom_config(("M", players, map_id)), seed=seed)
    rules, m = state.rules, state.market
    original = {c.label + "o" for c in ORIGINAL.cards if c.number not in LEFT_OUT}
    other = {c.label + "e" for c in other_deck().cards}
    assert set(rules.plants) == original | other
    assert rules.deck.step3 == other_deck().step3
    assert [rules.number(c) for c in m.plants] == list(range(1, 9))
    assert m.plants == rules.ranked(m.plants)
    assert len(m.actual) == len(m.future) == 4
    assert m.top is not None
    assert key(state, m.top) == (14, False)
    assert sorted(rules.number(c) for c in inactive(state)) == sorted(REVEALED - SINGLES)
    for card in (*m.plants, m.top):
        copies = [c for c in inactive(state) if key(state, c) == key(state, card)]
        assert len(copies) == (0 if rules.number(card) in SINGLES else 1), card
    assert {c for c in m.plants if rules.number(c) in SINGLES} == {"1e", "2e"}
    assert quota(state) == QUOTA[players]
    assert m.removed == ()
    assert state.secret.removed_unseen == ()
    shown = {*m.plants, m.top, *inactive(state)}
    assert set(state.secret.deck) == set(rules.plants) - shown


# --- Variant M: the draw filter ---------------------------------------------------------------


def filter_problems(step: Step, variant: str) -> list[str]:
    """Replay the plant events of one action and check each against CDK-03/07/08/09.

    Each card starts where the state before puts it: still to be drawn (the
    deck, under the Step 3 card), face up on top of the deck, or in play.
    ``plant_drawn`` takes a card into the market: in Variant M only while a
    card of its key is inactive (not for 1 and 2) and the quota is 0, except
    the face-up card (CDK-04, EC-68). ``plant_inactive`` of a card to be drawn
    is CDK-09's first copy (its key not inactive yet), of a card in play
    CDK-08's exit. ``plant_removed`` of a card to be drawn uses the quota; a
    card in play never leaves for the box in Variant M. At the end, the
    inactive area, the removed plants and the quota must be what the state
    after says.
    """
    before, after = step.before, step.after
    out: list[str] = []
    where = dict.fromkeys(deck_cards(before), "deck")
    if before.market.top is not None:
        where[before.market.top] = "top"
    where.update(dict.fromkeys(in_play(before), "play"))
    area = list(inactive(before))
    removed = list(before.market.removed)
    due = quota(before)
    for e in step.events:
        if e.kind not in ("plant_drawn", "plant_inactive", "plant_removed", "plant_under_deck"):
            continue
        card = str(e.values[0])
        was = where.get(card, "out")
        number, _ = k = key(before, card)
        paired = k in keys(before, area)
        if e.kind == "plant_under_deck":
            if was != "play":
                out.append(f"{card} went under the deck from {was}")
            where[card] = "deck"
        elif e.kind == "plant_drawn":
            if was not in ("deck", "top"):
                out.append(f"{card} was drawn from {was}")
            exempt = was == "top" or variant != "M"
            if not exempt and number not in SINGLES and not paired:
                out.append(f"{card} entered the market with no copy inactive (CDK-09)")
            if not exempt and due:
                out.append(f"{card} entered the market with {due} removals due (CDK-07)")
            where[card] = "play"
        elif e.kind == "plant_inactive":
            if variant != "M":
                out.append(f"{card} went to an inactive area (CDK-13)")
            if was == "top":
                out.append(f"the face-up card {card} went inactive on its first draw (EC-68)")
            elif was == "deck" and (paired or number in SINGLES):
                out.append(f"{card} went inactive with a copy there already (CDK-09)")
            elif was not in ("deck", "play"):
                out.append(f"{card} went inactive from {was}")
            area.append(card)
            where[card] = "out"
        elif was in ("deck", "top") and variant == "M":
            if was == "top":
                out.append(f"the face-up card {card} was removed on its first draw (EC-68)")
            if not paired or due <= 0:
                out.append(f"{card} was removed with quota {due}, paired {paired} (CDK-07)")
            due -= 1
            removed.append(card)
            where[card] = "out"
        elif was == "play" and variant == "M":
            out.append(f"{card} left play for the box, not the inactive area (CDK-08)")
    if variant == "M":
        if tuple(area) != inactive(after):
            out.append(f"inactive area {inactive(after)}, events say {tuple(area)}")
        if tuple(removed) != after.market.removed:
            out.append(f"removed {after.market.removed}, events say {tuple(removed)}")
        if due != quota(after):
            out.append(f"quota {quota(after)}, events say {due}")
    return out


@FEW
@given(spec=M_GAMES, seed=SEEDS)
def test_variant_m_no_number_enters_the_market_without_an_inactive_copy(
    spec: Spec, seed: int
) -> None:
    """CDK-03, CDK-04, CDK-07, CDK-09, CDK-10, EC-56, EC-57, EC-68: the draw filter.

    Every card entering the market (new in actual/future after an action) was
    drawn by the action, while a card of its number and plus flag lay in the
    inactive area and no removal was due, except plants 1 and 2 and the card
    that lay face up on the deck at setup: its first draw takes it into the
    market whatever the quota (EC-68). Hence every market plant other than 1
    and 2 has a copy inactive, and no two cards of one key are ever in play.
    """
    steps = custom_game(spec, seed, seed)
    top = steps[0].before.market.top
    assert top is not None
    top_drawn = False
    for step in steps:
        before, after = step.before, step.after
        assert filter_problems(step, "M") == [], (step.action, step.events)
        drawn = {str(e.values[0]) for e in step.events if e.kind == "plant_drawn"}
        entered = set(after.market.plants) - set(before.market.plants)
        assert entered <= drawn, (entered, step.events)
        if before.market.top == top and after.market.top != top:
            top_drawn = True
            assert top in after.market.plants, step.events  # EC-68: into the market
            assert quota(after) == quota(before)  # ... without the quota
            assert after.market.removed == before.market.removed
        for card in after.market.plants:
            if after.rules.number(card) not in SINGLES:
                assert key(after, card) in keys(after, inactive(after)), card
        play = Counter(key(after, c) for c in in_play(after))
        assert max(play.values()) == 1, play  # the paired deck's promise (CDK-03)
    assert top_drawn


# --- Variant M: the inactive area, the quota, the removed plants ------------------------------


@FEW
@given(spec=M_GAMES, seed=SEEDS)
def test_variant_m_inactive_area_grows_and_the_quota_falls(spec: Spec, seed: int) -> None:
    """CDK-06, CDK-07, CDK-08, EC-57, EC-58: what leaves play is out for good, the quota runs down.

    The inactive area only grows at its end (each state's starts with the
    previous one's), as do the plants removed from the game; the quota never
    rises and stays in 0..SET-12's count; each removal uses one unit of it,
    so removed plus quota is constant. Every plant leaving play (the market
    or a seat) goes to the inactive area, except the plant moved under the
    deck in phase 5 (BUR-07), which stays in the deck (CDK-08).
    """
    steps = custom_game(spec, seed, seed)
    start = steps[0].before
    assert quota(start) == QUOTA[spec[1]]
    total = quota(start) + len(start.market.removed)
    for before, action, after, events in steps:
        old, new = before.market, after.market
        assert inactive(after)[: len(inactive(before))] == inactive(before), action
        assert new.removed[: len(old.removed)] == old.removed, action
        assert 0 <= quota(after) <= quota(before), action
        assert quota(after) + len(new.removed) == total, (action, events)
        left = set(in_play(before)) - set(in_play(after))
        for card in left:
            gone_to = "inactive" if card in inactive(after) else None
            if card in deck_cards(after):
                gone_to = "deck"
                assert any(e.kind == "plant_under_deck" for e in events), (card, events)
            assert gone_to is not None, (card, action, events)


# --- Variant P --------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(players=st.integers(3, 6), map_id=st.sampled_from(MAPS), seed=SEEDS)
def test_variant_p_setup_is_the_classic_one_with_the_seed_table(
    players: int, map_id: str, seed: int
) -> None:
    """CDK-11, CDK-12, CDK-13, CDK-15, EC-60: original deck plus six plus plants, classic setup.

    Market 3-10, 13 face up on the deck, CDK-15's removals unseen, Step 2 and
    the game end from its row, no inactive area and no quota.
    """
    state = pg.new_game(custom_config(("P", players, map_id)), seed=seed)
    rules, m = state.rules, state.market
    plus = {f"{n}+" for n in PLUS_NUMBERS}
    assert set(rules.plants) == {c.label for c in ORIGINAL.cards} | plus
    assert all(rules.plant(c).plus for c in plus)
    assert m.plants == tuple(str(n) for n in range(3, 11))
    assert m.top == "13"
    step2, end, removals = P_TABLE[players]
    assert (rules.step2_cities, rules.end_cities) == (step2, end)
    assert len(state.secret.removed_unseen) == removals
    assert inactive(state) == ()
    assert quota(state) == 0


@FEW
@given(spec=P_GAMES, seed=SEEDS)
def test_variant_p_plus_plants_rank_directly_above_their_number(spec: Spec, seed: int) -> None:
    """CDK-13, CDK-14, EC-59: no inactive area; 46+ ranks right after 46, market sorted by rank.

    In the deck's rank each plus plant is the next card after the plain plant
    of its number; in the market (actual then future, in rank order) it comes
    directly after it whenever both are there; it is never bought below its
    printed number.
    """
    steps = custom_game(spec, seed, seed)
    rules = steps[0].before.rules
    for n in PLUS_NUMBERS:
        rank = rules.rank[f"{n}+"]
        if str(n) in rules.plants:  # the classic deck has 46 and 50, not 52..60
            assert rank == rules.rank[str(n)] + 1
        assert all(rank > rules.rank[c] for c in rules.plants if rules.number(c) < n)
        assert all(rank < rules.rank[c] for c in rules.plants if rules.number(c) > n)
    for state in states_of(steps):
        m = state.market
        assert inactive(state) == ()
        assert quota(state) == 0
        assert m.plants == rules.ranked(m.plants)
        for n in PLUS_NUMBERS:
            plain, plus = str(n), f"{n}+"
            if plain in m.plants and plus in m.plants:
                assert m.plants.index(plus) == m.plants.index(plain) + 1, m.plants
    for step in steps:
        assert filter_problems(step, "P") == [], (step.action, step.events)
        action = step.action
        if isinstance(action, pg.ChoosePlant) and rules.plant(action.plant).plus:
            assert action.bid >= rules.number(action.plant)


# --- CON-10, CON-11, END-01: whole games ------------------------------------------------------


@FEW
@given(spec=GAMES, seed=SEEDS, policy=SEEDS)
def test_custom_deck_games_end_and_keep_every_invariant(spec: Spec, seed: int, policy: int) -> None:
    """CON-10, CON-11, CON-07, END-01, CDK-13, CDK-15: random games end with invariants kept.

    Games end within a few hundred rounds (they take 20-35), with a ranking
    of every seat, after a player reached the game end's city count.
    """
    steps = custom_game(spec, seed, policy)
    for state in states_of(steps):
        assert invariant_violations(state) == [], state.events.as_tuple()[-4:]
    final = steps[-1].after
    assert final.phase is Phase.GAME_OVER
    assert final.round <= MAX_ROUNDS
    assert pg.current_player(final) is None
    assert pg.legal_actions(final) == ()
    result = pg.outcome(final)
    assert result is not None
    assert sorted(result.ranking) == list(range(spec[1]))
    assert max(p.city_count for p in final.players) >= final.rules.end_cities


# --- records and serialization ----------------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(spec=GAMES, seed=SEEDS)
def test_custom_deck_records_replay(spec: Spec, seed: int) -> None:
    """CDK-20, CDK-21: the record replays the game; its JSON carries every card and replays too.

    No deck is registered: the config embeds the decks.
    """
    steps = custom_game(spec, seed, seed)
    cfg = custom_config(spec)
    record = pg.GameRecord(config=cfg, seed=seed, actions=tuple(s.action for s in steps))
    final = steps[-1].after
    assert pg.replay(record) == final
    again = pg.from_json(pg.to_json(record))
    assert isinstance(again, pg.GameRecord)
    assert again == record
    assert pg.replay(again) == final
    k = len(steps) // 2
    assert pg.replay(record, upto=k) == steps[k].before


@settings(max_examples=6, deadline=None)
@given(spec=GAMES, seed=SEEDS)
def test_custom_deck_states_round_trip(spec: Spec, seed: int) -> None:
    """CDK-06: JSON and pickle keep the states, the inactive area and the quota included."""
    states = states_of(custom_game(spec, seed, seed))
    picked = states[:: max(1, len(states) // 5)] + [states[-1]]
    for state in picked:
        again = pg.from_json(pg.to_json(state))
        assert again == state
        assert isinstance(again, GameState)
        assert inactive(again) == inactive(state)
        assert quota(again) == quota(state)
        assert invariant_violations(again) == []
        assert pickle.loads(pickle.dumps(state)) == state
