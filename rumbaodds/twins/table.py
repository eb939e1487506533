"""Plain-Python twin of the adaptive table kernel (``table.table_cells``), written for clarity.

One cell at a time: draw the samples of each round with ``hand.ask_batch``
(the same streams ``c * max_samples + i`` the kernel uses), keep every score
and importance weight, and compute the weighted statistics directly from
their definitions instead of from running sums. tests/test_tables_adaptive.py checks that the kernel
gives the same numbers.
"""

from __future__ import annotations

import math

import numpy as np

from ..engine import hand
from ..engine.table import COL_PASS, COL_PLAY, COL_RUMBA, PSEUDO_DEALS, STOP_MAX, STOP_PRECISE, STOP_RESOLVED, Z95


def weighted_mean_and_variance(x: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Self-normalised weighted mean and the (delta-method) variance of that mean.

    mean = sum(w x) / sum(w); var = sum(w^2 (x - mean)^2) / sum(w)^2 * n / (n - 1).
    """
    n = len(x)
    mean = float(np.sum(w * x) / np.sum(w))
    if n < 2:
        return mean, 0.0
    return mean, float(np.sum(w * w * (x - mean) ** 2) / np.sum(w) ** 2 * n / (n - 1))


def scores_possible(rules) -> set[int]:
    """Every score one hand can bring a player, from the rule set's fields (RULES.md scoring)."""
    k = range(1, rules.hand_size + 1)
    return ({0, rules.sit_out_penalty, rules.lone_rumba_score, rules.lone_player_score, rules.normal_no_trick,
             rules.rumba_fail_score, rules.rumba_others_no_trick}
            | {rules.normal_per_trick * t for t in k} | {rules.rumba_others_per_trick * t for t in k}
            | {rules.rumba_success_flat + rules.rumba_success_per_trick * t for t in k})


def guarded(var: float, w: np.ndarray, half_range: float) -> float:
    """The variance of a mean as if one more deal (PSEUDO_DEALS) lay ``half_range`` from it (small samples)."""
    ess = float(w.sum() ** 2 / (w * w).sum())
    per_deal = var * ess
    return (ess * per_deal + PSEUDO_DEALS * half_range ** 2) / (ess + PSEUDO_DEALS) / ess


def table_cell(rules, players: int, opponents, play: str, hero_mask: int, trump_card: int, seat: int, seed: int,
               cell: int, min_samples: int, max_samples: int, precision: float, z_stop: float,
               growth: float = 2.0) -> dict:
    """Everything the kernel reports for one cell (global index ``cell``), computed the slow, plain way.

    The conditioning plan is the one ``ask`` would use for this hand with nothing known of the earlier seats
    (``simulation.Job``), so the test also checks that the table asks the question ``ask`` answers.
    """
    from ..answer.simulation import POLICIES, Job
    from ..answer.situation import make_situation
    from ..cards import format_card

    hand_text = " ".join(format_card(c) for c in range(64) if (hero_mask >> c) & 1)
    job = Job.of(make_situation(hand_text, format_card(trump_card), players, seat, rules), opponents, play)
    k = rules.exchange_limit
    choices = np.array([hand.C_RUMBA, hand.C_PASS] + [hand.C_PLAY + j for j in range(k + 1)], dtype=np.int64)
    penalised = max(0, rules.sit_out_limit - 1)  # every choice is simulated as if this pass reached the limit
    args = job.args()[:9] + (POLICIES[play], penalised, False, -1, choices)
    columns = []  # per sample: pass 0, penalised pass, rumba, play0..K
    weights = []
    tricks = []
    tries = 0
    target = min_samples
    scores = scores_possible(rules)
    spread = float(max(scores) - min(scores))
    dropped = {}  # a dropped column: the deals it had (the kernel stops playing it out)
    while True:
        start = cell * max_samples + len(columns)
        results, t, w = hand.ask_batch(*args, np.uint64(seed), start, target - len(columns))
        assert (t > 0).all(), "an impossible cell"
        tries += int(t.sum())
        weights += list(w)
        for row in results.astype(np.int64):
            columns.append([0, row[1, 0], row[0, 0]] + [row[2 + j, 0] for j in range(k + 1)])
            tricks.append(row[0, 1])
        x = np.array(columns, dtype=np.float64)
        w = np.array(weights)
        means, halves = [], []
        for c in range(x.shape[1]):
            deals = dropped.get(c, len(x))  # a dropped column: the estimate of the look that dropped it
            m, v = weighted_mean_and_variance(x[:deals, c], w[:deals])
            v = guarded(v, w[:deals], spread / 2)
            means.append(m)
            halves.append(Z95 * math.sqrt(v))
        simulated = [c for c in range(COL_PLAY, x.shape[1]) if c not in dropped]
        top_play = min(simulated, key=lambda c: means[c])  # the first of equal ones
        kinds = [c for c in (COL_PASS, COL_RUMBA, top_play) if c not in dropped]
        ranked = sorted(kinds, key=lambda c: means[c])  # stable: ties keep pass, rumba, play order
        best, runner = ranked[0], ranked[1]
        margin, margin_var = weighted_mean_and_variance(x[:, runner] - x[:, best], w)
        # a difference of two scores spans twice the range; one with the pass (0 on every deal) is the other score
        margin_var = guarded(margin_var, w, spread / 2 if COL_PASS in (best, runner) else spread)
        if len(x) >= max_samples:
            stop = STOP_MAX
        elif abs(margin) > z_stop * math.sqrt(margin_var):
            stop = STOP_RESOLVED
        elif all(h < precision for c, h in enumerate(halves) if c > 0 and c not in dropped):
            stop = STOP_PRECISE
        else:
            def clearly_worse(a, b):
                d, dv = weighted_mean_and_variance(x[:, a] - x[:, b], w)
                return d > z_stop * math.sqrt(guarded(dv, w, spread / 2 if b == COL_PASS else spread))

            for c in simulated:  # an exchange clearly worse than the best play is no longer played out
                if c != top_play and clearly_worse(c, top_play):
                    dropped[c] = len(x)
            if COL_RUMBA not in dropped and clearly_worse(COL_RUMBA, COL_PASS) and clearly_worse(COL_RUMBA, top_play):
                dropped[COL_RUMBA] = len(x)  # nor a Rumba clearly worse than both passing and the best play
            target = min(max_samples, max(target + 1, math.ceil(target * growth)))
            continue
        break
    tricks = np.array(tricks[:dropped.get(COL_RUMBA, len(x))])  # a dropped Rumba's outcomes: its own deals
    rumba_w = w[:len(tricks)]
    played = (tricks != hand.VOID) & (tricks != hand.LONE_PLAY)
    success = played & ((tricks == hand.NO_TRICKS) | (tricks >= rules.rumba_min_tricks))
    return {"means": np.array(means), "halves": np.array(halves), "best": best, "runner": runner,
            "margin": margin, "margin_half": Z95 * math.sqrt(margin_var), "samples": len(x), "stop": stop,
            "column_samples": np.array([dropped.get(c, len(x)) for c in range(x.shape[1])]),
            "tries": tries / len(x), "ess": float(w.sum() ** 2 / (w * w).sum()),
            "p_success": float((rumba_w * success).sum() / (rumba_w * played).sum()) if played.any() else 0.0,
            "p_void": float((rumba_w * (tricks == hand.VOID)).sum() / rumba_w.sum())}
