"""Charts: the printable grid card (PNG and PDF, one page per rule set and player count) and the interval charts.

Colour scales are fixed per kind of chart, the same at every player count and in both rule sets:

- action grids: the hue says the best action, its strength the margin (what a mistake costs) from pale at
  0 to full at ``MARGIN_FULL`` points per hand and beyond, so the decision zone (small margins) uses the whole
  scale and hopeless hands cannot wash it out;
- interval charts: fixed axes (shares 0..100%, points on a common range) with their 95% intervals drawn.

matplotlib is imported only when a chart is drawn (the CLI stays quick to start).
"""

from __future__ import annotations

import io
import sys
import textwrap
from typing import TYPE_CHECKING

import numpy as np

from . import precision as fmt
from .data import JOIN, KNOCK, LOOK, PLAY, RUMBA, SIT
from .grids import ACTION_WORDS, Grid, KnockStrip

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MARGIN_FULL = 3.0  # points per hand at which a box's colour is full
ACTION_COLOURS = {SIT: "#4f6d9a", PLAY: "#2f8f4e", JOIN: "#2f8f4e", RUMBA: "#d1492a", KNOCK: "#7d3c98",
                  LOOK: "#8a8a8a"}
EMPTY = "#f1f1f1"
COUNT_DOWN = "Scores count down: a negative change is good, the best choice has the lowest expected change."


def _mix(hex_colour: str, strength: float) -> tuple[float, float, float]:
    c = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255.0
    return tuple(1.0 - strength * (1.0 - c))  # type: ignore[return-value]


def shade(action: str | None, margin: float | None) -> tuple[float, float, float]:
    """RGB (0..1) of a box: its action's colour, from 25% strength at margin 0 to 100% at MARGIN_FULL."""
    if action is None:
        return _mix("#dddddd", 0.35)
    level = 0.0 if margin is None or not np.isfinite(margin) else float(np.clip(margin / MARGIN_FULL, 0, 1))
    return _mix(ACTION_COLOURS.get(action, "#999999"), 0.25 + 0.75 * level)


def hex_of(rgb) -> str:
    return "#" + "".join(f"{int(round(255 * x)):02x}" for x in rgb)


def dark(rgb) -> bool:
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5


def _mpl():
    import matplotlib

    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    return matplotlib


def new_figure(width: float, height: float, layout: str | None = "constrained") -> Figure:
    """A matplotlib Figure on the Agg canvas (no pyplot, no global state)."""
    _mpl()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout=layout)
    FigureCanvasAgg(fig)
    return fig


