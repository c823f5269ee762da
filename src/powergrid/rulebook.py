"""The rules specification the library cites, shipped as package data: ``rule("AUC-33")``.

Error messages, events and docstrings cite rule IDs (``AUC-33``, ``BUR-07``).
The specification that defines them, ``RULES.md``, ships inside the package
(``powergrid/data/RULES.md.gz``, gzipped), so an installed library can print
what it cites without a network. It is read once, on the first call, with
:mod:`importlib.resources`.

Three kinds of entries have IDs:

- rules (``CON-01``, ``AUC-33``, ``RCH-30``...), written as ``- **ID** text``,
  sometimes opening with an italic title (``*Edition.*``);
- edge cases for tests (``EC-01``, ``EC-R01``), written as a paragraph
  ``**ID Title** — text``;
- open questions and the reading chosen (``OQ-01``, ``OQ-R01``), written as rules.
"""

from __future__ import annotations

import functools
import gzip
import re
from importlib import resources

import attrs

from powergrid.errors import PowerGridError

__all__ = ["RuleText", "UnknownRule", "rule", "rule_ids"]

_ID = r"[A-Z]{2,4}-R?\d{2,3}"
_RULE = re.compile(rf"^- \*\*(?P<id>{_ID})\*\*(?: (?P<rest>.*))?$")
_CASE = re.compile(rf"^\*\*(?P<id>{_ID}) (?P<title>[^*]+)\*\*(?: — (?P<rest>.*))?$")
_HEADING = re.compile(r"^#{2,6} (?P<title>.+)$")
_ITALIC_TITLE = re.compile(r"^\*(?P<title>[^*]+)\*")
_CODE_SPAN = re.compile(r"`[^`]*`")
_BRACKET = re.compile(r"\[([^\[\]]+)\]")


class UnknownRule(PowerGridError, LookupError):
    """No entry of RULES.md has this ID; the message names it and the IDs nearby.

    A :class:`~powergrid.PowerGridError` and a :class:`LookupError`, so either
    ``except`` catches it.
    """


@attrs.frozen
class RuleText:
    """One entry of the rules specification: a rule, an edge case or an open question.

    - ``id``: the ID as RULES.md writes it (``"AUC-33"``).
    - ``title``: the entry's own title when it has one (an edge case's bold
      title, a rule's opening italic phrase such as ``"Edition"``), else ``None``.
    - ``section``: the heading the entry stands under (``"3.4 North America
      discount token"``).
    - ``text``: the entry as written, Markdown included, its line breaks kept
      and its list indentation removed (an edge case's title is not repeated).
    - ``sources``: the bracketed citations in the text, in order, without the
      brackets (``"000_171117f2800c6588.txt"``, ``"official: CL-RULES"``,
      ``"inference"``, ``"see OQ-03"``); for an edge case, the rules it checks.
    """

    id: str
    title: str | None
    section: str
    text: str
    sources: tuple[str, ...]

    def __str__(self) -> str:
        """The ID, the title (when there is one) and the text, as RULES.md prints them."""
        if self.id.startswith("EC-"):
            return f"{self.id} {self.title} — {self.text}"
        return f"{self.id} {self.text}"


def rule(rule_id: str) -> RuleText:
    """Return the entry of the rules specification with this ID, e.g. ``rule("AUC-33")``.

    The ID is matched ignoring case and surrounding spaces (``"auc-33"`` works).
    An ID RULES.md does not define raises :class:`~powergrid.rulebook.UnknownRule` (a
    ``LookupError``), whose message says so and names the IDs of that group.

    >>> import powergrid as pg
    >>> pg.rule("auc-33").section
    '3.4 North America discount token'
    """
    if not isinstance(rule_id, str):
        raise TypeError(f"a rule ID is a string such as 'AUC-33', not {rule_id!r}")
    key = rule_id.strip().upper()
    entries = _entries()
    if key in entries:
        return entries[key]
    raise UnknownRule(f"unknown rule ID {rule_id!r}: {_nearby(key, tuple(entries))}")


def rule_ids(prefix: str = "") -> tuple[str, ...]:
    """Every ID of the specification that starts with ``prefix`` (ignoring case), in its order.

    ``rule_ids("AUC")`` lists the auction rules, ``rule_ids("EC-R")`` the
    Recharged edge cases, ``rule_ids()`` all of them.
    """
    start = prefix.strip().upper()
    return tuple(i for i in _entries() if i.startswith(start))


def _nearby(key: str, ids: tuple[str, ...]) -> str:
    """What to say after an unknown ID: the range of its group, or the groups there are."""
    group = key.rpartition("-")[0]
    same = [i for i in ids if i.rpartition("-")[0] == group]
    if same:
        return f"RULES.md has no such entry; its {group} IDs are {same[0]} to {same[-1]}"
    groups = ", ".join(dict.fromkeys(i.rpartition("-")[0] for i in ids))
    return f"RULES.md has no such entry; its groups are {groups}"


@functools.cache
def _entries() -> dict[str, RuleText]:
    packed = resources.files("powergrid.data").joinpath("RULES.md.gz").read_bytes()
    text = gzip.decompress(packed).decode("utf-8")
    return {entry.id: entry for entry in parse(text)}


def parse(text: str) -> list[RuleText]:
    """Every entry of a RULES.md text, in its order (the format is described above).

    A rule's entry runs on over its indented lines, blank lines between them
    included; an edge case's over its paragraph. Public for tests and tools; use
    :func:`rule` to read the shipped specification.
    """
    out: list[RuleText] = []
    section = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = _HEADING.match(line)
        if heading:
            section = heading["title"].strip()
        start = _RULE.match(line) or _CASE.match(line)
        if start is None:
            i += 1
            continue
        paragraph = start.re is _CASE
        body = [start["rest"] or ""]
        i += 1
        blank_seen = False
        while i < len(lines) and _continues(lines[i], paragraph and not blank_seen):
            blank_seen = blank_seen or not lines[i].strip()
            body.append(lines[i][2:] if lines[i].startswith("  ") else lines[i])
            i += 1
        title = start["title"] if paragraph else _italic_title(body[0])
        out.append(_entry(start["id"], title, section, body))
    return out


def _continues(line: str, in_paragraph: bool) -> bool:
    """Whether ``line`` still belongs to the entry above it."""
    if _RULE.match(line) or _CASE.match(line) or _HEADING.match(line):
        return False
    if not line.strip() or line.startswith(" "):
        return True
    return in_paragraph and line.strip() != "---"


def _italic_title(first: str) -> str | None:
    found = _ITALIC_TITLE.match(first)
    return found["title"].strip().rstrip(".,:;").strip() if found else None


def _entry(rule_id: str, title: str | None, section: str, body: list[str]) -> RuleText:
    while body and not body[-1].strip():
        body.pop()
    text = "\n".join(line.rstrip() for line in body)
    plain = _CODE_SPAN.sub("", text)
    cited = (" ".join(b.split()) for b in _BRACKET.findall(plain))
    sources = tuple(dict.fromkeys(s for s in cited if any(c.isalpha() for c in s)))
    return RuleText(id=rule_id, title=title, section=section, text=text, sources=sources)
