"""Pictures of the game as SVG (issue 35 items 1 and 3): ``powergrid.svg`` and map positions.

Each picture is parsed as XML and counted against the game itself: one house
mark per house on the board, one city element per city of the map, one card
per market plant, the modules' marks and areas, and a player's picture shows
no hidden card. The numbers come from the state and the map data, never from
the drawing code.
"""

from __future__ import annotations

import ast
import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

import powergrid as pg
from powergrid import catalog, svg
from powergrid.catalog import COMPONENT_SETS, MAPS
from powergrid.frozen import evolve
from powergrid.module_api import with_module
from powergrid.module_state import area_cards
from powergrid.rules.custom_deck import area as inactive_area
from powergrid.rules.custom_deck.samples import sample_config
from powergrid.rules.maps.north_america import token_plant
from powergrid.state import GameState
from powergrid.svg.layout import computed_positions
from powergrid.testing import maps_of
from tests.svg_token_mod import MODULE as TOKEN_MODULE
from tests.svg_token_mod import Token

catalog.register_module(TOKEN_MODULE)

MAPS_DIR = Path(pg.__file__).parent / "data" / "maps"


def played(config: pg.GameConfig, seed: int = 1, actions: int = 120) -> GameState:
    """A seeded game after up to ``actions`` uniformly random legal actions."""
    state = pg.new_game(config, seed=seed)
    rnd = random.Random(seed)
    for _ in range(actions):
        legal = pg.legal_actions(state)
        if not legal:
            break
        state = pg.apply(state, rnd.choice(legal))
    return state


def elements(picture: str, cls: str) -> list[ET.Element]:
    """The elements of a parsed picture whose class is ``cls``."""
    return [e for e in ET.fromstring(picture).iter() if e.get("class") == cls]


def texts(element: ET.Element) -> Iterator[str]:
    """Every text of an element and its descendants."""
    return (t for e in element.iter() for t in [e.text] if t)


def board_and_map_configs() -> list[pg.GameConfig]:
    """Every built-in map with each component set that plays it."""
    return [
        pg.GameConfig(players=3, map=m, components=components)
        for components in COMPONENT_SETS
        for m in maps_of(components)
    ]


def check_picture(state: GameState, picture: str) -> None:
    """Houses, cities and market cards of the picture match the state one for one."""
    board = state.rules.area.board
    houses = Counter(
        (board.cities[i], seat) for i, seats in enumerate(state.board.houses) for seat in seats
    )
    drawn = Counter(
        (e.get("data-city"), int(e.get("data-seat", "x"))) for e in elements(picture, "house")
    )
    assert drawn == houses
    cities = [e.get("data-city", "") for e in elements(picture, "city")]
    assert sorted(cities) == sorted(board.cities)
    cards = [e.get("data-card", "") for e in elements(picture, "card")]
    assert sorted(cards) == sorted(state.market.actual + state.market.future)


def public_cards(state: GameState) -> set[str]:
    """Every card label anyone at the table has seen face up."""
    market = state.market
    seen = {*market.plants, *market.removed, *market.under_step3}
    seen |= {c for p in state.players for c in p.plants} | {
        c for a in state.actors for c in a.plants
    }
    seen |= {c for c, _ in area_cards(state)}
    return seen | ({market.top} if market.top else set())


@pytest.mark.parametrize("config", board_and_map_configs(), ids=lambda c: c.label)
def test_every_map_and_component_set_draws_each_house_city_and_card(config: pg.GameConfig) -> None:
    """Issue 35: a played game's picture parses and holds one mark per house, city, card."""
    state = played(config)
    assert sum(map(len, state.board.houses)) > 0
    check_picture(state, svg.game(state))
    board = svg.board(state)
    assert len(elements(board, "city")) == len(state.rules.area.board.cities)
    assert len(elements(board, "house")) == sum(map(len, state.board.houses))


def test_the_fund_s_houses_draw_in_their_slots() -> None:
    """Issue 35, FND-05/FND-08: a 2-player Deluxe game's fund houses are drawn, as the fund's."""
    state = played(pg.GameConfig(players=2, map="europe", components="deluxe"), actions=150)
    fund = state.actors[0].actor
    assert sum(seats.count(fund) for seats in state.board.houses) > 0
    picture = svg.game(state)
    check_picture(state, picture)
    fund_houses = [e for e in elements(picture, "house") if int(e.get("data-seat", "0")) == fund]
    assert len(fund_houses) == sum(seats.count(fund) for seats in state.board.houses)
    panels = {int(e.get("data-seat", "0")) for e in elements(picture, "seat")}
    assert panels == set(state.order)


