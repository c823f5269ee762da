"""Phase 1, player order, and the turn sequence of each phase: ORD-01..ORD-05, CON-04, EC-11, EC-62.

Seats: A = 0, B = 1, C = 2, D = 3 (clockwise). ``state.order`` lists seats from
position 1 to position N.
"""

from __future__ import annotations

from collections.abc import Sequence

import powergrid as pg
from powergrid.enums import Phase
from powergrid.state import GameState
from tests.scenario import arrange, give, labels, new, play

A, B, C, D = 0, 1, 2, 3


def _area_cities(state: GameState) -> list[str]:
    area = state.rules.area
    return [area.board.cities[i] for i in area.cities]


def _with_cities(state: GameState, counts: Sequence[int]) -> GameState:
    """Give seat i ``counts[i]`` distinct cities of the play area."""
    cities = _area_cities(state)
    start = 0
    for seat, n in enumerate(counts):
        state = give(state, seat, cities=cities[start : start + n])
        start += n
    return state


def _phase5(
    players: int,
    order: Sequence[int],
    cities: Sequence[int],
    plants: Sequence[Sequence[int]],
    round: int = 3,
) -> GameState:
    """Phase 5 of ``round`` with the given previous order, city counts and plants."""
    state = arrange(
        new(players, seed=0),
        round=round,
        phase=Phase.BUREAUCRACY,
        order=order,
        done=(),
        actual=(13, 14, 15, 16),
        future=(17, 18, 19, 20),
        top=None,
    )
    for seat, owned in enumerate(plants):
        state = give(state, seat, plants=owned)
    return _with_cities(state, cities)


def _power_all(state: GameState) -> tuple[list[int], GameState]:
    """Every player in turn powers nothing; return the turn sequence of phase 5."""
    seen: list[int] = []
    while state.phase is Phase.BUREAUCRACY:
        seat = pg.current_player(state)
        assert seat is not None
        seen.append(seat)
        state = pg.apply(state, pg.Power(player=seat))
    return seen, state


def _end_all(state: GameState, phase: Phase) -> tuple[list[int], GameState]:
    """Every player in turn ends phase 3 or 4; return the turn sequence."""
    seen: list[int] = []
    while state.phase is phase:
        seat = pg.current_player(state)
        assert seat is not None
        seen.append(seat)
        end = pg.EndPurchase(player=seat) if phase is Phase.RESOURCES else pg.EndBuild(player=seat)
        state = pg.apply(state, end)
    return seen, state


def test_most_cities_first_ord_01_ord_05() -> None:
    """ORD-01, ORD-05: at the start of the next round, most cities = position 1."""
    state = _phase5(3, order=(A, B, C), cities=(2, 5, 3), plants=((30,), (8,), (9,)))
    _, state = _power_all(state)
    assert state.round == 4
    assert state.phase is Phase.AUCTION
    assert state.order == (B, C, A)
    assert pg.current_player(state) == B


def test_tie_broken_by_highest_plant_ec_62() -> None:
    """EC-62, ORD-01, ORD-02: A and B both 6 cities; A's highest 25, B's 31: order B, A."""
    state = _phase5(
        3,
        order=(A, B, C),
        cities=(6, 6, 2),
        plants=((10, 25), (4, 31), (40,)),
    )
    _, state = _power_all(state)
    assert state.order == (B, A, C)


def test_cities_beat_plants_ord_01_ord_02() -> None:
    """ORD-01, ORD-02: the plant only breaks ties: 7 cities with plant 5 beat 6 with 40."""
    state = _phase5(
        4,
        order=(A, B, C, D),
        cities=(6, 6, 7, 1),
        plants=((40,), (36,), (5,), (50,)),
    )
    _, state = _power_all(state)
    assert state.order == (C, A, B, D)


def test_full_tie_keeps_previous_order_ord_03() -> None:
    """ORD-03: players still tied (equal cities, no plant at all) keep their relative order."""
    state = _phase5(3, order=(C, A, B), cities=(3, 1, 3), plants=((), (30,), ()))
    _, after = _power_all(state)
    assert after.order == (C, A, B)
    state = _phase5(3, order=(A, C, B), cities=(3, 1, 3), plants=((), (30,), ()))
    _, after = _power_all(state)
    assert after.order == (A, C, B)


