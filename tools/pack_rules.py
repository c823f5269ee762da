"""Pack the rules specification into the package: docs/spec/RULES.md -> powergrid/data/RULES.md.gz.

Run after copying a new ``../shared/RULES.md`` to ``docs/spec/RULES.md``
(``tests/test_rules_spec.py`` and ``tests/test_rulebook.py`` fail until both copies
agree). The package ships the text compressed: it is smaller, and a ``.md`` under
``src/`` would count every ID it defines as cited by the code.
"""

from __future__ import annotations

import gzip
from pathlib import Path

ROOT = Path(__file__).parents[1]
SOURCE = ROOT / "docs" / "spec" / "RULES.md"
PACKED = ROOT / "src" / "powergrid" / "data" / "RULES.md.gz"


def pack(text: bytes) -> bytes:
    """``text`` gzipped the same way every time (no timestamp, no file name)."""
    return gzip.compress(text, compresslevel=9, mtime=0)


def main() -> None:
    """Write :data:`PACKED` from :data:`SOURCE`."""
    PACKED.write_bytes(pack(SOURCE.read_bytes()))
    print(f"wrote {PACKED.relative_to(ROOT)} from {SOURCE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
