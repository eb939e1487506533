"""The card a player prints: vector PDFs for A4 and A5 (text as text, every text at least ``MIN_PT`` points on
paper) and a PNG of the A4 page at print resolution.

- A4 landscape, one page: the grids of every seat group (colour: the best choice; number: what the second best
  costs; hatched: close or mixed), the rule card's lines with what each saves, and what following the card
  loses.
- A5 landscape: the rule card in large type on the front; the grids behind, at most three to a page (two
  pages of grids where a player count has four seat groups).

Figures are drawn at paper size (inches), so a font size here is its printed size in points; :func:`font_sizes`
lists them for the tests.
"""

from __future__ import annotations

import io
import math
import textwrap
from typing import TYPE_CHECKING

import numpy as np

from .blocks import POINTS_TEXT, saved_text
from .cells import PLAY, RUMBA, SIT
from .charts import ACTION_COLOURS, COUNT_DOWN, MARGIN_FULL, box_label, dark, mix, new_figure, shade
from .grids import Grid

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .card import RuleCard

MIN_PT = 7.0
A5_GRIDS = 3  # grids side by side on an A5 page (7 pt numbers need the width)
HEAD = POINTS_TEXT + " Read from the top: the first line that fits your hand says what to do."
A4 = (11.69, 8.27)  # landscape, inches
A5 = (8.27, 5.83)
PRINT_DPI = 150
A4_LINE = 0.0168  # the height of a printed card line on the A4 page (figure fraction)
A4_ROOM = 8  # printed card lines that fit under the A4 grids as they are; more raise the grids' bottom
A5_ROOM = 15  # printed card lines at 10 pt on the A5 front; more are set at 8.5 pt
LABEL = {SIT: "pass", PLAY: "play", RUMBA: "Rumba"}


def draw_grid(ax, grid: Grid, rows: list[str], size: float = 7.0, row_labels: bool = True) -> None:
    """Boxes as coloured squares with the cost of the second best in each; hatched when close or mixed."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    nr, nc = len(rows), len(grid.cols)
    image = np.ones((nr, nc, 3))
    hatched: dict[str, list] = {"////": [], "....": []}
    for i, r in enumerate(rows):
        for j, c in enumerate(grid.cols):
            box = grid.box(r, c)
            if box.empty:
                image[i, j] = mix("#dddddd", 0.4)
                continue
            rgb = shade(box.best, box.margin.mean if box.margin else None)
            image[i, j] = rgb
            if box.close or box.mixed:
                hatched["////" if box.close else "...."].append(Rectangle((j - 0.5, i - 0.5), 1, 1))
            ax.text(j, i, box_label(box), ha="center", va="center", fontsize=size,
                    color="white" if dark(rgb) else "#111111", fontweight="bold")
    ax.imshow(image, aspect="auto", interpolation="nearest", extent=(-0.5, nc - 0.5, nr - 0.5, -0.5))
    for hatch, patches in hatched.items():
        if patches:
            ax.add_collection(PatchCollection(patches, facecolor="none", edgecolor=(1, 1, 1, 0.8), lw=0,
                                              hatch=hatch))
    for x in np.arange(nc + 1) - 0.5:
        ax.axvline(x, color="white", lw=0.7)
    for y in np.arange(nr + 1) - 0.5:
        ax.axhline(y, color="white", lw=0.7)
    ax.set_xlim(-0.5, nc - 0.5)
    ax.set_ylim(nr - 0.5, -0.5)
    ax.set_xticks(np.arange(nc), grid.cols, fontsize=size, rotation=90)
    ax.xaxis.tick_top()
    ax.set_yticks(np.arange(nr), rows if row_labels else [""] * nr, fontsize=size)
    ax.tick_params(length=0, pad=1.5)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title(grid.title, fontsize=size + 1.5, fontweight="bold", pad=24)


def _rows(grids: list[Grid]) -> list[str]:
    return [r for r in grids[0].rows if any(not g.box(r, c).empty for g in grids for c in g.cols)]


def _legend(fig, y: float, size: float) -> None:
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=shade(a, MARGIN_FULL), edgecolor="none", label=LABEL[a]) for a in (SIT, PLAY, RUMBA)]
    handles += [Patch(facecolor="white", edgecolor="#777777", hatch="////", label="close (≈0: either will do)"),
                Patch(facecolor="white", edgecolor="#777777", hatch="....", label="mixed (ask about your hand)")]
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, y), ncol=5, fontsize=size, frameon=False,
               handlelength=1.6)


def _grid_axes(fig, grids: list[Grid], left: float, right: float, bottom: float, top: float, size: float,
               rows: list[str] | None = None) -> None:
    rows = _rows(grids) if rows is None else rows
    n = len(grids)
    label_w = 0.045 * (A4[0] / fig.get_figwidth())
    width = (right - left - label_w * n) / n
    for k, g in enumerate(grids):
        x = left + label_w + k * (width + label_w)
        ax = fig.add_axes((x, bottom, width, top - bottom))
        draw_grid(ax, g, rows, size)


def rule_texts(card: RuleCard, rules) -> list[str]:
    """The card's lines as printed: words and what each saves."""
    return [f"{line.text(rules)} (saves {saved_text(line.saved)} per hand)" for line in card.lines]


def card_lines(texts: list[str], width: int) -> list[str]:
    out = []
    for i, text in enumerate(texts, 1):
        out += textwrap.wrap(f"{i}. {text}", width, subsequent_indent="    ")
    return out


