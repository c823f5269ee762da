"""Mutation tests of the input doors (issue 31, item 2): only the input errors escape.

Hypothesis draws names and position texts with lone surrogates, control
characters, escape sequences, strings of a million characters and digits of
other scripts (superscript two, Arabic-Indic three, full-width three); and mutates whole documents
(records, states, views, decks): a field deleted, a value replaced by another
JSON type, a value nested thousands of levels deep. Each input gives a valid
object or :class:`~powergrid.InvalidRecord` / :class:`~powergrid.RulesConfigError`,
never another exception, and no error message holds a character a terminal
acts on. The example counts are small: the suite stays fast.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import powergrid as pg
from powergrid.outside_text import MAX_NAME
from powergrid.rules.classic import shipped_deck

#: Characters a file or a client may send that are not plain text, and other scripts' digits.
ODD_CHARS = [
    "\ud800", "\udfff", "\ud83d", "\x00", "\x07", "\x1b", "\n", "\r", "\t", "\x7f", "\x85",
    "\u200b", "\u200d", "\u202e", "\u2028", "\ufeff", "\ufffd", "\u00a0",
    "\u00b2", "\u0663", "\uff13", "\u0966", "\U0001d7d9", "\u00b9", "\u2167",
    "%", "/", ",", "=", ":", ".", "-", "+", " ", "\\", "'", '"', "e\u0301", "\U0001f600",
]  # fmt: skip
#: Strings of a million characters, one of each kind.
HUGE = ["x" * 10**6, "\u0663" * 10**6, "\x1b" * 10**6, "\ud800" * 10**6, "9" * 10**6]

odd_text = st.one_of(
    st.lists(st.one_of(st.sampled_from(ODD_CHARS), st.characters()), max_size=60).map("".join),
    st.sampled_from(HUGE),
    st.sampled_from(ODD_CHARS),
)
SETTINGS = settings(  # the example count is the profile's (tests/conftest.py): 25 by default
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
CFG = pg.GameConfig(players=3, map="europe", components="classic")
E = TypeVar("E", bound=Exception)


def _safe(err: Exception) -> None:
    """An error message a terminal may print: no control character, no lone surrogate."""
    assert str(err).isprintable()
    assert len(str(err)) <= 2_000


def _attempt(make: Callable[[], Any], error: type[E]) -> tuple[Any, E | None]:
    """``make()`` and ``None``, or ``None`` and the ``error`` it raised (any other escapes)."""
    try:
        return make(), None
    except error as err:
        _safe(err)
        return None, err


# --- names -----------------------------------------------------------------------------


@SETTINGS
@given(name=odd_text, seat=st.integers(0, 2))
def test_any_name_makes_a_config_or_a_config_error(name: str, seat: int) -> None:
    """Issue 31 item 2: a name is printable, non-empty, at most 40 characters, or refused."""
    names = ["Ada", "Bob", "Cy"]
    names[seat] = name
    cfg, err = _attempt(lambda: pg.GameConfig(players=3, names=names), pg.RulesConfigError)
    if err is not None:
        assert err.field == f"names[{seat}]"
        assert not (name.isprintable() and 0 < len(name) <= MAX_NAME)
        return
    assert name.isprintable()
    assert 0 < len(name) <= MAX_NAME
    assert pg.from_json(pg.to_json(cfg)) == cfg


@SETTINGS
@given(name=odd_text, seat=st.integers(0, 2))
def test_any_name_in_a_record_reads_or_is_an_invalid_record(name: str, seat: int) -> None:
    """The decoder's door: the same rule, InvalidRecord naming ``config.names[seat]``."""
    doc: dict[str, Any] = json.loads(pg.to_json(pg.GameRecord(config=CFG, seed=1)))
    doc["config"]["names"] = ["Ada", "Bob", "Cy"]
    doc["config"]["names"][seat] = name
    record, err = _attempt(lambda: pg.from_json(json.dumps(doc)), pg.InvalidRecord)
    if err is not None:
        assert err.path == f"config.names[{seat}]"
        return
    assert record.config.names[seat] == name
    assert pg.from_json(pg.to_json(record)) == record


