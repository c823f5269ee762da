"""The position text: a whole game position in one line, like chess's FEN.

:func:`position_text` writes a state, :func:`parse_position` reads it back
through the position builder (:func:`powergrid.build_position`), so a text
obeys every rule of a consistent state. The text holds everything but the
event log; the hidden parts (deck order, plants removed unseen, random
stream) only when asked for (``hidden=True``). Without them, the seed of
:func:`parse_position` decides them.

Grammar: fields separated by white space, each ``key=value`` or a bare flag,
each at most once, in any order. Lists are comma-separated, ``-`` is an empty
list, ``/`` separates the parts of one field and ``.`` the items of a part.
Names and reasons are percent-encoded (``%20`` for a space).

=================  ================================================================
field              meaning
=================  ================================================================
``game``           ``<components>/<map>/<players>`` (required)
``modules``        extra rule modules, in order (absent: the default, e.g. the fund of
                   2-player Deluxe; ``-``: none)
``options``        rule options (``map_rules``, ``seed_thresholds``)
``names``          display names, one per seat
``regions``        the config's own choice of regions (absent: chosen by the seed)
``cities``         the config's cities in play instead of regions (CDK-16)
``plantdeck``      a customised deck: ``<variant>:<registered deck names>`` (``M:classic,x``)
``area``           the play area's regions (required)
``round``          ``round=<n>``, likewise ``step``, ``build`` (the build Step)
``phase``          ``setup``, ``auction``, ``resources``, ``building``, ``bureaucracy``,
                   ``game_over``
``order``          the player order, position 1 first (actors by negative id)
``done``           who finished the current phase; ``bought``: who bought this round
``seat<n>``        ``<money>/<plants>/<tokens>/<cities>``, tokens as ``coal:2,oil:1``
``actor<id>``      ``<name>/<plants>/<tokens>/<cities>/<houses in its supply>`` of an actor
``houses``         build order in cities with two houses or more: ``berlin:2.0,...``
``market``         ``<actual>/<future>`` plant labels, lowest rank first
``top``            the face-up card on the deck; ``under``: plants under the Step 3 card
``removed``        plants removed face up
``<module key>``   a field of a rule module's own state, under the key its
                   ``StateSpec`` gives it, when it differs from the field's default:
                   North America's ``discount`` (the plant under the token), a
                   customised deck's ``inactive`` area and ``quota`` (removals due)
``step3``          where the Step 3 card is: ``deck``, ``market`` or ``out``
``deck``           how many cards the hidden deck holds
``tokens``         tokens on the resource market per kind, ``coal:21,oil:18,...``
``auction``        ``<plant>/<bid>/<high bidder>/<auctioneer>/<active seats>``
``discard``        ``<seat>/<plant just bought>`` while a discard is pending
``pending``        flag: the Step 3 card waits in the market for the phase to end
``end``            flag: the game end is triggered
``result``         ``<reason>/<winners>/<ranking>/<scores>``, a score ``seat.powered.money.cities``
``hidden``         ``<deck order>/<removed unseen>/<seed>.<counter>`` (only when asked)
=================  ================================================================

>>> import powergrid as pg
>>> state = pg.new_game(pg.GameConfig(players=3, map="europe", components="classic"), seed=1)
>>> text = pg.position_text(state)
>>> text.split()[0], text.split()[2:5]
('game=classic/europe/3', ['round=1', 'step=1', 'phase=auction'])
>>> again = pg.parse_position(pg.position_text(state, hidden=True))
>>> again == pg.state.evolve(state, events=again.events)
True
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any
from urllib.parse import quote, unquote

from powergrid.catalog import default_modules
from powergrid.config import GameConfig
from powergrid.deck import DeckChoice
from powergrid.errors import InvalidRecord, PowerGridError
from powergrid.mechanics.seeds import SEED_BOUND
from powergrid.module_state import changed_fields
from powergrid.outcome import Outcome, Score
from powergrid.outside_text import shown
from powergrid.rules.ruleset import state_specs_for
from powergrid.state import GameState


def _q(text: str) -> str:
    return quote(text, safe="")


def _deck_names(choice: DeckChoice) -> list[str]:
    """The names of a deck choice's decks: a text names decks, never their cards.

    Reading the text back needs each deck registered under its name
    (:func:`powergrid.deck.register_deck`).
    """
    return [d.name for d in choice.decks]


def _list(items: Any) -> str:
    return ",".join(map(str, items)) or "-"


def _tokens(state: GameState, counts: tuple[int, ...]) -> str:
    kinds = state.rules.resources
    return _list(f"{k.value}:{n}" for k, n in zip(kinds, counts, strict=True) if n)


def _holding(state: GameState, head: str, plants: Any, res: Any, cities: Any) -> str:
    return f"{head}/{_list(plants)}/{_tokens(state, res)}/{_list(cities)}"


def position_text(state: GameState, *, hidden: bool = False) -> str:
    """The position text of ``state`` (module docstring); secrets only with ``hidden=True``.

    A chance point of explicit chance (:mod:`powergrid.mechanics.chance_points`) has none: it
    raises ``ValueError``, since the text would lose the action being resolved.
    """
    if state.chance is not None:
        raise ValueError(
            "a chance point has no position text: resolve its chance event first, or save "
            "the state with powergrid.to_json"
        )
    c, m = state.config, state.market
    out = [f"game={c.components}/{c.map}/{c.players}"]
    if c.modules or c.modules != default_modules(c.components, c.players):
        out.append(f"modules={_list(c.modules)}")  # "-": opted out of a default module
    if c.options:
        out.append(f"options={_list(sorted(c.options))}")
    if c.names is not None:
        out.append(f"names={_list(map(_q, c.names))}")
    if c.regions is not None:
        out.append(f"regions={_list(c.regions)}")
    if c.cities is not None:
        out.append(f"cities={_list(c.cities)}")
    if c.deck is not None:
        out.append(f"plantdeck={c.deck.variant}:{_list(_deck_names(c.deck))}")
    out.append(f"area={_list(state.regions)}")
    out += [f"round={state.round}", f"step={state.step}", f"phase={state.phase.name.lower()}"]
    out += [f"build={state.build_step}", f"order={_list(state.order)}"]
    for key in ("done", "bought"):
        if getattr(state, key):
            out.append(f"{key}={_list(sorted(getattr(state, key)))}")
    for p in state.players:
        out.append(
            f"seat{p.seat}=" + _holding(state, str(p.money), p.plants, p.resources, p.cities)
        )
    for a in state.actors:
        holding = _holding(state, _q(a.name), a.plants, a.resources, a.cities)
        out.append(f"actor{a.actor}={holding}/{a.houses}")
    cities = state.rules.area.board.cities
    stacks = [f"{cities[i]}:{'.'.join(map(str, h))}" for i, h in enumerate(state.board.houses)]
    stacks = [s for s, h in zip(stacks, state.board.houses, strict=True) if len(h) > 1]
    if stacks:
        out.append(f"houses={','.join(stacks)}")
    out.append(f"market={_list(m.actual)}/{_list(m.future)}")
    out += _market_fields(state)
    return " ".join(out + _turn_fields(state) + (_hidden_fields(state) if hidden else []))


def _market_fields(state: GameState) -> list[str]:
    m = state.market
    out = [f"top={m.top}"] if m.top is not None else []
    out += [f"under={_list(m.under_step3)}"] if m.under_step3 else []
    out += [f"removed={_list(m.removed)}"] if m.removed else []
    out += [f"{key}={_module_text(value)}" for key, value, _ in changed_fields(state)]
    where = "deck" if m.step3_in_deck else "market" if m.step3_in_market else "out"
    out += [f"step3={where}", f"deck={m.deck_size}"]
    kinds = state.rules.resources
    tokens = ",".join(f"{k.value}:{n}" for k, n in zip(kinds, state.resources.market, strict=True))
    return [*out, f"tokens={tokens}"]


def _module_text(value: Any) -> str:
    """A module field's value in a text: a number, a percent-encoded word, a list, ``-``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | frozenset):
        items = sorted(value) if isinstance(value, frozenset) else value
        return ",".join(_module_text(v) for v in items) or "-"
    return str(value) if isinstance(value, int) else _q(value)


