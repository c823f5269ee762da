"""Text output of the command line (``python -m powergrid``): summaries and state listings.

Everything here formats public information only: round summaries from the
state and its event log, the final ranking, and :func:`show_lines`, which reads
a :func:`~powergrid.public_view` or :func:`~powergrid.view` (never the secret
deck order) plus the printed plant cards.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import TextIO

from powergrid.actions import Action
from powergrid.engine.game import chance_outcomes, outcome
from powergrid.engine.queries import phase_title
from powergrid.engine.views import PlayerView, PublicView, public_view, view
from powergrid.events import Event
from powergrid.formats.position_text import position_text
from powergrid.module_state import described
from powergrid.outcome import Outcome
from powergrid.state import ActorState, AuctionState, GameState, PlantMarket

#: How many of the viewer's cheapest cities ``show --as`` lists.
CHEAPEST_CITIES = 10


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and the noun in the right number: ``"1 city"``, ``"2 cities"``.

    ``plural`` defaults to ``noun + "s"``.

    >>> count(1, "city", "cities"), count(0, "card"), count(2, "house")
    ('1 city', '0 cards', '2 houses')
    """
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def plant_text(state: GameState, card: str) -> str:
    """A plant card by its label with what it burns and powers: ``"4 (2 coal -> 1)"``.

    The label is the name the notation and every other listing use (``"9"``,
    ``"46+"``), so a plant reads the same at the prompt, in ``show`` and in the
    round summaries.
    """
    plant = state.rules.plant(card)
    fuel = "/".join(sorted(plant.accepts)) if plant.accepts else plant.kind
    return f"{plant.label} ({plant.burn} {fuel} -> {plant.cities})"


def header(state: GameState, seed: int, out: TextIO) -> None:
    """Print the first line of a game: players, board, play area and seed."""
    board = state.rules.area.board.name
    print(
        f"Power Grid: {state.config.players} players on {board} ({', '.join(state.regions)}), "
        f"seed {seed}",
        file=out,
    )
    choice = state.config.deck
    if choice is not None:
        names = " and ".join(d.name for d in choice.decks)
        print(
            f"Plant deck: variant {choice.variant} of {names}, {len(state.rules.deck.cards)} "
            "cards (RULES.md section 10)",
            file=out,
        )


def _money_line(state: GameState, seat: int) -> str:
    p = state.players[seat]
    plants = ",".join(map(str, p.plants)) or "-"
    who = state.name_of(seat)
    return f"  {who:<12} money {p.money:>3}  plants {plants:<12} cities {p.city_count}"


def round_summary(state: GameState, number: int, events: Sequence[Event], out: TextIO) -> None:
    """Print the state at the end of round ``number`` and its notable events."""
    orders = [tuple(map(int, e.values)) for e in events if e.kind == "order_set"]
    order = orders[-1] if orders else state.order
    print(f"Round {number} (step {state.step})", file=out)
    print("  order: " + ", ".join(state.name_of(s) for s in order), file=out)
    for seat in order:
        if seat >= 0:
            print(_money_line(state, seat), file=out)
        else:  # an automatic actor has no money, but houses in its supply
            a = state.actor(seat)
            plants = ",".join(map(str, a.plants)) or "-"
            print(
                f"  {a.name:<12} {'':>9}  plants {plants:<12} cities {a.city_count} "
                f"({count(a.houses, 'house')} in its supply)",
                file=out,
            )
    m = state.market
    actual = " ".join(map(str, m.actual)) or "-"
    future = " ".join(map(str, m.future)) or "-"
    print(f"  market: actual {actual} | future {future}", file=out)
    deals = [
        f"{e.values[0]} by {state.name_of(e.player)} for {e.values[1]}"
        for e in events
        if e.kind == "plant_bought" and e.player is not None
    ]
    if deals:
        print("  bought: " + ", ".join(deals), file=out)
    for e in events:
        if e.kind in state.rules.notable_events:
            print(f"  * {e.text}", file=out)


def narrate(state: GameState, later: Iterable[GameState], out: TextIO, *, quiet: bool) -> GameState:
    """Step from ``state`` through the states ``later`` yields; return the last one.

    Unless ``quiet``, print :func:`round_summary` (and a blank line) each time a
    round ends or the game ends. ``play`` and ``replay`` both print through this.
    """
    mark = len(state.events)
    for following in later:
        before = state.round
        state = following
        if not quiet and (state.round != before or outcome(state) is not None):
            events = state.events.as_tuple()[mark:]
            ours = [e for e in events if e.round == before]
            round_summary(state, before, ours, out)
            mark += len(ours)
            print(file=out)
    return state


