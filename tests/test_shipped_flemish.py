"""The flemish tables shipped in the package (issue 35): every hand, trump and seat of 2-6 players answered at once.

They are neighbour-group tables (rumbaodds.tables.groups): built with ``rumbaodds tables build --rules flemish
--players N --neighbours --precision 1.5`` (the default seed and opponents) and packed with ``rumbaodds tables
pack``. These tests fail when a file is missing or stale, when a hand is not answered from them, or when their
widened answers for hands that are not their group's representative disagree with simulation (statistical).
Their validity by recomputation is tests/test_shipped_validity.py's.
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
from rumbaodds.rules import get_rules
from rumbaodds.tables import numbers_problem
from rumbaodds.tables.handclasses import enumerate_trump_rank_pairs
from rumbaodds.tables.lookup import cell_situation, read_manifest
from rumbaodds.tables.neighbours import LOW_BELOW, representative_index, representative_rows
from rumbaodds.tables.pack import IMPOSSIBLE, SHIPPED, SUFFIX, answer_from_packed, load_packed

FLEMISH = get_rules("flemish")
LIMIT_BYTES = 80 * 2**20  # issue 35: both rule sets together at most 80 MB in the package


def shipped(rules: str) -> dict[int, object]:
    out = {}
    for path in sorted(SHIPPED.glob(f"*{SUFFIX}")):
        m = read_manifest(path)
        if m["rules"]["name"] == rules:
            out[int(m["players"])] = path
    return out


def test_the_shipped_flemish_tables_are_complete_current_and_in_budget():
    files = shipped("flemish")
    assert set(files) == set(range(FLEMISH.min_players, FLEMISH.max_players + 1)), "a table of every player count"
    reps = len(representative_rows(FLEMISH, LOW_BELOW))
    for n, path in files.items():
        m = read_manifest(path)
        assert numbers_problem(m) is None, f"{path.name}: {numbers_problem(m)}"
        assert m["neighbours"]["below"] == LOW_BELOW and m["packed"]["pairs"] == reps
        assert m["packed"]["neighbours"]["model"]["rumba"]["members"] >= 500
        packed = load_packed(path)
        samples = packed.deals()[0]
        assert len(samples) == n * reps
        assert ((packed.columns["code"] & IMPOSSIBLE) == 0).mean() > 0.999
    every = sum(p.stat().st_size for p in SHIPPED.glob(f"*{SUFFIX}"))
    assert every <= LIMIT_BYTES, f"{every / 2**20:.1f} MB"


@pytest.mark.parametrize("players", sorted(shipped("flemish")))
def test_ask_answers_any_flemish_hand_from_the_shipped_table_and_says_so(players, tmp_path):
    rng = random.Random(100 + players)
    cards = rng.sample([format_card(c) for c in FLEMISH.deck], 6)
    seat = rng.randrange(players)
    args = ["ask", " ".join(cards[:5]), "--trump", cards[5], "--players", str(players), "--seat", str(seat),
            "--rules", "flemish", "--tables", str(tmp_path), "--no-simulate"]
    out = CliRunner().invoke(main, [*args, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["source"]["source"] == "packed table" and data["source"]["table"].startswith(str(SHIPPED))
    assert "group" in data["source"]
    human = CliRunner().invoke(main, args)
    assert human.exit_code == 0 and "packed table" in human.output


# Agreement of members' widened answers with independent simulation: (table - ask) / sqrt(s_table^2 + s_ask^2) is
# about standard normal where the widened interval is honest; Bonferroni over the values for a 1e-3 false alarm.
CELLS = 12
ASK_SAMPLES = 6_000


@functools.cache
def _member_rows() -> np.ndarray:
    """(table value, its widened half, ask value, its half) of the Rumba and play of random member hands."""
    path = shipped("flemish")[4]
    packed = load_packed(path)
    play = read_manifest(path)["play"]
    pairs = enumerate_trump_rank_pairs(FLEMISH)
    index = representative_index(FLEMISH, LOW_BELOW)
    reps = representative_rows(FLEMISH, LOW_BELOW)
    rng = np.random.default_rng(35)
    rows = []
    for pair in rng.choice(len(pairs), size=CELLS * 4, replace=False):
        if reps[index[pair]] == pair:
            continue
        seat = int(rng.integers(4))
        situation = cell_situation({"hand": pairs.classes.hands[pairs.class_rows[pair]], "seat": seat,
                                    "trump_rank": pairs.trump_ranks[pair]}, FLEMISH, 4)
        table = answer_from_packed(packed, situation, None, play)
        if table is None or "rumba" not in table.options:
            continue
        asked = simulation.ask([format_card(c) for c in situation.hand], format_card(situation.trump_card), 4, seat,
                               rules=FLEMISH, play=play, samples=ASK_SAMPLES, seed=900 + len(rows))
        for name, option in table.options.items():
            if name == "rumba" or name.startswith("play"):
                a = asked.options[name].ev
                rows.append((option.ev.mean, option.ev.half_width, a.mean, a.half_width))
        if len(rows) >= 2 * CELLS:
            break
    return np.array(rows)


def _outside(values: np.ndarray, shift: float = 0.0) -> np.ndarray:
    z = NormalDist().inv_cdf(1 - 1e-3 / (2 * len(values)))
    table, table_half, asked, asked_half = values.T
    return np.abs(table + shift - asked) > np.hypot(table_half, asked_half) / 1.959963984540054 * z + 0.05


@pytest.mark.statistical
def test_members_widened_answers_agree_with_ask():
    rows = _member_rows()
    assert len(rows) >= 2 * CELLS - 2
    assert not _outside(rows).any(), rows


@pytest.mark.statistical
def test_the_member_check_catches_a_shifted_table():
    rows = _member_rows()
    assert _outside(rows, 3.0).sum() >= len(rows) // 2 and _outside(rows, -3.0).sum() >= len(rows) // 2


def test_the_jack_of_trump_turned_is_answered_between_play_and_rumba():
    """§5.2: the jack of trump turned bars the pass, which the table kernel ranks too; the table answers from its
    values of play and the Rumba (here the Rumba, clearly worse, was dropped by the build and keeps its own deals)."""
    out = CliRunner().invoke(main, ["ask", "S6 D7 S2 DK H2", "--trump", "SJ", "--players", "5", "--seat", "1",
                                    "--rules", "flemish", "--no-simulate", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["source"]["source"] == "packed table"
    assert {data["recommendation"], data["runner_up"]} == {"play", "rumba"}
    assert "pass" not in data["actions"]


def test_a_group_table_has_a_floor_that_more_deals_do_not_pass():
    """The shipped calibrations' residual distances: a member's Rumba half-width shrinks with its representative's
    deals, but stays above the sampling error alone (1.96 * 8 / sqrt(deals) points), ever more so with more deals."""
    from benchmarks.bench_neighbours import group_floor

    rows = group_floor(deals=(64, 2_400))
    assert len(rows) == 10
    for few, many in zip(rows[::2], rows[1::2]):
        assert many["Rumba value half (points)"] < few["Rumba value half (points)"]
        sampling = [1.959963984540054 * 8 / np.sqrt(n) for n in (64, 2_400)]
        assert few["Rumba value half (points)"] / sampling[0] < many["Rumba value half (points)"] / sampling[1]
