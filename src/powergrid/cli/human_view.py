"""What a human seat sees at each decision: a short position and a numbered menu.

:func:`decision_lines` prints the public position in a few lines (every
seat's money, cities, plants and tokens, the fund or another automatic
actor, both plant markets with the inactive area and the deck size, the
resource market with the next prices, the running auction) followed by the
menu of :func:`menu`. It reads only a :func:`~powergrid.view` of the seat
(never the deck order); ``show`` at the prompt prints the longer
:func:`~powergrid.formats.text.show_lines` listing. Plants are named by their
card label, as everywhere else (``9 (3 coal -> 2)``).

The fund's starting houses (the 2-player Deluxe setup, FND-05) get their own
menu: a few lines on what the fund is before the first of them, then the
cities grouped by region, several to a line (:func:`fund_lines`).
"""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Mapping, Sequence

import attrs

from powergrid.actions import Action, Bid, Build, BuyResource, ChoosePlant, Power
from powergrid.data import load
from powergrid.engine import queries
from powergrid.engine.views import PlayerView, PublicView, view
from powergrid.enums import Phase
from powergrid.formats.text import auction_line, count, plant_text
from powergrid.module_state import described
from powergrid.plants import Card
from powergrid.rules.fund import PlaceFundHouse
from powergrid.state import GameState


@attrs.frozen
class MenuEntry:
    """One numbered line of the menu: the notation to type and the action its number picks.

    ``text`` is the notation without the seat prefix; a run of bids (or of
    opening bids for one plant) is one entry ``bid 14..50`` whose number picks
    the lowest, ``action``. ``note`` is shown after it (a city's build cost).
    """

    text: str
    action: Action
    note: str = ""


def short(action: Action) -> str:
    """The notation of ``action`` without its ``<seat>:`` prefix (``"bid 17"``)."""
    return str(action).partition(":")[2]


def _run_key(action: Action) -> tuple[str, int] | None:
    """What a run of numbered actions shares, and the number that counts up along it."""
    if isinstance(action, Bid):
        return "bid", action.amount
    if isinstance(action, ChoosePlant):
        return f"choose {action.plant}", action.bid
    return None


def menu(state: GameState, seat: int) -> list[MenuEntry]:
    """The legal actions of ``seat`` as menu entries, in the engine's order.

    Runs of bids are joined (see :func:`entries`) and a build says what it
    costs (slot plus connection). Empty when ``seat`` is not to act.
    """
    mine = view(state, seat)
    choices = [_noted(state, seat, e) for e in entries(mine.legal, dict(mine.build_costs))]
    if _city_menu(state, choices):  # numbered as printed: region by region
        board = state.rules.area.board
        regions = [board.city_region[board.index[_city(e)]] for e in choices]
        first = {region: regions.index(region) for region in regions}
        order = sorted(range(len(choices)), key=lambda i: first[regions[i]])
        choices = [choices[i] for i in order]
    return choices


def _noted(state: GameState, seat: int, entry: MenuEntry) -> MenuEntry:
    """A buy line with its price, a Power line with the cities it powers and their income."""
    action = entry.action
    if isinstance(action, BuyResource):
        price = queries.resource_price(state, action.resource, action.count)
        return attrs.evolve(entry, note=f"costs {price}")
    if isinstance(action, Power):
        cities = queries.cities_powered(state, seat, action.plants)
        earns = queries.income(state, cities)
        return attrs.evolve(entry, note=f"powers {count(cities, 'city', 'cities')}, earns {earns}")
    return entry


def entries(actions: Sequence[Action], costs: Mapping[str, int] | None = None) -> list[MenuEntry]:
    """``actions`` as menu entries: runs of bids become one entry ``bid 14..50``.

    A run is a series of bids counting up by one, or of opening bids for one
    plant; there may be fifty of them. Every other action has its own entry;
    a build whose city is in ``costs`` gets the cost as its note.
    """
    out: list[MenuEntry] = []
    last: tuple[str, int, int] | None = None  # (shared text, first number, last number)
    for action in actions:
        key = _run_key(action)
        if key is not None and last is not None and key == (last[0], last[2] + 1):
            last = (last[0], last[1], key[1])
            out[-1] = attrs.evolve(out[-1], text=f"{last[0]} {last[1]}..{last[2]}")
            continue
        last = None if key is None else (key[0], key[1], key[1])
        note = ""
        if isinstance(action, Build) and costs is not None and action.city in costs:
            note = f"costs {costs[action.city]}"
        out.append(MenuEntry(short(action), action, note))
    return out


