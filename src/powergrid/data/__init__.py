"""Package data: plants, tables and maps as JSON, loaded once and cached."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any


@functools.cache
def load(name: str) -> Any:
    """Return the parsed JSON file ``name`` (e.g. ``"tables.json"``, ``"maps/europe.json"``).

    The result is cached and shared: callers must not mutate it.
    """
    ref = resources.files(__package__).joinpath(name)
    return json.loads(ref.read_text(encoding="utf-8"))