def test_the_custom_deck_s_inactive_area_draws_from_its_state_spec() -> None:
    """Issue 35, CDK-06: the inactive area's cards show under the name the module gives it."""
    state = played(sample_config("M"), actions=60)
    held = inactive_area(state).plants
    assert held
    picture = svg.game(state)
    check_picture(state, picture)
    drawn = [e.get("data-card", "") for e in elements(picture, "area-card")]
    assert sorted(drawn) == sorted(held)
    assert "The inactive area" in "".join(texts(ET.fromstring(picture)))


def test_explicit_chance_games_draw() -> None:
    """Issue 35: a game with explicit chance (outcomes as actions) draws like any other."""
    config = pg.GameConfig(
        players=4, map="usa", components="classic", options=frozenset({"explicit_chance"})
    )
    state = played(config, actions=200)
    check_picture(state, svg.game(state))


def test_north_america_s_discount_token_is_a_mark_on_its_card() -> None:
    """Issue 35, AUC-31: the discount token lies on the lowest actual plant, drawn as a mark."""
    state = pg.new_game(pg.GameConfig(players=3, map="north_america", components="deluxe"), seed=4)
    plant = token_plant(state)
    assert plant == state.market.actual[0]
    marks = elements(svg.game(state), "mark")
    assert [(m.get("data-module"), m.get("data-card")) for m in marks] == [("north_america", plant)]


def test_a_third_party_module_s_mark_is_drawn_without_naming_it() -> None:
    """Issue 35: a module's ``StateSpec.marks`` token shows on its card, named by no drawing."""
    state = played(pg.GameConfig(players=3, modules=("svg_token",)), actions=5)
    plant = state.market.actual[-1]
    state = with_module(state, "svg_token", Token(plant=plant))
    marks = elements(svg.game(state), "mark")
    assert [(m.get("data-module"), m.get("data-card")) for m in marks] == [("svg_token", plant)]
    assert not set(_code_words()) & {"north_america", "custom_deck", "fund", "svg_token"}


def _code_words() -> Iterator[str]:
    """The names and non-docstring strings of powergrid.svg's code (its docstrings may explain)."""
    for path in Path(svg.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef)
            and n.body
            and isinstance(n.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                yield node.id
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
            ):
                yield from node.value.replace(".", " ").split()


@pytest.mark.parametrize(
    "config",
    [
        pg.GameConfig(players=4, map="germany", components="classic"),
        pg.GameConfig(players=2, map="europe", components="deluxe"),
        sample_config("M"),
    ],
    ids=lambda c: c.label,
)
def test_a_player_s_picture_holds_no_hidden_card(config: pg.GameConfig) -> None:
    """Issue 35: a PlayerView's picture names no card of the deck that nobody has seen."""
    state = played(config, actions=80)
    hidden = set(state.secret.deck) - public_cards(state)
    assert hidden
    for seat in range(len(state.players)):
        picture = svg.game(pg.view(state, seat), reach=True)
        root = ET.fromstring(picture)
        labelled = {e.get("data-card") for e in root.iter()} - {None}
        assert labelled <= public_cards(state)
        for cls in ("card", "area-card", "deck", "seat"):
            words = {
                w.strip(",;:()")
                for e in elements(picture, cls)
                for t in texts(e)
                for w in t.split()
            }
            assert not words & {c for c in hidden if not c.isdigit()}, cls


def test_a_state_s_picture_does_not_depend_on_its_secret() -> None:
    """Issue 35: reordering the hidden deck changes nothing in the picture of the state."""
    state = played(pg.GameConfig(players=3, map="germany", components="classic"), actions=40)
    deck = tuple(reversed(state.secret.deck))
    assert deck != state.secret.deck
    other = evolve(state, secret=attrs.evolve(state.secret, deck=deck))
    assert svg.game(other) == svg.game(state)


def test_reach_shows_each_city_s_build_cost_for_the_seat() -> None:
    """Issue 35, BLD-03..05: ``reach`` writes what building there costs the seat now."""
    state = played(pg.GameConfig(players=3, map="usa", components="classic"), actions=100)
    for seat in range(3):
        expected = dict(pg.view(state, seat).build_costs)
        assert expected
        for drawn in (
            svg.board(state, seat=seat, reach=True),
            svg.board(pg.view(state, seat), reach=True),
        ):
            shown = {
                e.get("data-city"): int(e.get("data-cost", "")) for e in elements(drawn, "reach")
            }
            assert shown == expected
    with pytest.raises(ValueError, match="needs a seat"):
        svg.board(state, reach=True)
    with pytest.raises(ValueError, match="no build costs"):
        svg.board(pg.view(state, 0), seat=1, reach=True)


