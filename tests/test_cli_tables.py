"""`rumbaodds tables build|query` and `rumbaodds ask --tables` on the command line (click's CliRunner).

The table is the tiny rule set (a house-rule TOML file: 3 suits of 4 ranks,
2-card hands, no knock), built once on a small budget. ``analysis.ask`` is
wrapped by a spy that records every simulation (and keeps the default
200,000-deal run short), so "answered from the table" means "no simulation
ran", not only "the output says so".
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rumbaodds import analysis
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
    """Record every simulation ``ask`` runs; cap the default run at 2,000 deals to keep the tests short."""
    calls = []
    real = analysis.ask

    def ask(*args, **kwargs):
        calls.append(kwargs)
        if kwargs.get("samples") is None and kwargs.get("precision") is None:
            kwargs["samples"] = 2_000
        return real(*args, **kwargs)

    monkeypatch.setattr(analysis, "ask", ask)
    return calls


def test_build_writes_the_table(built):
    rules, out, result = built
    assert result.stdout.strip() == f"table written: {out / 'table.parquet'}"
    assert result.stderr == ""
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
    assert "source" not in d and d["samples"] == 2_000 and len(spy) == 1


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
    ("players-low", ["--players", 1], ["1 players"]),
    ("samples-0", ["--players", 3, "--samples-per-cell", 0], ["--samples-per-cell"]),
    ("chunk-cells-0", ["--players", 3, "--chunk-cells", 0], ["--chunk-cells"]),
    ("cells-0", ["--players", 3, "--cells", 0], ["--cells"]),
    ("opponents", ["--players", 3, "--opponents", "nosuch"], ["nosuch"]),
    ("seed", ["--players", 3, "--seed", -1], ["--seed"]),
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
