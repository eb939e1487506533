"""The packed swiss tables shipped in the package (issue 9): complete, used by `ask`, and in agreement with it.

They were built with ``rumbaodds tables build --rules swiss --players N`` (the default adaptive precision and
seed, the equilibrium opponents) and packed with ``rumbaodds tables pack``. A fresh install answers any swiss hand
from them at once and says so; these tests fail when a file is missing, when its stamp no longer matches the code
or the opponents (then `ask` would silently simulate), or when its decisions disagree with simulation.
"""

from __future__ import annotations

import functools
import json
import random
from statistics import NormalDist

import numpy as np
import pytest
from click.testing import CliRunner

from rumbaodds.answer import simulation
from rumbaodds.cards import format_card
from rumbaodds.cli import main
from rumbaodds.rules import SWISS
from rumbaodds.tables import numbers_problem
from rumbaodds.tables.handclasses import enumerate_trump_rank_pairs
from rumbaodds.tables.lookup import cell_situation, read_manifest
from rumbaodds.tables.pack import IMPOSSIBLE, KINDS, P_SCALE, SHIPPED, SUFFIX, answer_from_packed, load_packed

LIMIT_BYTES = 40 * 2**20  # issue 9: ship the swiss tables if all five fit in 40 MB


def shipped() -> dict[int, object]:
    out = {}
    for path in sorted(SHIPPED.glob(f"*{SUFFIX}")):
        m = read_manifest(path)
        if m["rules"]["name"] == "swiss":
            out[int(m["players"])] = path
    return out


COUNTS = sorted(shipped())


def test_the_shipped_swiss_tables_are_complete_and_current():
    files = shipped()
    assert set(files) == set(range(SWISS.min_players, SWISS.max_players + 1)), "a table of every player count"
    assert sum(p.stat().st_size for p in files.values()) <= LIMIT_BYTES
    pairs = len(enumerate_trump_rank_pairs(SWISS))
    for n, path in files.items():
        m = read_manifest(path)
        assert numbers_problem(m) is None, f"{path.name}: {numbers_problem(m)}"  # valid: test_shipped_validity.py
        assert m.get("cells") is None and m["packed"]["pairs"] == pairs  # a full table, not a quick one
        packed = load_packed(path)
        samples = packed.deals()[0]
        assert len(samples) == n * pairs
        possible = (packed.columns["code"] & IMPOSSIBLE) == 0
        assert possible.mean() > 0.999
        assert (samples[possible] >= m["min_samples"]).all() and (samples <= m["max_samples"]).all()


@pytest.mark.parametrize("players", COUNTS)
def test_ask_answers_any_swiss_hand_from_the_shipped_table_and_says_so(players, tmp_path):
    rng = random.Random(players)
    cards = rng.sample([format_card(c) for c in SWISS.deck], 6)
    seat = rng.randrange(players)
    out = CliRunner().invoke(main, ["ask", " ".join(cards[:5]), "--trump", cards[5], "--players", str(players),
                                    "--seat", str(seat), "--tables", str(tmp_path), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["source"]["source"] == "packed table", data.get("source")
    assert data["source"]["table"].startswith(str(SHIPPED))
    human = CliRunner().invoke(main, ["ask", " ".join(cards[:5]), "--trump", cards[5], "--players", str(players),
                                      "--seat", str(seat), "--tables", str(tmp_path)])
    assert human.exit_code == 0 and "packed table" in human.output


# Agreement of the shipped 5-player table with independent simulation, on the decision the table keeps: the margin
# between its best choice and its runner-up, and the Rumba's success probability. Under the hypothesis that both
# estimate the same value, (table - ask) / sqrt(s_table^2 + s_ask^2) is about standard normal; the ask margin's s is
# taken unpaired (sqrt(s_best^2 + s_runner^2)), which only widens it. Bonferroni over the cells for a 1e-3
# family-wise false alarm.
CELLS = 16
ASK_SAMPLES = 6_000


@functools.cache
def _agreement_rows():
    """(table margin, its half, ask margin, its half) and the same four of the Rumba's success probability."""
    path = shipped()[5]
    packed = load_packed(path)
    m = read_manifest(path)
    pairs = enumerate_trump_rank_pairs(SWISS)
    rng = np.random.default_rng(2026)
    rows, successes = [], []
    for row in rng.choice(len(packed.columns["code"]), size=CELLS * 2, replace=False):
        code = int(packed.columns["code"][row])
        if code & IMPOSSIBLE:
            continue
        seat, pair = divmod(int(row), packed.pairs)
        situation = cell_situation({"hand": pairs.classes.hands[pairs.class_rows[pair]], "seat": seat,
                                    "trump_rank": pairs.trump_ranks[pair]}, SWISS, 5)
        best, runner = KINDS[code & 3], KINDS[(code >> 2) & 3]
        result = simulation.ask([format_card(c) for c in situation.hand], format_card(situation.trump_card), 5,
                              seat, rules=SWISS, play=m["play"], samples=ASK_SAMPLES, seed=777 + len(rows))
        b, r = result.actions[best].ev, result.actions[runner].ev
        rows.append((packed.value("margin", row), packed.value("margin_half", row), r.mean - b.mean,
                     float(np.hypot(b.half_width, r.half_width))))
        p, low, high = answer_from_packed(packed, situation, None, m["play"]).meta["p_success"]
        asked = result.options["rumba"].p_success
        successes.append((p, (high - low) / 2, asked.mean, asked.half_width))
        if len(rows) == CELLS:
            break
    return np.array(rows), np.array(successes)


@pytest.fixture(scope="module")
def margins():
    return _agreement_rows()[0]


@pytest.fixture(scope="module")
def successes():
    return _agreement_rows()[1]


def _outside(values: np.ndarray, shift: float = 0.0, quantum: float = 0.05) -> np.ndarray:
    """Outside the family-wise combined interval, widened by the packed table's rounding (``quantum``)."""
    z = NormalDist().inv_cdf(1 - 1e-3 / (2 * len(values)))
    table, table_half, asked, asked_half = values.T
    return np.abs(table + shift - asked) > np.hypot(table_half, asked_half) / 1.959963984540054 * z + quantum


def test_the_shipped_table_agrees_with_ask(margins):
    assert len(margins) == CELLS
    assert not _outside(margins).any(), margins


def test_the_agreement_check_catches_a_shifted_table(margins):
    """Negative control: the same check on margins moved by 3 points flags most cells."""
    assert _outside(margins, 3.0).sum() >= CELLS // 2
    assert _outside(margins, -3.0).sum() >= CELLS // 2


def test_the_shipped_rumba_success_agrees_with_ask(successes):
    """Its Wilson interval counts the Rumba's own deals (fewer where it was dropped as clearly worse)."""
    assert len(successes) == CELLS and np.ptp(successes[:, 2]) > 0.3  # hands from hopeless to strong
    assert not _outside(successes, quantum=P_SCALE).any(), successes
    assert _outside(successes, 0.4, P_SCALE).sum() >= CELLS // 4  # negative control: 40 percentage points off
