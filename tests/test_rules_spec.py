"""The rules specification in the docs: the copy, its generated page and the IDs cited."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docs._ext import rules_spec

ROOT = Path(__file__).parents[1]
COPY = ROOT / "docs" / "spec" / "RULES.md"
SHARED = ROOT.parent / "shared" / "RULES.md"

# The shared coverage tool's test for a defined ID (../shared/tools/rule_coverage.py,
# rule_ids), copied rather than imported: it is not the generator's pattern, so the two
# must agree, and the docs' copy must be checkable without ../shared.
DEFINED = re.compile(r"^\s*(?:[-*]|#+|\|)?\s*\**\[?([A-Z]{2,5}-\d{2,3})\b")
CITED = re.compile(r"\b([A-Z]{2,5}-\d{2,3})\b")
ANCHOR = re.compile(r'<span id="([A-Z]{2,5}-\d{2,3})"></span>')
TARGET = re.compile(r"^(?:- )?\(([A-Z]{2,5}-\d{2,3})\)=$", re.MULTILINE)
# Spelt in two parts so that this file does not count as a test that names the rule.
KNOWN = "-".join(("AUC", "14"))


def defined_ids(text: str) -> list[str]:
    ids = (m[1] for line in text.splitlines() if (m := DEFINED.match(line)))
    return list(dict.fromkeys(ids))


def test_copy_matches_the_shared_specification() -> None:
    if not SHARED.is_file():
        pytest.skip(f"{SHARED} is absent (a clone outside the workspace): nothing to compare")
    assert COPY.read_bytes() == SHARED.read_bytes(), (
        f"docs/spec/RULES.md differs from {SHARED}: copy it again (cp {SHARED} {COPY})"
    )


def test_every_defined_id_gets_an_anchor_and_a_target() -> None:
    text = COPY.read_text(encoding="utf-8")
    ids = defined_ids(text)
    page = rules_spec.render(text, rules_spec.find_mentions(ROOT))
    anchors, targets = ANCHOR.findall(page), TARGET.findall(page)
    assert len(ids) > 200  # the pattern found the rules, not a handful of stray lines
    assert len(anchors) == len(set(anchors)), "an ID has two anchors"
    assert sorted(anchors) == sorted(ids)
    assert sorted(targets) == sorted(ids)


def test_a_rule_lists_the_lines_that_name_it() -> None:
    page = rules_spec.render(COPY.read_text(encoding="utf-8"), rules_spec.find_mentions(ROOT))
    item = re.search(rf"^- \({KNOWN}\)=\n(.*?)\n(?=- \(|\(|#)", page, re.MULTILINE | re.DOTALL)
    assert item is not None
    source = ROOT / "src" / "powergrid" / "engine" / "phases" / "auction.py"
    lines = [n for n, line in enumerate(source.read_text().splitlines(), 1) if KNOWN in line]
    assert lines, f"{source} no longer names {KNOWN}: pick another rule for this test"
    assert f"`src/powergrid/engine/phases/auction.py:{', '.join(map(str, lines))}`" in item[1]
    assert "`tests/test_auction.py:" in item[1]


def test_unnamed_ids_say_so_and_references_link() -> None:
    text = "- **ZZZ-01** See ZZZ-02, not `ZZZ-02`.\n- **ZZZ-02** Text.\n"
    page = rules_spec.render(text, {"ZZZ-02": {"src/powergrid/x.py": [3, 9]}})
    assert "See [ZZZ-02](#ZZZ-02), not `ZZZ-02`." in page
    assert "*Not named in the code or the tests.*" in page
    assert "*Code:* `src/powergrid/x.py:3, 9`. *Tests:* not named in the tests." in page


def test_every_cited_id_is_defined() -> None:
    defined = set(defined_ids(COPY.read_text(encoding="utf-8")))
    # Only the specification's own prefixes: SHA-256, or the TEST-01 of a test module's
    # own rule, have the shape of an ID but do not refer to the specification.
    prefixes = {rule_id.split("-")[0] for rule_id in defined}
    broken: list[str] = []
    for path in sorted([*(ROOT / "src").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for rule_id in CITED.findall(line):
                if rule_id.split("-")[0] in prefixes and rule_id not in defined:
                    broken.append(f"{rule_id} at {path.relative_to(ROOT)}:{number}")
    assert not broken, "IDs the specification does not define: " + ", ".join(broken)
