"""Issue 31 item 4: the rules travel with the package (``pg.rule``, ``powergrid rule``).

RULES.md ships as package data (``powergrid/data/RULES.md.gz``); every ID the code
cites resolves to its text offline.
"""

from __future__ import annotations

import argparse
import gzip
import io
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import powergrid as pg
from powergrid.cli.errors import UserError
from powergrid.cli.rule import add_rule_parser, run_rule
from powergrid.errors import PowerGridError
from powergrid.rulebook import RuleText, UnknownRule, parse, rule, rule_ids

ROOT = Path(__file__).parents[1]
PACKED = ROOT / "src" / "powergrid" / "data" / "RULES.md.gz"
COPY = ROOT / "docs" / "spec" / "RULES.md"
# An ID as the specification defines it, found independently of the parser: the pattern
# of tests/test_rules_spec.py, widened to the Recharged IDs (EC-R01, OQ-R01).
DEFINED = re.compile(r"^\s*(?:[-*]|#+|\|)?\s*\**\[?([A-Z]{2,5}-R?\d{2,3})\b")
CITED = re.compile(r"\b([A-Z]{2,5}-R?\d{2,3})\b")
# An ID of a defined group that RULES.md lacks; spelt in two parts so that
# tests/test_rules_spec.py does not take it for a citation of an undefined rule.
UNDEFINED = "-".join(("AUC", "99"))


def test_the_package_ships_the_repository_copy_of_the_specification() -> None:
    # docs/spec/RULES.md is kept equal to ../shared/RULES.md by tests/test_rules_spec.py.
    assert gzip.decompress(PACKED.read_bytes()) == COPY.read_bytes(), (
        "src/powergrid/data/RULES.md.gz is not docs/spec/RULES.md: run tools/pack_rules.py"
    )


def test_a_rule_has_its_text_section_and_sources() -> None:
    found = pg.rule("AUC-33")
    assert found.id == "AUC-33"
    assert found.title is None
    assert found.section == "3.4 North America discount token"
    assert found.text.startswith("If the plant still carrying the token has not been bought")
    assert "remove that plant from the game and draw a replacement" in found.text
    assert found.sources == ("000_171117f2800c6588.txt", "recommendation, see OQ-02")
    assert str(found).startswith("AUC-33 If the plant still carrying the token")


def test_a_rule_with_an_italic_title_and_several_paragraphs() -> None:
    edition = rule("CON-01")
    assert edition.title == "Edition"
    assert "a hybrid plant burns any mix of coal\nand oil" in edition.text
    assert edition.sources == ("004_137b24f658a7c78b.txt", "official: CL-RULES")
    deck = rule("RCH-20")  # a numbered list, then a paragraph after a blank line
    assert deck.title == "Deck preparation"
    assert deck.section.startswith("13.3 Plant deck and removals")
    assert "7. put the set-aside plug plant face down on top of the deck" in deck.text
    assert "This is the Deluxe procedure SET-21 with the same counts" in deck.text
    assert "RCH-21" not in deck.text
    assert "Open card backs" not in deck.text
    assert "secondary: RCH-SPEC §2 steps 8\N{EN DASH}9" in deck.sources
    update = rule("BUR-07")
    assert "Step 3 — the lowest plant of the market is removed from the game" in update.text


def test_edge_cases_and_open_questions_resolve() -> None:
    case = rule("EC-01")
    assert case.title == "Discount token removed (not moved) by a lower plant"
    assert case.section == "11. Edge cases for tests"
    assert "A buys 10 for 10; the drawn card is 5." in case.text
    assert "EC-02" not in case.text  # the paragraph ends at the blank line
    assert case.sources == ("AUC-31, AUC-32, AUC-33, AUC-10",)
    assert str(case).startswith("EC-01 Discount token removed (not moved) by a lower plant — ")
    recharged = rule("EC-R01")
    assert recharged.section == "13.11 Edge cases for tests (Recharged)"
    assert "game: RCH-GAME #79\N{EN DASH}85, #124\N{EN DASH}128" in recharged.sources
    question = rule("OQ-R03")
    assert question.title == "Two players"
    assert "*Recommendation:* 7 / 18 / 3" in question.text
    assert rule("OQ-12").section == "12. Open questions"


def test_ids_are_matched_ignoring_case_and_spaces() -> None:
    assert rule(" auc-33 ") == rule("AUC-33")
    assert rule("ec-r01").id == "EC-R01"


def test_an_unknown_id_is_a_lookup_error_naming_it() -> None:
    with pytest.raises(UnknownRule, match=rf"unknown rule ID '{UNDEFINED}'.*AUC-01 to AUC-35"):
        rule(UNDEFINED)
    with pytest.raises(LookupError, match=r"unknown rule ID 'ZZZ-01'.*AUC, RES"):
        rule("ZZZ-01")
    with pytest.raises(PowerGridError):
        rule("")
    with pytest.raises(TypeError, match="a string such as 'AUC-33'"):
        rule(33)  # type: ignore[arg-type]