def fig_png(fig: Figure, dpi: int) -> bytes:
    """The figure as PNG bytes, reduced to a 256-colour palette (flat colours and text: a third of the size)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    try:
        from PIL import Image

        img = Image.open(io.BytesIO(buf.getvalue())).convert("RGB")
        small = io.BytesIO()
        img.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(small, format="PNG", optimize=True)
        if small.tell() < buf.tell():
            return small.getvalue()
    except Exception:  # pragma: no cover - Pillow missing or failing: keep the plain PNG
        pass
    return buf.getvalue()


def fig_pdf(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="pdf", metadata={"Creator": "rumbaodds report", "CreationDate": None})
    return buf.getvalue()


def box_label(box) -> str:
    """The cost of a mistake in a box: '≈0' when its interval reaches 0, '?' when too few cells to tell."""
    m = box.margin
    if m is None:
        return "only"
    if not (np.isfinite(m.low) and np.isfinite(m.high)):
        return "?"
    return fmt.cost(m.mean, m.low, m.high)


# -- the printable card -------------------------------------------------------------------------------------
def draw_grid(ax, grid: Grid, fontsize: float = 6.0, show_rows: bool = True, rows: list[str] | None = None) -> None:
    """Boxes as coloured squares: hue = action, strength = margin, hatching = close (///) or mixed (...);
    text: the cost of a mistake and (small) the number of cells behind the box. One image for the colours and
    one collection per hatching keep a page of a thousand boxes quick to draw."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    rows = grid.rows if rows is None else rows
    nr, nc = len(rows), len(grid.cols)
    image = np.ones((nr, nc, 3))
    hatched: dict[str, list] = {"////": [], "....": []}
    for i, r in enumerate(rows):
        for j, c in enumerate(grid.cols):
            box = grid.box(r, c)
            if box.empty:
                image[i, j] = _mix("#dddddd", 0.4)
                continue
            rgb = shade(box.best, box.margin.mean if box.margin else None)
            image[i, j] = rgb
            if box.close or box.mixed:
                hatched["////" if box.close else "...."].append(Rectangle((j - 0.5, i - 0.5), 1, 1))
            colour = "white" if dark(rgb) else "#111111"
            ax.text(j, i - 0.08, box_label(box), ha="center", va="center", fontsize=fontsize, color=colour,
                    fontweight="bold")
            ax.text(j, i + 0.3, f"{box.cells}", ha="center", va="center", fontsize=fontsize * 0.72, color=colour)
    ax.imshow(image, aspect="auto", interpolation="nearest", extent=(-0.5, nc - 0.5, nr - 0.5, -0.5))
    for hatch, patches in hatched.items():
        if patches:
            ax.add_collection(PatchCollection(patches, facecolor="none", edgecolor=(1, 1, 1, 0.75), lw=0,
                                              hatch=hatch))
    for x in np.arange(nc + 1) - 0.5:  # white gaps between the boxes
        ax.axvline(x, color="white", lw=0.8)
    for y in np.arange(nr + 1) - 0.5:
        ax.axhline(y, color="white", lw=0.8)
    ax.set_xlim(-0.5, nc - 0.5)
    ax.set_ylim(nr - 0.5, -0.5)
    ax.set_xticks(np.arange(nc), grid.cols, fontsize=fontsize + 0.5, rotation=90)
    ax.xaxis.tick_top()
    ax.set_yticks(np.arange(nr), rows if show_rows else [""] * nr, fontsize=fontsize + 0.5)
    ax.tick_params(length=0, pad=1.5)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title(grid.title, fontsize=fontsize + 2, fontweight="bold", pad=22)


def draw_strip(ax, strip: KnockStrip, fontsize: float = 6.0) -> None:
    from matplotlib.patches import Rectangle

    n = len(strip.boxes)
    ax.set_xlim(0, n)
    ax.set_ylim(1, 0)
    for j, box in enumerate(strip.boxes):
        rgb = shade(box.best, box.margin.mean)
        ax.add_patch(Rectangle((j, 0), 1, 1, facecolor=rgb, edgecolor="white", lw=0.6,
                               hatch="////" if box.close else None))
        colour = "white" if dark(rgb) else "#111111"
        letter = "K" if box.best == KNOCK else "L"
        ax.text(j + 0.5, 0.5, f"{letter} {box_label(box)}", ha="center",
                va="center", fontsize=fontsize, color=colour, fontweight="bold")
    ax.set_xticks(np.arange(n) + 0.5, [b.row for b in strip.boxes], fontsize=fontsize + 0.5)
    ax.set_yticks([])
    ax.tick_params(length=0, pad=1.5)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_xlabel("turned trump card (dealer, before looking): knock or look first", fontsize=fontsize + 0.5)


def legend_handles(actions):
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=shade(a, MARGIN_FULL), edgecolor="none", label=ACTION_WORDS[a]) for a in actions]
    handles += [Patch(facecolor="white", edgecolor="#777777", hatch="////", label="close: the interval includes 0"),
                Patch(facecolor="white", edgecolor="#777777", hatch="....", label="mixed: not all hands agree")]
    return handles


def print_page(rules, players: int, grids: list[Grid], strip: KnockStrip | None, footer: str, title: str,
               lines: list[str] | None = None) -> Figure:
    """The card a player keeps beside him: every grid of one player count on one A4 landscape page, the knock
    strip under the dealer's grid and the card's lines (ordered by the points they save) below."""
    fig = new_figure(11.69, 8.27, layout=None)
    n = len(grids)
    lines = lines or []
    left, right, top = 0.055, 0.99, 0.80
    bottom = 0.34 if lines else (0.16 if strip is not None else 0.10)
    gap = 0.048  # room for each grid's own row labels
    width = (right - left - gap * (n - 1)) / n
    actions = []
    for g in grids:
        for a in g.actions:
            if a not in actions:
                actions.append(a)
    rows = [r for r in grids[0].rows if any(not g.box(r, c).empty for g in grids for c in g.cols)]
    for k, g in enumerate(grids):
        x = left + k * (width + gap)
        ax = fig.add_axes((x, bottom, width, top - bottom))
        draw_grid(ax, g, show_rows=True, rows=rows)
    if strip is not None:
        k = next((i for i, g in enumerate(grids) if "Dealer" in g.title), n - 1)
        x = left + k * (width + gap)
        ax = fig.add_axes((x, bottom - 0.085, width, 0.035))
        draw_strip(ax, strip)
        actions += [KNOCK, LOOK]
    if lines:
        half = (len(lines) + 1) // 2
        for col, chunk in enumerate((lines[:half], lines[half:])):
            text = "\n".join("\n    ".join(textwrap.wrap(f"{i}. {line}", 92)) for i, line in
                             enumerate(chunk, 1 + col * half))
            fig.text(0.02 + col * 0.49, 0.225, text, ha="left", va="top", fontsize=7.6, linespacing=1.35)
        fig.text(0.02, 0.245, "The card (lines by the points per hand they save):", ha="left", va="bottom",
                 fontsize=8.5, fontweight="bold")
    fig.text(0.5, 0.975, title, ha="center", va="top", fontsize=14, fontweight="bold")
    fig.legend(handles=legend_handles(actions), loc="upper center", bbox_to_anchor=(0.5, 0.945), ncol=8,
               fontsize=7.5, frameon=False, handlelength=1.6)
    fig.text(0.5, 0.905, "Colour: the best action; its strength: what choosing the second best costs (pale: 0, "
             f"full: {MARGIN_FULL:g}+ points per hand). In each box: that cost (\u22480: its interval reaches 0) and "
             "the number of simulated cells behind it. Rows: your trumps (x = a trump J or lower), columns: your "
             "side aces and kings.", ha="center", va="top", fontsize=7.5, wrap=True)
    fig.text(0.01, 0.012, "\n".join(textwrap.wrap(footer + " " + COUNT_DOWN, 230)), ha="left", va="bottom",
             fontsize=6.5, color="#333333")
    return fig


