"""Copies of frozen records with some fields replaced: the engine's one way to change state.

Kept apart from :mod:`powergrid.state` so that the optional compiled build
(``hatch_build.py``) can compile it: the records themselves stay interpreted
attrs classes, while the copy, made several times per action, runs as C.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

T = TypeVar("T")


def evolve(obj: T, **changes: Any) -> T:
    """A copy of a frozen state record with some fields replaced (like attrs.evolve).

    Faster than :func:`attrs.evolve` because state records have no validators or
    converters to re-run: a dict-based record copies its ``__dict__``, a slotted
    class is rebuilt positionally.
    """
    try:  # free in 3.11 when nothing is raised: the dict-based records are the hot ones
        d = obj.__dict__.copy()
    except AttributeError:
        return _evolve_slotted(obj, changes)
    d.update(changes)
    new = _new(type(obj))
    _setattr(new, "__dict__", d)  # frozen: the dictionary is set past __setattr__
    return new


def _evolve_slotted(obj: T, changes: dict[str, Any]) -> T:
    """:func:`evolve` for a slotted attrs record: rebuilt from its fields, in order."""
    cls = type(obj)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(a.name for a in attrs.fields(cls))  # type: ignore[arg-type]
    return cls(*[changes[n] if n in changes else getattr(obj, n) for n in names])


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_new = object.__new__
_setattr = object.__setattr__
