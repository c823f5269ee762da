"""Ask why an action is illegal, and catch IllegalAction with its stable reason.

Run: python examples/explain_illegal.py
"""

from __future__ import annotations

import powergrid as pg


def main() -> int:
    state = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
    seat = pg.current_player(state)
    assert seat is not None
    other = (seat + 1) % 3
    lowest = state.market.actual[0]  # a card label, e.g. "4"
    price = state.rules.number(lowest)  # its printed number, the minimum bid (CON-08)
    attempts: list[pg.Action] = [
        pg.ChoosePlant(player=seat, plant=lowest, bid=price - 1),  # below the minimum bid
        pg.ChoosePlant(player=seat, plant=state.market.future[-1], bid=99),  # future market
        pg.PassAuction(player=seat),  # no passing in round 1
        pg.ChoosePlant(player=other, plant=lowest, bid=price),  # not this player's turn
        pg.Build(player=seat, city="berlin"),  # wrong phase
        pg.ChoosePlant(player=seat, plant=lowest, bid=price),  # legal
    ]
    print(f"player {seat} is to act; actual market: {state.market.actual}")
    print("\npg.explain_illegal(state, action): a message, or None when legal")
    for action in attempts:
        why = pg.explain_illegal(state, action)
        print(f"  {action!s:<16} -> {why or 'legal'}")

    print("\npg.apply raises pg.IllegalAction; .reason is a stable code for programs")
    for action in attempts:
        try:
            after = pg.apply(state, action)
        except pg.IllegalAction as err:
            print(f"  {action!s:<16} -> reason {err.reason.value}")
        else:
            print(f"  {action!s:<16} -> applied; now player {pg.current_player(after)} acts")
    # The input state is never changed by a failed (or successful) apply.
    assert pg.current_player(state) == seat
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
