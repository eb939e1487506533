"""Every input checked at the door (issue 18 item 5): bad input is one line and exit code 2, before any work.

Each case runs the command line through click's CliRunner with the simulation
entry points (the ask and knock batches, table builds, the solver, the report,
the rummy kernels, the server) replaced by a tripwire: a case that reached
one would end in its AssertionError instead of exit code 2. A few cases run
in a real subprocess to prove that nothing else (no traceback) reaches the
user. The ranges are rumbaodds.limits, shared with the web API.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from rumbaodds import limits
from rumbaodds.answer import simulation
from rumbaodds.cli import main
from rumbaodds.cli.options import Bounded
from rumbaodds.rules import RulesError, is_safe_name, load_rules, rules_from_dict
from rumbaodds.seeds import check_seed
from rumbaodds.web.params import BY_NAME

HAND = "HA HK HQ S6 C7"
ASK = ["ask", HAND, "--trump", "H9", "--players", "5", "--seat", "2"]
KNOCK = ["knock", "--trump", "HA", "--players", "5"]
QUERY = ["tables", "query", HAND, "--trump", "H9", "--players", "5", "--seat", "2"]
RUMMY_HAND = "HA H2 H3 D7 S7 JK C9 CT CJ S2 D4 H9 SK"
ODDS = ["rummy", "odds", RUMMY_HAND]
HUGE = "1" + "0" * 39  # 40 digits


def files(root: Path) -> dict[str, str]:
    """Named input files of the cases, written under ``root``."""
    out = {
        "unsafe_name": 'base = "swiss"\nname = "/tmp/x"\n',
        "dotdot_name": 'base = "swiss"\nname = "../up"\n',
        "bad_field": 'base = "swiss"\nname = "x"\nhand_size = 9\n',
        "evil_model": 'base = "default"\nname = "../evil"\n',
        "bad_deals": '{"hands": [["HA"]]}\n',
    }
    paths = {}
    for key, text in out.items():
        path = root / f"{key}.toml"
        path.write_text(text, encoding="utf-8")
        paths[key] = str(path)
    (root / "binary.toml").write_bytes(bytes(range(256)) * 4)
    paths["binary"] = str(root / "binary.toml")
    (root / "folder.toml").mkdir()
    paths["folder"] = str(root / "folder.toml")
    paths["missing"] = str(root / "missing" / "nothing.toml")
    paths["dir"] = str(root)
    return paths


# (id, args with {placeholders} for files(), words the one line must contain)
CASES = [
    # -- the issue's own cases
    ("passes-overflow", [*ASK, "--passes-in-a-row", "99999999999999999999"], ["--passes-in-a-row", "0..99"]),
    ("solve-seed-negative", ["strategy", "solve", "--players", "4", "--seed", "-1"], ["--seed", "2**63-1"]),
    ("serve-port-negative", ["serve", "--port", "-1"], ["--port", "0..65,535"]),
    ("serve-port-70000", ["serve", "--port", "70000"], ["--port", "70000"]),
    ("precision-nan", [*ASK, "--precision", "nan"], ["--precision", "finite"]),
    ("precision-1e-300", [*ASK, "--precision", "1e-300"], ["--precision", "20,000,000-deal cap"]),
    ("samples-40-digits", [*ASK, "--samples", HUGE], ["--samples", "20,000,000", "40 digits"]),
    ("report-players-empty", ["report", "--players", ""], ["--players", "names no player count"]),
    ("rummy-report-samples-0", ["rummy", "report", "--samples", "0"], ["--samples", "got 0"]),
    ("tables-missing-folder", [*ASK, "--tables", "{missing}"], ["--tables", "no such folder", "nothing.toml"]),
    ("tables-binary-file", [*ASK, "--tables", "{binary}"], ["--tables", "not a folder", "binary.toml"]),
    ("rule-name-path", ["tables", "build", "--players", "4", "--rules", "{unsafe_name}"], ["field name", "/tmp/x"]),
    # -- ask
    ("ask-rule-name-dotdot", [*ASK, "--rules", "{dotdot_name}"], ["field name", "../up"]),
    ("ask-players-huge", [*ASK, "--players", HUGE], ["--players"]),
    ("ask-players-rule-set", [*ASK, "--players", "2"], ["2 players", "3..7"]),
    ("ask-players-word", [*ASK, "--players", "five"], ["--players", "'five'"]),
    ("ask-seat-beyond", [*ASK, "--seat", "5"], ["seat 5"]),
    ("ask-seat-negative", [*ASK, "--seat", "-1"], ["--seat"]),
    ("ask-seat-float", [*ASK, "--seat", "1e3"], ["--seat", "whole number"]),
    ("ask-bad-card", ["ask", "HA HK HQ S6 XX", "--trump", "H9", "--players", "5", "--seat", "2"], ["XX"]),
    ("ask-four-cards", ["ask", "HA HK HQ S6", "--trump", "H9", "--players", "5", "--seat", "2"], ["5 cards, got 4"]),
    ("ask-duplicate-card", ["ask", "HA HA HQ S6 C7", "--trump", "H9", "--players", "5", "--seat", "2"], ["HA"]),
    ("ask-empty-hand", ["ask", "", "--trump", "H9", "--players", "5", "--seat", "2"], ["got 0"]),
    ("ask-trump-in-hand", ["ask", HAND, "--trump", "HA", "--players", "5", "--seat", "2"], ["HA"]),
    ("ask-empty-trump", ["ask", HAND, "--trump", "", "--players", "5", "--seat", "2"], ["unknown card"]),
    ("ask-card-not-in-deck", ["ask", "HA HK HQ S6 C2", "--trump", "H9", "--players", "5", "--seat", "2"], ["C2"]),
    ("ask-unknown-rules", [*ASK, "--rules", "nosuch"], ["nosuch"]),
    ("ask-empty-rules", [*ASK, "--rules", ""], ["--rules", "empty"]),
    ("ask-missing-rule-file", [*ASK, "--rules", "{missing}"], ["not found"]),
    ("ask-binary-rule-file", [*ASK, "--rules", "{binary}"], ["not valid TOML"]),
    ("ask-folder-rule-file", [*ASK, "--rules", "{folder}"], ["folder.toml"]),
    ("ask-bad-rule-field", [*ASK, "--rules", "{bad_field}"], ["hand_size"]),
    ("ask-before-word", [*ASK, "--before", "pass,maybe"], ["--before", "maybe"]),
    ("ask-before-count", [*ASK, "--before", "pass"], ["--before", "got 1"]),
    ("ask-before-two-rumbas", [*ASK, "--before", "rumba,rumba"], ["--before", "first Rumba"]),
    ("ask-seat-model-style", [*ASK, "--seat-model", "3=wild"], ["wild"]),
    ("ask-seat-model-seat", [*ASK, "--seat-model", "9=bold"], ["--seat-model", "seat 9"]),
    ("ask-seat-model-form", [*ASK, "--seat-model", "bold"], ["--seat-model", "SEAT=STYLE"]),
    ("ask-opponents", [*ASK, "--opponents", "nosuch"], ["nosuch"]),
    ("ask-play", [*ASK, "--play", "random"], ["--play", "random"]),
    ("ask-samples-and-precision", [*ASK, "--samples", "10", "--precision", "0.5"], ["--samples", "--precision"]),
    ("ask-samples-negative", [*ASK, "--samples", "-5"], ["--samples", "-5"]),
    ("ask-samples-fraction", [*ASK, "--samples", "1.5"], ["--samples", "whole number"]),
    ("ask-samples-empty", [*ASK, "--samples", ""], ["--samples"]),
    ("ask-precision-zero", [*ASK, "--precision", "0"], ["--precision"]),
    ("ask-precision-inf", [*ASK, "--precision", "inf"], ["--precision", "finite"]),
    ("ask-precision-overflow", [*ASK, "--precision", "1e400"], ["--precision", "finite"]),
    ("ask-precision-word", [*ASK, "--precision", "abc"], ["--precision", "not a number"]),
    ("ask-seed-2-63", [*ASK, "--seed", str(2**63)], ["--seed", "2**63-1"]),
    ("ask-passes-negative", [*ASK, "--passes-in-a-row", "-1"], ["--passes-in-a-row"]),
    ("ask-swapped-by-negative", [*ASK, "--swapped-by", "-1"], ["--swapped-by"]),
    ("ask-swapped-by-swiss", [*ASK, "--swapped-by", "1"], ["--swapped-by", "no swap"]),
    ("ask-device", [*ASK, "--device", "tpu"], ["--device", "tpu"]),
    ("ask-knocked-flemish", [*ASK, "--dealer-knocked", "--rules", "flemish"], ["no knock"]),
    ("ask-missing-option", ["ask", HAND, "--trump", "H9", "--players", "5"], ["--seat"]),
    ("ask-unknown-option", [*ASK, "--colour", "red"], ["--colour"]),
    # -- knock
    ("knock-samples-0", [*KNOCK, "--samples", "0"], ["--samples", "200,000"]),
    ("knock-samples-huge", [*KNOCK, "--samples", "999999999"], ["--samples", "200,000"]),
    ("knock-precision-fine", [*KNOCK, "--precision", "0.001"], ["--precision", "200,000-deal cap"]),
    ("knock-precision-nan", [*KNOCK, "--precision", "nan"], ["--precision", "finite"]),
    ("knock-inner-negative", [*KNOCK, "--inner-samples", "-1"], ["--inner-samples"]),
    ("knock-inner-huge", [*KNOCK, "--inner-samples", "99999999999999"], ["--inner-samples", "100,000"]),
    ("knock-bad-card", ["knock", "--trump", "ZZ", "--players", "5"], ["ZZ"]),
    ("knock-players-0", ["knock", "--trump", "HA", "--players", "0"], ["--players"]),
    ("knock-flemish", [*KNOCK, "--rules", "flemish"], ["no knock"]),
    ("knock-rule-name", [*KNOCK, "--rules", "{unsafe_name}"], ["field name"]),
    # -- deals
    ("deals-count-negative", ["deals", "generate", "--players", "4", "--count", "-1"], ["--count"]),
    ("deals-seed-negative", ["deals", "generate", "--players", "4", "--count", "1", "--seed", "-1"], ["--seed"]),
    ("deals-cards-0", ["deals", "generate", "--players", "4", "--count", "1", "--cards", "0"], ["--cards"]),
    ("deals-cards-9", ["deals", "generate", "--players", "4", "--count", "1", "--cards", "9"], ["--cards"]),
    ("deals-players-huge", ["deals", "generate", "--players", "99", "--count", "1"], ["--players"]),
    ("deals-players-flemish", ["deals", "generate", "--players", "7", "--count", "1", "--rules", "flemish"],
     ["2..6"]),
    ("deals-rules-empty", ["deals", "generate", "--players", "4", "--count", "1", "--rules", ""], ["--rules"]),
    ("deals-play-missing-file", ["deals", "play", "{missing}"], ["cannot read", "nothing.toml"]),
    ("deals-play-folder", ["deals", "play", "{dir}"], ["cannot read"]),
    ("deals-play-bad-line", ["deals", "play", "{bad_deals}"], ["line 1"]),
    ("deals-play-binary", ["deals", "play", "{binary}"], ["line 1"]),
    ("deals-play-policy", ["deals", "play", "{bad_deals}", "--policy", "nosuch"], ["--policy"]),
    ("deals-solve-seat-word", ["deals", "solve", "{bad_deals}", "--seat", "x"], ["--seat"]),
    ("deals-solve-seat-negative", ["deals", "solve", "{bad_deals}", "--seat", "-2"], ["--seat"]),
    # -- tables
    ("build-precision-nan", ["tables", "build", "--players", "4", "--precision", "nan"], ["--precision"]),
    ("build-precision-0", ["tables", "build", "--players", "4", "--precision", "0"], ["--precision"]),
    ("build-min-samples-0", ["tables", "build", "--players", "4", "--min-samples", "0"], ["--min-samples"]),
    ("build-min-above-max", ["tables", "build", "--players", "4", "--min-samples", "100", "--max-samples", "10"],
     ["--min-samples", "--max-samples"]),
    ("build-chunk-cells-0", ["tables", "build", "--players", "4", "--chunk-cells", "0"], ["--chunk-cells"]),
    ("build-workers-0", ["tables", "build", "--players", "4", "--workers", "0"], ["--workers"]),
    ("build-seed-negative", ["tables", "build", "--players", "4", "--seed", "-1"], ["--seed"]),
    ("build-cells-0", ["tables", "build", "--players", "4", "--cells", "0"], ["--cells"]),
    ("build-samples-per-cell-huge", ["tables", "build", "--players", "4", "--samples-per-cell", HUGE],
     ["--samples-per-cell"]),
    ("build-out-is-a-file", ["tables", "build", "--players", "4", "--out", "{binary}"], ["--out"]),
    ("build-opponents", ["tables", "build", "--players", "4", "--opponents", "nosuch"], ["nosuch"]),
    ("build-model-name-path", ["tables", "build", "--players", "4", "--opponents", "{evil_model}"],
     ["../evil", "folder name"]),
    ("build-players-rule-set", ["tables", "build", "--players", "9"], ["9 players"]),
    ("build-scheduler-scheme", ["tables", "build", "--players", "4", "--scheduler", "nosuch://x"], ["--scheduler"]),
    ("build-scheduler-port", ["tables", "build", "--players", "4", "--scheduler", "tcp://h:99999"], ["port"]),
    ("query-seat", [*QUERY[:-1], "7"], ["seat 7"]),
    ("query-passes", [*QUERY, "--passes-in-a-row", "1000"], ["--passes-in-a-row"]),
    ("query-tables-missing", [*QUERY, "--tables", "{missing}"], ["--tables", "no such folder"]),
    ("query-opponents", [*QUERY, "--opponents", "nosuch"], ["nosuch"]),
    ("plan-workers-0", ["tables", "plan", "--workers", "0"], ["--workers"]),
    ("plan-sample-cells-0", ["tables", "plan", "--sample-cells", "0"], ["--sample-cells"]),
    ("plan-players-huge", ["tables", "plan", "--players", "99"], ["--players"]),
    ("plan-precision-inf", ["tables", "plan", "--precision", "inf"], ["--precision"]),
    ("plan-min-above-max", ["tables", "plan", "--min-samples", "50", "--max-samples", "5"], ["--min-samples"]),
    ("plan-rules", ["tables", "plan", "--rules", "nosuch"], ["nosuch"]),
    ("pack-missing-folder", ["tables", "pack", "{missing}", "--out", "{dir}/x.packed.parquet"], ["no finished table"]),
    ("pack-out-is-a-folder", ["tables", "pack", "{folder}", "--out", "{dir}"], ["--out"]),
    ("compare-missing", ["tables", "compare", "{missing}", "{missing}"], ["OLD", "does not exist"]),
    ("compare-binary-file", ["tables", "compare", "{binary}", "{binary}"], ["not a packed table"]),
    ("compare-a-folder", ["tables", "compare", "{binary}", "{dir}"], ["NEW", "directory"]),
    # -- strategy
    ("solve-iterations-0", ["strategy", "solve", "--players", "4", "--iterations", "0"], ["--iterations"]),
    ("solve-samples-negative", ["strategy", "solve", "--players", "4", "--samples", "-1"], ["--samples"]),
    ("solve-eval-samples-3", ["strategy", "solve", "--players", "4", "--eval-samples", "3"], ["--eval-samples"]),
    ("solve-check-every-0", ["strategy", "solve", "--players", "4", "--check-every", "0"], ["--check-every"]),
    ("solve-players-huge", ["strategy", "solve", "--players", "99"], ["--players"]),
    ("solve-out-is-a-folder", ["strategy", "solve", "--players", "4", "--out", "{dir}"], ["--out"]),
    ("solve-binary-rules", ["strategy", "solve", "--players", "4", "--rules", "{binary}"], ["not valid TOML"]),
    ("solve-game-iterations-0", ["strategy", "solve-game", "--players", "4", "--iterations", "0"], ["--iterations"]),
    ("solve-game-rounds-over", ["strategy", "solve-game", "--players", "4", "--iterations", "3", "--rounds", "4"],
     ["--rounds", "--iterations"]),
    ("solve-game-states-0", ["strategy", "solve-game", "--players", "4", "--states", "0"], ["--states"]),
    ("solve-game-players-huge", ["strategy", "solve-game", "--players", "99"], ["--players"]),
    ("solve-game-binary-rules", ["strategy", "solve-game", "--players", "4", "--rules", "{binary}"],
     ["not valid TOML"]),
    ("report-endgame-out-is-a-file", ["report-endgame", "--out", "{binary}"], ["--out"]),
    ("show-players-huge", ["strategy", "show", "--players", "99"], ["--players"]),
    ("show-rules", ["strategy", "show", "--players", "4", "--rules", "nosuch"], ["nosuch"]),
    ("show-folder-rules", ["strategy", "show", "--players", "4", "--rules", "{folder}"], ["folder.toml"]),
    ("show-plot-is-a-folder", ["strategy", "show", "--players", "4", "--plot", "{dir}"], ["--plot"]),
    # -- report
    ("report-players-word", ["report", "--players", "3-x"], ["--players", "3-x"]),
    ("report-players-falling", ["report", "--players", "7-3"], ["--players", "7-3"]),
    ("report-players-rule-set", ["report", "--players", "2"], ["2 players"]),
    ("report-model-players", ["report", "--players", "3", "--model-players", "9"], ["9 players"]),
    ("report-models-empty", ["report", "--models", ""], ["--models"]),
    ("report-cells-0", ["report", "--cells", "0"], ["--cells"]),
    ("report-samples-per-cell-1", ["report", "--samples-per-cell", "1"], ["--samples-per-cell"]),
    ("report-dpi-5", ["report", "--dpi", "5"], ["--dpi"]),
    ("report-dpi-huge", ["report", "--dpi", "100000"], ["--dpi"]),
    ("report-seed-negative", ["report", "--seed", "-1"], ["--seed"]),
    ("report-out-is-a-file", ["report", "--out", "{binary}"], ["--out"]),
    ("report-tables-is-a-file", ["report", "--tables", "{binary}"], ["--tables"]),
    ("report-rule-name", ["report", "--rules", "{unsafe_name}"], ["field name"]),
    # -- rummy
    ("rummy-open-two-cards", ["rummy", "open", "HA H2"], ["2 cards"]),
    ("rummy-open-bad-card", ["rummy", "open", RUMMY_HAND.replace("SK", "ZZ")], ["ZZ"]),
    ("rummy-open-rules", ["rummy", "open", RUMMY_HAND, "--rules", "nosuch"], ["nosuch"]),
    ("rummy-open-rules-empty", ["rummy", "open", RUMMY_HAND, "--rules", ""], ["--rules"]),
    ("rummy-odds-samples-0", [*ODDS, "--samples", "0"], ["--samples"]),
    ("rummy-odds-samples-huge", [*ODDS, "--samples", HUGE], ["--samples", "10,000,000"]),
    ("rummy-odds-turns-0", [*ODDS, "--turns", "0"], ["--turns"]),
    ("rummy-odds-turns-61", [*ODDS, "--turns", "61"], ["--turns", "1..60"]),
    ("rummy-odds-players-rule-set", [*ODDS, "--players", "9"], ["9 players", "2..4"]),
    ("rummy-odds-seed-negative", [*ODDS, "--seed", "-5"], ["--seed"]),
    ("rummy-odds-discard", [*ODDS, "--discard", "QQ"], ["QQ"]),
    ("rummy-odds-three-cards", ["rummy", "odds", "HA H2 H3"], ["3 cards"]),
    ("rummy-tables-samples-0", ["rummy", "tables", "--samples", "0"], ["--samples"]),
    ("rummy-tables-turns", ["rummy", "tables", "--turns", "100"], ["--turns"]),
    ("rummy-tables-players", ["rummy", "tables", "--players", "50"], ["50 players"]),
    ("rummy-report-dpi", ["rummy", "report", "--dpi", "1"], ["--dpi"]),
    ("rummy-report-out-is-a-file", ["rummy", "report", "--out", "{binary}"], ["--out"]),
    # -- serve
    ("serve-port-word", ["serve", "--port", "abc"], ["--port"]),
    ("serve-host-empty", ["serve", "--host", ""], ["--host", "empty"]),  # issue 37: not every interface unasked
    ("serve-host-blank", ["serve", "--host", " "], ["--host", "empty"]),
    ("serve-host-spaces", ["serve", "--host", "127.0.0.1 ::1"], ["--host", "spaces"]),
    ("serve-port-huge", ["serve", "--port", HUGE], ["--port"]),
    ("serve-missing-rules", ["serve", "--rules", "{missing}"], ["not found"]),
    ("serve-rule-name", ["serve", "--rules", "{unsafe_name}"], ["field name"]),
    ("serve-missing-model", ["serve", "--opponents", "{missing}"], ["not found"]),
    ("serve-tables-file", ["serve", "--tables", "{binary}"], ["--tables", "not a folder"]),
    # -- game
    ("game-scores-word", ["game", "--scores", "20,x,20"], ["--scores", "'x'", "whole number"]),
    ("game-scores-huge", ["game", "--scores", f"20,{HUGE},20"], ["--scores", "40 digits"]),
    ("game-scores-over", ["game", "--scores", "20,20,0"], ["--scores", "at 0 or below it is over"]),
    ("game-scores-count", ["game", "--players", "4", "--scores", "20,20,20"], ["--scores", "3 scores for 4"]),
    ("game-passes-negative", ["game", "--scores", "20,20,20", "--passes", "0,-1,0"], ["--passes", "0..99"]),
    ("game-dealer-beyond", ["game", "--scores", "20,20,20", "--dealer", "3"], ["--dealer", "player 3"]),
    ("game-games-0", ["game", "--players", "3", "--games", "0"], ["--games", "got 0"]),
    ("game-games-huge", ["game", "--players", "3", "--games", HUGE], ["--games"]),
    ("game-players-rule-set", ["game", "--players", "9"], ["9 players"]),
    ("game-opponents", ["game", "--players", "3", "--opponents", "nosuch"], ["nosuch"]),
    ("game-rules", ["game", "--players", "3", "--rules", "nosuch"], ["nosuch"]),
    ("game-map-card", ["game-map", "HA HK HQ S6 X7", "--trump", "H9", "--players", "5", "--seat", "2"], ["X7"]),
    ("game-map-seat", ["game-map", HAND, "--trump", "H9", "--players", "5", "--seat", "5"], ["seat 5"]),
    ("game-map-own-form", ["game-map", HAND, "--trump", "H9", "--players", "5", "--seat", "2", "--own", "1,x,3"],
     ["--own", "'x'"]),
    ("game-map-samples", ["game-map", HAND, "--trump", "H9", "--players", "5", "--seat", "2", "--samples", "0"],
     ["--samples"]),
    ("game-map-seed", ["game-map", HAND, "--trump", "H9", "--players", "5", "--seat", "2", "--seed", "-1"],
     ["--seed"]),
    # -- the group itself
    ("unknown-command", ["nosuch"], ["nosuch"]),
    # -- review (issue 20): a file that cannot be read at all, and its options
    ("review-missing-file", ["review", "{missing}"], ["cannot be read"]),
    ("review-folder", ["review", "{dir}"], ["is a folder"]),
    ("review-binary", ["review", "{binary}"], ["not a text file"]),
    ("review-samples-0", ["review", "{bad_deals}", "--samples", "0"], ["--samples"]),
    ("review-seed-negative", ["review", "{bad_deals}", "--seed", "-1"], ["--seed"]),
    ("review-html-no-folder", ["review", "{bad_deals}", "--html", "{missing}"], ["--html", "no folder"]),
    ("review-parquet-is-a-folder", ["review", "{bad_deals}", "--parquet", "{dir}"], ["--parquet", "is a folder"]),
    ("review-tables-is-a-file", ["review", "{bad_deals}", "--tables", "{binary}"], ["--tables"]),
    # -- train (issue 20)
    ("train-players-rule-set", ["train", "--players", "9"], ["9 players", "3..7"]),
    ("train-seat-beyond", ["train", "--players", "5", "--seat", "5"], ["seat 5"]),
    ("train-rounds-0", ["train", "--rounds", "0"], ["--rounds"]),
    ("train-samples-0", ["train", "--samples", "0"], ["--samples"]),
    ("train-rules", ["train", "--rules", "nosuch"], ["nosuch"]),
    ("train-hand-card", ["train", "--hand", "HA HK HQ S6 X7", "--trump", "H9", "--players", "5", "--seat", "2"],
     ["X7"]),
    ("train-hand-no-trump", ["train", "--hand", HAND, "--players", "5", "--seat", "2"], ["--trump"]),
    ("train-hand-no-seat", ["train", "--hand", HAND, "--trump", "H9", "--players", "5"], ["--seat"]),
]


def _tripwire(name: str):
    def tripped(*args, **kwargs):
        raise AssertionError(f"{name} was reached: the input was not checked at the door")

    return tripped


@pytest.fixture
def no_work(monkeypatch):
    """Every simulation, build and server entry point replaced by a tripwire."""
    import rumbaodds.engine.knock
    import rumbaodds.match.api
    import rumbaodds.match.ask
    import rumbaodds.report.endgame
    import rumbaodds.rummy.report
    import rumbaodds.rummy.tables
    import rumbaodds.strategy.run
    import rumbaodds.strategy.score_solver
    import rumbaodds.tables.plan
    import rumbaodds.web.server
    from rumbaodds.cli import deals_cmd, report_cmd, rummy_cmd, tables_cmd

    for owner, name in [(simulation.Job, "batch"), (simulation, "knock_across_models"),
                        (rumbaodds.engine.knock, "knock_batch"), (tables_cmd, "build_table"),
                        (rumbaodds.tables.plan, "plan_tables"), (rumbaodds.strategy.run, "solve"),
                        (rumbaodds.strategy.score_solver, "solve_score"), (rumbaodds.report.endgame, "write_endgame"),
                        (report_cmd, "_make_report"), (rummy_cmd, "odds"), (rumbaodds.rummy.tables, "build_table"),
                        (rumbaodds.rummy.report, "make_rummy_report"), (rumbaodds.web.server, "make_server"),
                        (deals_cmd, "play_deals"),  # generate_deals checks its arguments at the call, lazily
                        (rumbaodds.match.api, "scored_batch"), (rumbaodds.match.ask, "choice_batch")]:
        monkeypatch.setattr(owner, name, _tripwire(f"{getattr(owner, '__name__', owner)}.{name}"))


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    return files(tmp_path_factory.mktemp("door"))


def _fill(args, paths):
    return [a.format(**paths) if "{" in a else a for a in args]


@pytest.mark.parametrize("args, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_exit_2_before_any_work(args, words, paths, no_work, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # default output folders (tables/, reports/) would land here: none may appear
    result = CliRunner().invoke(main, _fill(args, paths))
    assert isinstance(result.exception, SystemExit), repr(result.exception)  # not a tripwire, not a traceback
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("rumbaodds: error: "), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []  # nothing written before the check


def _commands(group: click.Group, prefix=()):
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))
        else:
            yield (*prefix, name)


def test_every_command_and_subcommand_has_cases():
    counts = {path: 0 for path in _commands(main)}
    for _, args, _ in CASES:
        for path in counts:
            if tuple(args[:len(path)]) == path:
                counts[path] += 1
    assert len(counts) >= 15
    assert {path: n for path, n in counts.items() if n == 0} == {}
    assert len(CASES) >= 12 + 40


def test_a_good_question_passes_the_door(no_work, tmp_path, monkeypatch):
    """Negative control: the tripwire is reached by valid input (so the cases above did stop at the door)."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [*ASK, "--seed", "1", "--samples", "100"])
    assert isinstance(result.exception, AssertionError) and "Job.batch" in str(result.exception)
    result = CliRunner().invoke(main, ["strategy", "solve", "--players", "4", "--seed", str(2**63 - 1)])
    assert isinstance(result.exception, AssertionError) and "solve" in str(result.exception)
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert isinstance(result.exception, AssertionError) and "make_server" in str(result.exception)
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--host", "0.0.0.0"])
    assert isinstance(result.exception, AssertionError) and "make_server" in str(result.exception)


