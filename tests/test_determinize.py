"""``pg.determinize`` (issue 36 item 2): a state resampled from what one seat may know.

Checks that a determinized state agrees with the seat's view in every built-in
configuration (the fund and customised decks included), that it is a function
of that view and the rng alone, that the hidden cards are dealt with the odds
the rules give them (SET-11 one pile, SET-21 and SET-23 the Deluxe backs; the
``draw_chances`` hook of explicit chance is the reference), and that a rule
module's hidden state goes through its ``StateSpec.resample`` or refuses.
"""

from __future__ import annotations

import collections
import math
import random
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import pytest

import powergrid as pg
from powergrid import catalog
from powergrid.engine import determinize as det
from powergrid.module_state import StateSpec
from powergrid.rules import RuleModule
from powergrid.rules.custom_deck.samples import sample_config
from powergrid.testing import all_configs, config_label, invariant_violations, playout

CONFIGS = [
    *all_configs(),
    sample_config("M", 3),
    sample_config("P", 4),
    sample_config("free", 2),
    pg.GameConfig(players=3, map="europe", options={"explicit_chance"}),
]


def some_states(config: pg.GameConfig, seed: int, count: int = 8) -> Iterator[pg.GameState]:
    """``count`` states spread over a seeded random game, its first and last included."""
    states = [s for s, _ in playout(config, seed, seed)]
    step = max(1, len(states) // (count - 1))
    yield from states[::step]
    yield states[-1]


def chi_square_bound(df: int, z: float = 3.719) -> float:
    """The chi-square quantile at the normal quantile ``z`` (Wilson-Hilferty; 3.719 ~ 1e-4)."""
    c = 2 / (9 * df)
    return df * (1 - c + z * math.sqrt(c)) ** 3


def chi_square(counts: Mapping[Any, int], probs: Mapping[Any, float], n: int) -> float:
    assert set(counts) <= set(probs), "an outcome the odds rule out came up"
    return sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in probs.items())


@pytest.mark.parametrize("config", CONFIGS, ids=config_label)
def test_a_determinized_state_agrees_with_the_seats_view(config: pg.GameConfig) -> None:
    """Item 2: every seat's view of its determinized state is its view of the real one."""
    rng = random.Random(config.label)
    for state in some_states(config, seed=len(config.label)):
        for seat in range(config.players):
            mine = pg.determinize(state, seat, rng)
            assert pg.view(mine, seat) == pg.view(state, seat)
            assert pg.legal_actions(mine) == pg.legal_actions(state)
            assert invariant_violations(mine) == []
            assert mine.secret.rng != state.secret.rng  # the future's chance is drawn again


@pytest.mark.parametrize("config", CONFIGS[::5], ids=config_label)
def test_the_result_depends_on_the_view_and_the_rng_alone(config: pg.GameConfig) -> None:
    """Item 2: states a seat cannot tell apart give one determinized state per rng state."""
    for state in some_states(config, seed=3, count=5):
        other = pg.determinize(state, 0, random.Random(99))  # same view, other secret
        a = pg.determinize(state, 0, random.Random(5))
        b = pg.determinize(other, 0, random.Random(5))
        assert a == b
        assert a.secret == b.secret


def test_the_same_rng_state_gives_the_same_state_and_only_the_rng_is_drawn_from() -> None:
    state = next(some_states(pg.GameConfig(players=4, map="europe"), seed=2))
    random.seed(1)
    first = pg.determinize(state, 1, random.Random(7))
    random.seed(2)  # the global stream is never read
    assert pg.determinize(state, 1, random.Random(7)) == first
    assert pg.determinize(state, 1, random.Random(8)) != first


def test_bad_arguments_are_refused_like_a_views() -> None:
    state = pg.new_game(pg.GameConfig(players=3), seed=1)
    with pytest.raises(ValueError, match="seat 3 does not exist"):
        pg.determinize(state, 3, random.Random(0))
    with pytest.raises(TypeError, match="seat number"):
        pg.determinize(state, True, random.Random(0))
    with pytest.raises(TypeError, match=r"random\.Random"):
        pg.determinize(state, 0, 42)  # type: ignore[arg-type]


