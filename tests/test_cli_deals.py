"""`rumbaodds deals generate | play | solve` (RULES.md §7) through click's CliRunner and, once, a real process."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rumbaodds.cardplay import DEFAULT_PLAY
from rumbaodds.cli import main
from rumbaodds.deals.files import BATCH, parse_deal
from rumbaodds.twins import common as twin


def run(*args, input=None):
    return CliRunner().invoke(main, ["deals", *args], input=input)


def good(**fields):
    base = {"rules": "swiss", "trump": "H", "leader": 0, "hands": [["HA", "S6"], ["H6", "SA"]]}
    base.update(fields)
    return json.dumps(base, ensure_ascii=False)


def stderr_lines(result):
    return [s for s in result.stderr.splitlines() if s]


def tricks_of(result):
    return [json.loads(s)["tricks"] for s in result.stdout.splitlines()]


def greedy(deal):
    return twin.play_greedy([set(h) for h in deal.hands], deal.leader, deal.trump, deal.rules.follow_code)


@pytest.fixture
def write(tmp_path):
    def write(text, name="deals.jsonl"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


# -- generate -----------------------------------------------------------------------------------
def test_generate_format_and_seed_reproducible():
    a = run("generate", "--players", "4", "--count", "25", "--seed", "42")
    b = run("generate", "--players", "4", "--count", "25", "--seed", "42")
    c = run("generate", "--players", "4", "--count", "25", "--seed", "43")
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout != c.stdout
    lines = a.stdout.splitlines()
    assert len(lines) == 25
    for text in lines:
        obj = json.loads(text)
        assert list(obj) == ["rules", "trump", "trump_card", "leader", "hands"]
        assert obj["rules"] == "swiss" and obj["trump_card"][0] == obj["trump"]
        assert len(obj["hands"]) == 4 and {len(h) for h in obj["hands"]} == {5}
        assert 0 <= obj["leader"] < 4
        parse_deal(obj)  # a valid deal


def test_generate_without_seed_prints_a_seed_that_repeats_the_file():
    first = run("generate", "--players", "3", "--count", "5", "--rules", "flemish", "--cards", "3")
    assert first.exit_code == 0
    (note,) = stderr_lines(first)
    seed = note.split("--seed ")[1].rstrip(")")
    again = run("generate", "--players", "3", "--count", "5", "--rules", "flemish", "--cards", "3", "--seed", seed)
    assert again.stdout == first.stdout
    assert all(len(h) == 3 for s in first.stdout.splitlines() for h in json.loads(s)["hands"])


@pytest.mark.parametrize(
    "args, words",
    [
        (["--players", "8"], "players"),
        (["--players", "1"], "players"),
        (["--players", "3", "--cards", "6"], "hand size"),
        (["--players", "3", "--rules", "jass"], "unknown rule set"),
    ],
)
def test_generate_bad_arguments(args, words):
    result = run("generate", "--count", "3", *args)
    assert result.exit_code == 2
    (message,) = stderr_lines(result)
    assert message.startswith("rumbaodds: error: ") and words in message
    assert result.stdout == ""


# -- play -----------------------------------------------------------------------------------------
def test_generate_play_round_trip_through_stdin_equals_the_greedy_twin():
    deals_text = run("generate", "--players", "5", "--count", "60", "--seed", "3").stdout
    result = run("play", "-", "--policy", "greedy", input=deals_text)
    assert result.exit_code == 0, result.output
    deals = [parse_deal(s) for s in deals_text.splitlines()]
    assert tricks_of(result) == [greedy(d) for d in deals]


def test_play_without_a_policy_plays_the_default_card_play_of_ask():
    deals_text = run("generate", "--players", "4", "--count", "30", "--seed", "5").stdout
    default = run("play", "-", input=deals_text)
    named = run("play", "-", "--policy", DEFAULT_PLAY, input=deals_text)
    assert default.exit_code == 0 and tricks_of(default) == tricks_of(named)


def test_play_flemish_across_batches(write):
    text = run("generate", "--rules", "flemish", "--players", "3", "--count", str(BATCH + 10), "--seed", "8").stdout
    result = run("play", write(text), "--policy", "greedy")
    assert result.exit_code == 0
    tricks = tricks_of(result)
    assert len(tricks) == BATCH + 10
    deals = [parse_deal(s) for s in text.splitlines()]
    for i in list(range(0, len(deals), 97)) + [len(deals) - 1]:
        assert tricks[i] == greedy(deals[i])


def test_play_unicode_ten_blank_lines_and_default_rules(write):
    text = "\n".join([
        '{"trump": "♥", "leader": 1, "hands": [["♥A", "s10"], ["H10", "♠a"]], "note": "extra"}',
        "",
        "   ",
        '{"trump": "d", "leader": 0, "hands": [["D2", "CA"], ["DA", "C3"]]}',
        "",
    ])
    path = write(text)
    flemish = run("play", path, "--rules", "flemish", "--policy", "greedy")
    assert flemish.exit_code == 0, flemish.output
    # Greedy by hand. Deal 1 (trump H): seat 1 leads its strongest card, the trump HT; seat 0 must win with
    # HA, then leads ST, which SA takes. Deal 2 (trump D): seat 0 leads the trump D2, seat 1 must win with
    # DA, then leads C3, which CA takes.
    assert tricks_of(flemish) == [[1, 1], [1, 1]]
    swiss = run("play", path)  # D2 and C3 are not in the swiss deck
    assert swiss.exit_code == 2
    assert stderr_lines(swiss) == [
        "rumbaodds: error: line 4: card 'D2': not in the swiss deck (suits C D H S, ranks 6..A)"
    ]
    assert tricks_of(swiss) == [[1, 1]]


def test_play_house_rules_toml(write, tmp_path):
    house = tmp_path / "hs.toml"
    house.write_text('base = "flemish"\nname = "hs"\nsuits = "HS"\nmax_players = 4\n', encoding="utf-8")
    path = write(good(rules="hs") + "\n" + good(rules="hs", trump="C") + "\n")
    result = run("play", path, "--rules", str(house), "--skip-invalid")
    assert result.exit_code == 1
    assert tricks_of(result) == [[1, 1]]
    assert stderr_lines(result) == [
        "rumbaodds: skipped line 2: trump 'C': suit C is not in the hs deck (suits H S, ranks 2..A)"
    ]


BAD_LINES = [
    # (bad line, token named in the message or None, words of the reason)
    (good(hands=[["HX", "S6"], ["H6", "SA"]]), "'HX'", "unknown card"),
    (good(hands=[["H2", "S6"], ["H6", "SA"]]), "'H2'", "not in the swiss deck"),
    (good(hands=[["HA", "S6"], ["H6", "ha"]]), "'ha'", "duplicate card"),
    (good(hands=[["HA", "S6"], ["H6"]]), None, "hands of different sizes"),
    (good(hands=[["HA", "HK", "HQ", "HJ", "HT", "H9"], ["S6", "S7", "S8", "S9", "ST", "SJ"]]), None, "wrong hand size"),
    (good(hands=[["HA"]]), None, "too few hands"),
    (good(hands=[[c] for c in ["HA", "HK", "HQ", "HJ", "HT", "H9", "H8", "H7"]]), None, "too many hands"),
    (good(leader=2), "'2'", "leader out of range"),
    (good(rules="jass"), "'jass'", "unknown rule set"),
    (good(trump="Q"), "'Q'", "unknown suit"),
    ('{"trump": "H", "leader": 0, "hands": [["HA"], ["H6"]', None, "bad JSON"),
    ('{"trump": "H", "hands": [["HA"], ["H6"]]}', "'leader'", "missing field"),
]


@pytest.mark.parametrize("bad, token, reason", BAD_LINES)
def test_bad_line_stops_with_exit_2_after_the_lines_before(write, bad, token, reason):
    path = write("\n".join([good(), "", bad, good(leader=1)]) + "\n")
    result = run("play", path)
    assert result.exit_code == 2
    (message,) = stderr_lines(result)
    assert message.startswith("rumbaodds: error: line 3: ")
    assert reason in message
    if token is not None:
        assert token in message
    assert "Traceback" not in result.output
    assert tricks_of(result) == [[1, 1]]  # line 1 was printed, line 4 never read


@pytest.mark.parametrize("bad, token, reason", BAD_LINES)
def test_skip_invalid_reports_each_bad_line_and_exits_1(write, bad, token, reason):
    path = write("\n".join([good(), bad, good(leader=1), bad, good()]) + "\n")
    result = run("play", path, "--skip-invalid")
    assert result.exit_code == 1
    messages = stderr_lines(result)
    assert [m.split(":")[1] for m in messages] == [" skipped line 2", " skipped line 4"]
    assert all(reason in m for m in messages)
    assert len(tricks_of(result)) == 3


def test_skip_invalid_with_nothing_to_skip_exits_0(write):
    result = run("play", write(good() + "\n"), "--skip-invalid")
    assert result.exit_code == 0 and result.stderr == ""


def test_bad_line_after_a_full_batch_keeps_everything_before_it(write):
    text = run("generate", "--players", "2", "--count", str(BATCH + 5), "--seed", "1").stdout
    lines = text.splitlines()
    lines.insert(BATCH + 2, good(hands=[["HA", "S6"], ["H6", "♠Z"]]))
    result = run("play", write("\n".join(lines)))
    assert result.exit_code == 2
    assert stderr_lines(result) == [f"rumbaodds: error: line {BATCH + 3}: card '♠Z': unknown card "
                                    "(write suit then rank, e.g. HA, S10, dT)"]
    assert len(tricks_of(result)) == BATCH + 2


def test_missing_file_and_bad_utf8(write, tmp_path):
    missing = run("play", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 2
    (message,) = stderr_lines(missing)
    assert message.startswith("rumbaodds: error: cannot read")
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(good().encode() + b"\n\xff\xfe\n")
    result = run("play", str(binary))
    assert result.exit_code == 2
    assert stderr_lines(result) == ["rumbaodds: error: line 2: not valid UTF-8 (invalid start byte at byte 0)"]


def test_unknown_rules_option(write):
    result = run("play", write(good()), "--rules", "jass")
    assert result.exit_code == 2
    (message,) = stderr_lines(result)
    assert "unknown rule set 'jass'" in message


# -- solve ------------------------------------------------------------------------------------------
# The deals and their hand-checked values are explained in tests/test_deals.py (HAND_CHECKED):
# A: swiss, trump S, SA CA CK vs S6 D6 D7, seat 0 leads: seat 0 makes 3 (trump first), seat 1 makes 0.
# B: swiss, trump C, C8 H6 | HT SK | CT SJ, seat 0 leads: seat 0 makes 1 (lead H6; seat 2 must trump).
# C: B under flemish: seat 0 makes 0 (seat 2 keeps its trump to over-trump C8).
# D: B with seat 2 leading: the leader (seat 2) makes 1.
SOLVE_FILE = "\n".join([
    '{"rules": "swiss", "trump": "S", "leader": 0, "hands": [["SA","CA","CK"], ["S6","D6","D7"]]}',
    '{"rules": "swiss", "trump": "C", "leader": 0, "hands": [["C8","H6"], ["HT","SK"], ["CT","SJ"]]}',
    "",
    '{"rules": "flemish", "trump": "♣", "leader": 0, "hands": [["c8","h6"], ["h10","sk"], ["ct","sj"]]}',
    '{"rules": "swiss", "trump": "C", "leader": 2, "hands": [["C8","H6"], ["HT","SK"], ["CT","SJ"]]}',
]) + "\n"


def dd_values(result):
    return [json.loads(s)["dd_tricks"] for s in result.stdout.splitlines()]


@pytest.fixture(scope="module")
def solver():
    return pytest.importorskip("rumbaodds.engine.dd")


def test_solve_hand_checked(solver, write):
    path = write(SOLVE_FILE)
    seat0 = run("solve", path, "--seat", "0")
    assert seat0.exit_code == 0, seat0.output
    # D for seat 0 is 0: seat 2 leads CT (C8 must follow), then SJ, and SK beats H6.
    assert dd_values(seat0) == [3, 1, 0, 0]
    leader = run("solve", "-", "--seat", "leader", input=SOLVE_FILE)
    assert leader.exit_code == 0, leader.output
    assert dd_values(leader) == [3, 1, 0, 1]  # leaders 0, 0, 0, 2
    seat1 = run("solve", path, "--seat", "1")
    assert dd_values(seat1)[0] == 0


def test_solve_seat_out_of_range(solver, write):
    path = write(SOLVE_FILE)
    result = run("solve", path, "--seat", "2")
    assert result.exit_code == 2
    assert stderr_lines(result) == ["rumbaodds: error: line 1: seat '2': seat out of range (0..1 for 2 hands)"]
    assert result.stdout == ""
    skipping = run("solve", path, "--seat", "2", "--skip-invalid")
    assert skipping.exit_code == 1
    # Seat 2 makes 1 in B, C and D: a C8 lead must be won by its CT (follow suit, winning), an H6 lead lets it
    # trump (or, in C, keep CT to over-trump C8 later), and in D it leads and makes 1 as explained above.
    assert dd_values(skipping) == [1, 1, 1]
    assert stderr_lines(skipping) == [
        "rumbaodds: skipped line 1: seat '2': seat out of range (0..1 for 2 hands)"
    ]


@pytest.mark.parametrize("seat", ["first", "-1", ""])
def test_solve_bad_seat_option(solver, write, seat):
    result = run("solve", write(SOLVE_FILE), "--seat", seat)
    assert result.exit_code == 2
    (message,) = stderr_lines(result)
    assert message.startswith("rumbaodds: error: --seat")


def test_solve_batched_generated_deals_match_single_solves(solver):
    text = run("generate", "--players", "3", "--count", "30", "--cards", "3", "--seed", "5").stdout
    result = run("solve", "-", "--seat", "leader", input=text)
    assert result.exit_code == 0
    for line, value in zip(text.splitlines(), dd_values(result), strict=False):
        deal = parse_deal(line)
        assert value == solver.dd_tricks(deal.masks(), deal.leader, deal.trump, deal.rules.follow_code, deal.leader)


# -- a real process: one line on stderr, no traceback -----------------------------------------------
def test_console_script_reports_a_bad_line_without_traceback():
    exe = shutil.which("rumbaodds", path=str(Path(sys.executable).parent)) or shutil.which("rumbaodds")
    assert exe is not None, "the rumbaodds console script is not installed (pip install -e .)"
    deals = subprocess.run([exe, "deals", "generate", "--players", "3", "--count", "3", "--seed", "1"],
                           capture_output=True, text=True, timeout=300, check=True).stdout
    bad = '{"rules": "swiss", "trump": "H", "leader": 0, "hands": [["HA", "HX"], ["H6", "SA"]]}\n'
    done = subprocess.run([exe, "deals", "play", "-", "--policy", "greedy"], input=deals + bad, capture_output=True,
                          text=True, timeout=300, encoding="utf-8")
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["rumbaodds: error: line 4: card 'HX': unknown card "
                                        "(write suit then rank, e.g. HA, S10, dT)"]
    assert "Traceback" not in done.stderr
    assert [json.loads(s)["tricks"] for s in done.stdout.splitlines()] == [
        greedy(parse_deal(s)) for s in deals.splitlines()
    ]
