"""A person at the prompt: play --human, short forms, undo, save, resume, quit, Ctrl-C, EOF."""

from __future__ import annotations

import io
import os
import pathlib
import shlex
import subprocess
import sys
from collections.abc import Iterator

import pytest

from powergrid import (
    Bid,
    Build,
    BuyResource,
    ChoosePlant,
    DiscardPlant,
    EndPurchase,
    GameRecord,
    GameState,
    PassAuction,
    PassBid,
    Phase,
    Power,
    Resource,
    apply,
    current_player,
    explain_illegal,
    from_json,
    new_game,
    outcome,
    parse_action,
    replay,
    to_json,
)
from powergrid.actions import Action
from powergrid.bots import GreedyBot
from powergrid.cli.human_input import Command, Unclear, interpret
from powergrid.cli.human_view import decision_lines, menu
from powergrid.cli.main import main
from tests.cli_session import CLASSIC, PLAY, read_until, terminal

RESUME = "python -m powergrid play --resume {} --human 0 --bots random"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every session runs in a fresh directory: quitting writes files there."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["/site-packages/powergrid/cli/main.py"])


def session(
    argv: list[str],
    lines: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, str]:
    """Run ``main(argv)`` with ``lines`` as the typed input; its exit code and stdout."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(argv)
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, captured.out


def record_of(path: str | pathlib.Path) -> GameRecord:
    record = from_json(pathlib.Path(path).read_text(encoding="utf-8"))
    assert isinstance(record, GameRecord)
    return record


def blocks(out: str) -> list[str]:
    """The decision views of a transcript (from the round line to the menu's end)."""
    found = []
    for part in out.split("\n-- Round ")[1:]:
        view, _, _ = part.partition("\nplayer 0> ")
        found.append("-- Round " + view)
    return found


def parse_all(*texts: str) -> tuple[Action, ...]:
    return tuple(parse_action(t) for t in texts)


def act(text: str, state: GameState) -> Action:
    """What ``text`` means at the prompt, which must be an action."""
    move = interpret(text, state, ())
    assert not isinstance(move, Command | Unclear), move
    return move


def view_of(state: GameState) -> str:
    return "\n".join(decision_lines(state, 0, menu(state, 0)))


# --- a whole session --------------------------------------------------------------------------


def test_a_human_plays_is_refused_undoes_and_saves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Short and full notation, an illegal bid, an undo and a save, checked move by move."""
    typed = ["choose 4", "bid 99", "0:bid 7", "undo", "2", "save game.json"]
    code, out = session(PLAY, typed, monkeypatch, capsys)
    assert code == 0
    # "choose 4" opens plant 4 at its minimum; the bot raises to 5.
    assert "player 0> choose 4\n  player 0 opens plant 4 at 4.\n  player 1 bids 5.\n" in out
    # The illegal bid gets the engine's own message (AUC-07) and the prompt again.
    at_bid = replay(
        GameRecord(config=CLASSIC, seed=3, actions=parse_all("0:choose 4 4", "1:bid 5"))
    )
    why = explain_illegal(at_bid, Bid(player=0, amount=99))
    assert why == "Bid 99 is more than the 50 Elektro player 0 has (AUC-07)"
    assert f"player 0> bid 99\nNot allowed: {why}\nplayer 0> 0:bid 7\n" in out
    # The undo takes back the bid and the three bot moves after it ...
    assert "player 0> undo\nTook back bid 7 and the 3 moves after it.\n" in out
    views = blocks(out)
    assert views[1] == view_of(at_bid)  # the view where "bid 99" and "0:bid 7" were typed
    assert views[3] == views[1]  # ... so the same position and menu come back
    assert "  1. bid 6..50\n  2. fold" in views[3]
    # "2" picks the second line of the menu: fold; the bot buys plant 4 for 5.
    assert "player 0> 2\n  player 0 drops out.\n  player 1 buys plant 4 for 5.\n" in out
    assert "player 0> save game.json\nSaved the game (3 actions) to game.json.\n" in out
    saved = record_of("game.json")
    assert saved == GameRecord(
        config=CLASSIC, seed=3, actions=parse_all("0:choose 4 4", "1:bid 5", "0:fold")
    )
    assert views[4] == view_of(replay(saved))  # the position the save was made in


def test_resume_plays_on_and_the_end_of_input_says_how_to_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = GameRecord(
        config=CLASSIC, seed=3, actions=parse_all("0:choose 4 4", "1:bid 5", "0:fold")
    )
    pathlib.Path("game.json").write_text(to_json(saved, indent=2), encoding="utf-8")
    argv = ["play", "--resume", "game.json", "--human", "0", "--bots", "random"]
    code, out = session(argv, ["choose 6", "buy coal"], monkeypatch, capsys)
    assert code == 0
    assert out.startswith(
        "Power Grid: 2 players on Europe (central, france_iberia, scandinavia_baltic), seed 3\n"
        "Seats: player 0 human, player 1 random\n"
        "Resumed 3 actions from game.json\n"
    )
    assert blocks(out)[0] == view_of(replay(saved))
    assert out.endswith(
        "player 0> \n"
        "End of input: the game is saved in powergrid-3.json. Resume it with:\n"
        f"  {RESUME.format('powergrid-3.json')}\n"
    )
    later = record_of("powergrid-3.json")
    assert later.actions[:3] == saved.actions
    assert later.actions[3] == ChoosePlant(player=0, plant="6", bid=6)
    refusal = "Not allowed: player 0's plants can store only 0 more coal (RES-05)"
    assert f"player 0> buy coal\n{refusal}\n" in out  # plant 6 burns garbage, not coal
    state = replay(later)
    assert current_player(state) == 0
    # Resuming the new file again continues from the same place.
    code, again = session(
        ["play", "--resume", "powergrid-3.json", "--human", "0", "--bots", "random"],
        ["buy garbage", "end"],
        monkeypatch,
        capsys,
    )
    assert code == 0
    assert blocks(again)[0] == view_of(state)
    final = record_of("powergrid-3-2.json")  # the first save is not overwritten
    assert final.actions[: len(later.actions)] == later.actions
    assert final.actions[len(later.actions) :][:2] == (
        BuyResource(player=0, resource=Resource.GARBAGE, count=1),
        EndPurchase(player=0),
    )


def test_quit_saves_to_the_record_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = session([*PLAY, "--record", "mine.json"], ["choose 3", "quit"], monkeypatch, capsys)
    assert code == 0
    assert out.endswith(
        "player 0> quit\n"
        "Quit: the game is saved in mine.json. Resume it with:\n"
        f"  {RESUME.format('mine.json')} --record mine.json\n"
    )
    assert record_of("mine.json").actions[0] == ChoosePlant(player=0, plant="3", bid=3)
    assert not pathlib.Path("powergrid-3.json").exists()


class Interrupting:
    """Input where the player presses Ctrl-C at the second prompt."""

    def __init__(self) -> None:
        self.lines = ["choose 5\n"]

    def readline(self) -> str:
        if not self.lines:
            raise KeyboardInterrupt
        return self.lines.pop()

    def isatty(self) -> bool:
        return False


def test_ctrl_c_saves_without_overwriting_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pathlib.Path("powergrid-3.json").write_text("someone else's", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", Interrupting())
    assert main(PLAY) == 130
    out = capsys.readouterr().out
    assert out.endswith(
        "Interrupted: the game is saved in powergrid-3-2.json. Resume it with:\n"
        f"  {RESUME.format('powergrid-3-2.json')}\n"
    )
    assert pathlib.Path("powergrid-3.json").read_text(encoding="utf-8") == "someone else's"
    assert record_of("powergrid-3-2.json").actions[0] == ChoosePlant(player=0, plant="5", bid=5)


def test_a_game_played_to_the_end_is_saved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Always taking line 1 of the menu loses to the greedy bot, and the game ends."""
    argv = [*PLAY[:-4], "--bots", "greedy", "--seed", "3"]
    code, out = session(argv, ["1"] * 300, monkeypatch, capsys)
    assert code == 0
    assert "Winner: player 1\nThe game record is in powergrid-3.json.\n" in out
    record = record_of("powergrid-3.json")
    result = outcome(replay(record))
    assert result is not None
    assert result.winners == (1,)


def test_commands_at_the_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = ["help", "show", "", "undo", "9", "dance", "save", "save /no/such/dir/x.json"]
    code, out = session(PLAY, typed, monkeypatch, capsys)
    assert code == 0
    assert '  buy 2 coal      buy 2 coal; "buy coal" buys one\n' in out
    assert "Legal actions for player 0 (186):\n  0:choose 3 3..50\n" in out  # show
    assert len(blocks(out)) == 2  # the empty line shows the position again
    assert "Nothing to undo: player 0 has not decided anything yet.\n" in out
    assert "there is no line 9 in the menu: choose 1 to 4\n" in out
    assert "unknown action 'dance' in 'dance'; known: mark, fund, choose, pass," in out
    assert "save needs a file name: save FILE\n" in out
    assert "cannot write /no/such/dir/x.json: No such file or directory\n" in out


# --- what the prompt accepts -------------------------------------------------------------------


def greedy_state(seed: int, actions: int) -> GameState:
    """The classic 2-player game of ``seed`` after ``actions`` moves of two greedy bots."""
    state = new_game(CLASSIC, seed=seed)
    bots = [GreedyBot(seed=seed * 100), GreedyBot(seed=seed * 100 + 1)]
    for _ in range(actions):
        seat = current_player(state)
        assert seat is not None
        state = apply(state, bots[seat].choose(state))
    return state


def picks(state: GameState) -> list[Action]:
    seat = current_player(state)
    assert seat is not None
    return [entry.action for entry in menu(state, seat)]


@pytest.fixture(scope="module")
def opening() -> GameState:
    return new_game(CLASSIC, seed=3)


def test_numbers_and_the_auction_forms(opening: GameState) -> None:
    menu_picks = picks(opening)
    assert interpret("2", opening, menu_picks) == ChoosePlant(player=0, plant="4", bid=4)
    assert interpret("5", opening, menu_picks) == Unclear(
        "there is no line 5 in the menu: choose 1 to 4"
    )
    assert interpret("choose 04", opening, menu_picks) == ChoosePlant(player=0, plant="4", bid=4)
    assert interpret("Choose 4 9", opening, menu_picks) == ChoosePlant(player=0, plant="4", bid=9)
    assert interpret("1:choose 4 9", opening, menu_picks) == ChoosePlant(player=1, plant="4", bid=9)
    # Plant 13 is in the future market: the engine says why it cannot be chosen.
    thirteen = act("choose 13", opening)
    assert thirteen == ChoosePlant(player=0, plant="13", bid=0)
    assert explain_illegal(opening, thirteen) == (
        "Plant 13 is not in the actual market (offered: 3, 4, 5, 6)"
    )
    passed = act("pass", opening)
    assert passed == PassAuction(player=0)
    assert explain_illegal(opening, passed) == (
        "player 0 must buy a plant in the first round (AUC-13)"
    )
    running = apply(opening, ChoosePlant(player=0, plant="4", bid=4))
    assert interpret("pass", running, picks(running)) == PassBid(player=1)
    assert interpret("bid", running, picks(running)) == Bid(player=1, amount=5)
    assert interpret("bid 12", running, picks(running)) == Bid(player=1, amount=12)
    assert interpret("undo", running, ()) == Command("undo")
    assert interpret("save My Game.json", running, ()) == Command("save", "My Game.json")
    assert interpret("quit now", running, ()) == Unclear("quit takes nothing after it")


def test_buying_forms() -> None:
    state = greedy_state(3, 10)  # player 0 buys for plant 7 (3 oil -> 2)
    assert state.phase is Phase.RESOURCES
    assert current_player(state) == 0
    oil = Resource.OIL
    assert act("buy oil", state) == BuyResource(player=0, resource=oil, count=1)
    assert act("buy oil 2", state) == BuyResource(player=0, resource=oil, count=2)
    assert act("buy 3 oil", state) == BuyResource(player=0, resource=oil, count=3)
    for word in ("end", "done", "pass", "endbuy", "0:endbuy"):
        assert act(word, state) == EndPurchase(player=0)
    coal = act("buy coal", state)
    assert explain_illegal(state, coal) == "player 0's plants can store only 0 more coal (RES-05)"


def test_building_completes_city_names() -> None:
    state = greedy_state(3, 14)
    assert state.phase is Phase.BUILDING
    assert current_player(state) == 1
    assert interpret("build ber", state, ()) == Build(player=1, city="berlin")
    assert interpret("build MÜN", state, ()) == Build(player=1, city="munchen")  # its name
    assert interpret("build st petersburg", state, ()) == Build(player=1, city="st_petersburg")
    assert interpret("build st", state, ()) == Unclear(
        "build 'st' fits several cities: build stuttgart, build stockholm, build st_petersburg"
    )
    # London is on the board but not in play: completed, then refused by the engine.
    london = act("build lon", state)
    assert london == Build(player=1, city="london")
    assert explain_illegal(state, london) == ("London lies outside the play area (SET-04, BLD-07)")
    assert interpret("build xyz", state, ()) == Build(player=1, city="xyz")


def test_power_needs_the_mix_only_when_a_hybrid_leaves_a_choice() -> None:
    state = greedy_state(4, 77)
    assert state.phase is Phase.BUREAUCRACY
    assert current_player(state) == 1
    menu_picks = picks(state)
    assert interpret("power 9", state, menu_picks) == parse_action("1:power 9 oil=1")
    assert interpret("power 5 9", state, menu_picks) == parse_action("1:power 5,9 coal=2 oil=1")
    assert interpret("power 5", state, menu_picks) == Unclear(
        "'power 5' fits several actions; type one of them (or its number):\n"
        "  2. power 5 coal=1 oil=1\n"
        "  3. power 5 coal=2"
    )
    assert interpret("power 5 coal=2", state, menu_picks) == Power(
        player=1, plants=("5",), mix={Resource.COAL: 2}
    )
    assert interpret("power none", state, menu_picks) == Power(player=1)


def test_discard_takes_the_plant_and_lists_drops_when_needed() -> None:
    state = greedy_state(34, 66)
    seat = current_player(state)
    assert seat is not None
    assert interpret("discard 07", state, ()) == DiscardPlant(player=seat, plant="7")
    assert interpret("discard 8", state, ()) == DiscardPlant(player=seat, plant="8")  # legal
    dropped = interpret("discard 8 drop coal=1", state, ())
    assert dropped == DiscardPlant(player=seat, plant="8", drop={Resource.COAL: 1})


# --- real input ------------------------------------------------------------------------------


def test_piped_input_in_a_subprocess(tmp_path: pathlib.Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "powergrid", *PLAY],
        input="choose 4\nfold\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "player 0> fold\n  player 0 drops out.\n  player 1 buys plant 4 for 5.\n" in proc.stdout
    assert proc.stdout.endswith(f"  {RESUME.format('powergrid-3.json')}\n")
    assert record_of(tmp_path / "powergrid-3.json").actions == parse_all(
        "0:choose 4 4", "1:bid 5", "0:fold"
    )


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_terminal_session_reads_with_input_and_ends_at_ctrl_d(tmp_path: pathlib.Path) -> None:
    with terminal(PLAY, tmp_path) as (proc, main_fd):
        read_until(main_fd, b"player 0> ")
        os.write(main_fd, b"choose 3\n")
        read_until(main_fd, b"2. fold\r\nplayer 0> ")
        os.write(main_fd, b"\x04")  # Ctrl-D at an empty prompt: the end of input
        rest = read_until(main_fd, None)
        assert proc.wait(timeout=60) == 0
    assert b"End of input: the game is saved in powergrid-3.json" in rest
    assert record_of(tmp_path / "powergrid-3.json").actions[0] == ChoosePlant(
        player=0, plant="3", bid=3
    )


# --- the docs -------------------------------------------------------------------------------


def docs_session() -> Iterator[str]:
    text = (pathlib.Path(__file__).parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## play at the prompt", 1)[1].split("\n## ", 1)[0]
    yield section.split("```sh\n", 1)[1].split("\n", 1)[0]
    yield section.split("```text\n", 1)[1].split("```", 1)[0]


def test_the_cli_docs_show_a_real_session(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cli.md's session is what the command prints for the input it pipes in."""
    command, shown = docs_session()
    words = shlex.split(command)
    assert words[0] == "printf"
    assert words[2:6] == ["|", "python", "-m", "powergrid"]
    typed = words[1].encode().decode("unicode_escape").splitlines()
    code, out = session(words[6:], typed, monkeypatch, capsys)
    assert code == 0
    assert out == shown
    assert record_of("game.json").actions == parse_all("0:choose 4 4", "1:bid 5", "0:fold")


def test_resuming_a_finished_game_shows_the_result_and_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--players", "2", "--seed", "3", "--record", "done.json"]) == 0
    capsys.readouterr()
    code, out = session(["play", "--resume", "done.json", "--human", "0"], [], monkeypatch, capsys)
    assert code == 0
    assert "player 0>" not in out
    assert "\nWinner: " in out
    assert sorted(p.name for p in pathlib.Path().iterdir()) == ["done.json"]


def test_city_at_the_prompt_names_houses_neighbours_and_your_cost() -> None:
    """``city NAME``: who sits there, its neighbours and what a house costs you (issue 35)."""
    import powergrid as pg
    from powergrid.cli.human_view import city_lines

    cfg = pg.GameConfig(players=3, map="europe", components="classic")
    area = ["british_isles_low_countries", "central", "alps_italy_hungary"]
    state = pg.build_position(
        cfg,
        seed=1,
        area=area,
        round=3,
        step=1,
        phase="building",
        order=[0, 1, 2],
        seats={0: {"cities": ["berlin", "praha"]}, 1: {"cities": ["wien"]}},
    )
    lines = city_lines(state, 2, "Wien")
    assert lines[0] == "Wien (wien, alps_italy_hungary)"
    assert lines[1] == "  houses: player 1 (10)"  # BLD-05: the first slot costs 10
    assert "praha 7" in lines[2]  # the Europe board: Wien-Praha costs 7
    assert lines[3] == "  no slot free in Step 1 (BLD-05)"
    assert city_lines(state, 2, "praha")[3].startswith("  no slot free")
    assert city_lines(state, 0, "berlin")[3] == "  you have a house here"  # BLD-06
    # Seat 2 has no city yet: a first house costs the slot only (BLD-03).
    assert (
        city_lines(state, 2, "munchen")[3]
        == "  a house here costs you 10 now (slot and connection)"
    )
    assert city_lines(state, 0, "madrid") == [
        "Madrid (madrid, france_iberia) is outside the play area"
    ]
    assert city_lines(state, 0, "atlantis")[0].startswith("No city 'atlantis' on Europe")
    assert interpret("city", state, ()) == Unclear("city needs a city's name: city BERLIN")
    assert interpret("city Wien", state, ()) == Command("city", "Wien")


def test_map_at_the_prompt_writes_the_seats_picture_beside_the_save(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``map`` writes the picture as the seat sees it next to the record and says where."""
    import xml.etree.ElementTree as ET

    argv = [*PLAY, "--bots", "random", "--record", "game.json"]
    code, out = session(argv, ["map", "map", "quit"], monkeypatch, capsys)
    assert code == 0
    assert out.count("Wrote the picture to game.svg; open it in a browser.") == 2
    root = ET.fromstring(pathlib.Path("game.svg").read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    record = record_of("game.json")
    state = replay(record)
    assert not any(
        f'data-card="{c}"' in ET.tostring(root, encoding="unicode") for c in state.secret.deck
    )


def test_map_at_the_prompt_leaves_a_file_it_did_not_write(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pathlib.Path("game.svg").write_text("mine", encoding="utf-8")
    argv = [*PLAY, "--bots", "random", "--record", "game.json"]
    code, out = session(argv, ["map", "quit"], monkeypatch, capsys)
    assert code == 0
    assert "game.svg is not this game's picture; not overwritten (play --force)" in out
    assert pathlib.Path("game.svg").read_text(encoding="utf-8") == "mine"
