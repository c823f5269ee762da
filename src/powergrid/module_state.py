"""Rule modules' own state: a frozen record per module, held by the game state.

A rule module that keeps something of its own through a game (a token on a
plant, an area of cards out of play, a count) declares a :class:`StateSpec`
(``RuleModule.state``). The game state holds one record per such module in
``GameState.modules`` (a :class:`ModuleStates`, keyed by module name); the
core carries it through JSON, pickle, equality, views, position texts, the
position builder and the consistency checks by what the spec says, without
knowing any module:

- ``record`` is a frozen attrs class whose every field has a default (the
  value at the start of a game, unless the deck preparation sets another,
  ``DeckSetup.modules``) and a type the JSON decoder reads: ``int``, ``str``,
  ``bool``, a plant card (:data:`powergrid.plants.Card`), ``None`` in a union,
  and tuples or frozensets of those;
- ``view(record, seat)`` is what ``seat`` may see of it (``None``: a spectator);
  without it the record is public;
- ``resample(state, seat, rng)`` is a record that ``seat`` cannot tell from the
  one in ``state`` (the same ``view``), drawn with the ``random.Random`` ``rng``
  alone as likely as ``seat``'s knowledge makes it: :func:`powergrid.determinize`
  calls it, after the deck is resampled, for a module with a ``view``; a module
  that hides something and declares no ``resample`` makes ``determinize`` raise;
- ``marks`` name fields that hold the plant of the market a token of the module
  lies on: when that plant leaves the market the core lifts the token (the
  field becomes ``None``);
- ``areas`` name fields that hold plant cards out of play that the module keeps,
  with what players call the place (``{"plants": "the inactive area"}``): every
  card lies in exactly one place, so the core counts them (CON-11);
- ``tokens(record, rules)`` are the resource tokens the module holds off the
  market, the supply and the plants (a uranium token marking a start city,
  RCH-13), per kind in ``rules.resources`` order: the core counts them in the
  conservation of tokens (CON-10) and the position builder leaves them out of
  the supply;
- ``houses(record)`` are houses of automatic actors the module keeps, neither
  on the board nor in their supply, by actor id (the Trust's houses set aside
  for marked start cities, RCH-85 g): a module that counts an actor's houses
  adds them (:func:`held_houses`);
- ``describe(record, rules)`` gives the lines a text frontend prints for the
  record (the command line, the prompt); without it each field that differs
  from its default prints as ``<key>: <value>``;
- ``keys`` give a field the key it has in a position text (its name otherwise);
  it is also the name the field had in the plant market of JSON formats 1 to 4
  and of pickles written before modules held their own state, so such
  documents load (:func:`from_market`).

A module reads its record with ``state.modules[name]`` and writes it with
:func:`with_module`; its own consistency rules go in its ``state_violations``
hook.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from powergrid.frozen import evolve
from powergrid.record import pickled_values

if TYPE_CHECKING:
    from powergrid.state import GameState


def _mapping(value: Mapping[str, str]) -> Mapping[str, str]:
    return dict(value)


def _names(value: Any) -> tuple[str, ...]:
    return tuple(value)


@attrs.frozen(kw_only=True, eq=False)
class StateSpec:
    """How a rule module's own state record is made, shown, checked and written.

    See the module docstring for each field; only ``record`` is required.
    """

    record: type
    view: Callable[[Any, int | None], Any] | None = None
    marks: tuple[str, ...] = attrs.field(default=(), converter=_names)
    areas: Mapping[str, str] = attrs.field(factory=dict, converter=_mapping)
    keys: Mapping[str, str] = attrs.field(factory=dict, converter=_mapping)
    describe: Callable[[Any, Any], Iterable[str]] | None = None
    tokens: Callable[[Any, Any], tuple[int, ...]] | None = None
    houses: Callable[[Any], Mapping[int, int]] | None = None
    resample: Callable[[GameState, int, random.Random], Any] | None = None

    def __attrs_post_init__(self) -> None:
        if not attrs.has(self.record):
            raise TypeError(f"a module's state record is an attrs class, not {self.record!r}")
        names = {a.name for a in attrs.fields(self.record)}
        for field in (*self.marks, *self.areas, *self.keys):
            if field not in names:
                raise TypeError(f"{self.record.__name__} has no field {field!r}")
        for a in attrs.fields(self.record):
            if a.default is attrs.NOTHING:
                raise TypeError(f"{self.record.__name__}.{a.name} needs a default")

    def key(self, field: str) -> str:
        """The position-text key of ``field`` (see the module docstring)."""
        return self.keys.get(field, field)

    def fields(self) -> tuple[str, ...]:
        """The record's field names, in declaration order."""
        return tuple(a.name for a in attrs.fields(self.record))


