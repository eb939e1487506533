"""`rumbaodds review FILE` (rumbaodds/learning/review.py): hands written down, every decision graded, skill and luck.

A 50-line file with two bad lines: both reported with their numbers, the 48 others reviewed, in JSON Lines and in
CSV alike; the totals worked by hand (skill: the sum of the points lost; luck: actual minus expected score);
the page and the Parquet table; a file that cannot be read at all is one line and exit code 2. Negative controls:
a clean file exits 0 with no line reported; a line graded from a table keeps the table's own margin.
"""

from __future__ import annotations

import csv
import json
import random

import pandas as pd
import pytest
from click.testing import CliRunner

from rumbaodds.answer import pipeline
from rumbaodds.answer.question import Question
from rumbaodds.cards import format_card
from rumbaodds.cli import main
from rumbaodds.learning.grading import Decision, Grade
from rumbaodds.learning.review import Entry, Review, Reviewed, load, parse_entry, read_records
from rumbaodds.rules import RulesError, get_rules
from rumbaodds.stats import Estimate

BAD = {10: '{"players": 5, "seat": 9, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "pass"}',
       30: "not json at all"}


def fifty_lines(seed: int = 3) -> list[dict]:
    """50 random swiss decisions (3-7 players, any seat), some with a score."""
    rng = random.Random(seed)
    deck = get_rules("swiss").deck
    out = []
    for _ in range(50):
        players = rng.randint(3, 7)
        cards = rng.sample(deck, 6)
        d = {"players": players, "seat": rng.randrange(players), "hand": " ".join(format_card(c) for c in cards[:5]),
             "trump": format_card(cards[5]), "choice": rng.choice(["pass", "play", "rumba"])}
        if d["choice"] == "play" and rng.random() < 0.5:
            d["discard"] = format_card(cards[rng.randrange(5)])
        if rng.random() < 0.5:
            d["score"] = rng.choice([0, -1, -2, 5, -6, 10])
        out.append(d)
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("review")
    rows = fifty_lines()
    lines = [json.dumps(r) for r in rows]
    for number, text in BAD.items():
        lines[number - 1] = text
    jsonl = root / "hands.jsonl"
    jsonl.write_text("\n".join(lines) + "\n")
    csv_path = root / "hands.csv"
    with csv_path.open("w", newline="") as f:
        writer = csv.DictWriter(f, ["rules", "players", "seat", "hand", "trump", "before", "passes_in_a_row",
                                    "choice", "discard", "score"])
        writer.writeheader()
        for number, r in enumerate(rows, 2):  # the header is line 1
            if number - 1 == 10:
                r = {**r, "seat": 9}
            if number - 1 == 30:
                r = {**r, "hand": "HA HK HQ S6 X7"}
            writer.writerow(r)
    clean = root / "clean.jsonl"
    clean.write_text("\n".join(json.dumps(r) for r in rows[:5]) + "\n")
    return {"jsonl": jsonl, "csv": csv_path, "clean": clean, "root": root}


def run(*args, input=None):  # noqa: A002
    return CliRunner().invoke(main, ["review", *map(str, args)], input=input)


def test_fifty_lines_two_bad_48_reviewed(files):
    out = files["root"] / "out"
    out.mkdir()
    result = run(files["jsonl"], "--table-only", "--json", "--html", out / "review.html", "--parquet",
                 out / "review.parquet")
    assert result.exit_code == 1, result.output  # bad lines were reported: exit code 1, the rest reviewed
    errors = result.stderr.splitlines()
    assert len(errors) == 2
    assert "line 10:" in errors[0] and "seat 9 does not exist" in errors[0]
    assert "line 30:" in errors[1] and "not JSON" in errors[1]
    data = json.loads(result.stdout)
    assert data["totals"]["decisions"] == 48 and data["totals"]["bad_lines"] == 2
    assert sorted(d["line"] for d in data["decisions"]) == [n for n in range(1, 51) if n not in BAD]
    losses = [d["points_lost"] for d in data["decisions"]]
    assert losses == sorted(losses, reverse=True)  # the costliest first
    assert data["totals"]["points_lost"] == pytest.approx(sum(losses))
    frame = pd.read_parquet(out / "review.parquet")
    assert len(frame) == 48 and set(frame["band"]) <= {"best", "mixed", "too close", "inaccuracy", "mistake",
                                                       "blunder"}
    page = (out / "review.html").read_text()
    assert page.count("<div class='d'") == 48 and "line 10: seat 9" in page and "<script" not in page


def test_csv_reads_like_json_lines(files):
    result = run(files["csv"], "--table-only", "--json")
    assert result.exit_code == 1
    errors = result.stderr.splitlines()
    assert ["line 11:" in errors[0], "line 31:" in errors[1]] == [True, True]  # CSV lines count the header
    assert "X7" in errors[1]
    data = json.loads(result.stdout)
    assert data["totals"]["decisions"] == 48
    from_json = json.loads(run(files["jsonl"], "--table-only", "--json").stdout)
    by_hand = lambda d: {(r["hand"], r["seat"], r["players"]): (r["band"], r["points_lost"]) for r in d["decisions"]}  # noqa: E731
    assert by_hand(data) == by_hand(from_json)


def test_a_clean_file_exits_0_and_prints_the_totals(files):
    result = run(files["clean"], "--table-only")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert "5 decisions graded" in result.stdout and "Skill: your decisions lost" in result.stdout