def test_the_record_is_frozen() -> None:
    found = rule("BLD-12")
    assert isinstance(found, pg.RuleText)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        found.text = "anything"  # type: ignore[misc]
    assert hash(found) == hash(rule("BLD-12"))


def test_every_id_the_specification_defines_resolves() -> None:
    text = COPY.read_text(encoding="utf-8")
    defined = {m[1] for line in text.splitlines() if (m := DEFINED.match(line))}
    assert len(defined) > 300
    assert set(rule_ids()) == defined
    for rule_id in defined:
        assert rule(rule_id).text.strip(), rule_id


def test_every_id_the_code_cites_resolves() -> None:
    """An ID in a message, an event or a docstring can be looked up offline."""
    known = set(rule_ids())
    prefixes = {rule_id.rpartition("-")[0] for rule_id in known}
    sources = [*(ROOT / "src").rglob("*.py"), *(ROOT / "src").rglob("*.json")]
    cited: dict[str, str] = {}
    for path in sources:
        for rule_id in CITED.findall(path.read_text(encoding="utf-8")):
            if rule_id.rpartition("-")[0] in prefixes:
                cited.setdefault(rule_id, str(path.relative_to(ROOT)))
    assert len(cited) > 150
    unknown = {rule_id: where for rule_id, where in cited.items() if rule_id not in known}
    assert not unknown


def test_prefixes_list_ids_in_the_specifications_order() -> None:
    assert rule_ids("AUC-3") == ("AUC-30", "AUC-31", "AUC-32", "AUC-33", "AUC-34", "AUC-35")
    assert rule_ids("oq-r")[0] == "OQ-R01"
    assert rule_ids()[0] == "CON-01"
    assert rule_ids("nothing") == ()


def test_the_parser_keeps_each_entry_to_its_own_lines() -> None:
    text = (
        "## 1. A section\n\n"
        "- **ABC-01** *Short.* One line\n"
        "  goes on. [inference]\n\n"
        "  A second paragraph. [see OQ-01]\n"
        "Prose after the list is not the rule's.\n"
        "**EC-01 A case** — first line\n"
        "second line [ABC-01] `[not, a, source]` [1, 2]\n\n"
        "A paragraph after the case.\n"
    )
    first, case = parse(text)
    assert first == RuleText(
        id="ABC-01",
        title="Short",
        section="1. A section",
        text="*Short.* One line\ngoes on. [inference]\n\nA second paragraph. [see OQ-01]",
        sources=("inference", "see OQ-01"),
    )
    assert case.text == "first line\nsecond line [ABC-01] `[not, a, source]` [1, 2]"
    assert case.sources == ("ABC-01",)


def test_the_specification_is_read_only_when_asked_for() -> None:
    probe = (
        "import powergrid, powergrid.rulebook as r\n"
        "before = r._entries.cache_info().currsize\n"
        "powergrid.rule('AUC-33')\n"
        "print(before, r._entries.cache_info().currsize)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.split() == ["0", "1"]


def rule_command(*words: str) -> str:
    parser = argparse.ArgumentParser()
    add_rule_parser(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    assert run_rule(parser.parse_args(["rule", *words]), out) == 0
    return out.getvalue()


def test_the_rule_command_prints_a_rule() -> None:
    lines = rule_command("auc-33").splitlines()
    assert lines[:3] == ["AUC-33", "RULES.md, section 3.4 North America discount token", ""]
    assert lines[3] == "If the plant still carrying the token has not been bought by the"
    assert lines[-1] == "[recommendation, see OQ-02]"
    assert rule_command("EC-01").splitlines()[0] == (
        "EC-01: Discount token removed (not moved) by a lower plant"
    )


def test_the_rule_command_lists_ids_by_their_start() -> None:
    listing = rule_command("RCH-3").splitlines()
    assert listing[0] == "RCH-30   Placing the token"
    assert len(listing) == len(rule_ids("RCH-3"))
    untitled = rule_command("AUC-0").splitlines()[0]
    assert untitled.startswith("AUC-01   During phase 2 each player may acquire")
    assert len(rule_command().splitlines()) == len(rule_ids())


def test_the_rule_command_refuses_an_unknown_id_as_a_user_error() -> None:
    with pytest.raises(UserError, match=r"^unknown rule ID 'XYZ-99': RULES.md has no such entry"):
        rule_command("XYZ-99")


def test_python_m_powergrid_rule_prints_it_and_refuses_an_unknown_id_in_one_line() -> None:
    """The command as a user types it (needs ``rule`` wired into powergrid.cli.main)."""
    command = [sys.executable, "-m", "powergrid", "rule"]
    shown = subprocess.run(
        [*command, "AUC-33"], capture_output=True, text=True, timeout=120, check=False
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("AUC-33\nRULES.md, section 3.4 North America discount token\n")
    unknown = subprocess.run(
        [*command, UNDEFINED], capture_output=True, text=True, timeout=120, check=False
    )
    assert unknown.returncode == 2
    assert unknown.stderr.splitlines() == [
        f"error: unknown rule ID '{UNDEFINED}': RULES.md has no such entry; its AUC IDs are AUC-01 "
        "to AUC-35"
    ]
