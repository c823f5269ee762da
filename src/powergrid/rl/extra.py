"""The rl extra's packages: a missing one raises an error that says how to install it."""

from __future__ import annotations

import importlib

#: What adds the packages of :mod:`powergrid.rl`.
INSTALL = 'pip install "powergrid-rules[rl]"'


def require(*names: str) -> None:
    """Import each of ``names``; a missing one raises ``ModuleNotFoundError`` naming the extra.

    The error's ``name`` is the missing package, and its message ends with the
    install command, so that a user sees the fix rather than a deep import.
    """
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError as missing:
            raise ModuleNotFoundError(
                "powergrid.rl needs the rl extra, which adds numpy, gymnasium, pettingzoo and "
                f"open_spiel ({missing.name or name} is missing): {INSTALL}",
                name=missing.name or name,
            ) from missing
