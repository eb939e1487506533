"""The rule card's fit: its line sums as Numba kernels against their plain twins, and a whole card's fit.

    python -m benchmarks.bench_card [--quick]

On the shipped swiss 3-player table (its groups and candidate lines, as ``report.card.fit_card`` builds them):

1. ``masked_sums`` and ``box_move_totals`` (``report/line_sums.py``) against their twins (``twins/card_lines.py``)
   on the first 300 candidates (--quick: 30), the same inputs: the twin's time over the kernel's;
2. (not in --quick) the whole fit of each player count's card, seconds (the report fits five; a test file fits them
   all once).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rumbaodds.report import card as rulecard
from rumbaodds.report import cells, line_sums
from rumbaodds.rules import SWISS
from rumbaodds.twins import card_lines

from .common import best_time, print_table


def ratios(candidates: int) -> list[dict]:
    fc = cells.load_full(SWISS, 3, "equilibrium")
    g = rulecard.group_cells(fc)
    _, masks = rulecard.candidates(fc.rules, g.features, fc.players, rulecard.MAX_ATOMS)
    masks = masks[:candidates]
    lists = line_sums.member_lists(masks)
    values = np.ascontiguousarray(g.loss)
    run_box = np.unique(g.box)
    box_of = np.searchsorted(run_box, g.box)
    sums = np.bincount(box_of, g.loss[:, 0], len(run_box))
    bound = np.full(len(run_box), 0.001)
    keep = np.ones(len(run_box), dtype=bool)
    delta = g.loss[:, 1] - g.loss[:, 0]
    line_sums.masked_sums(*lists, values)  # compile (or load)
    line_sums.box_move_totals(*lists, delta, box_of, sums, bound, keep, 100.0)
    rows = []
    for name, kernel, twin in (
            ("masked_sums", lambda: line_sums.masked_sums(*lists, values),
             lambda: card_lines.masked_sums(masks, values)),
            ("box_move_totals", lambda: line_sums.box_move_totals(*lists, delta, box_of, sums, bound, keep, 100.0),
             lambda: card_lines.box_move_totals(masks, delta, box_of, sums, bound, keep, 100.0))):
        fast, slow = best_time(kernel), best_time(twin, repeat=1)
        rows.append({"sum": name, "candidates": len(masks), "groups": len(values), "kernel ms": fast * 1e3,
                     "twin ms": slow * 1e3, "twin / kernel": slow / fast})
    return rows


def fits() -> list[dict]:
    rows = []
    for players in range(3, 8):
        fc = cells.load_full(SWISS, players, "equilibrium")
        start = time.perf_counter()
        card = rulecard.fit_card(fc)
        rows.append({"players": players, "lines": len(card.texts(SWISS)), "fit s": time.perf_counter() - start})
    return rows


def main(quick: bool = False) -> None:
    print_table("the rule card's line sums, kernel against twin (swiss 3 players, the same inputs)",
                ratios(30 if quick else 300))
    if quick:
        print("\n(the whole fits: skipped in --quick)")
        return
    print_table("a whole card's fit (swiss, shipped tables)", fits())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    main(parser.parse_args().quick)