# --- the odds of the hidden cards -----------------------------------------------------


def late_state(config: pg.GameConfig, seed: int, deck_size: int) -> pg.GameState:
    """The first state of a seeded game whose deck holds ``deck_size`` hidden cards."""
    for state, _ in playout(config, seed, seed):
        if state.market.step3_in_deck and state.market.deck_size == deck_size:
            return state
    raise AssertionError("the game never had such a deck")


def test_set_11_the_classic_deck_is_dealt_uniformly_exact_count() -> None:
    """SET-11, CON-13: every ordered deal of the hidden cards is equally likely (chi-square)."""
    state = late_state(pg.GameConfig(players=2, map="europe", components="classic"), 4, 2)
    secret = state.secret
    pool = secret.deck + secret.removed_unseen
    outcomes = [(a, b) for a in pool for b in pool if a != b]
    rng, n = random.Random(11), 30 * len(outcomes)
    counts: collections.Counter[object] = collections.Counter()
    for _ in range(n):
        mine = pg.determinize(state, 0, rng).secret
        assert sorted(mine.deck + mine.removed_unseen) == sorted(pool)  # the same cards
        counts[mine.deck] += 1
    probs: dict[object, float] = {o: 1 / len(outcomes) for o in outcomes}
    assert len(counts) == len(outcomes)  # every deal comes up
    assert chi_square(dict(counts), probs, n) < chi_square_bound(len(outcomes) - 1)


@pytest.mark.parametrize(
    ("config", "deck_size"),
    [
        (pg.GameConfig(players=4, map="europe"), None),  # the set-aside dark plant on top
        (pg.GameConfig(players=4, map="europe"), 12),  # dark and light mixed
        (pg.GameConfig(players=3, map="north_america"), 5),
        (pg.GameConfig(players=3, map="germany", components="classic"), 6),
    ],
    ids=["deluxe-aside", "deluxe-mixed", "deluxe-na", "classic"],
)
def test_the_next_card_has_the_odds_explicit_chance_gives_it(
    config: pg.GameConfig, deck_size: int | None
) -> None:
    """SET-21, SET-23, CON-13: the first card of the deck as ``draw_chances`` says (chi-square)."""
    state = pg.new_game(config, seed=3) if deck_size is None else late_state(config, 3, deck_size)
    probs = {r.outcome: float(p) for r, p in state.rules.hooks.draw_chances(state)}
    rng, n = random.Random(3), 3000
    counts = collections.Counter(pg.determinize(state, 1, rng).secret.deck[0] for _ in range(n))
    assert chi_square(dict(counts), probs, n) < chi_square_bound(len(probs) - 1)


def test_set_23_the_deluxe_removals_keep_their_backs() -> None:
    """SET-23: as many dark and light plants stay removed unseen as the setup removed."""
    state = late_state(pg.GameConfig(players=4, map="europe"), 5, 10)
    backs = {c.label: c.back for c in state.rules.deck.cards}

    def dark(cards: tuple[str, ...]) -> int:
        return sum(1 for c in cards if backs[c] == "dark")

    real = dark(state.secret.removed_unseen)
    rng = random.Random(2)
    seen = set()
    for _ in range(200):
        removed = pg.determinize(state, 2, rng).secret.removed_unseen
        assert dark(removed) == real
        assert len(removed) == len(state.secret.removed_unseen)
        seen.add(removed)
    assert len(seen) > 50  # and which ones is drawn again


def test_a_module_that_changes_the_odds_alone_is_followed_card_by_card() -> None:
    """A ``draw_chances`` without its ``resample_deck``: cards come with the hook's odds."""
    state = late_state(pg.GameConfig(players=4, map="europe"), 3, 12)
    rng, n = random.Random(4), 1500
    probs = {r.outcome: float(p) for r, p in state.rules.hooks.draw_chances(state)}
    counts: collections.Counter[str] = collections.Counter()
    for _ in range(n):
        deck, removed = det._drawn_in_turn(state, rng)
        assert sorted(deck + removed) == sorted(state.secret.deck + state.secret.removed_unseen)
        counts[deck[0]] += 1
    assert chi_square(dict(counts), probs, n) < chi_square_bound(len(probs) - 1)