def test_the_seat_s_network_and_the_last_house_are_highlighted() -> None:
    """Issue 35: a band under each connection between two of the seat's cities; the last house."""
    state = pg.new_game(pg.GameConfig(players=3, map="germany", components="classic"), seed=2)
    rnd = random.Random(2)
    while state.round < 4 or state.events.as_tuple()[-1].kind != "house_built":
        state = pg.apply(state, rnd.choice(pg.legal_actions(state)))
    built = state.events.as_tuple()[-1]
    board = state.rules.area.board
    picture = svg.board(state, seat=0)
    ringed = [
        c.get("data-city")
        for c in elements(picture, "city")
        if c.find("*[@class='last']") is not None
    ]
    assert ringed == [board.cities[int(built.values[0])]]
    assert not elements(svg.board(state, seat=0, last_action=False), "last")
    mine = {i for i, seats in enumerate(state.board.houses) if 0 in seats}
    links = sum(1 for a, b, _ in board.edges if a in mine and b in mine)
    assert links > 0
    assert len(elements(picture, "network")) == links
    assert not elements(svg.board(state), "network")


def test_names_are_escaped() -> None:
    """Issue 35: a player's name with markup characters stays text in the picture."""
    config = pg.GameConfig(players=3, names=("<&>", 'a"b', "c"))
    state = played(config, actions=30)
    picture = svg.game(state)
    words = list(texts(ET.fromstring(picture)))
    assert any("<&>" in t for t in words)
    assert "<&>" not in picture


def test_text_and_attributes_are_escaped_as_xml_sax_does() -> None:
    """The picture's own escaping writes exactly what xml.sax.saxutils would.

    It replaced escape and quoteattr so that importing powergrid no longer imports
    the network modules they bring along (see test_imports).
    """
    from xml.sax.saxutils import escape, quoteattr

    from powergrid.svg.markup import attr, esc

    rng = random.Random(35)
    pieces = ["a", "&", "<", ">", '"', "'", "\n", "\r", "\t", "&amp;", " ", "é"]
    samples = ["", 'say "hi"', "it's", "both \" and '", "x\ny"]
    samples += ["".join(rng.choice(pieces) for _ in range(rng.randrange(9))) for _ in range(3000)]
    for text in samples:
        assert esc(text) == escape(text), text
        assert attr(text) == quoteattr(text), text
    assert attr("a\"b'c") == '"a&quot;b\'c"'


def test_jupyter_shows_a_state_and_a_view_as_their_game_picture() -> None:
    """Issue 35: ``_repr_svg_`` of a GameState and a PlayerView is ``svg.game``."""
    state = played(pg.GameConfig(players=3), actions=20)
    assert state._repr_svg_() == svg.game(state)  # type: ignore[attr-defined]
    view = pg.view(state, 1)
    assert view._repr_svg_() == svg.game(view)  # type: ignore[attr-defined]


def test_the_map_data_carries_the_board_file_s_positions() -> None:
    """Issue 35 item 3: ``MapData.positions`` are the ``pos`` of each city of the board file."""
    for map_id in MAPS:
        raw = json.loads((MAPS_DIR / f"{map_id}.json").read_text(encoding="utf-8"))
        board = catalog.load_map(map_id)
        assert board.positions == tuple(
            (float(c["pos"][0]), float(c["pos"][1])) for c in raw["cities"]
        )


def test_a_board_without_positions_draws_a_computed_layout_every_time_the_same() -> None:
    """Issue 35 item 3: no ``pos`` in the board: a deterministic layout, every city apart."""
    state = played(pg.GameConfig(players=3, map="europe"), actions=60)
    rules = state.rules
    bare = attrs.evolve(rules.area.board, positions=None)
    state = evolve(state, rules=attrs.evolve(rules, area=attrs.evolve(rules.area, board=bare)))
    first = svg.game(state)
    assert first == svg.game(state)
    check_picture(state, first)
    points = computed_positions(bare)
    assert len(set(points)) == len(bare.cities)


def _testland(monkeypatch: pytest.MonkeyPatch, cities: list[dict[str, object]]) -> None:
    import powergrid_testmods  # type: ignore[import-not-found]

    board = {**powergrid_testmods.TESTLAND.data["board"], "cities": cities}
    monkeypatch.setitem(powergrid_testmods.TESTLAND.data, "board", board)
    catalog.load_map.cache_clear()


