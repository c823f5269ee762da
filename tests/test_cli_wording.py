"""What a player reads: wording and display faults the audit of issue 31 (item 6) found.

Each test runs the command line as a person would (``main`` with typed input,
or the command's own output) and reads what it prints: arena's help and its
errors, "1 city" against "1 cities", the plants removed in ``show``, the
prompt's answer to an action of another phase, ``help``, the fund's setup
menu, plant names, and the docs that say how to play yourself.
"""

from __future__ import annotations

import pathlib
import re
import shlex
import subprocess
import sys

import pytest

import powergrid as pg
from powergrid.bots import GreedyBot
from powergrid.cli.human_view import decision_lines, menu
from powergrid.cli.main import main
from powergrid.data import load
from powergrid.formats.records import GameRecord
from powergrid.formats.text import show_lines
from tests.cli_session import typed

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: The 2-player classic game of seed 3, the human in seat 0 (as in docs/cli.md).
CLASSIC = ["play", "--players", "2", "--components", "classic", "--human", "0"]
CLASSIC += ["--bots", "random", "--seed", "3"]
#: A 2-player Deluxe game: it plays the fund and opens on its setup (FND-05).
FUND = ["play", "--players", "2", "--human", "0", "--bots", "random", "--seed", "1"]
#: A plant written with a leading zero, as the prompt once showed "09 (3 coal -> 2)".
PADDED = re.compile(r"(?<![\d.])0\d \(")


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command runs in a fresh directory: sessions save their games there."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["/site-packages/powergrid/cli/main.py"])


def answer(out: str, line: str) -> str:
    """What the prompt printed right after ``line`` was typed (up to the next prompt)."""
    after = out.split(f"> {line}\n", 1)[1]
    return after.split("\nplayer 0> ", 1)[0]


# --- arena (items 1, 8, 9) -------------------------------------------------------------------


