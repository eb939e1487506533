"""`rumbaodds tables build|query` and `rumbaodds ask --tables` on the command line (click's CliRunner).

The table is the tiny rule set (a house-rule TOML file: 3 suits of 4 ranks,
2-card hands, no knock), built once on a small budget. ``simulation.ask`` is
wrapped by a spy that records every simulation (and keeps the default
200,000-deal run short), so "answered from the table" means "no simulation
ran", not only "the output says so".
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from rumbaodds.answer import simulation
from rumbaodds.cli import main, tables_cmd
from rumbaodds.tables import load_table

TINY_TOML = """base = "swiss"
name = "tiny"
suits = "CDH"
ranks = "TJQK"
hand_size = 2
min_players = 2
max_players = 3
exchange_limit = 1
rumba_min_tricks = 2
throw_in_below = "J"
knock = false
"""
HAND, TRUMP = "CJ HK", "HJ"


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli-tables")
    rules = root / "tiny.toml"
    rules.write_text(TINY_TOML)
    out = root / "tables" / "tiny3"
    result = run(["tables", "build", "--rules", rules, "--players", 3, "--samples-per-cell", 300, "--seed", 4,
                  "--chunk-cells", 100, "--out", out])
    assert result.exit_code == 0, result.output
    return rules, out, result


@pytest.fixture
def spy(monkeypatch):
    """Record every question ``ask`` simulates; cap the default run at 2,000 deals to keep the tests short."""
    calls = []
    real = simulation.simulate

    def simulate(question, progress=None):
        calls.append(question)
        if question.samples is None and question.precision is None:
            question = dataclasses.replace(question, samples=2_000)
        return real(question, progress)

    monkeypatch.setattr(simulation, "simulate", simulate)
    return calls


def test_build_writes_the_table(built):
    rules, out, result = built
    lines = result.stdout.strip().splitlines()
    assert lines[0] == f"table written: {out / 'table.parquet'}"
    assert lines[1].startswith("372 cells, deals per cell mean 300, median 300, 99th percentile 300; seed 4;")
    # nothing but, on a cold cache, the line that the table builder compiles (engine/compiled.py)
    assert [line for line in result.stderr.splitlines() if not line.startswith("rumbaodds: compiling ")] == []
    table = load_table(out)
    assert len(table.frame) == 3 * 124 and (table.frame["samples"] == 300).all()
    assert table.manifest["rules"]["name"] == "tiny" and table.manifest["seed"] == 4
    assert len(list((out / "chunks").glob("chunk-*.parquet"))) == 4
    again = run(["tables", "build", "--rules", rules, "--players", 3, "--samples-per-cell", 300, "--seed", 4,
                 "--chunk-cells", 100, "--out", out])  # finished: the same command only reports it
    assert again.exit_code == 0 and "table written" in again.stdout


def test_query_answers_from_the_table(built, spy):
    rules, out, _ = built
    result = run(["tables", "query", HAND, "--trump", TRUMP, "--players", 3, "--seat", 2, "--rules", rules,
                  "--tables", out.parent])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"From the table {out / 'table.parquet'} (no simulation run):")
    assert "300 deals" in result.stdout and "Recommendation:" in result.stdout
    assert spy == []


def test_query_json_names_its_source(built, spy):
    rules, out, _ = built
    result = run(["tables", "query", HAND, "--trump", TRUMP, "--players", 3, "--seat", 2, "--rules", rules,
                  "--tables", out, "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["source"]["source"] == "table" and d["source"]["table"] == str(out / "table.parquet")
    assert isinstance(d["source"]["cell"], int)
    assert d["samples"] == 300 and d["seed"] == 4 and d["players"] == 3 and d["seat"] == 2
    assert d["recommendation"] in d["actions"]
    row = load_table(out).frame.iloc[d["source"]["cell"]]
    assert d["actions"]["rumba"]["ev"] == pytest.approx(float(row["ev_rumba"]))
    assert spy == []


def test_query_without_a_covering_table_is_an_error(built):
    rules, out, _ = built
    result = run(["tables", "query", HAND, "--trump", TRUMP, "--players", 2, "--seat", 1, "--rules", rules,
                  "--tables", out])
    assert result.exit_code == 2
    assert result.stderr.startswith("rumbaodds: error: no table under") and len(result.stderr.splitlines()) == 1
    assert "tables build" in result.stderr


def test_ask_answers_from_the_table_when_it_covers_the_situation(built, spy):
    rules, out, _ = built
    result = run(["ask", HAND, "--trump", TRUMP, "--players", 3, "--seat", 2, "--rules", rules,
                  "--tables", out.parent])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("From the table") and "300 deals" in result.stdout
    assert spy == []
    as_json = run(["ask", HAND, "--trump", TRUMP, "--players", 3, "--seat", 2, "--rules", rules,
                   "--tables", out, "--json"])
    assert json.loads(as_json.stdout)["source"]["source"] == "table"
    assert spy == []


@pytest.mark.parametrize("extra", [
    pytest.param(["--players", 2, "--seat", 1], id="other-player-count"),
    pytest.param(["--players", 3, "--seat", 2, "--opponents", "bold"], id="other-opponents"),
    pytest.param(["--players", 3, "--seat", 2, "--play", "greedy"], id="other-play"),
    pytest.param(["--players", 3, "--seat", 2, "--before", "-,play"], id="words-before"),
    pytest.param(["--players", 3, "--seat", 2, "--simulate"], id="simulate-forced"),
    pytest.param(["--players", 3, "--seat", 2, "--seed", 8], id="seeded-run"),
])
def test_ask_simulates_when_the_table_does_not_answer(built, spy, extra):
    rules, out, _ = built
    result = run(["ask", HAND, "--trump", TRUMP, "--rules", rules, "--tables", out.parent, *extra])
    assert result.exit_code == 0, result.output
    assert "From the table" not in result.stdout
    assert "2,000 deals" in result.stdout or "seed 8" in result.stdout
    assert len(spy) == 1


def test_ask_simulate_json_has_no_table_source(built, spy):
    rules, out, _ = built
    result = run(["ask", HAND, "--trump", TRUMP, "--players", 3, "--seat", 2, "--rules", rules,
                  "--tables", out, "--simulate", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["source"]["kind"] == "simulation" and d["samples"] == 2_000 and len(spy) == 1


def test_other_settings_into_the_same_folder_are_refused(built):
    rules, out, _ = built
    result = run(["tables", "build", "--rules", rules, "--players", 3, "--samples-per-cell", 300, "--seed", 5,
                  "--chunk-cells", 100, "--out", out])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rumbaodds: error: ") and "(seed differs)" in lines[0]
    assert result.stdout == ""


def test_interrupt_says_how_to_resume(built, monkeypatch):
    rules, out, _ = built

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(tables_cmd, "build_table", interrupted)
    result = run(["tables", "build", "--rules", rules, "--players", 3, "--out", out.parent / "new"])
    assert result.exit_code == 130
    assert result.stderr.strip() == (f"rumbaodds: interrupted; finished chunks are kept in {out.parent / 'new'}: "
                                     f"run the same command to resume")


def test_interrupt_inside_the_kernel_says_how_to_resume(built, monkeypatch):
    rules, out, _ = built

    def interrupted(*args, **kwargs):  # what a SIGINT during a Numba call raises (numba 0.6x)
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("CPUDispatcher(<function table_cells>) returned a result with an exception set") \
                from exc

    monkeypatch.setattr(tables_cmd, "build_table", interrupted)
    result = run(["tables", "build", "--rules", rules, "--players", 3, "--out", out.parent / "new"])
    assert result.exit_code == 130
    assert "run the same command to resume" in result.stderr


BAD = [
    ("unknown-rules", ["--rules", "nosuch", "--players", 3], ["nosuch"]),
    ("players-high", ["--players", 4], ["4 players", "2..3"]),
    ("players-low", ["--players", 1], ["--players", "got 1"]),
    ("samples-0", ["--players", 3, "--samples-per-cell", 0], ["--samples-per-cell"]),
    ("chunk-cells-0", ["--players", 3, "--chunk-cells", 0], ["--chunk-cells"]),
    ("cells-0", ["--players", 3, "--cells", 0], ["--cells"]),
    ("opponents", ["--players", 3, "--opponents", "nosuch"], ["nosuch"]),
    ("seed", ["--players", 3, "--seed", -1], ["--seed"]),
    ("precision-0", ["--players", 3, "--precision", 0], ["--precision"]),
    ("both", ["--players", 3, "--precision", 0.5, "--samples-per-cell", 100], ["--samples-per-cell", "--precision"]),
    ("min-samples", ["--players", 3, "--min-samples", 1], ["--min-samples"]),
    ("max-below-min", ["--players", 3, "--min-samples", 200, "--max-samples", 100], ["--max-samples", "200"]),
    ("scheduler", ["--players", 3, "--scheduler", "nosuch"], ["--scheduler", "nosuch"]),
    ("workers-0", ["--players", 3, "--scheduler", "dask", "--workers", 0], ["--workers"]),
    ("neighbours-cells", ["--players", 3, "--neighbours", "--cells", 5], ["--neighbours", "--cells"]),
]


@pytest.mark.parametrize("args, words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_build_input_is_one_line_and_exit_2(built, tmp_path, args, words):
    rules, _, _ = built
    out = tmp_path / "never"
    full = ["tables", "build", "--out", out, *([] if "--rules" in args else ["--rules", rules]), *args]
    result = run(full)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("rumbaodds: error: ")
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert result.stdout == "" and "Traceback" not in result.output
    assert not out.exists()  # nothing written for a refused build


# ---------------------------------------------------------------------------
# adaptive precision (the default), derived seeds, plan, pack
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def adaptive(built):
    rules, out, _ = built
    folder = out.parent / "adaptive3"
    result = run(["tables", "build", "--rules", rules, "--players", 3, "--chunk-cells", 200, "--out", folder])
    assert result.exit_code == 0, result.output
    return rules, folder, result


def test_adaptive_is_the_default_and_records_deals_per_cell(adaptive):
    from rumbaodds.rules import get_rules
    from rumbaodds.tables import DEFAULT_PRECISION, default_seed
    from rumbaodds.tables.spec import DEFAULT_MAX_SAMPLES, DEFAULT_MIN_SAMPLES

    rules, folder, result = adaptive
    table = load_table(folder)
    m = table.manifest
    lo, hi = DEFAULT_MIN_SAMPLES, DEFAULT_MAX_SAMPLES
    assert m["samples_per_cell"] is None and m["precision"] == DEFAULT_PRECISION
    assert (m["min_samples"], m["max_samples"]) == (lo, hi) == (32, 4096) and m["stopping"]["looks"][0] == lo
    assert m["seed"] == default_seed(get_rules(str(rules)), 3) and m["default_seed"] is True
    assert f"seed {m['seed']};" in result.stdout and "deals per cell mean" in result.stdout
    samples = table.frame["samples"]
    assert samples.min() == lo and samples.max() > lo and set(samples) <= set(m["stopping"]["looks"])


def test_default_seeds_differ_by_player_count_and_rule_set(built):
    from rumbaodds.rules import SWISS, get_rules
    from rumbaodds.tables import default_seed

    rules, _, _ = built
    tiny = get_rules(str(rules))
    seeds = {default_seed(tiny, 2), default_seed(tiny, 3)} | {default_seed(SWISS, n) for n in range(3, 8)}
    assert len(seeds) == 7 and all(0 <= s < 2**63 for s in seeds)
    assert default_seed(SWISS.replace(sit_out_limit=0), 5) != default_seed(SWISS, 5)
    assert default_seed(SWISS, 5) == default_seed(get_rules("swiss"), 5)  # derived, so reproducible


def test_plan_prints_every_player_count(built):
    rules, _, _ = built
    result = run(["tables", "plan", "--rules", rules, "--sample-cells", 40, "--workers", 4])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "precision 1 points" in lines[0] and "4 single-core workers" in lines[0]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"2", "3", "all"}
    assert rows["2"][1] == "248" and rows["3"][1] == "372" and rows["all"][1] == "620"  # cells: players x 124
    as_json = json.loads(run(["tables", "plan", "--rules", rules, "--sample-cells", 40, "--json"]).stdout)
    for row in as_json["rows"]:
        assert 32 <= row["deals_median"] <= row["deals_p99"] <= 4096 and row["deals_mean"] >= 32
        assert row["hours_here"] > 0 and row["hours_on_workers"] > 0 and row["sampled"] == 40
    assert as_json["total"]["cells"] == 620


def test_plan_refuses_bad_input():
    for args, word in ((["--workers", 0], "--workers"), (["--sample-cells", 0], "--sample-cells"),
                       (["--players", 9], "9 players")):
        result = run(["tables", "plan", "--rules", "swiss", *args])
        assert result.exit_code == 2 and word in result.stderr and len(result.stderr.splitlines()) == 1


def test_pack_and_ask_answers_from_the_packed_table(adaptive, spy, tmp_path):
    rules, folder, _ = adaptive
    packed = tmp_path / "tiny3.packed.parquet"
    result = run(["tables", "pack", folder, "--out", packed])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"packed: {packed} (372 cells, ") and "bytes per cell" in result.stdout
    answer = run(["ask", HAND, "--trump", TRUMP, "--players", 3, "--seat", 2, "--rules", rules, "--tables",
                  tmp_path])
    assert answer.exit_code == 0, answer.output
    assert answer.stdout.startswith(f"From the packed table {packed} ")  # what it leaves open: simulated now
    assert "Recommendation:" in answer.stdout or "Too close to call" in answer.stdout
    assert spy == []
    d = json.loads(run(["tables", "query", HAND, "--trump", TRUMP, "--players", 3, "--seat", 2, "--rules", rules,
                        "--tables", tmp_path, "--json"]).stdout)  # the table's own numbers
    assert d["source"]["source"] == "packed table" and spy == []
    row = load_table(folder).frame.iloc[d["source"]["cell"]]
    assert d["recommendation"] == row["best"] and d["runner_up"] == row["runner_up"]
    half = (d["margin"]["ev_ci"][1] - d["margin"]["ev_ci"][0]) / 2  # format 2 rounds a value to a quarter of it
    assert d["margin"]["ev"] == pytest.approx(row["margin"], abs=max(0.025, half / 4) + 1e-9)
    assert d["samples"] == row["samples"]
    query = run(["tables", "query", HAND, "--trump", TRUMP, "--players", 3, "--seat", 2, "--rules", rules,
                 "--tables", tmp_path])
    assert query.exit_code == 0 and "From the packed table" in query.stdout


def test_pack_refuses_a_subset_table(built, tmp_path):
    rules, out, _ = built
    subset = tmp_path / "subset"
    assert run(["tables", "build", "--rules", rules, "--players", 2, "--cells", 10, "--samples-per-cell", 20,
                "--out", subset]).exit_code == 0
    result = run(["tables", "pack", subset, "--out", tmp_path / "x.packed.parquet"])
    assert result.exit_code == 2 and "only a full table can be packed" in result.stderr
    assert not (tmp_path / "x.packed.parquet").exists()


LOW_TOML = """base = "swiss"
name = "tinylow"
suits = "CD"
ranks = "789TJ"
hand_size = 2
min_players = 2
max_players = 2
exchange_limit = 1
rumba_min_tricks = 2
throw_in_below = "8"
knock = false
"""


def test_a_neighbour_group_table_is_built_packed_and_answers_every_hand(tmp_path):
    """--neighbours: one cell per group (a deck with low side ranks 7-9), the calibration written with it; a folder
    of it answers nothing until packed; packed, it answers a member hand from its group's cell and says so."""
    rules = tmp_path / "low.toml"
    rules.write_text(LOW_TOML)
    folder = tmp_path / "tables" / "groups"
    result = run(["tables", "build", "--rules", rules, "--players", 2, "--neighbours", "--samples-per-cell", 40,
                  "--out", folder])
    assert result.exit_code == 0, result.output
    assert "one cell per neighbour group" in result.stdout and (folder / "neighbours.parquet").exists()
    member = ["C7 C8", "--trump", "DJ", "--players", 2, "--seat", 0, "--rules", rules, "--tables", tmp_path / "tables"]
    alone = run(["tables", "query", *member])
    assert alone.exit_code == 2 and "no table" in alone.stderr  # the unpacked folder: not used
    packed = tmp_path / "tables" / "low2.packed.parquet"
    assert run(["tables", "pack", folder, "--out", packed]).exit_code == 0
    d = json.loads(run(["tables", "query", *member, "--json"]).stdout)
    assert d["source"]["source"] == "packed table" and d["source"]["group"]["own_cell"] is False
    assert d["source"]["cell_key"]["class_hand"] == "C7 C9"  # the group's middle hand: two of 7, 8, 9 spread