def _turn_fields(state: GameState) -> list[str]:
    out = []
    a = state.auction
    if a is not None:
        active = ".".join(map(str, a.active))
        out.append(f"auction={a.plant}/{a.bid}/{a.high_bidder}/{a.auctioneer}/{active}")
    if state.discarding is not None:
        out.append(f"discard={state.discarding}/{state.new_plant}")
    out += ["pending"] if state.step3_pending else []
    out += ["end"] if state.end_triggered else []
    r = state.result
    if r is not None:
        scores = ",".join(f"{s.seat}.{s.powered}.{s.money}.{s.cities}" for s in r.scores)
        head = f"result={_q(r.reason)}/{'.'.join(map(str, r.winners))}"
        out.append(f"{head}/{'.'.join(map(str, r.ranking))}/{scores}")
    return out


def _hidden_fields(state: GameState) -> list[str]:
    s = state.secret
    return [f"hidden={_list(s.deck)}/{_list(s.removed_unseen)}/{s.rng.seed}.{s.rng.counter}"]


# --- reading ---------------------------------------------------------------------------------


def parse_position(text: str, *, seed: int = 0) -> GameState:
    """The state a position text describes; ``seed`` decides what the text leaves hidden.

    Bad syntax or an impossible position raises :class:`~powergrid.InvalidRecord`
    naming the field, whatever the text holds: numbers are ASCII digits only
    (superscripts and other scripts' digits are not numbers), names printable text
    (:mod:`powergrid.outside_text`). The event log of the state is empty.
    """
    from powergrid.formats.position import build_position

    fields = _fields(text)
    config = _config(fields)
    try:
        from powergrid.formats.position import module_parts

        modules = module_parts(state_specs_for(config), text_keys())
    except PowerGridError as err:
        raise InvalidRecord(str(err), path="modules") from None
    parts: dict[str, Any] = {key: default for key, (_, _, _, default) in modules.items()}
    for key, value in fields.items():
        reader = _READERS.get(key) or _module_reader(modules, key) or _prefixed(key)
        try:
            reader(value, parts, key)
        except InvalidRecord:
            raise
        except (ValueError, TypeError, IndexError) as err:
            raise InvalidRecord(f"cannot read {shown(value)} ({err})", path=key) from None
    for part, empty in _ABSENT.items():
        parts.setdefault(part, empty)  # a text names every part it holds
    return build_position(config, seed=seed, **parts)


