"""`rumbaodds rummy open | odds | tables | report` as a new user meets them (CliRunner), bad inputs answered by
exit code 2 and one line on stderr, and one real run of the console script."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rumbaodds.cli import main

HAND = "HA H2 H3 D7 S7 JK C9 CT CJ S2 D4 H9 SK"
HARD = "HA H5 D7 S9 C2 C4 CT CJ S2 D4 H9 SK CK"


def run(*args):
    return CliRunner().invoke(main, ["rummy", *args])


@pytest.mark.parametrize("rules,value,melds,left", [
    ("romme", 56, [["C9", "CT", "CJ"], ["D7", "S7", "JK"], ["HA", "H2", "H3"]], 25),
    ("rummi", 45, [["C9", "CT", "CJ", "JK"], ["HA", "H2", "H3"]], 39),  # [D-15]: no joker in a group of 3
    ("romme40", 50, [["C9", "CT", "CJ"], ["D7", "S7", "JK"]], 41),  # aces high only: no A-2-3
])
def test_open_json_of_the_issue_hand(rules, value, melds, left):
    result = run("open", HAND, "--rules", rules, "--json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["opening_value"] == value and isinstance(d["opening_value"], int)
    assert d["can_open"] is True
    assert d["melds"] == melds
    assert sum(d["meld_values"]) == value
    assert d["penalty_left"] == left == d["left_penalty"] and isinstance(d["penalty_left"], int)
    assert d["lay_limit"] == 12


def test_open_table_for_people():
    result = run("open", HAND, "--rules", "rummi")
    assert result.exit_code == 0, result.output
    for text in ("Opening value 45", "can open", "needs 40", "JK(=CQ)", "39 penalty points", "at most 12"):
        assert text in result.stdout, text


def test_open_takes_14_cards_after_the_draw():
    d = json.loads(run("open", HAND + " C5", "--json").stdout)
    assert d["cards"] == 14 and d["lay_limit"] == 13 and d["opening_value"] == 56


def test_open_says_when_the_penalty_objective_lays_other_melds():
    # S4 SA JK S3 + cards that meld with nothing: the most points lay S3 S4 JK (12); the fewest penalty
    # points lay SA JK S3 S4 (the ace costs 15 in hand)
    hand = "S4 SA JK S3 H2 D5 C6 H7 D8 C9 HT DJ CQ"
    result = run("open", hand)
    assert result.exit_code == 0, result.output
    d = json.loads(run("open", hand, "--json").stdout)
    assert d["opening_value"] == 12 and d["penalty_melds"] == [["SA", "JK", "S3", "S4"]]
    assert d["penalty_left"] < d["left_penalty"]
    assert "Fewest penalty points any melds leave" in result.stdout


@pytest.mark.parametrize("args,message", [
    (["open", "HA HA HA H2 H3 D7 S7 C9 CT CJ S2 D4 H9"], "card HA appears 3 times"),
    (["open", "HA H2 H3 D7 S7 JK C9 CT CJ S2 D4 H9 XX"], "unknown card 'XX'"),
    (["open", "JK JK JK JK H2 H3 D7 S7 C9 CT CJ S2 D4", "--rules", "rummi"], "4 jokers; the rummi deck has 3"),
    (["open", "HA H2 H3"], "the hand has 3 cards; romme needs 13 or 14"),
    (["open", HAND, "--rules", "gin"], "unknown rummy rule set"),
    (["odds", "HA H2 H3"], "the hand has 3 cards; romme needs 13"),
    (["odds", HAND + " SQ"], "needs 13"),
    (["odds", HARD, "--players", "6"], "6 players"),
    (["odds", HARD, "--discard", "QQ"], "unknown card 'QQ'"),
    (["odds", HARD, "--turns", "0"], "--turns"),
    (["odds", HARD, "--seed", "-1"], "--seed"),
])
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rumbaodds: error: ") and message in lines[0], result.stderr


def test_odds_json_reproducible_with_seed():
    args = ["odds", HARD, "--rules", "romme40", "--samples", "4000", "--seed", "5", "--turns", "6", "--json"]
    a, b = run(*args), run(*args)
    assert a.exit_code == 0, a.output
    d = json.loads(a.stdout)
    assert d == json.loads(b.stdout)
    assert d["samples"] == 4000 and d["seed"] == 5 and d["opening_value_now"] == 0 and not d["can_open_now"]
    ps = [t["p"] for t in d["by_turn"]]
    assert len(ps) == 6 and ps == sorted(ps) and 0 < ps[0] < ps[-1] < 1
    for t in d["by_turn"]:
        assert t["ci"][0] <= t["p"] <= t["ci"][1] and t["samples"] == 4000


def test_odds_table_and_the_open_discard():
    result = run("odds", HARD, "--rules", "romme40", "--samples", "2000", "--discard", "CQ", "--turns", "3")
    assert result.exit_code == 0, result.output
    for text in ("cannot open yet", "after draw", "95% interval", "seed", "Taking the open card CQ",
                 "opens (exact"):
        assert text in result.stdout, text
    d = json.loads(run("odds", HARD, "--rules", "romme40", "--samples", "500", "--discard", "S3", "--json").stdout)
    assert d["take_discard"] == {"card": "S3", "opening_value": 0, "can_open": False, "p": 0.0, "exact": True}


def test_odds_of_a_hand_that_opens_already():
    result = run("odds", HAND, "--rules", "romme40")
    assert result.exit_code == 0, result.output
    assert "you can already open" in result.stdout and "exact" in result.stdout


def test_tables_json():
    result = run("tables", "--rules", "rummi", "--samples", "600", "--turns", "4", "--json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["samples"] == 600 and len(d["all"][0]["p"]) == 5
    assert {g["group"] for g in d["by_jokers"]} <= {"0 jokers", "1 joker", "2 jokers", "3+ jokers"}
    text = run("tables", "--rules", "rummi", "--samples", "600", "--turns", "4").stdout
    assert "by jokers held" in text and "A joker more" in text


def test_report_page(tmp_path):
    (tmp_path / "swiss").mkdir()
    (tmp_path / "swiss" / "index.html").write_text("<html></html>")
    result = run("report", "--out", str(tmp_path), "--samples", "400", "--quiet")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "rummy" / "index.html").read_text()
    assert page.count("data:image/png;base64,") == 3 and len(page) < 1_000_000
    for text in ("romme40", "joker", "95%", "rumbaodds rummy report", "[D-16]"):
        assert text in page, text
    index = (tmp_path / "index.html").read_text()
    assert "rummy/index.html" in index and "swiss/index.html" in index


def test_console_script_error_has_no_traceback():
    beside = Path(sys.executable).parent / "rumbaodds"  # this interpreter's own script first
    exe = str(beside) if beside.exists() else shutil.which("rumbaodds")
    if exe is None:
        pytest.skip("console script rumbaodds not installed")
    proc = subprocess.run([exe, "rummy", "open", "HA HA HA"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("rumbaodds: error: card HA appears 3 times; the romme deck (2 x 52) has each "
                                   "card twice")
