"""The command line's one error type: a problem the user can fix."""

from __future__ import annotations


class UserError(Exception):
    """A problem the user can fix (bad file, bad seat): one line on stderr, exit code 2."""
