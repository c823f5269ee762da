"""Render the rules specification as a documentation page.

``docs/conf.py`` calls :func:`write_specification` at every build. It reads the
repository's copy of the specification (``docs/spec/RULES.md``) and writes a MyST page
in which

- every rule, edge case and open question starts with an anchor named by its ID, so
  ``specification.html#AUC-07`` lands on rule AUC-07, and with a Sphinx label of the
  same name, so other pages can link it with ``{ref}`AUC-07 <AUC-07>```;
- every ID cited in the text links to the item that defines it;
- every item ends with the lines of ``src/powergrid`` and ``tests`` that name its ID.

The scan runs at build time, so the page says what the code cites now. The module uses
the standard library only: the docs must build without ``../shared``, whose
``tools/rule_coverage.py`` this mirrors (same ID pattern).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

#: An ID as the code cites it; the pattern of ``../shared/tools/rule_coverage.py``.
RULE_ID = re.compile(r"\b([A-Z]{2,5}-\d{2,3})\b")
#: Where an item is defined: a list item ``- **AUC-07** ...`` or a paragraph that opens
#: with a bold title ``**EC-01 Title** ...`` (the edge cases).
DEFINITION = re.compile(r"^(?P<item>- )?\*\*(?P<id>[A-Z]{2,5}-\d{2,3})\b")
#: A reference in running text; the lookbehind skips the ID of a definition itself.
REFERENCE = re.compile(r"(?<!\*\*)\b([A-Z]{2,5}-\d{2,3})\b")
#: Inline code, which must stay literal; it may span lines (``actual | future`` markets).
CODE_SPAN = re.compile(r"(`[^`]*`)")
#: The folders whose Python files are scanned, relative to the repository root.
SCANNED = ("src/powergrid", "tests")

#: For each ID, the files that name it and the line numbers in each, in file order.
Mentions = dict[str, dict[str, list[int]]]


def defined_ids(text: str) -> list[str]:
    """The IDs the specification defines, in the order they appear."""
    ids: list[str] = []
    for line in text.splitlines():
        match = DEFINITION.match(line)
        if match and match["id"] not in ids:
            ids.append(match["id"])
    return ids


def find_mentions(root: Path, folders: Iterable[str] = SCANNED) -> Mentions:
    """Every line of a ``.py`` file under ``folders`` of ``root`` that names an ID."""
    mentions: Mentions = {}
    for folder in folders:
        for path in sorted((root / folder).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for number, line in enumerate(lines, start=1):
                for rule_id in dict.fromkeys(RULE_ID.findall(line)):
                    mentions.setdefault(rule_id, {}).setdefault(name, []).append(number)
    return mentions


def link_references(text: str, ids: Iterable[str]) -> str:
    """Turn each cited ID of ``ids`` into a link to its item, outside inline code.

    IDs the specification does not define stay plain text, so a stray citation shows as
    text instead of breaking the build with an unresolved link.
    """
    known = set(ids)

    def link(match: re.Match[str]) -> str:
        rule_id = match[1]
        return f"[{rule_id}](#{rule_id})" if rule_id in known else rule_id

    parts = CODE_SPAN.split(text)
    # split() with a group keeps the code spans at the odd positions.
    return "".join(part if i % 2 else REFERENCE.sub(link, part) for i, part in enumerate(parts))


def _places(found: Mapping[str, list[int]]) -> str:
    return "; ".join(f"`{path}:{', '.join(map(str, lines))}`" for path, lines in found.items())


def mention_line(rule_id: str, mentions: Mentions) -> str:
    """The line under an item that lists the code and the tests naming ``rule_id``."""
    found = mentions.get(rule_id, {})
    code = {path: lines for path, lines in found.items() if not path.startswith("tests/")}
    tests = {path: lines for path, lines in found.items() if path.startswith("tests/")}
    if not code and not tests:
        return "*Not named in the code or the tests.*"
    code_part = f"*Code:* {_places(code)}." if code else "*Code:* not named in the code."
    tests_part = f"*Tests:* {_places(tests)}." if tests else "*Tests:* not named in the tests."
    return f"{code_part} {tests_part}"


def _block_end(lines: list[str], start: int, is_item: bool) -> int:
    """The index after the last line of the item or paragraph that begins at ``start``."""
    end = start + 1
    if not is_item:
        while end < len(lines) and lines[end].strip():
            end += 1
        return end
    # A list item goes on through blank lines while its lines stay indented (tables and
    # numbered steps inside SET-11, SET-12 and others).
    index = end
    while index < len(lines) and (not lines[index].strip() or lines[index][0].isspace()):
        if lines[index].strip():
            end = index + 1
        index += 1
    return end


def _render_block(block: list[str], rule_id: str, is_item: bool, mentions: Mentions) -> list[str]:
    # The MyST target gives a Sphinx label (lower-cased in the HTML id, as Sphinx does);
    # the raw span keeps the exact ID, so that links to page.html#AUC-07 work.
    anchor = f'<span id="{rule_id}"></span>'
    if is_item:
        # The item's own continuation lines are indented already.
        first = f"  {anchor}{block[0][2:]}"
        return [f"- ({rule_id})=", first, *block[1:], "", f"  {mention_line(rule_id, mentions)}"]
    return [f"({rule_id})=", anchor + block[0], *block[1:], "", mention_line(rule_id, mentions)]


def render(text: str, mentions: Mentions) -> str:
    """The specification ``text`` as a MyST page body with anchors and mention lines."""
    lines = text.splitlines()
    # The page that includes this one has the title: a second H1 would split the page.
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    lines = link_references("\n".join(lines), defined_ids(text)).splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        match = DEFINITION.match(lines[index])
        if not match:
            out.append(lines[index])
            index += 1
            continue
        is_item = match["item"] is not None
        end = _block_end(lines, index, is_item)
        if out and out[-1].strip() and not is_item:
            out.append("")  # a target is a block of its own
        out.extend(_render_block(lines[index:end], match["id"], is_item, mentions))
        index = end
    return "\n".join(out).strip("\n") + "\n"


def summary(text: str, mentions: Mentions) -> str:
    """A paragraph counting the IDs and those that nothing in the code or tests names."""
    ids = defined_ids(text)
    unnamed = [rule_id for rule_id in ids if rule_id not in mentions]
    listed = ", ".join(f"[{rule_id}](#{rule_id})" for rule_id in unnamed) or "none"
    return (
        f"The specification defines {len(ids)} IDs. The code and the tests name "
        f"{len(ids) - len(unnamed)} of them; not named anywhere: {listed}.\n"
    )


def write_specification(spec: Path, out: Path, root: Path) -> bool:
    """Write the rendered ``spec`` to ``out``, scanning the repository at ``root``.

    Returns:
        Whether the file changed. An unchanged page is not rewritten, so Sphinx does not
        read the page that includes it again on every build.
    """
    text = spec.read_text(encoding="utf-8")
    mentions = find_mentions(root)
    page = summary(text, mentions) + "\n" + render(text, mentions)
    if out.exists() and out.read_text(encoding="utf-8") == page:
        return False
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    return True
