"""Sphinx configuration for the powergrid documentation."""

from __future__ import annotations

import importlib.metadata
import pathlib

from powergrid.rules import tables as component_tables
from powergrid.rules.hooks import table_markdown

project = "powergrid"
author = "The powergrid developers"
copyright = "2026, The powergrid developers"
release = importlib.metadata.version("powergrid-rules")
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]

# Generated from the code at every build, so the guide's hook table cannot drift.
_generated = pathlib.Path(__file__).parent / "_generated"
_generated.mkdir(exist_ok=True)
(_generated / "hooks.md").write_text(table_markdown(), encoding="utf-8")
(_generated / "tables.md").write_text(component_tables.table_markdown(), encoding="utf-8")
(_generated / "row_keys.md").write_text(component_tables.row_keys_markdown(), encoding="utf-8")


def _codec_sizes() -> str:
    """The action codec's block sizes for every built-in configuration, as a Markdown table."""
    from powergrid.rl import ActionCodec
    from powergrid.rules.custom_deck.samples import sample_config
    from powergrid.testing import all_configs, config_label

    configs = [*all_configs(), sample_config("M", 3), sample_config("P", 4)]
    rows, names = {}, ["end", "choose", "bid", "discard", "buy", "build", "power", "fund"]
    for config in configs:
        codec = ActionCodec(config)
        sizes = {b.name: b.size for b in codec.blocks}
        cells = " | ".join(str(sizes.get(n, "")) for n in names)
        rows.setdefault(f"{cells} | {codec.size}", []).append(config_label(config))
    head = "| configurations | " + " | ".join(names) + " | size |\n"
    head += "|---" * (len(names) + 2) + "|\n"
    return head + "".join(f"| {', '.join(labels)} | {cells} |\n" for cells, labels in rows.items())


(_generated / "codec_sizes.md").write_text(_codec_sizes(), encoding="utf-8")


def _pictures() -> None:
    """The pictures of docs/drawing.md: a seeded game drawn at every build (issue 35)."""
    import powergrid as pg
    from powergrid import svg
    from powergrid.bots import GreedyBot

    state = pg.new_game(pg.GameConfig(players=4, map="europe"), seed=7)
    bot = GreedyBot(seed=7)
    while state.round < 6:
        state = pg.apply(state, bot.choose(state))
    (_generated / "game.svg").write_text(svg.game(state, seat=0), encoding="utf-8")
    (_generated / "reach.svg").write_text(
        svg.board(pg.view(state, 1), reach=True), encoding="utf-8"
    )


_pictures()

# --- the rules specification page (docs/_ext/rules_spec.py) ---
# docs/_ext is not a package, so the generator is imported from its folder. The page
# specification.md includes the generated page; the copy it is made from is not a page.
import sys  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent / "_ext"))
from rules_spec import write_specification  # noqa: E402

exclude_patterns.append("spec")
write_specification(
    _generated.parent / "spec" / "RULES.md",
    _generated / "specification.md",
    root=_generated.parent.parent,
)
# --- end of the rules specification page ---

# The docs build offline (CI has no network), so no inventories are fetched.
# With network access one could add:
#   {"python": ("https://docs.python.org/3", None),
#    "attrs": ("https://www.attrs.org/en/stable/", None)}
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}

html_theme = "furo"
html_title = f"powergrid {release}"

myst_heading_anchors = 3
myst_enable_extensions = ["deflist"]

autodoc_typehints = "description"
autodoc_typehints_description_target = "all"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

doctest_global_setup = "import powergrid as pg"

nitpicky = True
nitpick_ignore_regex = [
    (r"py:class", r"numpy\..*"),  # numpy's types, documented by numpy
    # The hook types of powergrid.rules.hooks (aliases of Callable), listed in its __all__.
    (
        r"py:class",
        r"(BuildRefusal|BuildStep|DrawChances|DrawFilter|LeavePlay|MarketShape|MinBid|PlantDeck"
        r"|PlantStep|PlayerOrder|PrepareDeck|RefillAmounts|ResampleDeck|Row|SeatPlantStep|SeatStep"
        r"|SetupRow|SetupTurn|StateStep|StateViolations|Step2Replacement|TablesChange|Wrap)"
        r"(\[.*\])?",
    ),
]
nitpick_ignore = [
    # Standard-library names: they resolve only through intersphinx, which is off.
    ("py:class", "collections.abc.Callable"),
    ("py:class", "collections.abc.Iterable"),
    ("py:class", "collections.abc.Iterator"),
    ("py:class", "collections.abc.Mapping"),
    ("py:class", "collections.abc.Sequence"),
    ("py:class", "enum.IntEnum"),
    ("py:class", "enum.StrEnum"),
    ("py:class", "fractions.Fraction"),
    ("py:class", "pathlib.Path"),
    ("py:class", "random.Random"),
    # A type alias of mechanics.chance_points: (Reveal, Fraction) pairs, named in its docs.
    ("py:class", "Chances"),
    # The type variable of a hook wrap (powergrid.rules.hooks.Wrap): not a documented object.
    ("py:class", "powergrid.rules.hooks._F"),
    ("py:obj", "powergrid.rules.hooks._F"),
    # The type variable of RngState.shuffle/choice: not a documented object.
    ("py:class", "powergrid.chance.T"),
    ("py:class", "collections.Counter"),
    # hypothesis is an optional dependency; its strategies are documented there.
    ("py:class", "SearchStrategy"),
    # The rl extra's dependencies are documented in their own projects (no intersphinx).
    ("py:class", "gymnasium.spaces.space.Space"),
    ("py:class", "pettingzoo.utils.env.AECEnv"),
    # PowerGridEnv's opponent: a bot name, a callable or an object with choose(state).
    ("py:class", "Opponent"),
]