def final(state: GameState, result: Outcome, out: TextIO) -> None:
    """Print the final ranking (shared places for equal keys) and the winner(s)."""
    print(f"Game over after round {state.round}: {result.reason}.", file=out)
    print("Final ranking (powered cities, then money, then cities):", file=out)
    for seat in result.ranking:
        s = result.scores[seat]
        place = 1 + sum(1 for o in result.scores if o.key > s.key)
        print(
            f"  {place}. {state.name_of(seat):<12} powered {s.powered:>2}  money {s.money:>3}  "
            f"cities {s.cities:>2}",
            file=out,
        )
    winners = " and ".join(state.name_of(w) for w in result.winners)
    label = "Winner" if len(result.winners) == 1 else "Winners (shared)"
    print(f"{label}: {winners}", file=out)


def where_it_ends(state: GameState) -> str:
    """The sentence ``replay`` prints for a record that stops before the game ends."""
    pub = public_view(state)
    who = "nobody" if pub.turn is None else state.name_of(pub.turn)
    return f"Record ends in round {state.round}, {phase_title(state)}, {who} to act"


# --- show --------------------------------------------------------------------------------


def show_lines(state: GameState, viewer: int | None = None) -> list[str]:
    """The readable listing of ``state`` that ``show`` prints (public information only).

    It ends with the public position text (:func:`powergrid.position_text`), or
    at a chance point with the pending chance event, which has none.

    With a ``viewer`` seat, add that seat's legal actions (when it is to act)
    and its build costs for the :data:`CHEAPEST_CITIES` cheapest cities.
    """
    mine: PlayerView | None = None if viewer is None else view(state, viewer)
    pub = public_view(state) if mine is None else mine.public
    lines = _overview(state, pub)
    lines += _player_lines(state, pub)
    lines += _plant_lines(state, pub)
    lines += _resource_lines(pub)
    lines += table_lines(state)
    lines.append(_position_line(state))
    if mine is not None:
        lines += _viewer_lines(state, mine)
    return lines


def table_lines(state: GameState) -> list[str]:
    """The game's Step 2 and game-end counts (STP-01, END-01) and its income table (BUR-04).

    From the tables in force, so a rule module's change shows: ``"Step 2 at 7 cities,
    the game ends at 17 (a player's cities)"`` and ``"Income: 0:10 1:22 ... 20:150"``.
    """
    rules = state.rules
    income = " ".join(f"{n}:{pay}" for n, pay in enumerate(rules.tables.income))
    return [
        f"Step 2 at {rules.step2_cities} cities, the game ends at {rules.end_cities} "
        "(a player's cities)",
        f"Income by cities powered: {income}",
    ]


def _position_line(state: GameState) -> str:
    """The public position text, or what a chance point waits for (it has no text)."""
    if state.chance is None:
        return f"Position: {position_text(state)}"  # public: no hidden parts
    outcomes = chance_outcomes(state)
    after = "" if state.chance.action is None else f" after {state.chance.action}"
    number = count(len(outcomes), "outcome")
    return f"Chance to resolve: the {outcomes[0][0].event}{after}, {number}"


def auction_line(state: GameState, a: AuctionState) -> str:
    """The running auction in one line: plant, high bid and bidder, who is still in."""
    return (
        f"Auction: plant {a.plant}, high bid {a.bid} by {state.name_of(a.high_bidder)}; "
        "still bidding: " + ", ".join(state.name_of(s) for s in a.active)
    )


def _overview(state: GameState, pub: PublicView) -> list[str]:
    lines = [f"Round {pub.round}, Step {pub.step}, {phase_title(state)}"]
    lines.append("Player order: " + ", ".join(state.name_of(s) for s in pub.order))
    if pub.turn is not None:
        lines.append(f"To act: {state.name_of(pub.turn)}")
    if pub.auction is not None:
        lines.append(auction_line(state, pub.auction))
    if pub.discarding is not None:
        lines.append(f"{state.name_of(pub.discarding)} must discard a plant")
    if pub.end_triggered and pub.result is None:
        lines.append("The game ends after this round's bureaucracy")
    if pub.result is not None:
        text = io.StringIO()
        final(state, pub.result, text)
        lines += text.getvalue().splitlines()
    return lines


def _player_lines(state: GameState, pub: PublicView) -> list[str]:
    lines = ["Players:"]
    kinds = state.rules.resources
    for seat in pub.order:
        if seat < 0:
            lines += _actor_lines(state, state.actor(seat))
            continue
        p = pub.players[seat]
        plants = ", ".join(plant_text(state, n) for n in p.plants) or "none"
        tokens = ", ".join(f"{n} {k.value}" for k, n in zip(kinds, p.resources, strict=True) if n)
        cities = ", ".join(p.cities) or "none"
        cities_text = count(p.city_count, "city", "cities")
        lines.append(f"  {state.name_of(seat)}: money {p.money}, {cities_text}")
        lines.append(f"    plants: {plants}")
        lines.append(f"    tokens: {tokens or 'none'}")
        lines.append(f"    cities: {cities}")
    return lines


