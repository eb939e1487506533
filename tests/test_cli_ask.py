"""`rumbaodds ask` and `rumbaodds knock` on the command line.

Through click's CliRunner: the table, the JSON, the help text, and every bad
input answered by exit code 2 and one line ``rumbaodds: error: ...`` on
stderr, never a traceback. One real subprocess run of the installed console
script proves that nothing else reaches the user.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rumbaodds.cli import main

HAND = "HA HK HQ S6 C7"
BASE = ["ask", HAND, "--trump", "H9", "--players", "5", "--seat", "2"]


def run(args):
    result = CliRunner().invoke(main, args)
    return result


def test_ask_table_mentions_every_choice_and_a_recommendation():
    result = run([*BASE, "--samples", "20000", "--seed", "1"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for word in ("pass", "play", "rumba", "Recommendation:", "20,000 deals", "seed 1", "exchange S6 C7"):
        assert word in out, word
    assert "throw-in" not in out  # HA HK HQ: not all below ten
    # nothing but, on a cold cache, the line that the simulator compiles (engine/compiled.py)
    assert [line for line in result.stderr.splitlines() if not line.startswith("rumbaodds: compiling ")] == []


def test_ask_table_shows_throw_in_when_open():
    result = run(["ask", "H7 H8 S6 C7 D9", "--trump", "DA", "--players", "4", "--seat", "1", "--samples", "500",
                  "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "throw-in" in result.stdout


def test_ask_json_has_the_fields():
    result = run([*BASE, "--samples", "1000", "--seed", "7", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["samples"] == 1000 and d["seed"] == 7
    assert d["recommendation"] in d["actions"]
    assert set(d["actions"]) == {"pass", "play", "rumba"}
    for action in d["actions"].values():
        assert action["ev_ci"][0] <= action["ev"] <= action["ev_ci"][1]
    rumba = d["actions"]["rumba"]
    for key in ("p_success", "p_success_ci", "p_uncontested", "tricks"):
        assert key in rumba
    assert len(rumba["tricks"]) == 6
    assert set(d["play_options"]) == {f"play{k}" for k in range(5)}
    # same seed, same output
    assert run([*BASE, "--samples", "1000", "--seed", "7", "--json"]).stdout == result.stdout


def test_ask_json_with_options():
    result = run(["ask", "H7 H8 S6 C7 D9", "--trump", "DA", "--players", "5", "--seat", "3", "--before",
                  "pass,play,-", "--passes-in-a-row", "2", "--opponents", "bold", "--play", "greedy",
                  "--samples", "500", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["before"] == ["pass", "play", "-"] and d["passes_in_a_row"] == 2
    assert d["opponents"] == "bold" and d["play"] == "greedy"
    assert "throw-in" in d["actions"]
    knocked = json.loads(run([*BASE, "--dealer-knocked", "--samples", "300", "--seed", "1", "--json"]).stdout)
    assert set(knocked["actions"]) == {"pass", "play"} and set(knocked["play_options"]) == {"play0"}


def test_ask_precision():
    result = run([*BASE, "--precision", "0.5", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    for action in d["actions"].values():
        low, high = action["ev_ci"]
        assert (high - low) / 2 < 0.5


ASK_OPTIONS = ["--trump", "--players", "--seat", "--passes-in-a-row", "--before", "--dealer-knocked", "--rules",
               "--samples", "--precision", "--seed", "--opponents", "--play", "--json", "--progress"]
KNOCK_OPTIONS = ["--trump", "--players", "--inner-samples", "--rules", "--samples", "--precision", "--seed",
                 "--opponents", "--play", "--json", "--progress"]


@pytest.mark.parametrize("command, options", [("ask", ASK_OPTIONS), ("knock", KNOCK_OPTIONS)])
def test_help_documents_every_option(command, options):
    result = run([command, "--help"])
    assert result.exit_code == 0
    for option in options:
        assert option in result.stdout, option
    # and every option the command declares, including any added later
    declared = {opt for p in main.commands[command].params for opt in p.opts + p.secondary_opts if opt.startswith("--")}
    for option in declared:
        assert option in result.stdout, option


BAD = [
    ("unknown-card", ["ask", "HA HK HX S6 C7", "--trump", "H9", "--players", "5", "--seat", "2"], ["HX"]),
    ("duplicate", ["ask", "HA HA HQ S6 C7", "--trump", "H9", "--players", "5", "--seat", "2"], ["duplicate", "HA"]),
    ("four-cards", ["ask", "HA HK HQ S6", "--trump", "H9", "--players", "5", "--seat", "2"], ["got 4"]),
    ("trump-in-hand", ["ask", HAND, "--trump", "HA", "--players", "5", "--seat", "2"], ["trump card HA"]),
    ("seat-5-of-5", ["ask", HAND, "--trump", "H9", "--players", "5", "--seat", "5"], ["seat 5"]),
    ("players-9", ["ask", HAND, "--trump", "H9", "--players", "9", "--seat", "2"], ["9 players"]),
    ("two-in-swiss", ["ask", "HA HK HQ S6 C2", "--trump", "H9", "--players", "5", "--seat", "2"], ["C2"]),
    ("flemish-seven", ["ask", HAND, "--trump", "H9", "--players", "7", "--seat", "2", "--rules", "flemish"],
     ["7 players"]),
    ("flemish-knocked", ["ask", HAND, "--trump", "H9", "--players", "5", "--seat", "2", "--rules", "flemish",
                         "--dealer-knocked"], ["knock"]),
    ("unknown-rules", [*BASE, "--rules", "jass"], ["jass"]),
    ("before", [*BASE, "--before", "pass,maybe"], ["maybe"]),
    ("opponents", [*BASE, "--opponents", "nosuch"], ["nosuch"]),
    ("samples-0", [*BASE, "--samples", "0"], ["--samples"]),
    ("samples-and-precision", [*BASE, "--samples", "10", "--precision", "0.1"], ["--samples", "--precision"]),
    ("seed", [*BASE, "--seed", "-1"], ["--seed"]),
    ("knock-flemish", ["knock", "--trump", "HA", "--players", "5", "--rules", "flemish"], ["knock"]),
    ("knock-card", ["knock", "--trump", "H2", "--players", "5"], ["H2"]),
    ("knock-opponents", ["knock", "--trump", "HA", "--players", "5", "--opponents", "nosuch"], ["nosuch"]),
    ("knock-inner", ["knock", "--trump", "HA", "--players", "5", "--inner-samples", "0"], ["--inner-samples"]),
]


@pytest.mark.parametrize("args, words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_one_line_exit_2(args, words):
    result = run(args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("rumbaodds: error: ")
    for word in words:
        assert word in lines[0], word
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert isinstance(result.exception, SystemExit)


def test_knock_json():
    result = run(["knock", "--trump", "HA", "--players", "5", "--samples", "500", "--inner-samples", "50", "--seed",
                  "1", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["samples"] == 500 and d["inner_samples"] == 50 and d["seed"] == 1 and d["trump"] == "HA"
    assert d["recommendation"] in ("knock", "no knock")
    assert {"knock", "no-knock"} == set(d["actions"])
    for action in d["actions"].values():
        assert action["ev_ci"][0] <= action["ev"] <= action["ev_ci"][1]
    assert "p_success" in d["actions"]["knock"] and "choices" in d["actions"]["no-knock"]


def test_knock_table():
    result = run(["knock", "--trump", "HA", "--players", "5", "--samples", "200", "--inner-samples", "10",
                  "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "knock" in result.stdout and "no knock" in result.stdout and "Recommendation:" in result.stdout


def _console_script():
    """The installed console script: beside this Python first (a virtual environment need not be on PATH)."""
    path = shutil.which("rumbaodds", path=str(Path(sys.executable).parent)) or shutil.which("rumbaodds")
    assert path is not None, "the console script rumbaodds is not installed (pip install -e .)"
    return path


def test_console_script_bad_input_no_traceback():
    proc = subprocess.run([_console_script(), "ask", "HA HK HX S6 C7", "--trump", "H9", "--players", "5",
                           "--seat", "2"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [proc.stderr.strip()]
    assert proc.stderr.startswith("rumbaodds: error: ") and "HX" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_console_script_runs():
    proc = subprocess.run([_console_script(), *BASE, "--samples", "300", "--seed", "1", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["samples"] == 300


def test_module_entry_matches_console_script():
    proc = subprocess.run([sys.executable, "-c", "import sys; from rumbaodds.cli import main; "
                           "sys.argv = ['rumbaodds', 'ask', 'HA', '--trump', 'H9', '--players', '5', '--seat', '2']; "
                           "main()"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.startswith("rumbaodds: error: ") and len(proc.stderr.splitlines()) == 1


def test_no_simulate_answers_from_the_tables_alone():
    """--no-simulate: the table's own answer, the same JSON as the pipeline's table answer (no deal simulated, what
    the table leaves open stays open); the control without it settles that open margin by simulation."""
    from rumbaodds.answer import pipeline
    from rumbaodds.answer.question import Question

    result = run([*BASE, "--no-simulate", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    table = pipeline.from_table(Question.of(HAND, "H9", 5, 2), "tables")
    assert data == json.loads(json.dumps(pipeline.document(table)))
    assert data["source"]["kind"] == "table" and "margin" in data["source"]["open"]
    text = run([*BASE, "--no-simulate"]).output
    assert "From the tables alone (--no-simulate): they leave the recommendation open" in text
    settled = json.loads(run([*BASE, "--json"]).stdout)
    assert settled["source"]["kind"] == "table+simulation"


@pytest.mark.parametrize("extra, words", [
    (["--rules", "flemish", "--players", "4", "--opponents", "default"], "no table covers this situation"),
    (["--before", "pass,play"], "no table covers this situation"),
    (["--seed", "3"], "drop --seed"),
    (["--simulate"], "drop --simulate"),
    (["--scores", "20,20,20,20,20"], "drop --scores"),
])
def test_no_simulate_refuses_what_no_table_answers(extra, words):
    args = [*BASE, "--no-simulate", *extra]
    if "--players" in extra:  # flemish: 4 players, the same hand and seat, opponents no shipped table was built for
        args = ["ask", HAND, "--trump", "H9", "--seat", "2", "--no-simulate", *extra]
    result = run(args)
    assert result.exit_code == 2 and words in result.output and len(result.output.strip().splitlines()) == 1, \
        result.output