def decision_lines(state: GameState, seat: int, choices: Sequence[MenuEntry]) -> list[str]:
    """The position as ``seat`` sees it when it is to act, then the numbered menu."""
    mine = view(state, seat)
    pub = mine.public
    lines = [f"-- Round {pub.round}, Step {pub.step}, {queries.phase_title(state)} --"]
    lines += _seat_lines(state, pub)
    lines += _market_lines(state, pub)
    lines += _situation_lines(state, mine)
    if _fund_menu(choices):
        return lines + fund_lines(state, seat, choices)
    if _city_menu(state, choices):  # another module's setup choice of a city (RCH-13)
        return lines + setup_city_lines(state, seat, choices)
    lines.append(f"{state.name_of(seat)} to act; choose one (or type help):")
    width = len(str(len(choices)))
    for number, entry in enumerate(choices, 1):
        note = f"  ({entry.note})" if entry.note else ""
        lines.append(f"  {number:>{width}}. {entry.text}{note}")
    return lines


def _plants(state: GameState, cards: Sequence[Card]) -> str:
    return ", ".join(plant_text(state, c) for c in cards) or "none"


def _tokens(state: GameState, amounts: Sequence[int]) -> str:
    kinds = state.rules.resources
    text = ", ".join(f"{n} {k.value}" for k, n in zip(kinds, amounts, strict=True) if n)
    return text or "none"


def _cities(cities: Sequence[str]) -> str:
    number = count(len(cities), "city", "cities")
    return f"{number} ({', '.join(cities)})" if cities else number


def _seat_lines(state: GameState, pub: PublicView) -> list[str]:
    lines = ["Players in order:"]
    for seat in pub.order:
        if seat < 0:  # an automatic actor (the fund): no money, houses in its supply
            a = state.actor(seat)
            lines.append(
                f"  {a.name} (automatic): {_cities(a.cities)}, {count(a.houses, 'house')} "
                f"in its supply; "
                f"plants {_plants(state, a.plants)}; tokens {_tokens(state, a.resources)}"
            )
            continue
        p = pub.players[seat]
        lines.append(
            f"  {state.name_of(seat)}: money {p.money}, {_cities(p.cities)}; "
            f"plants {_plants(state, p.plants)}; tokens {_tokens(state, p.resources)}"
        )
    return lines


def _market_lines(state: GameState, pub: PublicView) -> list[str]:
    m = pub.market
    step3 = " + the Step 3 card" if m.step3_in_market else ""
    lines = [
        f"Plants for sale: {_plants(state, m.actual)}{step3}",
        f"Future market: {_plants(state, m.future)}; {count(m.deck_size, 'card')} in the deck",
    ]
    lines += [f"  {line}" for line in described(state.rules, pub.modules)]
    r = pub.resources
    prices = [
        f"{kind.value} {count} at {'-' if price is None else price}"
        for (kind, price), count in zip(pub.prices, r.market, strict=True)
    ]
    lines.append("Resources (tokens at next price): " + ", ".join(prices))
    return lines


def _situation_lines(state: GameState, mine: PlayerView) -> list[str]:
    pub = mine.public
    lines = []
    if pub.auction is not None:
        lines.append(auction_line(state, pub.auction))
    if pub.discarding is not None:
        lines.append(f"{state.name_of(pub.discarding)} has too many plants and must discard one")
    if pub.end_triggered:
        lines.append("The game ends after this round's bureaucracy")
    return lines


# --- the fund's starting houses (FND-05) --------------------------------------------------

#: How wide the grouped fund menu may grow before it starts a new line.
FUND_MENU_WIDTH = 90
#: The width the few lines on the fund are wrapped to.
FUND_TEXT_WIDTH = 96


def _fund_menu(choices: Sequence[MenuEntry]) -> bool:
    """Whether the menu is the choice of a city for one of the fund's starting houses."""
    return bool(choices) and all(isinstance(e.action, PlaceFundHouse) for e in choices)


def _city_menu(state: GameState, choices: Sequence[MenuEntry]) -> bool:
    """Whether the menu is a setup decision naming a city (any rule module's, FND-05, RCH-13)."""
    return (
        state.phase is Phase.SETUP
        and bool(choices)
        and all(isinstance(getattr(e.action, "city", None), str) for e in choices)
    )


def _city(entry: MenuEntry) -> str:
    city = getattr(entry.action, "city", None)
    assert isinstance(city, str)
    return city


def setup_city_lines(state: GameState, seat: int, choices: Sequence[MenuEntry]) -> list[str]:
    """A rule module's setup choice of a city: what the action does, then the cities by region.

    The line on the action is the first line of its class's docstring, which
    a module action has (a start city marked, RCH-13).
    """
    action = choices[0].action
    doc = (type(action).__doc__ or type(action).__name__).strip().splitlines()[0]
    verb = str(action).split(":", 1)[1].split()[0]
    lines = textwrap.wrap(doc, FUND_TEXT_WIDTH)
    lines.append(f"{state.name_of(seat)} to act; type a number or {verb} CITY (or help):")
    return lines + _grouped(state, choices)


