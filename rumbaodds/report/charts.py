"""Charts: colours of the grids and the interval charts (the printed card is :mod:`.printcard`).

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
from .cells import JOIN, KNOCK, LOOK, PLAY, RUMBA, SIT
from .grids import KnockStrip

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MARGIN_FULL = 3.0  # points per hand at which a box's colour is full
ACTION_COLOURS = {SIT: "#4f6d9a", PLAY: "#2f8f4e", JOIN: "#2f8f4e", RUMBA: "#d1492a", KNOCK: "#7d3c98",
                  LOOK: "#8a8a8a"}
EMPTY = "#f1f1f1"
COUNT_DOWN = "Scores count down: a negative change is good, the best choice has the lowest expected change."


def mix(hex_colour: str, strength: float) -> tuple[float, float, float]:
    c = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255.0
    return tuple(1.0 - strength * (1.0 - c))  # type: ignore[return-value]


def shade(action: str | None, margin: float | None) -> tuple[float, float, float]:
    """RGB (0..1) of a box: its action's colour, from 25% strength at margin 0 to 100% at MARGIN_FULL."""
    if action is None:
        return mix("#dddddd", 0.35)
    level = 0.0 if margin is None or not np.isfinite(margin) else float(np.clip(margin / MARGIN_FULL, 0, 1))
    return mix(ACTION_COLOURS.get(action, "#999999"), 0.25 + 0.75 * level)


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


__all__ = ["ACTION_COLOURS", "COUNT_DOWN", "MARGIN_FULL", "box_label", "dark", "mix", "fig_pdf", "fig_png", "hex_of",
           "knock_chart", "new_figure", "shade", "success_chart"]
