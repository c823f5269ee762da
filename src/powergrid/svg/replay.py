"""A recorded game as one self-contained HTML page that steps through it (issue 35).

:func:`replay_page` draws every state of a record with
:func:`powergrid.svg.game` and packs the pictures into one page: the first
picture whole, then for each action only the lines of the picture that
changed (most of a picture, the map above all, stays the same from one action
to the next). Every distinct line is stored once. The page's script rebuilds
a picture from those edits when it is shown, so a finished 6-player game
fits in well under a megabyte, where the pictures themselves would take tens.

The page needs no network and no other file: its style, its script and its
data are inside it. It shows what a spectator saw at each moment (the public
part of the game, never a card still in the deck), with the events of each
step under the picture.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from importlib import resources
from typing import Any

from powergrid.actions import CHANCE
from powergrid.formats.records import GameRecord, states
from powergrid.state import GameState
from powergrid.svg.markup import esc
from powergrid.svg.pictures import game

__all__ = ["Frames", "frames_of", "replay_page"]

#: One edit of a picture's lines: replace old lines ``[start:end]`` with these line ids.
Edit = tuple[int, int, list[int]]


class Frames:
    """The pictures of a game's states as line ids: the first whole, the rest as edits.

    ``lines`` holds every distinct line of SVG text once; ``first`` is the
    first picture as indexes into it, and ``edits[k]`` turns picture ``k``
    into picture ``k + 1``. :meth:`picture` rebuilds any picture, as the
    page's script does.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._ids: dict[str, int] = {}
        self.first: list[int] = []
        self.edits: list[list[Edit]] = []
        self._last: list[int] = []

    def add(self, svg_text: str) -> None:
        """Add the next picture (a whole SVG document)."""
        ids = [self._id(line) for line in svg_text.split("\n")]
        if not self.first:
            self.first = ids
        else:
            self.edits.append(_edits(self._last, ids))
        self._last = ids

    def _id(self, line: str) -> int:
        found = self._ids.get(line)
        if found is None:
            found = self._ids[line] = len(self.lines)
            self.lines.append(line)
        return found

    def __len__(self) -> int:
        return len(self.edits) + (1 if self.first else 0)

    def picture(self, k: int) -> str:
        """Picture ``k`` as SVG text, rebuilt from the first by the edits (as the page does)."""
        ids = list(self.first)
        for edits in self.edits[:k]:
            for start, end, new in reversed(edits):
                ids[start:end] = new
        return "\n".join(self.lines[i] for i in ids)


def _edits(old: list[int], new: list[int]) -> list[Edit]:
    """The edits that turn ``old`` into ``new``, in order of position in ``old``."""
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    a, b = old[head : len(old) - tail], new[head : len(new) - tail]
    if not a and not b:
        return []
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return [
        (head + i1, head + i2, b[j1:j2])
        for op, i1, i2, j1, j2 in matcher.get_opcodes()
        if op != "equal"
    ]


def frames_of(game_states: Iterable[GameState]) -> Frames:
    """The :func:`~powergrid.svg.game` pictures of these states, packed as :class:`Frames`."""
    frames = Frames()
    for state in game_states:
        frames.add(game(state))
    return frames


def replay_page(record: GameRecord, *, title: str | None = None) -> str:
    """The whole game of ``record`` as one HTML page that steps through it action by action.

    The page has buttons (and keys: arrows, Page Up / Page Down for rounds,
    Home / End, space to play) to go forward and back by action and by
    round, a slider, and the events of each step. Replaying checks every
    action: an illegal one raises :class:`~powergrid.IllegalAction` (with its
    ``.index``), a record of other rule versions
    :class:`~powergrid.InvalidRecord`. ``title`` defaults to the map, the
    number of players and the seed.
    """
    all_states = list(states(record))
    frames = frames_of(all_states)
    final = all_states[-1]
    board = final.rules.area.board.name
    heading = title or f"Power Grid: {board}, {len(final.players)} players, seed {record.seed}"
    data: dict[str, Sequence[Any]] = {
        "lines": frames.lines,
        "first": frames.first,
        "edits": frames.edits,
        "rounds": [s.round for s in all_states],
        "log": [_event_line(e.text, e.player) for e in final.events],
        "spans": [len(s.events) for s in all_states],
    }
    return _page(heading, data)


def _event_line(text: str, player: int | None) -> str:
    """An event as the page lists it: chance events marked as such."""
    return f"(chance) {text}" if player == CHANCE else text


def _script_json(value: Any) -> str:
    """``value`` as JSON safe inside a ``<script>`` element (no ``<`` can end it early)."""
    return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")


def _page(heading: str, data: dict[str, Sequence[Any]]) -> str:
    """The page: its template with the title and the data filled in."""
    template = resources.files("powergrid.svg").joinpath("replay.html").read_text("utf-8")
    return template.replace("@@TITLE@@", esc(heading)).replace("@@DATA@@", _script_json(data))
