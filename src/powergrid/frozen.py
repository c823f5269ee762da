"""Copies of frozen records with some fields replaced: the engine's one way to change state.

Compiled in the optional compiled build (``hatch_build.py``), like the state
records themselves: there a record is a native class (:mod:`powergrid.record`)
copied by its own ``_replace``; in the pure build it is an attrs record without
slots, copied through its ``__dict__``.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a frozen state record with some fields replaced (like attrs.evolve).

    Faster than :func:`attrs.evolve` because state records have no validators or
    converters to re-run: a dict-based record copies its ``__dict__``, a slotted
    class is rebuilt positionally. A name that is not a field of the record
    raises ``TypeError``, as ``attrs.evolve`` does.
    """
    if _NATIVE and type(obj) in _NATIVE:  # compiled build: the record copies itself natively
        return obj._replace(changes)  # type: ignore[attr-defined,no-any-return]
    try:  # free in 3.11 when nothing is raised: the dict-based records are the hot ones
        old = obj.__dict__
    except AttributeError:
        return _evolve_slotted(obj, changes)
    d = old.copy()
    d.update(changes)
    if len(d) != len(old):  # a name the record does not have added an entry
        _refuse(type(obj), [n for n in changes if n not in old])
    new = _new(type(obj))
    _setattr(new, "__dict__", d)  # frozen: the dictionary is set past __setattr__
    return new


def _evolve_slotted(obj: T, changes: dict[str, Any]) -> T:
    """:func:`evolve` for a slotted attrs record: rebuilt from its fields, in order."""
    cls = type(obj)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(a.name for a in attrs.fields(cls))  # type: ignore[arg-type]
        _FIELD_SETS[cls] = frozenset(names)
    if not changes.keys() <= _FIELD_SETS[cls]:
        _refuse(cls, [n for n in changes if n not in names])
    return cls(*[changes[n] if n in changes else getattr(obj, n) for n in names])


def _refuse(cls: type, unknown: list[str]) -> None:
    """Raise the ``TypeError`` of :func:`evolve` for names the record does not have."""
    raise TypeError(f"{cls.__name__} has no field {', '.join(map(repr, unknown))}")


def register_native(cls: type) -> None:
    """Copy ``cls``, a native record of the compiled build, through its ``_replace``."""
    _NATIVE.add(cls)


_NATIVE: set[type] = set()
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_FIELD_SETS: dict[type, frozenset[str]] = {}
_new = object.__new__
_setattr = object.__setattr__