@pytest.mark.parametrize("host, said", [("127.0.0.1", None), ("localhost", None), ("::1", None),
                                        ("0.0.0.0", "every network interface"), ("192.0.2.7", "192.0.2.7")])
def test_a_host_other_than_loopback_is_said_plainly_at_start(host, said, monkeypatch):
    """Issue 37: serving beyond this machine is said on stderr when the server starts (a loopback host: nothing)."""
    import rumbaodds.web.app
    import rumbaodds.web.server

    class Server:
        url = f"http://{host}:1/"

        def serve_forever(self, poll_interval):
            raise KeyboardInterrupt

        def server_close(self):
            pass

    monkeypatch.setattr(rumbaodds.web.server, "make_server", lambda app, host, port, verbose: Server())
    monkeypatch.setattr(rumbaodds.web.app.App, "start_warmup", lambda self, extras: None)
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--host", host])
    assert result.exit_code == 0, result.output
    warned = [line for line in result.stderr.splitlines() if "other machines" in line]
    if said is None:
        assert warned == []
    else:
        assert len(warned) == 1 and said in warned[0] and "not only this machine" in warned[0]


# -- real processes: nothing but the one line reaches the user ------------------------------------------------------
SUBPROCESS = ["passes-overflow", "solve-seed-negative", "serve-port-negative", "serve-port-70000", "precision-nan",
              "samples-40-digits", "tables-binary-file"]