def fund_lines(state: GameState, seat: int, choices: Sequence[MenuEntry]) -> list[str]:
    """The choice of a city for a fund house: what it is about, then the cities by region.

    Before the first house a short paragraph says what the fund is and who
    places which of its starting houses (FND-01, FND-05, from the module's
    data); every time, one line says which house this is and where it may go.
    The numbers are those of ``choices`` (:func:`menu` orders them by region).
    """
    data = load("fund.json")
    house = state.actor(data["actor"]).city_count + 1
    lines = _fund_intro(state, data["placers"]) if house == 1 else []
    where = "any city of the play area"
    called = state.actor(data["actor"]).name.removeprefix("the ")
    if house > 1:
        where = f"a city directly connected to a {called} city"
    title = called[:1].upper() + called[1:]
    lines.append(f"{title} house {house} of {data['starting_houses']}: {where}.")
    lines.append(f"{state.name_of(seat)} to act; type a number or fund CITY (or help):")
    return lines + _grouped(state, choices)


def _grouped(state: GameState, choices: Sequence[MenuEntry]) -> list[str]:
    """The numbered cities of ``choices``, region by region, several to a line."""
    board = state.rules.area.board
    width = len(str(len(choices)))
    cell = width + 3 + max(len(_city(e)) for e in choices)
    per_line = max(1, (FUND_MENU_WIDTH - 4) // (cell + 1))
    lines: list[str] = []
    region = None
    row: list[str] = []
    for number, entry in enumerate(choices, 1):
        here = board.city_region[board.index[_city(entry)]]
        if row and (here != region or len(row) == per_line):
            lines.append("    " + " ".join(row).rstrip())
            row = []
        if here != region:
            lines.append(f"  {here}:")
            region = here
        row.append(f"{number:>{width}}. {_city(entry)}".ljust(cell))
    lines.append("    " + " ".join(row).rstrip())
    return lines


def _fund_intro(state: GameState, placers: Sequence[str]) -> list[str]:
    """What the fund is, and in which order the two players place its houses (FND-05)."""
    first, other = (s for s in state.order if s >= 0)
    turns = [(placer, len(list(run))) for placer, run in itertools.groupby(placers)]
    sequence = ", ".join(
        f"{n} by {state.name_of(first if placer == 'start' else other)}" for placer, n in turns
    )
    name = state.actor(load("fund.json")["actor"]).name
    rule = "FND-01" if name == "the fund" else "RCH-84"
    text = (
        f"{name[:1].upper()}{name[1:]} ({rule}) is a neutral third party: it pays nothing, "
        "may take the highest "
        "plant free each phase 2, and its houses block cities. Place its "
        f"{len(placers)} starting houses now ({sequence}; FND-05): their cities stay closed "
        "until Step 2."
    )
    return textwrap.wrap(text, FUND_TEXT_WIDTH)


def city_lines(state: GameState, seat: int, name: str) -> list[str]:
    """What ``city NAME`` prints: who sits there, its neighbours, what building costs ``seat``.

    ``name`` is a city's id or its printed name, in any case. A city outside the
    play area is named as such; an unknown name lists nothing but the problem.
    """
    board = state.rules.area.board
    wanted = name.strip().lower()
    found = [
        c for c, n in zip(board.cities, board.city_names, strict=True) if wanted in (c, n.lower())
    ]
    if not found:
        return [f"No city {name!r} on {board.name}: type show for the cities in play"]
    i = board.index[found[0]]
    title = f"{board.city_names[i]} ({board.cities[i]}, {board.city_region[i]})"
    if not state.rules.area.in_area[i]:
        return [f"{title} is outside the play area"]
    return [title, _occupants(state, i), _neighbours(state, i), _your_cost(state, seat, i)]


def _occupants(state: GameState, i: int) -> str:
    """The houses in a city, cheapest slot first, with what each paid for its slot."""
    here = state.board.houses[i]
    slots = state.rules.tables.house_costs
    if not here:
        return "  houses: none yet"
    taken = ", ".join(f"{state.name_of(s)} ({slots[k]})" for k, s in enumerate(here))
    return f"  houses: {taken}"


def _neighbours(state: GameState, i: int) -> str:
    """The cities of the play area one connection away, cheapest first (BLD-04)."""
    area = state.rules.area
    board = area.board
    near = sorted(
        (cost, board.cities[b if a == i else a])
        for a, b, cost in board.edges
        if i in (a, b) and area.in_area[b if a == i else a]
    )
    return "  neighbours: " + (", ".join(f"{c} {cost}" for cost, c in near) or "none in play")


def _your_cost(state: GameState, seat: int, i: int) -> str:
    """What a house there costs ``seat`` now, or why it cannot build there (BLD-05, BLD-06)."""
    here = state.board.houses[i]
    if seat in here:
        return "  you have a house here"
    if len(here) >= state.build_step:
        return f"  no slot free in Step {state.build_step} (BLD-05)"
    cost = queries.build_cost(state, seat, state.rules.area.board.cities[i])
    return f"  a house here costs you {cost} now (slot and connection)"