def a4_page(grids: list[Grid], texts: list[str], summary: str, title: str, footer: str,
            head: str = HEAD) -> Figure:
    fig = new_figure(*A4, layout=None)
    fig.text(0.5, 0.975, title, ha="center", va="top", fontsize=13, fontweight="bold")
    _legend(fig, 0.945, 8)
    fig.text(0.5, 0.905, "Row: your trumps (x: a trump J or lower); column: your side aces and kings. Colour: the best "
             f"choice; its strength and the number: what the second best costs, points per hand (full colour: "
             f"{MARGIN_FULL:g} or more).", ha="center", va="top", fontsize=7.5)
    lines = card_lines(texts, 150)
    raise_by = A4_LINE * max(0, len(lines) - A4_ROOM)  # a longer card: the grids give up the height it needs
    _grid_axes(fig, grids, 0.01, 0.99, 0.32 + raise_by, 0.80, 7.0)
    text = "\n".join([f"The card. {head}"] + lines)
    fig.text(0.02, 0.277 + raise_by, text, ha="left", va="top", fontsize=7.5, linespacing=1.3)
    below = 0.277 + raise_by - A4_LINE * (len(lines) + 1) - 0.012  # under the lines, above the footer
    fig.text(0.02, below, "\n".join(textwrap.wrap(summary, 190)), ha="left", va="top", fontsize=7,
             linespacing=1.25, color="#222222")
    fig.text(0.01, 0.008, "\n".join(textwrap.wrap(footer + " " + COUNT_DOWN, 210)), ha="left", va="bottom",
             fontsize=7, color="#333333")
    return fig


def a5_pages(grids: list[Grid], texts: list[str], summary: str, title: str, footer: str,
             head: str = HEAD) -> list[Figure]:
    front = new_figure(*A5, layout=None)
    front.text(0.5, 0.96, title, ha="center", va="top", fontsize=12, fontweight="bold")
    front.text(0.04, 0.87, "\n".join(textwrap.wrap(head, 88)),
               ha="left", va="top", fontsize=9, linespacing=1.3)
    size = 10.0 if len(card_lines(texts, 78)) <= A5_ROOM else 8.5  # a longer card in smaller (still large) type
    lines = card_lines(texts, int(78 * 10 / size))
    front.text(0.04, 0.76, "\n".join(lines), ha="left", va="top", fontsize=size, linespacing=1.35)
    front.text(0.04, 0.76 - 0.0330 * size / 10 * len(lines) - 0.04, "\n".join(textwrap.wrap(summary, 110)),
               ha="left", va="top", fontsize=7.5, linespacing=1.25, color="#222222")
    front.text(0.02, 0.012, "\n".join(textwrap.wrap(footer + " " + COUNT_DOWN, 140)), ha="left", va="bottom",
               fontsize=7, color="#333333")
    pages = [front]
    per_page = math.ceil(len(grids) / math.ceil(len(grids) / A5_GRIDS))  # balanced, at most A5_GRIDS a page
    rows = _rows(grids)
    for start in range(0, len(grids), per_page):
        back = new_figure(*A5, layout=None)
        back.text(0.5, 0.975, f"{title}: the grids", ha="center", va="top", fontsize=10, fontweight="bold")
        _legend(back, 0.935, 7)
        chunk = grids[start:start + per_page]
        right = 0.005 + 0.99 * len(chunk) / per_page  # a short last page keeps the others' box size
        _grid_axes(back, chunk, 0.005, right, 0.03, 0.80, 7.0, rows)
        pages.append(back)
    return pages


def pdf_bytes(figures: list[Figure]) -> bytes:
    """The pages as one PDF, text as text (TrueType fonts, embedded: selectable and searchable)."""
    import matplotlib
    from matplotlib.backends.backend_pdf import PdfPages

    buf = io.BytesIO()
    with matplotlib.rc_context({"pdf.fonttype": 42}), \
            PdfPages(buf, metadata={"Creator": "rumbaodds report", "CreationDate": None}) as pdf:
        for fig in figures:
            pdf.savefig(fig)
    return buf.getvalue()


def png_of_pdf(pdf: bytes, figure: Figure, dpi: int = PRINT_DPI) -> bytes:
    """The first page of a card PDF as a PNG at print resolution: rendered from the PDF by poppler's
    ``pdftoppm`` where it is installed, else the same figure drawn by matplotlib at that resolution."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    from .charts import fig_png

    tool = shutil.which("pdftoppm")
    if tool:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "card.pdf"
            src.write_bytes(pdf)
            subprocess.run([tool, "-png", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile", str(src),
                            str(Path(tmp) / "card")], check=True, capture_output=True, timeout=120)
            return (Path(tmp) / "card.png").read_bytes()
    return fig_png(figure, dpi)


def font_sizes(fig: Figure) -> list[float]:
    """Every text's size in points on paper (the figure is drawn at paper size)."""
    from matplotlib.text import Text

    fig.canvas.draw()
    return [t.get_fontsize() for t in fig.findobj(Text) if t.get_text().strip() and t.get_visible()]


__all__ = ["A4", "A5", "ACTION_COLOURS", "MIN_PT", "PRINT_DPI", "a4_page", "a5_pages", "card_lines", "draw_grid",
           "font_sizes", "pdf_bytes", "png_of_pdf", "rule_texts"]