class ModuleStates(Mapping[str, Any]):
    """The modules' own state records by module name: an immutable, hashable mapping.

    Equal when they hold equal records under the same names; ordered as the
    modules are composed. Build a changed copy with :meth:`replaced`.
    """

    __slots__ = ("_items",)
    _items: tuple[tuple[str, Any], ...]

    def __init__(self, items: Mapping[str, Any] | tuple[tuple[str, Any], ...] = ()) -> None:
        if type(items) is tuple:  # the engine's own case, first: an ABC check costs more
            pairs: tuple[tuple[str, Any], ...] = items
        else:
            pairs = tuple(items.items()) if isinstance(items, Mapping) else tuple(items)
        object.__setattr__(self, "_items", pairs)

    def __getitem__(self, name: str) -> Any:
        for key, record in self._items:
            if key == name:
                return record
        raise KeyError(f"no rule module {name!r} keeps a state in this game")

    def __iter__(self) -> Iterator[str]:
        return (key for key, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ModuleStates):
            return self._items == other._items
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k!r}: {v!r}" for k, v in self._items)
        return f"ModuleStates({{{inner}}})"

    def __setattr__(self, name: str, value: object) -> None:
        raise attrs.exceptions.FrozenInstanceError()

    def __reduce__(self) -> tuple[Any, ...]:
        return (ModuleStates, (self._items,))

    def __copy__(self) -> ModuleStates:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ModuleStates:
        return self

    def replaced(self, name: str, record: Any) -> ModuleStates:
        """A copy with the record of module ``name`` replaced (KeyError when it keeps none)."""
        pairs = self._items
        for i, (key, _) in enumerate(pairs):
            if key == name:
                return ModuleStates((*pairs[:i], (name, record), *pairs[i + 1 :]))
        self[name]  # raises the KeyError that names the module
        raise AssertionError("unreachable: the name was not found above")


#: The modules' states of a game in which no module keeps one.
NONE = ModuleStates()


def with_module(state: GameState, name: str, record: Any) -> GameState:
    """A copy of ``state`` with module ``name``'s own record replaced."""
    return evolve(state, modules=state.modules.replaced(name, record))


def initial(specs: tuple[tuple[str, StateSpec], ...], given: Mapping[str, Any]) -> ModuleStates:
    """Each module's record at the start of a game: its defaults, or what ``given`` sets."""
    return ModuleStates(
        tuple((name, given[name] if name in given else spec.record()) for name, spec in specs)
    )


def lifted(state: GameState, plant: str) -> dict[str, Any]:
    """The changes that lift every module token lying on ``plant`` as it leaves the market.

    Empty when no token lies on it, so a caller merges it into its own evolve.
    """
    specs = state.rules.state_specs
    if not specs:
        return {}
    modules = state.modules
    for name, spec in specs:
        record = modules[name]
        on = {f: None for f in spec.marks if getattr(record, f) == plant}
        if on:
            modules = modules.replaced(name, attrs.evolve(record, **on))
    return {} if modules is state.modules else {"modules": modules}


def area_cards(state: GameState) -> Iterator[tuple[str, str]]:
    """Every plant card a module keeps out of play, with its place ``modules.<name>.<field>``."""
    for name, spec in state.rules.state_specs:
        record = state.modules[name]
        for field in spec.areas:
            yield from ((c, f"modules.{name}.{field}") for c in getattr(record, field))


def held_tokens(state: GameState) -> tuple[int, ...]:
    """The resource tokens the modules hold (``StateSpec.tokens``), per kind; zeros when none."""
    total = [0] * len(state.rules.resources)
    for name, spec in state.rules.state_specs:
        if spec.tokens is not None:
            for k, n in enumerate(spec.tokens(state.modules[name], state.rules)):
                total[k] += n
    return tuple(total)


def held_houses(state: GameState, actor: int) -> int:
    """The houses of automatic actor ``actor`` the modules keep (``StateSpec.houses``)."""
    return sum(
        spec.houses(state.modules[name]).get(actor, 0)
        for name, spec in state.rules.state_specs
        if spec.houses is not None
    )


