"""Situations on which the GPU path must equal the CPU kernel sample by sample (test_gpu_sim, test_gpu_hardware).

Both rule sets, 3 to 6 players, earlier words, an earlier Rumba (drawn exactly: importance weights below 1),
a knock (swiss [D-3]), a two of trump swapped by an earlier seat (flemish [D-9]) and one the hero holds.
"""

from __future__ import annotations

import numpy as np

from rumbaodds.answer import simulation
from rumbaodds.opponents.resolve import opponent_policy
from rumbaodds.rules import FLEMISH, SWISS
from rumbaodds.tables import build
from rumbaodds.tables.spec import TableSpec

# (id, rules, players, seat, hand, trump, before, passes in a row, dealer knocked, swapped by)
ASKS = [
    ("swiss-5p-earlier-words", SWISS, 5, 2, "HA HK HQ S6 C7", "H9", "pass,play", 2, False, None),
    ("swiss-4p-earlier-rumba", SWISS, 4, 2, "HA HK S6 C7 D8", "H9", "pass,rumba", 0, False, None),
    ("swiss-4p-knock", SWISS, 4, 1, "SA SK D9 C6 H7", "SQ", None, 0, True, None),
    ("flemish-4p-two-swapped", FLEMISH, 4, 2, "SA SK D9 C6 H7", "SQ", None, 0, False, 0),
    ("flemish-4p-holds-the-two", FLEMISH, 4, 2, "S2 SK HA D5 C9", "S7", "play,rumba", 0, False, None),
]


def job(case, play="expert") -> simulation.Job:
    _id, rules, players, seat, hand, trump, before, passes, knocked, swapped = case
    situation = simulation.make_situation(hand, trump, players, seat, rules, passes, knocked, before, swapped)
    return simulation.Job.of(situation, "default", play)


def batch_args(case, seed, start, count) -> tuple:
    """The arguments ``simulation.ask`` gives ``hand.ask_batch`` (and ``gpu.ask_batch``) for this situation."""
    return (*job(case).args(), np.uint64(seed), start, count)


# table cells: (id, rules, players, spec settings, first cell, cells)
TABLES = [
    ("swiss-4p-adaptive", SWISS, 4, dict(min_samples=6, max_samples=48, precision=0.5), 0, 8),
    ("flemish-3p-fixed", FLEMISH, 3, dict(samples_per_cell=12), 37, 6),
    ("swiss-5p-adaptive-later-seats", SWISS, 5, dict(min_samples=4, max_samples=16, precision=5.0), 38, 4),
]


def table_args(case, opponents="default") -> tuple:
    """The arguments ``tables.build.simulate_cells`` gives ``table.table_cells`` for these cells."""
    _id, rules, players, settings, first, cells = case
    spec = TableSpec(rules, players, opponent_policy(opponents, rules, players), seed=3, cells=40, **settings)
    seats, rows = build.cells_of(spec, first, min(first + cells, build.total_cells(spec)))
    return build.cell_arguments(spec, seats, rows, first)