@SETTINGS
@given(name=odd_text)
def test_any_name_in_a_position_text_reads_or_is_an_invalid_record(name: str) -> None:
    """Percent-encoded or raw, a name in a text gives a state or InvalidRecord."""
    for written in (quote(name, safe="", errors="surrogatepass"), name):
        try:
            state = pg.parse_position(f"game=classic/europe/3 names=Ada,{written},Cy")
        except pg.InvalidRecord as err:
            _safe(err)
            continue
        assert state.config.names is not None
        assert all(n.isprintable() for n in state.config.names)


# --- position texts -----------------------------------------------------------------------


def _position() -> list[str]:
    state = pg.new_game(CFG, seed=1)
    for _ in range(25):
        state = pg.apply(state, pg.legal_actions(state)[0])
    return pg.position_text(state, hidden=True).split()


WORDS = _position()


@SETTINGS
@given(
    word=st.integers(0, len(WORDS) - 1),
    at=st.integers(0, 200),
    odd=odd_text,
    how=st.sampled_from(["replace", "insert", "value", "append"]),
)
def test_any_edit_of_a_position_text_reads_or_is_an_invalid_record(
    word: int, at: int, odd: str, how: str
) -> None:
    """Odd digits, control characters or a megabyte put anywhere in a valid text."""
    words = list(WORDS)
    w = words[word]
    i = at % (len(w) + 1)
    if how == "replace":
        words[word] = w[:i] + odd + w[i + 1 :]
    elif how == "insert":
        words[word] = w[:i] + odd + w[i:]
    elif how == "value":
        words[word] = w.partition("=")[0] + "=" + odd
    else:
        words.append(odd)
    try:
        state = pg.parse_position(" ".join(words))
    except pg.InvalidRecord as err:
        _safe(err)
        return
    assert pg.parse_position(pg.position_text(state, hidden=True)) == pg.state.evolve(
        state, events=pg.parse_position(pg.position_text(state, hidden=True)).events
    )


# --- whole documents ----------------------------------------------------------------------


def _documents() -> dict[str, dict[str, Any]]:
    state = pg.new_game(pg.GameConfig(players=2, names=["Ada", "Bob"]), seed=4)
    for _ in range(40):
        state = pg.apply(state, pg.legal_actions(state)[-1])
    record = pg.GameRecord(config=CFG, seed=4, actions=pg.legal_actions(pg.new_game(CFG, seed=4)))
    return {
        "record": json.loads(pg.to_json(record.with_action(record.actions[0]))),
        "state": json.loads(pg.to_json(state)),
        "view": json.loads(pg.to_json(pg.view(state, 0))),
        "deck": json.loads(pg.to_json(shipped_deck("classic"))),
    }


DOCS = _documents()
DEEP = "@@deep@@"

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([2**63, -(2**63) - 1, 10**30, 10**600, -1, 0]),
        st.floats(allow_nan=False),
        odd_text,
        st.just(DEEP),
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(odd_text, inner, max_size=3),
    max_leaves=6,
)


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _places(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _places(v, (*path, i))
    return out


PLACES = {name: _places(doc) for name, doc in DOCS.items()}


@SETTINGS
@given(
    name=st.sampled_from(sorted(DOCS)),
    place=st.integers(0, 10**6),
    how=st.sampled_from(["delete", "replace", "nest"]),
    value=json_values,
    depth=st.sampled_from([3, 300, 3_000, 100_000]),
)
def test_any_mutated_document_reads_or_is_an_invalid_record(
    name: str, place: int, how: str, value: Any, depth: int
) -> None:
    """A field deleted, a value of another JSON type, or nested deep: InvalidRecord only."""
    doc = json.loads(json.dumps(DOCS[name]))
    places = PLACES[name]
    path = places[place % len(places)]
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    deep = "[" * depth + "1" + "]" * depth
    if how == "delete":
        del parent[key]
    elif how == "replace":
        parent[key] = value
    else:
        deep = "[" * depth + json.dumps(parent[key]) + "]" * depth
        parent[key] = DEEP
    text = json.dumps(doc).replace(json.dumps(DEEP), deep)
    try:
        pg.from_json(text)
    except pg.InvalidRecord as err:
        _safe(err)