def _actor_lines(state: GameState, a: ActorState) -> list[str]:
    kinds = state.rules.resources
    plants = ", ".join(plant_text(state, n) for n in a.plants) or "none"
    tokens = ", ".join(f"{n} {k.value}" for k, n in zip(kinds, a.resources, strict=True) if n)
    cities = count(a.city_count, "city", "cities")
    return [
        f"  {a.name} (automatic): {cities}, {count(a.houses, 'house')} in its supply",
        f"    plants: {plants}",
        f"    tokens: {tokens or 'none'}",
        f"    cities: {', '.join(a.cities) or 'none'}",
    ]


def _plant_lines(state: GameState, pub: PublicView) -> list[str]:
    m = pub.market
    actual = " ".join(map(str, m.actual)) or "-"
    future = " ".join(map(str, m.future)) or "-"
    step3 = " + Step 3 card" if m.step3_in_market else ""
    lines = [f"Plant market: actual {actual} | future {future}{step3}"]
    lines += [f"  {plant_text(state, n)}" for n in m.plants]
    if pub.min_bids:
        lines.append("  minimum opening bids: " + ", ".join(f"{p}: {b}" for p, b in pub.min_bids))
    lines.append("  " + _deck_text(m))
    if m.removed:
        # by the game's order of cards, as the markets are: as text "10" sorts before "9"
        lines.append("  removed from the game: " + " ".join(state.rules.ranked(m.removed)))
    return lines + [f"  {line}" for line in described(state.rules, pub.modules)]


def _deck_text(m: PlantMarket) -> str:
    top = f", face up on top: {m.top}" if m.top is not None else ""
    if m.step3_in_market:
        card = "Step 3 card in the market"
    elif m.step3_in_deck:
        card = "Step 3 card at the bottom of the deck"
    else:
        card = "Step 3 card drawn"
    under = f", under it: {' '.join(map(str, m.under_step3))}" if m.under_step3 else ""
    return f"deck: {count(m.deck_size, 'hidden card')}{top}; {card}{under}"


def _resource_lines(pub: PublicView) -> list[str]:
    lines = ["Resource market:"]
    r = pub.resources
    for (kind, price), on_market, supply in zip(pub.prices, r.market, r.supply, strict=True):
        nxt = "none left" if price is None else f"next at {price}"
        noun = "token" if on_market == 1 else "tokens"
        lines.append(f"  {kind.value:<8} {on_market:>2} {noun}, {nxt} (supply {supply})")
    return lines


def _viewer_lines(state: GameState, mine: PlayerView) -> list[str]:
    who = state.name_of(mine.viewer)
    turn = mine.public.turn
    if turn == mine.viewer:
        lines = [f"Legal actions for {who} ({len(mine.legal)}):"]
        lines += [f"  {text}" for text in compact_actions(mine.legal)]
    elif turn is None:
        lines = [f"{who} has no actions: the game is over"]
    else:
        lines = [f"{who} is not to act ({state.name_of(turn)} is)"]
    cheapest = sorted(mine.build_costs, key=lambda item: (item[1], item[0]))[:CHEAPEST_CITIES]
    if cheapest:
        lines.append(f"Cheapest cities for {who} (slot + connection):")
        lines.append("  " + ", ".join(f"{city} {cost}" for city, cost in cheapest))
    else:
        lines.append(f"No city open to {who} in Step {mine.public.build_step}")
    return lines


def compact_actions(actions: Sequence[Action]) -> list[str]:
    """The notation of each action; runs differing only by a last number become ``a..b``.

    ``0:bid 10``, ``0:bid 11``, ``0:bid 12`` become ``0:bid 10..12``.
    """
    runs: list[tuple[str, int, int]] = []
    plain: list[tuple[int, str]] = []
    for text in map(str, actions):
        head, _, last = text.rpartition(" ")
        if head and last.isdigit():
            n = int(last)
            if runs and runs[-1][0] == head and runs[-1][2] == n - 1:
                runs[-1] = (head, runs[-1][1], n)
                continue
            runs.append((head, n, n))
            plain.append((len(runs) - 1, ""))
        else:
            plain.append((-1, text))
    out = []
    for index, text in plain:
        if index < 0:
            out.append(text)
            continue
        head, lo, hi = runs[index]
        out.append(f"{head} {lo}" if lo == hi else f"{head} {lo}..{hi}")
    return out
