"""The value behaviour of the state records, alike in the pure and the compiled build.

The records of :mod:`powergrid.state` are written as plain classes (an ``__init__``
that stores its arguments, and a ``_replace`` that copies with some fields
changed), so that the compiled build (``hatch_build.py``) turns them into mypyc
native classes: reading a field is then a C struct access, and a copy costs about
a tenth of an attrs record's. :func:`record` then gives each class, in either
build, the behaviour of the frozen attrs records it replaces: attrs' equality,
hashing, ``repr`` and refusal to change a field (``FrozenInstanceError``), and
the attrs metadata, so :func:`attrs.fields`, :func:`attrs.evolve` and
:func:`attrs.asdict` keep working on them.

- Pure build: :func:`record` applies ``attrs.frozen(slots=False)`` to the class
  in place, with the fields read from the class's signature, so the record is
  exactly the attrs class it was before (its ``__init__`` is attrs', its
  instances keep a ``__dict__``, which :func:`powergrid.frozen.evolve` copies).
- Compiled build: the class is native and keeps its own ``__init__``; attrs adds
  only the methods above. A native instance has no ``__dict__``, so pickling
  gets a ``__getstate__`` giving the fields as a dictionary and a
  ``__setstate__`` taking one (a class may upgrade an older release's dictionary
  first with a static ``_upgrade_pickle``). Both builds pickle a record as its class and that
  dictionary, so a pickle of either build (and of any earlier release) loads in
  the other; :func:`powergrid.frozen.evolve` copies a native record through its
  ``_replace``.

This module is never compiled: it runs once per class, at import.
"""

from __future__ import annotations

import copyreg
import functools
import importlib.machinery
import inspect
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from powergrid import frozen

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:  # mypy_extensions comes with mypy: present where the compiled build is made
        from mypy_extensions import mypyc_attr
    except ImportError:  # the pure build at run time: the marker is only read by mypyc

        def mypyc_attr(*args: object, **kwargs: object) -> Callable[[T], T]:
            """Stand-in for ``mypy_extensions.mypyc_attr``: leaves the class as it is."""
            return lambda cls: cls


T = TypeVar("T")


def is_native(cls: type) -> bool:
    """Whether ``cls`` was compiled by mypyc into a native class (the compiled build)."""
    return "__mypyc_attrs__" in cls.__dict__


def record(cls: type[T], **fields: Any) -> type[T]:
    """Give ``cls`` the value behaviour of a frozen attrs record, in place; returns ``cls``.

    The fields are the parameters of ``cls``'s signature in its pure source, in
    order, with their defaults; ``fields`` may replace one by an :func:`attrs.field` with other
    options (``eq=False``, say). See the module docstring for what each build
    gets.
    """
    native = is_native(cls)
    # a native class's signature is only what mypyc could write as text (often
    # nothing): the fields come from the pure source, which is their definition
    source = getattr(_pure_copy(cls.__module__), cls.__qualname__) if native else cls
    these: dict[str, Any] = {}
    for name, parameter in inspect.signature(source).parameters.items():
        if name in fields:
            these[name] = fields[name]
        elif parameter.default is inspect.Parameter.empty:
            these[name] = attrs.field()
        else:
            these[name] = attrs.field(default=parameter.default)
    if native and not set(these) <= set(cls.__mypyc_attrs__):  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: the fields of its source are not its attributes")
    attrs.frozen(slots=False, these=these, init=not native, eq=True, repr=True)(cls)
    upgrade = getattr(cls, "_upgrade_pickle", None)
    if native:
        # mypyc's own pickle methods set attributes one by one, which the frozen
        # __setattr__ refuses, and would store the engine's decision slot
        setattr(cls, "__getstate__", _getstate(tuple(these)))  # noqa: B010  # not a method to mypy
        setattr(cls, "__setstate__", _setstate(upgrade, frozenset(these)))  # noqa: B010
        setattr(cls, "__reduce_ex__", _reduce_ex)  # noqa: B010  # protocols 0 and 1 too
        frozen.register_native(cls)
    elif upgrade is not None:
        setattr(cls, "__setstate__", _setstate(upgrade, frozenset(these)))  # noqa: B010
    return cls


def _getstate(names: tuple[str, ...]) -> Callable[[object], dict[str, Any]]:
    """A native record's ``__getstate__``: its fields by name, as a pure record pickles."""

    def getstate(self: object) -> dict[str, Any]:
        return {name: getattr(self, name) for name in names}

    return getstate


def _reduce_ex(self: object, protocol: int) -> tuple[Any, ...]:
    """A native record's pickle in every protocol: its class and its fields' dictionary."""
    return (copyreg.__newobj__, (type(self),), self.__getstate__())  # type: ignore[attr-defined]


def _setstate(
    upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None, names: frozenset[str]
) -> Callable[[object, dict[str, Any]], None]:
    """A record's ``__setstate__``: its fields (``names``) from a pickle's dictionary.

    ``upgrade`` (the class's ``_upgrade_pickle``, if it has one) first turns the
    dictionary of an older release into today's fields.
    """

    def setstate(self: object, values: dict[str, Any]) -> None:
        values = values if upgrade is None else upgrade(values)
        try:
            self.__dict__.update(values)  # a pure record: as unpickling does without this
            return
        except AttributeError:  # a native record
            pass
        if not values.keys() <= names:  # an older release's field, for the state to move
            object.__setattr__(self, "_legacy", {k: v for k, v in values.items() if k not in names})
            values = {k: v for k, v in values.items() if k in names}
        for name, value in values.items():  # past the frozen __setattr__
            object.__setattr__(self, name, value)

    return setstate


def pickled_values(obj: object) -> dict[str, Any]:
    """Everything an unpickled record holds: its fields and an older release's extras.

    A pure record keeps an older release's fields in its ``__dict__`` beside its
    own; a native one keeps them in ``_legacy`` (which it must declare), so that
    the state being unpickled can move them where they live now
    (:func:`powergrid.module_state.from_pickle`).
    """
    try:
        return dict(vars(obj))
    except TypeError:  # a native record
        own: dict[str, Any] = obj.__getstate__()  # type: ignore[assignment]  # record()'s
        return {**own, **getattr(obj, "_legacy", {})}


def field_annotations(cls: type) -> dict[str, Any]:
    """The annotations of a record's fields (not its class variables), as in its source.

    A class of a compiled module keeps none usable at run time (a native class
    none at all), so they are read from the pure source beside the extension
    module, executed once as a private copy that is never registered in
    ``sys.modules``; the decoder (:mod:`powergrid.formats.typed_decoding`) resolves
    them in the real module.
    """
    compiled = is_compiled(cls.__module__)
    source = getattr(_pure_copy(cls.__module__), cls.__qualname__) if compiled else cls
    names = {a.name for a in attrs.fields(cls)}
    return {k: v for k, v in source.__annotations__.items() if k in names}


def is_compiled(module: str) -> bool:
    """Whether ``module`` (imported) was loaded from an extension module (compiled build)."""
    file = getattr(sys.modules.get(module), "__file__", None) or ""
    return file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


@functools.cache
def _pure_copy(module: str) -> types.ModuleType:
    """The pure source of compiled ``module``, run as a copy under the same name."""
    compiled = sys.modules[module].__file__
    assert compiled is not None
    source = Path(compiled).parent / (module.rpartition(".")[2] + ".py")
    copy = types.ModuleType(module)
    copy.__file__ = str(source)
    exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), copy.__dict__)
    return copy
