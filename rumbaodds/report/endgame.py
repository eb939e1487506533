"""The end of the game (issue 38 item 6): how calling Rumba and playing move with the score, read in a second.

For every rule set and player count with a shipped score-aware strategy, two
grids of own distance to 0 (rows) by the leader's distance (columns): how
often the first player to speak calls Rumba, and how often he plays (Rumba
included) rather than pass, with a random hand, by the score-aware
equilibrium of that score class (no sit-out penalty due). Each box also
shows the change against the per-hand equilibrium (which ignores the
score): the colour is that change, so a player sees at once where to call
more, or pass more, as the game ends. The shares are exact sums over the
strength buckets of the strategy, weighted by the share of random hands in
each bucket (``score_aware.bucket_shares``: random deals, seeded).
"""

from __future__ import annotations

import base64
import html
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine import policy as P
from ..rules import PRESETS, RuleSet
from ..strategy import store
from ..strategy.game import A_PASS, A_RUMBA
from ..strategy.score_aware import bucket_shares, class_rows, find_score
from ..strategy.score_classes import BUCKET_NAMES, DISTANCE_BUCKETS
from . import index
from .page import CSS

PAGE = index.ENDGAME


@dataclass
class Grids:
    rules: str
    players: int
    rumba: np.ndarray  # [own bucket, leader bucket] share of hands that call Rumba
    play: np.ndarray  # share that play or call Rumba
    rumba_blind: float  # the same by the per-hand equilibrium
    play_blind: float


def first_speaker(word: np.ndarray, shares: np.ndarray) -> tuple[float, float]:
    """(P(Rumba), P(play or Rumba)) of seat 0 in the open context with a random hand."""
    row = word[0, P.CTX_OPEN]  # [buckets, actions]
    rumba = float(shares @ row[:, A_RUMBA])
    play = float(shares @ (1.0 - row[:, A_PASS]))
    return rumba, play


def grids_of(rules: RuleSet, players: int) -> Grids | None:
    solved = find_score(rules, players)
    if solved is None:
        return None
    base = store.find(rules, players)
    shares = bucket_shares(rules, solved)
    rumba = np.zeros((DISTANCE_BUCKETS, DISTANCE_BUCKETS))
    play = np.zeros_like(rumba)
    for own in range(DISTANCE_BUCKETS):
        for lead in range(DISTANCE_BUCKETS):
            c = (own * DISTANCE_BUCKETS + lead) * 2
            rumba[own, lead], play[own, lead] = first_speaker(class_rows(solved.strategy, players, c).word, shares)
    rb, pb = first_speaker(base.strategy.word, shares)
    return Grids(rules.name, players, rumba, play, rb, pb)


def chart_png(g: Grids, dpi: int = 110) -> bytes:
    """Two annotated grids, one above the other (each a phone's width): the share of hands calling Rumba and
    playing, coloured by the change."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 1, figsize=(4.4, 8.4), dpi=dpi)  # one above the other: a phone's width each
    for ax, grid, blind, title in ((axes[0], g.rumba, g.rumba_blind, "calls Rumba"),
                                   (axes[1], g.play, g.play_blind, "plays (Rumba too)")):
        change = grid - blind
        span = max(0.05, float(np.abs(change).max()))
        ax.imshow(change, cmap="RdBu_r", vmin=-span, vmax=span)
        for i in range(DISTANCE_BUCKETS):
            for j in range(DISTANCE_BUCKETS):
                ax.text(j, i, f"{grid[i, j]:.0%}\n{change[i, j]:+.0%}", ha="center", va="center", fontsize=9)
        ax.set_xticks(range(DISTANCE_BUCKETS), BUCKET_NAMES, fontsize=9)
        ax.set_yticks(range(DISTANCE_BUCKETS), BUCKET_NAMES, fontsize=9)
        ax.set_xlabel("leader's distance to 0", fontsize=9)
        ax.set_ylabel("your distance to 0", fontsize=9)
        ax.set_title(f"{g.rules} {g.players}p: first to speak {title}\n(per-hand equilibrium: {blind:.0%})",
                     fontsize=10)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


def render(grids: list[Grids], missing: list[str]) -> str:
    E = html.escape
    parts = [f"<h2 id={g.rules}{g.players}>{E(g.rules)}, {g.players} players</h2><figure><img alt=\""
             f"{E(g.rules)} {g.players} players: Rumba and play by the score\" style=\"max-width:100%;height:auto\" "
             f"src=\"data:image/png;base64,{base64.b64encode(chart_png(g)).decode('ascii')}\"></figure>"
             for g in grids]
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8><meta name=viewport content=\"width=device-width, "
            f"initial-scale=1\"><title>rumbaodds: the end of the game</title><style>{CSS}</style></head><body><main>"
            "<h1>The end of the game</h1><p>How often the first player to speak calls Rumba, and how often he "
            "plays rather than pass, with a random hand, by his distance to 0 (rows) and the leader's (columns): "
            "each box gives the share by the score-aware equilibrium and, below it, the change against the "
            "per-hand equilibrium, which ignores the score (red: more often, blue: less). No sit-out penalty "
            "due. Made by <code>rumbaodds report-endgame</code>; how the strategies are solved: docs/STRATEGY.md "
            "\"Score-aware strategies\".</p>" + "".join(parts)
            + (f"<p class=small>No score-aware strategy shipped yet for: {E(', '.join(missing))}.</p>"
               if missing else "") + "</main></body></html>")


def write_endgame(out: str | Path = "reports") -> Path:
    """Write ``out/endgame.html`` for every preset and player count with a score-aware strategy; relink the index."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    grids, missing = [], []
    for name, rules in PRESETS.items():
        for n in range(rules.min_players, rules.max_players + 1):
            g = grids_of(rules, n)
            (grids.append(g) if g is not None else missing.append(f"{name} {n}"))
    path = out / PAGE
    path.write_text(render(grids, missing), encoding="utf-8")
    index.write_index(out)
    return path


__all__ = ["write_endgame", "grids_of", "first_speaker", "Grids"]