#: What a field left out of a text means.
_ABSENT: dict[str, Any] = {
    "done": [],
    "bought": [],
    "actors": [],
    "top": None,
    "under_step3": [],
    "removed": [],
    "auction": None,
    "discard": None,
    "step3_pending": False,
    "end_triggered": False,
    "result": None,
}


def _fields(text: str) -> dict[str, str]:
    if not isinstance(text, str):
        raise InvalidRecord(f"a position text is a string, not {type(text).__name__}")
    if len(text) > 100_000:
        raise InvalidRecord("a position text is at most 100000 characters")
    fields: dict[str, str] = {}
    for word in text.split():
        key, eq, value = word.partition("=")
        if key in fields:
            raise InvalidRecord("named twice", path=key)
        fields[key] = value if eq else "true"
    return fields


def _config(fields: dict[str, str]) -> GameConfig:
    game = fields.pop("game", None)
    if game is None:
        raise InvalidRecord("missing field", path="game")
    words = game.split("/")
    if len(words) != 3 or not _DIGITS.fullmatch(words[2]):
        raise InvalidRecord(
            "expected <components>/<map>/<players>, the players a number in ASCII digits",
            path="game",
        )
    kw: dict[str, Any] = {"components": words[0], "map": words[1], "players": int(words[2])}
    for key in ("modules", "options", "names", "regions", "cities"):
        if key in fields:
            items = _items(fields.pop(key))
            kw[key] = [unquote(i) for i in items] if key == "names" else items
    if "plantdeck" in fields:
        variant, colon, names = fields.pop("plantdeck").partition(":")
        if not colon:
            raise InvalidRecord("expected <variant>:<deck names>", path="plantdeck")
        kw["deck"] = {"variant": variant, "decks": _items(names)}
    if "modules" in kw:  # the text lists every module played: a default it leaves out is out
        try:
            defaults = default_modules(kw["components"], kw["players"])
        except (KeyError, TypeError):
            defaults = ()  # an unknown component set: GameConfig names it
        kw["without"] = [d for d in defaults if d not in kw["modules"]]
    try:
        return GameConfig(**kw)
    except PowerGridError as err:
        field = getattr(err, "field", "game")
        where = "game" if field in ("players", "map", "components") else field
        raise InvalidRecord(str(err), path=where) from None
    except (TypeError, ValueError) as err:
        raise InvalidRecord(str(err), path="game") from None


