"""The command line's one error type, and text made safe to print to a terminal."""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix (bad file, bad seat): one line on stderr, exit code 2."""


def printable(text: str) -> str:
    r"""``text`` with every character a terminal should not be sent written as its escape.

    Control characters (newline, tab, ESC, which starts the sequences that
    move the cursor or recolour the screen), invisible format characters
    and lone surrogates (which UTF-8 cannot encode, so printing them may
    fail) become Python escapes such as ``\x1b``, ``\u200b`` or ``\ud800``;
    letters, digits, punctuation and symbols of any script and the space stay.
    Use it on any text that came from a file or a command line before it is
    printed.

    >>> printable("game\x1b[2J.json")
    'game\\x1b[2J.json'
    >>> printable("K\u00f6ln \ud800")
    'Köln \\ud800'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