def area_holding(state: GameState, plant: str) -> str | None:
    """What players call the module area that holds ``plant``, or ``None``."""
    for name, spec in state.rules.state_specs:
        record = state.modules[name]
        for field, called in spec.areas.items():
            if plant in getattr(record, field):
                return called
    return None


def seen_by(state: GameState, seat: int | None) -> ModuleStates:
    """The modules' records as ``seat`` may see them (``None``: a spectator)."""
    specs = state.rules.state_specs
    if not any(spec.view is not None for _, spec in specs):
        return state.modules
    return ModuleStates(
        tuple(
            (
                name,
                state.modules[name] if spec.view is None else spec.view(state.modules[name], seat),
            )
            for name, spec in specs
        )
    )


def from_market(
    specs: tuple[tuple[str, StateSpec], ...], legacy: Mapping[str, Any]
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """The module records' fields named by a plant market of before module state.

    ``legacy`` holds the market's fields that are no longer the market's; each
    goes to the module field whose key it is. Returns the fields per module and
    the keys no module of the game claims (the caller accepts them only empty).
    """
    out: dict[str, dict[str, Any]] = {}
    claimed: set[str] = set()
    for name, spec in specs:
        for field in spec.fields():
            key = spec.key(field)
            if key in legacy:
                out.setdefault(name, {})[field] = legacy[key]
                claimed.add(key)
    return out, sorted(set(legacy) - claimed)


def is_empty(value: Any) -> bool:
    """Whether a former market field holds its empty value (``None``, ``0``, ``[]``, false)."""
    return value is None or value is False or value == 0 or value == [] or value == ()


def from_pickle(
    values: dict[str, Any], specs: tuple[tuple[str, StateSpec], ...], market_type: type
) -> dict[str, Any]:
    """The fields of a state or view pickled before modules kept their own state.

    Its plant market (of ``market_type``) carries the fields that are module
    state now; they move to the records of the modules ``specs`` lists, by
    their keys (:func:`from_market`), and the market keeps only its own fields.
    """
    market = values["market"]
    own = {a.name for a in attrs.fields(market_type)}
    held = pickled_values(market)
    legacy = {k: v for k, v in held.items() if k not in own}
    moved, _ = from_market(specs, legacy)  # unclaimed ones were empty: no module played them
    given = {name: dict(specs)[name].record(**fields) for name, fields in moved.items()}
    plain = market_type(**{k: v for k, v in held.items() if k in own})
    return {**values, "market": plain, "modules": initial(specs, given)}


@functools.cache  # a spec is immutable and hashes by identity: its types never change
def field_types(spec: StateSpec) -> dict[str, Any]:
    """The declared type of each field of the spec's record (plant cards as ``Card``)."""
    import typing

    from powergrid.plants import Card

    return typing.get_type_hints(spec.record, localns={"Card": Card}, include_extras=True)


def changed_fields(state: GameState) -> Iterator[tuple[str, Any, Any]]:
    """``(position key, value, type)`` of every module field that differs from its default."""
    for name, spec in state.rules.state_specs:
        record, blank = state.modules[name], spec.record()
        types = field_types(spec)
        for field in spec.fields():
            value = getattr(record, field)
            if value != getattr(blank, field):
                yield spec.key(field), value, types[field]


def keyed_fields(
    specs: tuple[tuple[str, StateSpec], ...],
) -> dict[str, tuple[str, str, Any, Any]]:
    """Each module field by its position key: ``(module, field, type, default)``."""
    out = {}
    for name, spec in specs:
        types, blank = field_types(spec), spec.record()
        for field in spec.fields():
            out[spec.key(field)] = (name, field, types[field], getattr(blank, field))
    return out


def described(rules: Any, modules: ModuleStates) -> list[str]:
    """The lines a text frontend prints for the modules' records (``StateSpec.describe``)."""
    out: list[str] = []
    for name, spec in rules.state_specs:
        record = modules[name]
        if spec.describe is not None:
            out += spec.describe(record, rules)
            continue
        blank = spec.record()
        for field in spec.fields():
            value = getattr(record, field)
            if value != getattr(blank, field):
                shown = " ".join(map(str, value)) if isinstance(value, tuple) else value
                out.append(f"{spec.key(field)}: {shown}")
    return out