def _items(value: str) -> list[str]:
    return [] if value == "-" else value.split(",")


#: A number of a text: ASCII digits, at most 18 of them (no count of a game needs more).
_DIGITS = re.compile(r"[0-9]{1,18}", re.ASCII)
_NUMBER = re.compile(r"-?[0-9]{1,18}", re.ASCII)
#: The seed of the random stream: up to 617 digits (powergrid.mechanics.seeds.SEED_BOUND).
_SEED = re.compile(rf"-?[0-9]{{1,{len(str(SEED_BOUND))}}}", re.ASCII)


def _ints(value: str, sep: str = ",") -> list[int]:
    return [] if value in ("-", "") else [_number(v) for v in value.split(sep)]


def _number(value: str, pattern: re.Pattern[str] = _NUMBER) -> int:
    """A whole number in ASCII digits (``str.isdigit`` would let ``²`` and ``٣`` in)."""
    if not pattern.fullmatch(value):
        raise ValueError(f"{shown(value)} is not a whole number in ASCII digits")
    return int(value)


def _counts(value: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in _items(value):
        kind, _, n = item.partition(":")
        out[kind] = _number(n)
    return out


def _read_holding(value: str, key: str) -> tuple[str, list[str], dict[str, int], list[str]]:
    parts = value.split("/")
    if len(parts) != 4:
        raise InvalidRecord("expected <head>/<plants>/<tokens>/<cities>", path=key)
    return parts[0], _items(parts[1]), _counts(parts[2]), _items(parts[3])


def _seat(value: str, parts: dict[str, Any], key: str) -> None:
    money, plants, tokens, cities = _read_holding(value, key)
    seat = _number(key[4:])
    parts.setdefault("seats", {})[seat] = {
        "money": _number(money),
        "plants": plants,
        "resources": tokens,
        "cities": cities,
    }


def _actor(value: str, parts: dict[str, Any], key: str) -> None:
    holding, slash, houses = value.rpartition("/")
    if not slash or not _DIGITS.fullmatch(houses):
        raise InvalidRecord("expected <name>/<plants>/<tokens>/<cities>/<houses>", path=key)
    name, plants, tokens, cities = _read_holding(holding, key)
    actor = {"actor": _number(key[5:]), "name": unquote(name), "plants": plants}
    more = {"resources": tokens, "cities": cities, "houses": int(houses)}
    parts.setdefault("actors", []).append({**actor, **more})


def _prefixed(key: str) -> Any:
    if key.startswith("seat") and _DIGITS.fullmatch(key[4:]):
        return _seat
    if key.startswith("actor") and _NUMBER.fullmatch(key[5:]):
        return _actor
    raise InvalidRecord("unknown field (see powergrid.formats.position_text)", path=key)


def _module_reader(modules: dict[str, tuple[str, str, Any, Any]], key: str) -> Any:
    """The reader of a rule module's state field under its position key, if one has it."""
    if key not in modules:
        return None
    hint = modules[key][2]

    def reader(value: str, parts: dict[str, Any], key: str) -> None:
        parts[key] = _module_value(hint, value)

    return reader


def _module_value(hint: Any, text: str) -> Any:
    """A module field's value read from its text by the field's declared type."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if text == "-" and type(None) in typing.get_args(hint):
            return None
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        return _module_value(rest[0], text)
    if origin in (tuple, frozenset):
        inner = typing.get_args(hint)[0]
        return [_module_value(inner, item) for item in _items(text)]
    if hint is bool:
        if text not in ("true", "false"):
            raise ValueError(f"expected true or false, not {shown(text)}")
        return text == "true"
    if hint is int:
        return _number(text)
    return unquote(text)


def _set(part: str, read: Any) -> Any:
    def reader(value: str, parts: dict[str, Any], key: str) -> None:
        parts[part] = read(value)

    return reader


def _flag(part: str) -> Any:
    def reader(value: str, parts: dict[str, Any], key: str) -> None:
        if value != "true":
            raise InvalidRecord("a flag takes no value", path=key)
        parts[part] = True

    return reader


def _market(value: str, parts: dict[str, Any], key: str) -> None:
    actual, slash, future = value.partition("/")
    if not slash:
        raise InvalidRecord("expected <actual>/<future>", path=key)
    parts["actual"], parts["future"] = _items(actual), _items(future)


def _houses(value: str, parts: dict[str, Any], key: str) -> None:
    out = {}
    for item in _items(value):
        city, _, seats = item.partition(":")
        out[city] = _ints(seats, ".")
    parts["houses"] = out


def _auction(value: str, parts: dict[str, Any], key: str) -> None:
    words = value.split("/")
    if len(words) != 5:
        raise InvalidRecord("expected <plant>/<bid>/<high>/<auctioneer>/<active>", path=key)
    parts["auction"] = {
        "plant": words[0],
        "bid": _number(words[1]),
        "high_bidder": _number(words[2]),
        "auctioneer": _number(words[3]),
        "active": _ints(words[4], "."),
    }


def _discard(value: str, parts: dict[str, Any], key: str) -> None:
    seat, _, plant = value.partition("/")
    parts["discard"] = [_number(seat), plant]


def _result(value: str, parts: dict[str, Any], key: str) -> None:
    words = value.split("/")
    if len(words) != 4:
        raise InvalidRecord("expected <reason>/<winners>/<ranking>/<scores>", path=key)
    winners = tuple(_ints(words[1], "."))
    scores = tuple(Score(*map(_number, s.split("."))) for s in _items(words[3]))
    parts["result"] = Outcome(
        winner=winners[0] if len(winners) == 1 else None,
        winners=winners,
        ranking=tuple(_ints(words[2], ".")),
        scores=scores,
        reason=unquote(words[0]),
    )


def _hidden(value: str, parts: dict[str, Any], key: str) -> None:
    words = value.split("/")
    if len(words) != 3:
        raise InvalidRecord("expected <deck>/<removed unseen>/<seed>.<counter>", path=key)
    seed, _, counter = words[2].partition(".")
    parts["deck"], parts["removed_unseen"] = _items(words[0]), _items(words[1])
    parts["rng"] = (_number(seed, _SEED), _number(counter, _DIGITS))


def text_keys() -> frozenset[str]:
    """The keys of the core's fields of a position text (``seat<n>``, ``actor<id>`` aside)."""
    return frozenset(_READERS) | {
        "game",
        "modules",
        "options",
        "names",
        "regions",
        "cities",
        "plantdeck",
    }


_READERS: dict[str, Any] = {
    "area": _set("area", _items),
    "round": _set("round", _number),
    "step": _set("step", _number),
    "build": _set("build_step", _number),
    "phase": _set("phase", str),
    "order": _set("order", _ints),
    "done": _set("done", _ints),
    "bought": _set("bought", _ints),
    "houses": _houses,
    "market": _market,
    "top": _set("top", str),
    "under": _set("under_step3", _items),
    "removed": _set("removed", _items),
    "step3": _set("step3", str),
    "deck": _set("deck_size", _number),
    "tokens": _set("market_tokens", _counts),
    "auction": _auction,
    "discard": _discard,
    "pending": _flag("step3_pending"),
    "end": _flag("end_triggered"),
    "result": _result,
    "hidden": _hidden,
}