# -- interval charts -------------------------------------------------------------------------------------
def _style(ax, fontsize: float) -> None:
    ax.tick_params(labelsize=fontsize)
    ax.grid(alpha=0.3)


def knock_chart(strips: dict[int, KnockStrip], note: str) -> Figure:
    """EV(no knock) - EV(knock) by turned card and player count, with 95% intervals (above 0: knock)."""
    fig = new_figure(5.4, 4.6)
    ax = fig.subplots()
    colours = _mpl().colormaps["viridis"]
    counts = sorted(strips)
    for i, n in enumerate(counts):
        strip = strips[n]
        x = np.arange(len(strip.boxes)) + (i - (len(counts) - 1) / 2) * 0.12
        gain = np.array([b.margin.mean if b.best == KNOCK else -b.margin.mean for b in strip.boxes])
        low = np.array([b.margin.low if b.best == KNOCK else -b.margin.high for b in strip.boxes])
        high = np.array([b.margin.high if b.best == KNOCK else -b.margin.low for b in strip.boxes])
        ax.errorbar(x, gain, yerr=np.vstack([gain - low, high - gain]), fmt="o", ms=4, capsize=2, lw=1.2,
                    color=colours(i / max(1, len(counts) - 1) * 0.85), label=f"{n} players")
    labels = [b.row for b in strips[counts[0]].boxes]
    ax.set_xticks(range(len(labels)), labels)
    ax.axhline(0, color="black", lw=0.9)
    ax.set_xlabel("turned trump card", fontsize=12)
    ax.set_ylabel("points per hand knocking saves", fontsize=12)
    ax.set_title("Knock (above 0) or look first (below)", fontsize=13)
    _style(ax, 11.5)
    ax.legend(fontsize=10.5, ncol=2, loc="best")
    fig.supxlabel("\n".join(textwrap.wrap(note, 70)), fontsize=10.5, color="#333333")
    return fig


def success_chart(rows: list[str], series: dict[str, dict[str, tuple[float, float, float, int]]],
                  note: str, title: str) -> Figure:
    """P(Rumba succeeds) by trump holding: one marker per series (player count), with its 95% interval."""
    used = [r for r in rows if any(r in s for s in series.values())]
    fig = new_figure(5.4, 1.6 + 0.28 * len(used))
    ax = fig.subplots()
    colours = _mpl().colormaps["viridis"]
    names = list(series)
    for i, name in enumerate(names):
        pts = series[name]
        y = np.array([used.index(r) for r in used if r in pts], dtype=float) + (i - (len(names) - 1) / 2) * 0.13
        p = np.array([pts[r][0] for r in used if r in pts]) * 100
        lo = np.array([pts[r][1] for r in used if r in pts]) * 100
        hi = np.array([pts[r][2] for r in used if r in pts]) * 100
        ax.errorbar(p, y, xerr=np.vstack([p - lo, hi - p]), fmt="o", ms=3.5, capsize=1.5, lw=1,
                    color=colours(i / max(1, len(names) - 1) * 0.85), label=name)
    ax.set_yticks(range(len(used)), used)
    ax.set_ylim(len(used) - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.set_xlabel("P(Rumba succeeds), % of Rumbas played", fontsize=12)
    ax.set_title(title, fontsize=13)
    _style(ax, 11.5)
    ax.legend(fontsize=10.5, loc="lower right")
    fig.supxlabel("\n".join(textwrap.wrap(note, 70)), fontsize=10.5, color="#333333")
    return fig


__all__ = ["ACTION_COLOURS", "COUNT_DOWN", "MARGIN_FULL", "dark", "draw_grid", "fig_pdf", "fig_png", "hex_of",
           "knock_chart", "new_figure", "print_page", "shade", "success_chart"]
