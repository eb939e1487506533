"""Neighbour-group tables: one cell per group, and how far a hand may sit from its group's cell.

A group table (``TableSpec.neighbours``) simulates only each neighbour group's representative (:mod:`.neighbours`):
7.7% of the flemish (trump rank, class) pairs, 24% of the swiss ones. A hand is answered from its representative's
cell, and that cell's intervals must then also hold the hand's own value, which differs from the representative's by
a *distance*: a side 7 is not a side 5.

**Measuring the distance (the calibration).** At build time :data:`CALIBRATION_MEMBERS` hands are drawn by how often
they occur among the pairs that are not representatives, each at a random seat, and each hand and its representative
are simulated with :data:`CALIBRATION_DEALS` deals on the *same* deals (the same streams of a seed of its own): their
difference is nearly the distance itself (measured by ``bench_neighbours --alike``: same-seed differences are 30 to
260 times less variable than independent ones). The calibration is part of the build (``neighbours.parquet``, tasks
like the knock rows), so it is reproducible and resumable like the cells.

**Answering a member** (:mod:`.group_model`): the representative's values moved by an offset model of where the
member sits in its group, and widened by what the offset leaves, both fitted on the calibration. The intervals are
checked, not assumed: ``python -m benchmarks.check_tables`` measures how often they hold 200,000-deal truths of
random hands.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from .group_model import LEVEL, P_FLOOR, VALUES, GroupModel, p_spread, per_deal_spread
from .handclasses import enumerate_trump_rank_pairs
from .neighbours import representative, representative_pair, representative_rows

CALIBRATION_MEMBERS = 512  # hands whose distance to their representative is measured per table
CALIBRATION_PARTS = 8  # tasks of the calibration (resumable pieces, 64 hands each)
CALIBRATION_DEALS = 4_096  # deals of each hand and of its representative, the same deals for both
CALIBRATION_SALT = 0x6E65696768626F72  # the calibration's seed is the table's xor this: streams of their own


def calibration_pairs(spec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(seats, member pair rows, their representatives' pair rows) of the calibration, in task order."""
    rules = spec.rules
    pairs = enumerate_trump_rank_pairs(rules)
    reps = representative_rows(rules, spec.neighbours)
    others = np.ones(len(pairs), dtype=bool)
    others[reps] = False
    others = np.flatnonzero(others)  # the pairs that are not representatives, ascending
    rng = np.random.default_rng([spec.seed, 0x6E62])
    if len(others) == 0:  # every group has one hand: nothing to measure
        return (np.zeros(0, np.int64),) * 3
    weights = pairs.weights[others] / pairs.weights[others].sum()
    members = rng.choice(others, size=min(CALIBRATION_MEMBERS, len(others)), replace=False, p=weights)
    seats = rng.integers(0, spec.players, size=len(members))
    classes = pairs.classes
    rep_hands = [representative(int(classes.hands[pairs.class_rows[m]]), classes.trump_suit, rules, spec.neighbours)
                 for m in members]
    rep_rows = pairs.rows_of(pairs.trump_ranks[members], classes.rows_of(np.array(rep_hands, dtype=np.uint64)))
    return seats.astype(np.int64), members.astype(np.int64), rep_rows.astype(np.int64)


def calibration_spec(spec):
    """The spec of the calibration's simulations: every cell, fixed deals, a seed of its own."""
    return dataclasses.replace(spec, samples_per_cell=CALIBRATION_DEALS, precision=None, neighbours=None,
                               seed=(int(spec.seed) ^ CALIBRATION_SALT) & (2**63 - 1))


def standardised(frame: pd.DataFrame) -> pd.DataFrame:
    """Per calibration row: seat, member, representative, and ``(member - representative) / sigma`` per value (the
    representative's per-deal spread; NaN where either cell is impossible, or the Rumba was never played)."""
    ok = ((frame["member_tries"] >= 0) & (frame["rep_tries"] >= 0)).to_numpy()

    def z(diff, spread) -> np.ndarray:
        out = np.asarray(diff, dtype=np.float64) / np.maximum(np.asarray(spread, dtype=np.float64), 1e-9)
        return np.where(ok & np.isfinite(out), out, np.nan)

    return pd.DataFrame({
        "seat": frame["seat"].to_numpy(np.int64), "member": frame["member"].to_numpy(np.int64),
        "representative": frame["representative"].to_numpy(np.int64),
        "play": z(frame["member_ev_play"] - frame["rep_ev_play"], per_deal_spread(frame["rep_ev_play_half"],
                                                                          frame["rep_samples"])),
        "rumba": z(frame["member_ev_rumba"] - frame["rep_ev_rumba"], per_deal_spread(frame["rep_ev_rumba_half"],
                                                                             frame["rep_ev_rumba_deals"])),
        "success": z(frame["member_p_success"] - frame["rep_p_success"], p_spread(frame["rep_p_success"]))})


def calibration_lists(z: pd.DataFrame) -> dict:
    """A :func:`standardised` calibration as plain lists (a manifest's; None where a value is NaN)."""
    def listed(values) -> list:
        return [None if not np.isfinite(v) else float(v) for v in np.asarray(values, dtype=np.float64)]

    return {**{k: [int(x) for x in z[k]] for k in ("seat", "member", "representative")},
            **{k: listed(z[k]) for k in VALUES}}


def groups_meta(z: pd.DataFrame, rules, below: str) -> dict:
    """The ``neighbours`` entry of a packed group table's manifest: the groups, the fitted model's summary, and the
    calibration itself (the model is refitted from it where the table is read, and validity recomputes a part)."""
    calibration = calibration_lists(z)
    return {"below": below, "model": GroupModel.fit(calibration, rules, below).summary(), "level": LEVEL,
            "rows": "seat * pairs + index of the representative's pair row in neighbours.representative_rows",
            "answer": "a member's value = the representative's + offset * sigma, offset = design row . coefficients "
                      "(tables/group_model.py: intercept, low-rank sum and top low ranks against the "
                      "representative's); half-width times factor(leave-one-out residuals, deals): the smallest "
                      "widening whose mean chance of holding a calibration member's value is the level; sigma the "
                      f"per-deal spread (success: max(sqrt(p(1-p)), {P_FLOOR})); the representative itself as it is",
            "calibration": calibration}


def group_index(rules, pair: int, below: str) -> tuple[int, bool]:
    """(index of pair ``pair``'s representative among a group table's rows, whether ``pair`` is it)."""
    rep = representative_pair(rules, pair, below)
    return int(np.searchsorted(representative_rows(rules, below), rep)), rep == pair


__all__ = ["CALIBRATION_MEMBERS", "CALIBRATION_PARTS", "CALIBRATION_DEALS", "calibration_pairs",
           "calibration_spec", "calibration_lists", "standardised", "groups_meta", "group_index"]
