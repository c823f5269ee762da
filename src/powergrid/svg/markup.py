"""SVG text: elements with escaped text, and the seats' marks.

Every piece of text that reaches the picture passes :func:`esc` (a player's
name comes from a user), and every attribute value :func:`attr`.
"""

from __future__ import annotations

from collections.abc import Mapping

# Written here, not taken from xml.sax.saxutils: importing that module imports
# urllib.request, http.client and ssl: about 5 MiB of resident memory and 20 ms in
# every process that imports powergrid. The output is the same as saxutils' escape and quoteattr.
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTR = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
)

#: Seat colours (the Okabe-Ito palette, told apart by most colour-blind people);
#: every house also carries its seat's number and shape, never colour alone.
SEAT_COLOURS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#D55E00",
    "#56B4E9",
    "#F0E442",
    "#000000",
)
#: One shape per seat, in the same order as the colours.
SEAT_SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "circle", "square", "diamond")
#: Automatic actors (the fund) draw in grey, marked with their name's first letter.
ACTOR_COLOUR = "#777777"
#: Fill colours of the fuel kinds on plant cards and the resource market.
KIND_COLOURS = {
    "coal": "#8B5A2B",
    "gas": "#9ACD32",
    "oil": "#333333",
    "garbage": "#E8C000",
    "uranium": "#D02020",
    "hybrid": "#A0522D",
    "eco": "#3CB043",
    "fusion": "#8A2BE2",
}


def esc(text: object) -> str:
    """``text`` as SVG character data (``&``, ``<`` and ``>`` escaped)."""
    return str(text).translate(_TEXT)


def attr(value: object) -> str:
    """``value`` as a quoted attribute value, quotes and markup escaped.

    Double quotes around it, or single ones when it holds a double quote and no
    single one; holding both, its double quotes become ``&quot;``. Line breaks and
    tabs are written as character references, so they survive as themselves.
    """
    text = str(value).translate(_ATTR)
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def num(value: float) -> str:
    """A coordinate with at most one decimal, no trailing zeros (short, stable text)."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def tag(name: str, attrs: Mapping[str, object], text: str | None = None) -> str:
    """One element; numbers in ``attrs`` are written by :func:`num`, ``text`` is escaped here."""
    parts = [name]
    for key, value in attrs.items():
        shown = num(value) if isinstance(value, float) else value
        parts.append(f"{key}={attr(shown)}")
    head = " ".join(parts)
    return f"<{head}/>" if text is None else f"<{head}>{esc(text)}</{name}>"


def seat_colour(seat: int) -> str:
    """The colour of a seat (an automatic actor's id is negative: grey)."""
    return ACTOR_COLOUR if seat < 0 else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_mark(seat: int, label: str, x: float, y: float, r: float) -> list[str]:
    """A seat's token at ``(x, y)``: its shape in its colour with its label on it."""
    colour = seat_colour(seat)
    shape = "circle" if seat < 0 else SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    style = {"fill": colour, "stroke": "#000", "stroke-width": 0.8}
    out = [_shape(shape, x, y, r, style)]
    ink = "#000" if colour in ("#F0E442", "#E69F00", "#56B4E9") else "#fff"
    out.append(
        tag(
            "text",
            {"x": x, "y": y + r * 0.38, "font-size": r * 1.1, "text-anchor": "middle", "fill": ink},
            label,
        )
    )
    return out


def _shape(shape: str, x: float, y: float, r: float, style: dict[str, object]) -> str:
    if shape == "circle":
        return tag("circle", {"cx": x, "cy": y, "r": r, **style})
    if shape == "square":
        return tag("rect", {"x": x - r, "y": y - r, "width": 2 * r, "height": 2 * r, **style})
    corners = {
        "diamond": ((0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)),
        "triangle": ((0, -1.3), (1.2, 0.9), (-1.2, 0.9)),
        "hexagon": ((-1.1, 0), (-0.55, -1), (0.55, -1), (1.1, 0), (0.55, 1), (-0.55, 1)),
    }[shape]
    points = " ".join(f"{num(x + dx * r)},{num(y + dy * r)}" for dx, dy in corners)
    return tag("polygon", {"points": points, **style})


def seat_label(seat: int, name: str) -> str:
    """The label on a seat's token: its number, or an actor's initial."""
    return str(seat) if seat >= 0 else (name.removeprefix("the ")[:1].upper() or "A")


def document(width: float, height: float, body: list[str], title: str) -> str:
    """The whole SVG document: a titled, white picture of the given size."""
    head = tag(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": float(width),
            "height": float(height),
            "viewBox": f"0 0 {num(width)} {num(height)}",
            "font-family": "sans-serif",
        },
    )[:-2]
    background = tag("rect", {"width": float(width), "height": float(height), "fill": "#fff"})
    return "\n".join([head + ">", tag("title", {}, title), background, *body, "</svg>"]) + "\n"