def test_round_1_reorder_after_phase_2_ec_11() -> None:
    """EC-11, ORD-04, CON-04: order B, C, A; B buys 4, C 7, A 10: then A, C, B.

    Phase 3 and phase 4 start with B (last), phase 5 with A (first); round 2's
    phase 1 (ORD-05) sorts by highest plant again.
    """
    state = arrange(
        new(3, seed=0),
        order=(B, C, A),
        actual=(4, 7, 10, 11),
        future=(12, 13, 14, 15),
        top=None,
        deck=(20, 21, 22, 23, 24),
    )
    assert state.round == 1
    assert pg.current_player(state) == B
    state = play(
        state,
        pg.ChoosePlant(player=B, plant=4, bid=4),
        pg.PassBid(player=C),
        pg.PassBid(player=A),
        pg.ChoosePlant(player=C, plant=7, bid=7),
        pg.PassBid(player=A),
    )
    assert state.order == (B, C, A)  # no re-order before the phase is over
    state = pg.apply(state, pg.ChoosePlant(player=A, plant=10, bid=10))
    assert [p.plants for p in state.players] == [labels(10), labels(4), labels(7)]
    assert state.phase is Phase.RESOURCES
    assert state.order == (A, C, B)
    assert pg.current_player(state) == B
    seen, state = _end_all(state, Phase.RESOURCES)
    assert seen == [B, C, A]
    assert state.phase is Phase.BUILDING
    seen, state = _end_all(state, Phase.BUILDING)
    assert seen == [B, C, A]
    assert state.phase is Phase.BUREAUCRACY
    seen, state = _power_all(state)
    assert seen == [A, C, B]
    assert state.round == 2
    assert state.order == (A, C, B)
    assert pg.current_player(state) == A


def test_round_1_reorder_by_plant_not_by_purchase_order_ord_04() -> None:
    """ORD-04: random order A, B, C; A buys 11, B 4, C 7: phases 3-5 use A, C, B."""
    state = arrange(
        new(3, seed=0),
        order=(A, B, C),
        actual=(4, 7, 10, 11),
        future=(12, 13, 14, 15),
        top=None,
        deck=(20, 21, 22, 23, 24),
    )
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=11, bid=11),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
        pg.ChoosePlant(player=B, plant=4, bid=4),
        pg.PassBid(player=C),
        pg.ChoosePlant(player=C, plant=7, bid=7),
    )
    assert state.phase is Phase.RESOURCES
    assert state.order == (A, C, B)


def test_no_reorder_after_phase_2_in_later_rounds_ord_04_ord_05() -> None:
    """ORD-04, ORD-05: from round 2 the order is set in phase 1 only, not after phase 2."""
    state = arrange(
        new(3, seed=0),
        round=2,
        order=(A, B, C),
        actual=(13, 15, 17, 20),
        future=(22, 25, 27, 30),
        top=None,
        deck=(33, 34, 36),
    )
    state = play(
        state,
        pg.ChoosePlant(player=A, plant=13, bid=13),
        pg.PassBid(player=B),
        pg.PassBid(player=C),
        pg.ChoosePlant(player=B, plant=15, bid=15),
        pg.PassBid(player=C),
        pg.ChoosePlant(player=C, plant=17, bid=17),
    )
    assert state.phase is Phase.RESOURCES
    assert state.order == (A, B, C)
    assert pg.current_player(state) == C


def test_phase_turn_sequences_con_04() -> None:
    """CON-04: order C, A, D, B: phases 3 and 4 go B, D, A, C; phase 5 goes C, A, D, B."""
    state = arrange(
        new(4, seed=0),
        round=3,
        phase=Phase.RESOURCES,
        order=(C, A, D, B),
        done=(),
    )
    plants = {A: (20,), B: (10,), C: (30,), D: (15,)}
    for seat, owned in plants.items():
        state = give(state, seat, plants=owned)
    state = _with_cities(state, (2, 1, 3, 2))
    seen, state = _end_all(state, Phase.RESOURCES)
    assert seen == [B, D, A, C]
    seen, state = _end_all(state, Phase.BUILDING)
    assert seen == [B, D, A, C]
    seen, state = _power_all(state)
    assert seen == [C, A, D, B]
    # Phase 1 of round 4: C (3 cities), then A (2, plant 20) before D (2, plant 15), then B.
    assert state.round == 4
    assert state.order == (C, A, D, B)
    assert pg.current_player(state) == C


def test_phase_1_can_change_order_con_04_ord_01() -> None:
    """CON-04, ORD-01: phase 2 of the new round starts with the new position 1."""
    state = _phase5(4, order=(A, B, C, D), cities=(1, 2, 3, 4), plants=((5,), (6,), (7,), (8,)))
    seen, state = _power_all(state)
    assert seen == [A, B, C, D]
    assert state.order == (D, C, B, A)
    assert pg.current_player(state) == D