@pytest.mark.parametrize("case", SUBPROCESS)
def test_in_a_real_process_no_traceback(case, paths, tmp_path):
    args, words = next((a, w) for name, a, w in CASES if name == case)
    code = "import sys; from rumbaodds.cli import main; sys.argv[0] = 'rumbaodds'; main()"
    proc = subprocess.run([sys.executable, "-c", code, *_fill(args, paths)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=_env())
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("rumbaodds: error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for word in words:
        assert word in proc.stderr


def _env():
    import os

    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


# -- the ranges: one definition for the command line and the web API -------------------------------------------------
def test_the_caps_are_the_simulators_own():
    from rumbaodds.rummy.odds import MAX_TURNS

    assert limits.MAX_DEALS == simulation.MAX_SAMPLES
    assert limits.MAX_KNOCK_DEALS == simulation.MAX_SAMPLES // 100
    assert limits.MAX_RUMMY_TURNS == MAX_TURNS
    with pytest.raises(RulesError, match="--seed must be"):
        check_seed(limits.SEED.high + 1)
    with pytest.raises(RulesError, match="--seed must be"):
        check_seed(-1)
    assert check_seed(limits.SEED.high) == limits.SEED.high


def test_the_web_api_and_the_command_line_share_the_ranges():
    from rumbaodds.cli.ask_cmd import ask

    types = {p.name: p.type for p in ask.params}
    for name in ("players", "seat", "passes_in_a_row", "samples", "precision", "seed"):
        assert isinstance(types[name], Bounded), name
        assert types[name].limit is BY_NAME[name].limit, name


@pytest.mark.parametrize("text, ok", [("5", True), ("0", False), ("nan", False), ("-inf", False), ("1e3", False),
                                      (HUGE, False), ("", False), ("20000000", True), ("20000001", False)])
def test_a_limit_parses_and_checks(text, ok):
    if ok:
        assert limits.ASK_SAMPLES.parse(text, "--samples") == int(text)
    else:
        with pytest.raises(limits.LimitError, match="--samples"):
            limits.ASK_SAMPLES.parse(text, "--samples")


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e999", "0.001", "-1", "x"])
def test_a_float_limit_refuses_non_finite_and_out_of_range(text):
    with pytest.raises(limits.LimitError):
        limits.ASK_PRECISION.parse(text, "--precision")
    assert limits.ASK_PRECISION.parse("0.5", "--precision") == 0.5


# -- safe names: a rule set's name is part of folder names [tables, reports, strategies] -----------------------------
@pytest.mark.parametrize("name", ["/tmp/x", "../up", "a/b", ".hidden", "", "a b", "x" * 65, "tab\there", "nul\0"])
def test_unsafe_rule_set_names_are_refused_where_the_toml_is_read(name):
    assert not is_safe_name(name)
    with pytest.raises(RulesError, match="field name"):
        rules_from_dict({"base": "swiss", "name": name}, source="house.toml")


@pytest.mark.parametrize("name", ["swiss", "swiss+house", "my_rules-2.1", "A"])
def test_safe_rule_set_names_are_kept(name):
    assert rules_from_dict({"base": "swiss", "name": name}).name == name


def test_a_file_stem_makes_a_safe_default_name(tmp_path):
    path = tmp_path / "my rules (v2)!.toml"
    path.write_text('base = "flemish"\n', encoding="utf-8")
    rules = load_rules(path)
    assert is_safe_name(rules.name) and rules.name == "flemish+my-rules-v2"


def test_serve_verbose_logs_its_own_requests_not_numbas_compiler():
    """Issue 36: `serve -v` set the root logger to DEBUG, and Numba wrote its compiler log (63 MB in 3 minutes).
    In a fresh process: after the server's logging is set up with -v, the rumbaodds loggers say DEBUG and Numba's
    do not; the control is the server's own logger, which does."""
    code = ("import logging; from rumbaodds.cli.serve_cmd import configure_logging; configure_logging(True); "
            "import numba; from numba.core import compiler; "
            "print(logging.getLogger('rumbaodds.web').isEnabledFor(logging.DEBUG), "
            "logging.getLogger(compiler.__name__).isEnabledFor(logging.DEBUG), logging.getLogger().level)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    ours, numbas, root = proc.stdout.split()
    assert ours == "True" and numbas == "False" and int(root) == logging.WARNING
