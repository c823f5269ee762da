"""The library's version and the version of its JSON format.

Kept in a module of their own so that any module can read them without
importing the package's public face (``powergrid/__init__.py``).
"""

from __future__ import annotations

__version__ = "0.1.0"

#: The format of every JSON document and record this library writes.
FORMAT = 1

#: Formats this library reads.
READABLE_FORMATS = (1,)