def test_arena_help_prints_a_plain_percent(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31 item 6: argparse does not %-format a description, so "95%%" showed as is."""
    assert main(["arena", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95%%" not in out
    assert "95%" in " ".join(out.split())  # the description is wrapped: join its lines


@pytest.mark.parametrize("bots", ["greedy", "greedy,random,greedy,random,greedy,random,greedy"])
def test_arena_with_a_wrong_number_of_bots_says_how_to_name_them(
    bots: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31 item 6, SET-01: the error says that --bots names one policy per seat."""
    code, out, err = typed(["arena", "--bots", bots, "--games", "1"], [], monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: ")
    assert "played by 2 to 6 players" in err
    assert "one policy per player" in err
    assert "--bots greedy,random" in err  # an example to copy
    if bots == "greedy":
        assert "--bots names 1 policy and" in err


def test_arena_writes_its_records_through_the_shared_file_writer(
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 31 item 6: one record per game goes through cli_files.write_text (atomic saves)."""
    written: dict[str, str] = {}
    monkeypatch.setattr(
        "powergrid.cli.arena.write_text", lambda path, text: written.__setitem__(path, text)
    )
    folder = tmp_path / "games"
    args = ["arena", "--bots", "greedy,random", "--games", "1", "--records", str(folder)]
    code, out, _ = typed(args, [], monkeypatch, capsys)
    assert code == 0
    path = str(folder / "game-00000.json")
    assert list(written) == [path]
    record = pg.from_json(written[path])
    assert isinstance(record, GameRecord)
    assert pg.outcome(pg.replay(record)) is not None
    # one game, one record: counted in the singular
    assert out.startswith("Arena: 1 game of deluxe/europe/2/fund, seeds 0.., inprocess\n")
    assert out.endswith(f"Wrote 1 record to {folder}\n")


# --- "1 cities" (item 2) -----------------------------------------------------------------


def _greedy_game(seed: int) -> pg.GameState:
    state = pg.new_game(pg.GameConfig(players=2, components="classic"), seed=seed)
    bots = [GreedyBot(seed=0), GreedyBot(seed=1)]
    while pg.outcome(state) is None:
        seat = pg.current_player(state)
        assert seat is not None
        state = pg.apply(state, bots[seat].choose(state))
    return state


def test_powering_one_city_says_city() -> None:
    """Issue 31 item 6, BUR-03: "powers 1 city", never "powers 1 cities"."""
    powered = [e for e in _greedy_game(3).events if e.kind == "powered"]
    assert any(e.values[0] == 1 for e in powered)
    for e in powered:
        noun = "city" if e.values[0] == 1 else "cities"
        assert f" powers {e.values[0]} {noun} and earns {e.values[1]}." in e.text


def test_the_position_counts_one_of_a_kind_in_the_singular() -> None:
    """Issue 31 item 6: "1 token" and "1 hidden card" in show, "1 card" at the prompt."""
    text = pg.position_text(pg.new_game(pg.GameConfig(players=2), seed=1))
    assert "deck=27 tokens=coal:23," in text
    state = pg.parse_position(text.replace("deck=27 tokens=coal:23,", "deck=1 tokens=coal:1,"))
    shown = show_lines(state, 0)
    assert "  deck: 1 hidden card; Step 3 card at the bottom of the deck" in shown
    assert "  coal      1 token, next at 9 (supply 26)" in shown
    assert "  gas      18 tokens, next at 3 (supply 6)" in shown
    prompt = decision_lines(state, 0, menu(state, 0))
    assert any(line.endswith("; 1 card in the deck") for line in prompt)
    assert "  the fund (automatic): 0 cities, 16 houses in its supply" in shown


# --- show and the prompt: plants (items 3, 7) ---------------------------------------------


def test_show_lists_removed_plants_by_their_number(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31 item 6, CDK-14: removed plants in the game's order ("3 ... 11"), not as text."""
    record = str(tmp_path / "game.json")
    assert main(["play", "--players", "3", "--seed", "1", "--quiet", "--record", record]) == 0
    capsys.readouterr()
    code, out, _ = typed(["show", record], [], monkeypatch, capsys)
    assert code == 0
    line = next(x for x in out.splitlines() if "removed from the game:" in x)
    labels = line.split(":", 1)[1].split()
    assert {len(label) for label in labels} == {1, 2}  # both kinds, so text order differs
    assert labels == sorted(labels, key=int)


def test_plants_are_named_by_their_label_at_the_prompt_and_in_show(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31 item 6: "4 (2 coal -> 1)" everywhere, as the notation names plant 4."""
    code, out, _ = typed(CLASSIC, ["show", "quit"], monkeypatch, capsys)
    assert code == 0
    assert "Plants for sale: 3 (2 oil -> 1), 4 (2 coal -> 1), 5 (2 coal/oil -> 1)," in out
    assert "Future market: 7 (3 oil -> 2), 8 (3 coal -> 2), 9 (1 oil -> 1), 10 (2 coal" in out
    shown = answer(out, "show")
    assert "\n  4 (2 coal -> 1)\n" in shown
    assert "\n  10 (2 coal -> 2)\n" in shown
    assert not PADDED.search(out), PADDED.search(out)


# --- the prompt's answers (items 4, 5) -----------------------------------------------------


def test_an_action_of_another_phase_is_refused_in_the_words_typed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31 item 6, CON-03: "buy" in the auction names buy and the phases, not a class."""
    lines = ["buy coal", "build berlin", "power 4", "0:buy 1 coal", "quit"]
    code, out, _ = typed(CLASSIC, lines, monkeypatch, capsys)
    assert code == 0
    assert answer(out, "buy coal") == (
        "buy is not possible now: it is the auction (phase 2); buy belongs to buying "
        "resources (phase 3). The menu lists what you can do now."
    )
    assert answer(out, "build berlin").startswith(
        "build is not possible now: it is the auction (phase 2); build belongs to building "
        "(phase 4)."
    )
    assert "power belongs to the bureaucracy (phase 5)" in answer(out, "power 4")
    assert answer(out, "0:buy 1 coal") == answer(out, "buy coal")
    for name in ("BuyResource", "Build is", "Power is", "not played in"):
        assert name not in out


def test_an_action_of_another_phase_in_the_fund_setup(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31 item 6: before round 1 the prompt says it is the set-up (FND-05)."""
    code, out, _ = typed(FUND, ["choose 4", "quit"], monkeypatch, capsys)
    assert code == 0
    assert answer(out, "choose 4").startswith(
        "choose is not possible now: it is the set-up before round 1; choose belongs to the "
        "auction (phase 2)."
    )


def test_help_names_the_fund_house_and_save_force(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31 item 6: help lists "fund CITY" (FND-05) and the --force of save."""
    code, out, _ = typed(CLASSIC, ["help", "quit"], monkeypatch, capsys)
    assert code == 0
    shown = answer(out, "help")
    assert "\n  fund berlin     put one of the fund's starting houses in Berlin" in shown
    assert "\n  save FILE [--force]   write the game so far to FILE\n" in shown
    assert "(--force: overwrite a file that is not this game's record)" in shown
    for command in ("help", "show", "undo", "quit"):
        assert f"\n  {command} " in shown


# --- the fund's setup menu (item 6) ------------------------------------------------------


def _first_decision(out: str) -> str:
    """The first position and menu shown to the human, up to the prompt."""
    return out.split("\n-- Round ", 1)[1].split("\nplayer 0> ", 1)[0]


def test_a_fund_game_says_what_the_fund_is_before_the_first_house(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 31 item 6, FND-01, FND-05: a few lines on the fund, then a short menu."""
    code, out, _ = typed(FUND, ["quit"], monkeypatch, capsys)
    assert code == 0
    first = _first_decision(out)
    menu = first.split("Plants for sale:", 1)[1].split("\n", 3)[3]  # after the markets
    intro, _, rest = menu.partition("\nFund house 1 of 6: any city of the play area.\n")
    assert rest, menu
    assert 2 <= len(intro.splitlines()) <= 3
    text = " ".join(intro.split())
    assert "The fund (FND-01) is a neutral third party: it pays nothing" in text
    order = "1 by player 0, 2 by player 1, 2 by player 0, 1 by player 1"
    assert f"Place its 6 starting houses now ({order}; FND-05)" in text
    # the 21 cities of the play area, numbered 1 to 21, grouped by region on few lines
    assert rest.startswith("player 0 to act; type a number or fund CITY (or help):\n")
    listing = rest.split("\n", 1)[1]
    numbers = [int(n) for n in re.findall(r"(\d+)\. [a-z_]+", listing)]
    assert numbers == list(range(1, 22))
    assert len(listing.splitlines()) <= 10
    headings = [x.strip(" :") for x in listing.splitlines() if x.endswith(":")]
    state = pg.new_game(pg.GameConfig(players=2), seed=1)
    assert sorted(headings) == sorted(state.regions)


def test_a_number_in_the_fund_menu_places_the_house_it_names(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The grouped menu is numbered as printed: the number next to berlin puts it there."""
    code, out, _ = typed(FUND, ["quit"], monkeypatch, capsys)
    number = re.search(r"(\d+)\. berlin\b", _first_decision(out))
    assert number is not None
    code, out, _ = typed(FUND, [number.group(1), "quit"], monkeypatch, capsys)
    assert code == 0
    assert f"player 0> {number.group(1)}\n  player 0 puts a fund house on Berlin's 10 slot" in out
    # the next house is the other player's; the bot places it and the view says which house
    assert "Fund house 1 of 6" in out
    houses = load("fund.json")["starting_houses"]
    assert f"of {houses}: a city directly connected to a fund city." in out


# --- the docs say how to play yourself (item 10) ------------------------------------------


@pytest.mark.parametrize("page", ["README.md", "docs/index.md", "docs/quickstart.md"])
def test_the_docs_say_how_to_play_yourself(page: str, tmp_path: pathlib.Path) -> None:
    """Issue 31 item 6: each page shows the play --human command, and the command works."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = re.search(r"python -m powergrid play [^\n`]*--human 0[^\n`]*", text)
    assert found is not None, page
    assert "help" in text.split(found.group(0), 1)[1][:1500]  # what to type comes with it
    words = shlex.split(found.group(0))
    proc = subprocess.run(
        [sys.executable, *words[1:]],
        input="help\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "player 0> help\nType an action, its number in the menu, or a command." in proc.stdout
    assert "Resume it with:" in proc.stdout
