"""A solved strategy in words and in a chart: how a good player at each seat decides."""

from __future__ import annotations

import numpy as np

from ..cards import RANKS
from ..engine import policy as P
from .game import A_PASS, A_PLAY, A_RUMBA
from .store import Solved

SEAT_WORDS = ("first to speak", "second", "third", "fourth", "fifth", "sixth", "seventh")
# The words of each decision context of the strategy (engine/policy.py CTX_*): what the earlier seats did.
CONTEXTS = {P.CTX_OPEN: "nobody played yet", P.CTX_OPEN + 1: "one earlier seat plays",
            P.CTX_OPEN + 2: "two earlier seats play", P.CTX_OPEN + 3: "three or more play",
            P.CTX_RUMBA: "after a Rumba call", P.CTX_RUMBA + 1: "after a Rumba, one joined",
            P.CTX_RUMBA + 2: "after a Rumba, two or more joined", P.CTX_KNOCK: "after a knock",
            P.CTX_KNOCK + 1: "after a knock, one joined", P.CTX_KNOCK + 2: "after a knock, two or more joined"}


def strength_shares(solved: Solved, hands: int = 100_000, seed: int = 5) -> np.ndarray:
    """``out[x]``: the share of random hands whose strength index is at least ``x``."""
    rules = solved.rules
    rng = np.random.default_rng(seed)
    deck = np.array(rules.deck)
    values = solved.abstraction.value_array()
    top = RANKS.index(rules.ranks[-1])
    scores = np.zeros(hands, dtype=np.int64)
    trump = deck[0] // 16
    for i in range(hands):
        cards = rng.choice(deck, rules.hand_size, replace=False)
        trumps = cards // 16 == trump
        scores[i] = values[trumps.astype(int), np.clip(top - cards % 16, 0, 15)].sum()
    counts = np.bincount(np.minimum(scores, P.NSCORE - 1), minlength=P.NSCORE)
    return counts[::-1].cumsum()[::-1] / hands


def _contexts(seat: int, players: int, rules) -> list[int]:
    out = [P.CTX_OPEN + k for k in range(min(seat, 3) + 1)]
    if seat >= 1:
        out += [P.CTX_RUMBA + k for k in range(min(seat - 1, 2) + 1)]
    if rules.knock and seat < players - 1:
        out += [P.CTX_KNOCK + k for k in range(min(seat, 2) + 1)]
    return out


def _first_from(flags: np.ndarray) -> int | None:
    """The lowest bucket from which ``flags`` holds in every higher bucket."""
    for b in range(len(flags)):
        if flags[b:].all():
            return b
    return None


def describe_seats(solved: Solved) -> list[dict]:
    """Per seat: a title and a few sentences (thresholds by strength, with the share of hands above them)."""
    rules, n, s = solved.rules, solved.players, solved.strategy
    edges = (0, *solved.abstraction.edges)
    shares = strength_shares(solved)

    def at(bucket: int) -> str:
        x = edges[bucket]
        return f"strength {x}+ (the strongest {shares[x]:.0%} of hands)"

    out = []
    for seat in range(n):
        title = f"Seat {seat} ({'the dealer, last to speak' if seat == n - 1 else SEAT_WORDS[seat]})"
        lines = []
        for ctx in _contexts(seat, n, rules):
            word = s.word[seat, ctx]
            if ctx < P.CTX_RUMBA:
                plays = word[:, A_PLAY:].sum(axis=-1)
                merged = np.stack([word[:, A_PASS], plays, word[:, A_RUMBA]], axis=-1)
                play_from = _first_from(merged.argmax(axis=-1) != 0)
                rumba_from = _first_from(merged.argmax(axis=-1) == 2)
                text = f"{_ctx_text(ctx)}: "
                text += f"plays from {at(play_from)}" if play_from is not None else "never plays"
                text += f"; calls Rumba from {at(rumba_from)}" if rumba_from is not None else "; never calls Rumba"
                k = word[:, A_PLAY:].argmax(axis=-1)
                typical = np.bincount(k[merged.argmax(axis=-1) == 1], minlength=1)
                if typical.sum():
                    text += f"; exchanges {int(typical.argmax())} cards most often"
            else:
                join_from = _first_from(word[:, A_PLAY] > word[:, A_PASS])
                text = f"{_ctx_text(ctx)}: " + (f"joins from {at(join_from)}" if join_from is not None else
                                                 "never joins")
            mixed = int(((word.max(axis=-1) < 0.9) & (word.sum(axis=-1) > 0)).sum())
            if mixed:
                text += f" ({mixed} buckets mixed)"
            lines.append(text)
        if rules.throw_in:
            lines.append(f"throws in a hand of all cards below {rules.throw_in_below} with probability "
                         f"{float(np.median(s.throw[seat, P.CTX_OPEN])):.0%} (median over strengths)")
        if rules.knock and seat == n - 1:
            knocks = [f"{RANKS[r]} {s.knock[r]:.0%}" for r in range(16) if r < len(RANKS) and RANKS[r] in rules.ranks
                      and s.knock[r] > 0.05]
            lines.append("knocks blind on a turned " + (", ".join(knocks) if knocks else "card: never"))
        out.append({"seat": seat, "title": title, "lines": lines})
    return out


def _ctx_text(ctx: int) -> str:
    return CONTEXTS.get(ctx, f"context {ctx}")


def plot_strategy(solved: Solved, path) -> None:
    """One row per seat: the share of pass / play / Rumba by bucket when nobody has played, and joining a Rumba."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n, s = solved.players, solved.strategy
    buckets = np.arange(solved.abstraction.buckets)
    fig, axes = plt.subplots(n, 2, figsize=(9, 1.9 * n), sharex=True, squeeze=False)
    for seat in range(n):
        word = s.word[seat, P.CTX_OPEN]
        ax = axes[seat, 0]
        ax.stackplot(buckets, word[:, A_PASS], word[:, A_PLAY:].sum(axis=-1), word[:, A_RUMBA],
                     labels=["pass", "play", "Rumba"], colors=["#bbbbbb", "#4c8bd6", "#d6604c"])
        ax.set_ylabel(f"seat {seat}")
        ax.set_ylim(0, 1)
        join = s.word[seat, P.CTX_RUMBA]
        axes[seat, 1].stackplot(buckets, join[:, A_PASS], join[:, A_PLAY:].sum(axis=-1), labels=["pass", "join"],
                                colors=["#bbbbbb", "#4c8bd6"])
        axes[seat, 1].set_ylim(0, 1)
    axes[0, 0].set_title("nobody has played yet")
    axes[0, 1].set_title("after a Rumba call")
    axes[0, 0].legend(loc="upper left", fontsize=7)
    axes[0, 1].legend(loc="upper left", fontsize=7)
    for ax in axes[-1]:
        ax.set_xlabel("strength bucket (weak to strong)")
    fig.suptitle(f"{solved.rules.name}, {n} players: solved strategy by seat")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


__all__ = ["describe_seats", "plot_strategy", "strength_shares"]
