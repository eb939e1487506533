"""Does a table agree with ``ask``? Two checks.

    python -m benchmarks.check_tables [--rules swiss] [--situations 100] [--samples 200000] [--json]
    python -m benchmarks.check_tables TABLE_FOLDER [TABLE_FOLDER ...] [--cells 100] [--samples 4000]

Without a folder: can a player quote the shipped tables (issue 35)? Random situations of each rule set answered by
the tables alone against 200,000-deal truths, beside the issue's targets (``benchmarks/check_quotes.py``).

With folders: random cells of built full tables against independent ``ask`` runs.

For each table, ``--cells`` random cells (seat, trump rank, hand class) are
asked again with ``ask`` (``--samples`` deals, a seed unrelated to the
table's) against the table's own opponents. Per cell four values are
compared: Rumba, play with no discard, play with one, and play with the best
exchange. Under the hypothesis that both estimate the same value from
independent deals, ``(table - ask) / sqrt(s_table^2 + s_ask^2)`` is about
standard normal; the check widens the combined 95% interval to a family-wise
false-alarm rate of 1e-3 over every comparison of the table (Bonferroni),
as ``tests/test_tables.py`` does on a tiny table, and prints how many values
fall outside it (0 expected), and the share inside the plain combined 95%
interval (about 95% expected). Then, per table, how often it dropped the
Rumba and the exchanges (clearly worse, engine/table.py) and the share of
voided Rumbas (what the packed success interval counts as played).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from statistics import NormalDist

import numpy as np

from rumbaodds.answer import simulation
from rumbaodds.cards import format_card
from rumbaodds.rules import rules_from_dict
from rumbaodds.tables import cell_situation, load_table, table_cell

from .common import print_table

FAMILY_ALPHA = 1e-3
COMPARISONS = {"rumba": "ev_rumba", "play0": "ev_play0", "play1": "ev_play1", "play": "ev_play"}
Z95 = 1.959963984540054


def _hand(situation) -> str:
    return " ".join(format_card(c) for c in situation.hand) + " / " + format_card(situation.trump_card)


def agreement(folder: str | Path, cells: int = 100, samples: int = 4_000, seed: int = 20261201,
              outliers: list | None = None) -> dict:
    """``outliers``: a list that receives every value outside the family-wise interval, with its cell."""
    table = load_table(folder)
    m = table.manifest
    rules, players = rules_from_dict(m["rules"]), int(m["players"])
    named = m["opponents"]["name"]
    opponents = None if named == "equilibrium" else named  # the table's own opponents (a named style)
    rng = random.Random(seed)
    rows = rng.sample(range(len(table.frame)), cells)
    z_family = NormalDist().inv_cdf(1 - FAMILY_ALPHA / (2 * cells * len(COMPARISONS)))
    inside95, outside_family, compared = 0, 0, 0
    worst = 0.0
    for i, r in enumerate(rows):
        situation = cell_situation(table.frame.iloc[r], rules, players)
        row = table_cell(table, situation)
        result = simulation.ask([format_card(c) for c in situation.hand], format_card(situation.trump_card), players,
                              situation.seat, rules=rules, opponents=opponents, play=m["play"], samples=samples,
                              seed=seed + 1 + i)
        for name, column in COMPARISONS.items():
            if name != "play" and name not in result.options:
                continue
            ev = (result.actions["play"] if name == "play" else result.options[name]).ev
            combined = float(np.hypot(row[column + "_half"], ev.half_width)) / Z95
            z = abs(float(row[column]) - ev.mean) / max(combined, 1e-12)
            worst = max(worst, z)
            inside95 += z <= Z95
            outside_family += z > z_family
            if z > z_family and outliers is not None:
                outliers.append({"cell": int(row["cell"]), "seat": situation.seat, "hand": _hand(situation),
                                 "value": name, "table": float(row[column]), "table_half": float(row[column + "_half"]),
                                 "samples": int(row["samples"]), "ask": ev.mean, "ask_half": ev.half_width, "z": z})
            compared += 1
    return {"table": Path(folder).name, "players": players, "cells": cells, "values compared": compared,
            "inside combined 95%": inside95 / compared, f"outside z={z_family:.2f}": outside_family,
            "largest |z|": worst}


def dropped_columns(folder: str | Path) -> dict:
    """How often a table dropped its Rumba and its exchanges (engine/table.py), and what that left behind."""
    f = load_table(folder).frame
    samples = f["samples"].to_numpy()[:, None]
    k = sorted(int(c[7:-6]) for c in f.columns if c.startswith("ev_play") and c.endswith("_deals"))
    deals = f[[f"ev_play{j}_deals" for j in k]].to_numpy()
    plays = f[[f"ev_play{j}" for j in k]].to_numpy()
    return {"table": Path(folder).name, "cells": len(f),
            "rumba dropped": float((f["ev_rumba_deals"].to_numpy() < samples[:, 0]).mean()),
            "exchanges dropped": float((deals < samples).mean()),
            # a dropped exchange whose frozen mean lies below the best play simulated to the end
            "dropped below best play": int((plays.min(axis=1) < f["ev_play"].to_numpy() - 1e-12).sum()),
            "p_void mean": float(f["p_void"].mean()), "p_void p99": float(f["p_void"].quantile(0.99))}


def quotes(args) -> None:
    """The shipped tables against 200,000-deal truths (issue 35), each rule set."""
    import json

    from rumbaodds.cli.render import progress_bar

    from . import check_quotes

    rows, verdicts = [], []
    for name in args.rules or ["swiss", "flemish"]:
        with progress_bar(None, f"{name} situations") as update:
            row, _pairs = check_quotes.check(name, args.situations, args.samples or 200_000, progress=update)
        rows.append(row)
        verdicts.append({"rules": name, **check_quotes.verdict(row)})
    if args.json:
        print(json.dumps({"summary": rows, "targets_met": verdicts}))
        return
    columns = sorted({k for r in rows for k in r}, key=list(rows[0]).index)
    print_table(f"The tables alone against {args.samples or 200_000:,}-deal truths (issue 35)",
                [{"figure": k, **{r["rules"]: r.get(k) for r in rows}} for k in columns if k != "rules"])
    print_table("Issue 35's targets met", [{"target": k, **{v["rules"]: v[k] for v in verdicts}}
                                           for k in verdicts[0] if k != "rules"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*")
    parser.add_argument("--cells", type=int, default=100)
    parser.add_argument("--samples", type=int, default=None, help="deals per truth (200,000) or per cell (4,000)")
    parser.add_argument("--rules", action="append", choices=["swiss", "flemish"])
    parser.add_argument("--situations", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not args.folders:
        quotes(args)
        return
    args.samples = args.samples or 4_000
    outliers: list = []
    print_table("Full tables against independent ask runs", [agreement(f, args.cells, args.samples, outliers=outliers)
                                                              for f in args.folders])
    if outliers:
        print_table("Values outside the family-wise interval", outliers)
    print_table("Dropped columns (shares of cells, of exchange columns)", [dropped_columns(f) for f in args.folders])


if __name__ == "__main__":
    main()
