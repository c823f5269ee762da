"""The ``rule`` command: print a rule of the shipped specification by its ID, or list IDs.

``powergrid rule AUC-33`` prints the rule; ``powergrid rule AUC`` (the start
of IDs) lists the matching IDs with their titles; ``powergrid rule`` lists
them all. An ID that is neither is one line ``error: ...`` and exit code 2.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from powergrid.cli.errors import UserError
from powergrid.rulebook import RuleText, UnknownRule, rule, rule_ids

#: How much of a rule's first words a listing shows when the rule has no title.
SUMMARY_WIDTH = 70


def add_rule_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rule`` subparser."""
    parser = sub.add_parser(
        "rule",
        help="print a rule of the rules specification by its ID (AUC-33), or list IDs",
        description=(
            "Print the rule, edge case or open question with this ID from RULES.md, the "
            "rules specification that errors and events cite (it ships with the package). "
            "The start of an ID (AUC, EC-R, OQ) lists the matching IDs with their titles; "
            "no ID lists them all. IDs are matched ignoring case."
        ),
    )
    parser.add_argument(
        "id",
        metavar="ID",
        nargs="?",
        default="",
        help="a rule ID such as AUC-33, EC-R01 or OQ-12, or the start of one",
    )


def run_rule(args: argparse.Namespace, out: TextIO) -> int:
    """Print the rule ``args.id`` names, or the IDs it starts; raise UserError for neither."""
    try:
        found = rule(args.id)
    except UnknownRule as err:
        listed = rule_ids(args.id)
        if not listed:
            raise UserError(str(err)) from None
        for rule_id in listed:
            print(f"{rule_id:<8} {summary(rule(rule_id))}", file=out)
        return 0
    for line in rule_lines(found):
        print(line, file=out)
    return 0


def rule_lines(entry: RuleText) -> list[str]:
    """The printed form of a rule: ID and title, where it stands, then its text."""
    head = f"{entry.id}: {entry.title}" if entry.title else entry.id
    return [head, f"RULES.md, section {entry.section}", "", *entry.text.splitlines()]


def summary(entry: RuleText) -> str:
    """A rule on one line: its title, or its first words."""
    if entry.title:
        return entry.title
    words = " ".join(entry.text.split())
    if len(words) <= SUMMARY_WIDTH:
        return words
    return words[: SUMMARY_WIDTH - 3].rsplit(" ", 1)[0].rstrip(".,;:") + "..."