# --- a bot cannot learn a hidden card -----------------------------------------------------


@pytest.mark.parametrize(
    "config",
    [pg.GameConfig(players=4, map="europe"), pg.GameConfig(players=3, components="classic")],
    ids=config_label,
)
def test_a_bot_given_its_seats_state_cannot_learn_the_next_card(config: pg.GameConfig) -> None:
    """Item 2: peeking at a determinized deck predicts the real next card only by chance."""
    state = late_state(config, 6, 8)
    pool = len(pg.determinize(state, 0, random.Random(0)).rules.hooks.draw_chances(state))
    real = state.secret.deck
    rng, tries = random.Random(6), 600
    peeks = [pg.determinize(state, 0, rng).secret.deck for _ in range(tries)]
    hits = sum(1 for deck in peeks if deck[0] == real[0])
    assert hits / tries < 2.5 / pool  # about 1/pool, the odds of a blind guess
    assert sum(1 for deck in peeks if deck == real) <= 1
    # Searching ahead: the card that enters the market after a purchase is not the real one.
    drawn = collections.Counter(deck[0] for deck in peeks)
    assert len(drawn) > pool // 2


# --- a rule module's hidden state ------------------------------------------------------


@attrs.frozen
class Codes:
    """A test module's hidden state: one secret digit per seat, each seen by its owner."""

    digits: tuple[int, ...] = (3, 1, 4, 1, 5, 9)


def own_digit(record: Codes, seat: int | None) -> Codes:
    return Codes(tuple(d if i == seat else -1 for i, d in enumerate(record.digits)))


def redraw_others(state: pg.GameState, seat: int, rng: random.Random) -> Codes:
    held: Codes = state.modules["secret_codes"]
    return Codes(tuple(d if i == seat else rng.randrange(10) for i, d in enumerate(held.digits)))


def peek_all(state: pg.GameState, seat: int, rng: random.Random) -> Codes:
    return Codes((0,) * 6)  # changes what the seat itself sees: a broken resampler


MODULES = {
    "secret_codes": StateSpec(record=Codes, view=own_digit, resample=redraw_others),
    "secret_codes_bare": StateSpec(record=Codes, view=own_digit),
    "secret_codes_broken": StateSpec(record=Codes, view=own_digit, resample=peek_all),
    "public_codes": StateSpec(record=Codes),
}
for _name, _spec in MODULES.items():
    if _name not in catalog.extra_module_names():
        catalog.register_module(RuleModule(name=_name, version="1", state=_spec))


def test_a_modules_hidden_state_is_resampled_by_its_own_hook() -> None:
    """Item 2: ``StateSpec.resample`` redraws what the seat may not see, keeps what it sees."""
    state = pg.new_game(pg.GameConfig(players=3, modules=("secret_codes",)), seed=1)
    rng = random.Random(0)
    seen = set()
    for seat in range(3):
        for _ in range(20):
            mine = pg.determinize(state, seat, rng)
            assert pg.view(mine, seat) == pg.view(state, seat)
            digits = mine.modules["secret_codes"].digits
            assert digits[seat] == Codes().digits[seat]
            seen.add(digits)
    assert len(seen) > 30


def test_a_module_hiding_state_without_a_resampler_is_named() -> None:
    state = pg.new_game(pg.GameConfig(players=3, modules=("secret_codes_bare",)), seed=1)
    with pytest.raises(pg.RulesConfigError, match=r"'secret_codes_bare'.*resample") as err:
        pg.determinize(state, 0, random.Random(0))
    assert err.value.field == "modules"
    broken = pg.new_game(pg.GameConfig(players=3, modules=("secret_codes_broken",)), seed=1)
    with pytest.raises(ValueError, match=r"'secret_codes_broken'.*changed what seat 1 sees"):
        pg.determinize(broken, 1, random.Random(0))


def test_a_public_module_state_is_kept() -> None:
    state = pg.new_game(pg.GameConfig(players=3, modules=("public_codes",)), seed=1)
    assert pg.determinize(state, 2, random.Random(0)).modules == state.modules