@pytest.mark.usefixtures("plugins_installed")
def test_a_third_party_board_may_ship_positions_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 item 3: an installed board keeps its positions; without them it has ``None``."""
    assert catalog.load_map("testland").positions == catalog.load_map("europe").positions
    raw = json.loads((MAPS_DIR / "europe.json").read_text(encoding="utf-8"))
    _testland(monkeypatch, [{k: v for k, v in c.items() if k != "pos"} for c in raw["cities"]])
    assert catalog.load_map("testland").positions is None


@pytest.mark.usefixtures("plugins_installed")
@pytest.mark.parametrize(
    "pos", [[1], [1, "2"], [1, 2, 3], "12", [True, 2], [float("nan"), 1], None]
)
def test_a_bad_position_is_refused_naming_the_map(
    monkeypatch: pytest.MonkeyPatch, pos: object
) -> None:
    """Issue 35 item 3: a position is two numbers, for every city or none (RulesConfigError)."""
    raw = json.loads((MAPS_DIR / "europe.json").read_text(encoding="utf-8"))
    cities = [dict(c) for c in raw["cities"]]
    cities[3]["pos"] = pos
    _testland(monkeypatch, cities)
    with pytest.raises(pg.RulesConfigError, match="testland") as err:
        catalog.load_map("testland")
    assert err.value.field == "map"


def test_metropoles_come_from_the_board_file_and_are_drawn() -> None:
    """Issue 35: North America's two metropoles (board data) are drawn; Europe has none."""
    for map_id in MAPS:
        raw = json.loads((MAPS_DIR / f"{map_id}.json").read_text(encoding="utf-8"))
        board = catalog.load_map(map_id)
        named = tuple(tuple(board.cities[i] for i in m) for m in board.metropoles)
        assert named == tuple(tuple(m) for m in raw.get("metropoles", ()))
    na = pg.new_game(pg.GameConfig(players=3, map="north_america"), seed=1)
    assert len(elements(svg.board(na), "metropole")) == 2
    eu = pg.new_game(pg.GameConfig(players=3, map="europe"), seed=1)
    assert elements(svg.board(eu), "metropole") == []


def test_a_finished_game_and_a_public_view_draw() -> None:
    """Issue 35: the last state of a game says game over; a spectator's view draws too."""
    state = played(pg.GameConfig(players=3, map="germany", components="classic"), actions=5000)
    assert pg.outcome(state) is not None
    picture = svg.game(state)
    phase = elements(picture, "phase")[0].text or ""
    assert phase.endswith("game over")
    public = pg.public_view(state)
    assert svg.game(public) == picture
    check_picture(state, svg.game(public))


def test_bad_arguments_are_refused() -> None:
    """Issue 35: an unknown option, a seat outside the game, a thing that is no game."""
    state = pg.new_game(pg.GameConfig(players=3), seed=1)
    with pytest.raises(TypeError, match="colour"):
        svg.game(state, colour="red")
    with pytest.raises(ValueError, match="seat 3"):
        svg.board(state, seat=3)
    with pytest.raises(TypeError, match="GameState"):
        svg.board("state")  # type: ignore[arg-type]


@pytest.mark.usefixtures("plugins_installed")
def test_a_metropole_of_unknown_cities_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a board's metropole names cities of that board (RulesConfigError, field map)."""
    import powergrid_testmods

    board = {**powergrid_testmods.TESTLAND.data["board"], "metropoles": [["glasgow", "atlantis"]]}
    monkeypatch.setitem(powergrid_testmods.TESTLAND.data, "board", board)
    catalog.load_map.cache_clear()
    with pytest.raises(pg.RulesConfigError, match="metropole") as err:
        catalog.load_map("testland")
    assert err.value.field == "map"


def test_the_legend_names_every_region_and_whether_it_is_in_play() -> None:
    """SET-04: a 3-player Europe game plays 3 of the board's 6 regions; the legend says which."""
    state = pg.new_game(pg.GameConfig(players=3, map="europe", components="deluxe"), seed=2)
    board, area = state.rules.area.board, state.rules.area
    in_play = {board.city_region[i] for i in area.cities}
    assert len(in_play) == 3
    legend = elements(svg.board(state), "region")
    assert [e.get("data-region") for e in legend] == list(board.regions)
    for e in legend:
        assert e.get("data-in-play") == str(e.get("data-region") in in_play)
        shown = "".join(texts(e))
        assert shown.endswith("(out of play)") == (e.get("data-region") not in in_play)


def test_rch_21_the_picture_shows_the_back_of_the_decks_top_card() -> None:
    """RCH-21: a Recharged picture names the top card's back; other editions show none."""
    cfg = pg.GameConfig(players=4, map="germany_recharged", components="recharged")
    state = pg.new_game(cfg, seed=3)
    back = pg.public_view(state).next_back
    assert back in ("plug", "socket")
    assert f"top card's back: {back}" in pg.svg.game(state)
    assert "top card's back" not in pg.svg.game(pg.new_game(pg.GameConfig(players=4), seed=3))
