"""JSON text from outside, parsed: every failure is an :class:`~powergrid.InvalidRecord`.

Every door that reads JSON (:func:`powergrid.from_json`, the boardgamers.space
importer's :func:`~powergrid.interop.boardgamers.read_export`) parses through
:func:`load_json`, so text that is not JSON, bytes that are not UTF-8, a
number too long to read and nesting too deep for Python's parser (``"[" *
100000``, which raises ``RecursionError`` in :func:`json.loads`) all give one
error a caller can report in one line.
"""

from __future__ import annotations

import json
from typing import Any

from powergrid.errors import InvalidRecord

__all__ = ["load_json"]


def load_json(text: str | bytes) -> Any:
    """``json.loads(text)``, any failure an :class:`~powergrid.InvalidRecord` without a path.

    Python reads numbers of at most some thousands of digits
    (``sys.get_int_max_str_digits()``); a longer one is malformed JSON here.
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise InvalidRecord("not valid JSON: it is nested too deeply") from None
    except (ValueError, TypeError) as err:  # UnicodeDecodeError is a ValueError
        raise InvalidRecord(f"not valid JSON ({err})") from None
