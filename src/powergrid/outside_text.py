r"""Text from outside the library: what a name may hold, and how a message shows any value.

A player name, a deck's name or any string a document holds comes from a
caller or a file, and ends up on a terminal. So text is checked at the door:
it is valid Unicode (no lone surrogates, which a client cutting an emoji in
half produces), printable (``str.isprintable()``: no control characters, no
escape sequences, no line breaks) and short. Messages never quote outside
values raw: :func:`shown` escapes what is not printable and cuts long values
short, so a bad file cannot drive the terminal that prints its error.

>>> from powergrid.outside_text import name_problem, shown
>>> name_problem("Ada") is None
True
>>> print(name_problem("Ada\x1b[31m"))
the name 'Ada\x1b[31m' holds a control character (escape, U+001B) at character 4; only ...
>>> print(shown("x" * 100))
'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' ... (100 characters)
"""

from __future__ import annotations

import unicodedata

__all__ = ["MAX_ID", "MAX_NAME", "MAX_TEXT", "name_problem", "shown", "text_problem"]

#: The most characters of a display name (a player's, a deck's, an automatic actor's).
MAX_NAME = 40
#: The most characters of an id a config names (a map, module, region, city, option).
MAX_ID = 100
#: The most characters any other text of a document holds (a deck's source note, an
#: event's sentence, an action's notation); far above what the library writes.
MAX_TEXT = 10_000
#: How many characters of a string :func:`shown` quotes.
SHOWN = 40

_CONTROL_NAMES = {
    "\n": "line feed",
    "\r": "carriage return",
    "\t": "tab",
    "\x1b": "escape",
    "\x00": "null",
    "\x7f": "delete",
}


def shown(value: object, limit: int = SHOWN) -> str:
    """``value`` as a message may quote it: escaped, at most ``limit`` characters of a string.

    A string is quoted like ``repr()`` (whose escapes cover every character
    that is not printable, lone surrogates included) and cut after ``limit``
    characters, saying how long it was. A number of more than ``limit`` digits
    is described by its size; lists and objects by their kind, never spelled
    out (a file may nest them without end).
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r} ... ({len(value)} characters)"
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() <= 3 * limit:  # 3 bits a digit: never past the limit by much
            text = str(value)
            if len(text) <= limit:
                return text
        return f"a whole number of {value.bit_length()} bits"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item{'s' * (len(value) != 1)}"
    if isinstance(value, dict):
        return f"an object of {len(value)} field{'s' * (len(value) != 1)}"
    return f"a {type(value).__name__}"


def _character(ch: str) -> str:
    """What a character that is not printable is, for a message."""
    code = f"U+{ord(ch):04X}"
    category = unicodedata.category(ch)
    if category == "Cs":
        return f"a lone surrogate ({code}, half of a character cut in two)"
    if category == "Cc":
        name = _CONTROL_NAMES.get(ch)
        return f"a control character ({name}, {code})" if name else f"a control character ({code})"
    return f"a character that is not printable ({code})"


def text_problem(
    value: object, *, what: str = "the text", limit: int = MAX_TEXT, empty: bool = True
) -> str | None:
    """Why ``value`` may not stand as text from outside, or ``None`` when it may.

    The text is a string of at most ``limit`` characters (checked first, so a
    huge value is refused at once), not empty unless ``empty``, and printable
    throughout. The sentence starts with ``what`` and quotes the value with
    :func:`shown`.
    """
    if not isinstance(value, str):
        return f"{what} must be a string, not {shown(value)}"
    if len(value) > limit:
        return f"{what} {shown(value)} is too long: at most {limit} characters"
    if not value and not empty:
        return f"{what} must not be empty"
    if value.isprintable():
        return None
    at = next(i for i, ch in enumerate(value) if not ch.isprintable())
    return (
        f"{what} {shown(value)} holds {_character(value[at])} at character {at + 1}; "
        "only printable characters are allowed"
    )


def name_problem(value: object, what: str = "the name") -> str | None:
    """Why ``value`` may not be a display name, or ``None`` when it may.

    A name is a non-empty printable string of at most :data:`MAX_NAME` characters.
    """
    return text_problem(value, what=what, limit=MAX_NAME, empty=False)
