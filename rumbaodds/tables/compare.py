"""What moved between two packed tables of one rule set and player count: a rebuild's account of itself.

``rumbaodds tables compare OLD NEW`` reads every cell of both (:func:`rumbaodds.report.cells.from_packed`) and
says, weighted by how often each hand is dealt (the cells' class weights):

- the share of hands whose best choice changed, in all and per seat, and of those the share where both tables
  are sure (each one's interval excludes a tie): a change that is not noise;
- the flow between choices (old best -> new best) and each choice's share before and after;
- the Rumba threshold by strength: per seat, the lowest hand points (docs/SIMULATION.md) from which Rumba is
  the best choice of at least half the hands, and the Rumba's mean success where it is the best choice;
- the dealer's knock values per trump rank where the tables keep them (packed format 2).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..report.cells import ACTIONS, RUMBA, Cells, from_packed, weighted_mean
from ..rules import RulesError, get_rules
from .pack import knock_rows, load_packed
from .spec import TableError

RUMBA_I = ACTIONS.index(RUMBA)


def _cells(path: str | Path) -> tuple[Cells, object]:
    try:
        packed = load_packed(path)
    except (OSError, ValueError, KeyError) as exc:  # not parquet (pyarrow's ArrowInvalid is a ValueError), no manifest
        raise TableError(f"{path}: not a packed table ({str(exc).splitlines()[0][:120]})") from None
    rules_dict = packed.manifest["rules"]
    rules = get_rules(rules_dict["name"])
    if rules.to_dict() != rules_dict:
        raise RulesError(f"{path}: a house rule set ({rules_dict['name']!r}); compare reads preset tables")
    return from_packed(packed, rules), packed


def rumba_threshold(cells: Cells, seat: int, share: float = 0.5) -> float | None:
    """The lowest hand points from which Rumba is best for at least ``share`` of the seat's hands (weighted), at
    every higher point value too; None if never."""
    s = cells.seat_slice(seat)
    points = cells.pairs.points
    w = cells.weight[s]
    rumba = (cells.best[s] == RUMBA_I).astype(np.float64)
    values = np.unique(points)
    shares = np.array([weighted_mean(rumba[points == v], w[points == v]) for v in values])
    above = np.nan_to_num(shares, nan=1.0) >= share
    ok = np.flatnonzero(~above)
    start = 0 if len(ok) == 0 else ok[-1] + 1  # above the last point value where it is not
    return float(values[start]) if start < len(values) else None


def compare(old_path: str | Path, new_path: str | Path) -> dict:
    """The comparison of two packed tables (module docstring) as a JSON-ready dict."""
    old, old_packed = _cells(old_path)
    new, new_packed = _cells(new_path)
    if (old.rules.name, old.players, old.n_pairs) != (new.rules.name, new.players, new.n_pairs):
        raise TableError(f"{old_path} and {new_path} are not tables of the same rule set and player count")
    w = np.where(old.impossible | new.impossible, 0.0, new.weight)
    changed = (old.best != new.best).astype(np.float64)
    sure = (old.sure & new.sure).astype(np.float64)
    out = {
        "rules": new.rules.name, "players": new.players, "cells": len(new),
        "old": {"path": str(old_path), "play": old.manifest.get("play"), "numbers": old.manifest.get("numbers"),
                "deals": old.deals},
        "new": {"path": str(new_path), "play": new.manifest.get("play"), "numbers": new.manifest.get("numbers"),
                "deals": new.deals},
        "best_changed": weighted_mean(changed, w),
        "best_changed_sure": weighted_mean(changed * sure, w),
        "best_changed_by_seat": [weighted_mean(changed[new.seat_slice(s)], w[new.seat_slice(s)])
                                 for s in range(new.players)],
        "flow": {f"{a}->{b}": weighted_mean(((old.best == i) & (new.best == j)).astype(np.float64), w)
                 for i, a in enumerate(ACTIONS) for j, b in enumerate(ACTIONS) if i != j},
        "share_best": {a: [weighted_mean((old.best == i).astype(np.float64), w),
                           weighted_mean((new.best == i).astype(np.float64), w)] for i, a in enumerate(ACTIONS)},
        "rumba_threshold_points": [[rumba_threshold(old, s), rumba_threshold(new, s)] for s in range(new.players)],
        "rumba_success_where_best": [
            weighted_mean(c.p_success.astype(np.float64), w * (c.best == RUMBA_I)) for c in (old, new)],
    }
    knocks = [knock_rows(old_packed), knock_rows(new_packed)]
    if any(knocks):
        by_rank: dict[int, dict] = {}
        for which, rows in zip(("old", "new"), knocks, strict=True):
            for row in rows or []:
                by_rank.setdefault(int(row["trump_rank"]), {})[which] = {
                    k: row[k] for k in ("gain", "gain_low", "gain_high", "ev_knock", "ev_no_knock") if k in row}
        out["knock"] = {str(k): v for k, v in sorted(by_rank.items())}
    return out


def compare_lines(result: dict) -> list[str]:
    """The comparison in words, for the terminal."""
    pct = lambda x: "n/a" if x is None or x != x else f"{100 * x:.1f}%"  # noqa: E731
    lines = [f"{result['rules']} {result['players']} players, {result['cells']:,} cells: "
             f"{result['old']['play']} (numbers {result['old']['numbers']}) -> {result['new']['play']} "
             f"(numbers {result['new']['numbers']})",
             f"best choice changed for {pct(result['best_changed'])} of hands dealt "
             f"({pct(result['best_changed_sure'])} where both tables are sure of theirs)",
             "  by seat: " + ", ".join(pct(x) for x in result["best_changed_by_seat"]),
             "  flow: " + ", ".join(f"{k} {pct(v)}" for k, v in result["flow"].items() if v and v >= 0.0005),
             "  best choice's share, before -> after: " + ", ".join(
                 f"{a} {pct(o)} -> {pct(n)}" for a, (o, n) in result["share_best"].items()),
             "Rumba from hand points (per seat, before -> after): " + ", ".join(
                 f"{'?' if o is None else f'{o:g}'} -> {'?' if n is None else f'{n:g}'}"
                 for o, n in result["rumba_threshold_points"]),
             "Rumba success where it is the best choice: " + " -> ".join(
                 pct(x) for x in result["rumba_success_where_best"])]
    for rank, row in result.get("knock", {}).items():
        parts = [f"{which} {row[which]['gain']:+.2f} [{row[which]['gain_low']:+.2f}, {row[which]['gain_high']:+.2f}]"
                 for which in ("old", "new") if which in row and "gain_low" in row[which]]
        lines.append(f"knock, trump rank {rank}: gain " + ", ".join(parts))
    return lines


__all__ = ["compare", "compare_lines", "rumba_threshold"]