def test_a_table_line_keeps_the_tables_margin(tmp_path):
    """The runner-up's points lost are ask's margin from the same table (negative control: the best loses 0)."""
    q = Question.of("HA HK HQ S6 C7", "H9", 5, 2)
    asked = pipeline.document(pipeline.from_table(q))  # the table's own answer (what a table line is graded by)
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9",
                                "choice": asked["runner_up"]}) + "\n" +
                    json.dumps({"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9",
                                "choice": asked["recommendation"]}) + "\n")
    data = json.loads(run(path, "--table-only", "--json").stdout)
    lost = {d["line"]: d["points_lost"] for d in data["decisions"]}
    assert lost == {1: pytest.approx(asked["margin"]["ev"], abs=1e-12), 2: 0.0}


def test_simulated_lines_and_luck(tmp_path):
    """Known earlier words need a simulation; luck is the score minus the expected score of his choice."""
    path = tmp_path / "sim.jsonl"
    path.write_text(
        json.dumps({"players": 5, "seat": 3, "hand": "SA SK D7 C8 H9", "trump": "ST", "before": "pass,play,pass",
                    "choice": "play", "discard": "D7 C8", "score": -2}) + "\n"
        + json.dumps({"players": 4, "seat": 1, "hand": "C6 C7 D8 S9 H6", "trump": "HA", "choice": "throw-in",
                      "score": 0}) + "\n")
    first = json.loads(run(path, "--samples", "3000", "--seed", "5", "--json").stdout)
    again = json.loads(run(path, "--samples", "3000", "--seed", "5", "--json").stdout)
    assert first == again  # one seed: the same review
    rows = {d["line"]: d for d in first["decisions"]}
    assert rows[1]["source"] == "simulation" and rows[1]["expected"] is not None
    assert rows[1]["luck"] == pytest.approx(-2 - rows[1]["expected"])
    assert rows[2]["expected"] == 0 and rows[2]["luck"] == 0  # a thrown-in hand is void: 0 expected, 0 scored
    t = first["totals"]
    assert t["scored"] == 2 and t["luck"] == pytest.approx(rows[1]["luck"])
    assert t["seed"] == 5


def test_totals_worked_by_hand():
    """Skill: 0 + 0.4 + 2.0 = 2.4 points over 3 decisions; luck: (-3 - -1.0) + (5 - 0.6) = 2.4 over the two scored."""
    def reviewed(line, loss, band, expected, score):
        g = Grade("play", "play1", "play", "play1", (), Estimate(loss, loss * 0.8, loss * 1.2, 100), band,
                  expected=None if expected is None else Estimate(expected, expected, expected, 100))
        return Reviewed(Entry(line, {}, None, Decision("play"), None, score), g)

    rows = [reviewed(1, 0.0, "best", -1.0, -3), reviewed(2, 0.4, "mistake", 0.6, 5),
            reviewed(3, 2.0, "blunder", None, 10)]
    t = Review(rows, []).totals()
    assert t["decisions"] == 3 and t["correct"] == 1 and t["accuracy"] == pytest.approx(1 / 3)
    assert t["points_lost"] == pytest.approx(2.4) and t["points_lost_per_decision"] == pytest.approx(0.8)
    assert t["scored"] == 2 and t["actual"] == 2 and t["expected"] == pytest.approx(-0.4)
    assert t["luck"] == pytest.approx(2.4)


def test_knock_lines(tmp_path):
    path = tmp_path / "knock.jsonl"
    path.write_text(json.dumps({"players": 5, "seat": 4, "trump": "HA", "choice": "knock", "score": -6}) + "\n"
                    + json.dumps({"players": 5, "seat": 2, "trump": "HA", "choice": "knock"}) + "\n")
    result = run(path, "--samples", "1000", "--seed", "2", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and "line 2: only the dealer (seat 4) knocks" in result.stderr
    row = data["decisions"][0]
    assert row["best"] in ("knock", "no knock") and row["expected"] is not None


@pytest.mark.parametrize("fields, words", [
    ({"players": 5, "seat": 2, "trump": "H9", "choice": "pass"}, "missing field hand"),
    ({"seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "pass"}, "missing field players"),
    ({"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "fold"}, "use one of"),
    ({"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "throw-in"}, "not open"),
    ({"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "play", "discard": "D6"},
     "not in the hand"),
    ({"players": "five", "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "pass"}, "whole number"),
    ({"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "pass", "score": "x"},
     "not a hand's score"),
    ({"players": 5, "seat": 2, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "join"}, "nobody called"),
])
def test_bad_lines_name_the_reason(fields, words):
    with pytest.raises(RulesError, match=words):
        parse_entry(1, fields)


@pytest.mark.parametrize("content, words", [
    (None, "cannot be read"),
    (b"", "no decision"),
    (b"\x00\xff\xfe binary", "not a text file"),
    (b"hand,trump\nHA HK HQ S6 C7,H9\n", "missing players, seat, choice"),
])
def test_a_file_that_cannot_be_read_is_one_line_and_exit_2(tmp_path, content, words):
    path = tmp_path / "hands.csv"
    if content is not None:
        path.write_bytes(content)
    result = run(path)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and words in result.stderr


def test_read_records_skips_blank_lines(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('\n{"players": 3, "seat": 0, "hand": "HA HK HQ S6 C7", "trump": "H9", "choice": "rumba"}\n\n')
    records, bad = read_records(path)
    assert [n for n, _ in records] == [2] and bad == []
    entries, bad = load(path)
    assert entries[0].decision.action == "rumba"
