"""The score on the web (issue 21 item 3): ``scores=`` gives the game block of ``rumbaodds ask --scores --json``.

The API serves the very document the command line prints (one function,
match.ask.game_document); bad scores get HTTP 400 with the command line's own
one-line message, never 500. In a real browser at 400 px the folded score
line is filled in as a player would and the game block read back off the
page equals :func:`rumbaodds.match.ask.ask_game` with the same seed (skipped
where no Chromium is installed, like tests/test_serve_browser.py).
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlencode

import pytest
from browser import browser_context, running_server, skip_reason
from browser.phone import fill as fill_phone
from click.testing import CliRunner

from rumbaodds.cli import main
from rumbaodds.match.ask import ask_game
from rumbaodds.web.app import App

HAND = "HA HK S6 C7 D9"
QUESTION = {"hand": HAND, "trump": "H8", "players": 5, "seat": 2}
CLI = ["ask", HAND, "--trump", "H8", "--players", "5", "--seat", "2"]
END_GAME = "15,17,4,19,12"  # seat 2 at 4 points: the end-game state


def query(**params) -> dict[str, list[str]]:
    return parse_qs(urlencode(params), keep_blank_values=True)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return App(tmp_path_factory.mktemp("no-tables"))


def test_scores_give_the_cli_game_block_byte_for_byte(app):
    response = app.handle("GET", "/api/ask", query(**QUESTION, scores=END_GAME, passes="0,1,0,0,2", samples=600,
                                                   seed=4))
    assert response.status == 200, response.body
    printed = CliRunner().invoke(main, [*CLI, "--scores", END_GAME, "--passes", "0,1,0,0,2", "--samples", "600",
                                        "--seed", "4", "--json"])
    assert printed.exit_code == 0, printed.output
    assert response.body.decode() == printed.stdout
    game = json.loads(response.body)["game"]
    assert game["scores"] == [15, 17, 4, 19, 12] and game["passes"] == [0, 1, 0, 0, 2] and game["samples"] == 600
    assert set(game["actions"]) >= {"pass", "play", "rumba"} and "positive = received" in game["sign"]


def test_without_scores_there_is_no_game_block(app):
    doc = json.loads(app.handle("GET", "/api/ask", query(**QUESTION, samples=500, seed=4)).body)
    assert "game" not in doc


def test_the_own_streak_fills_the_passes_of_the_game(app):
    doc = json.loads(app.handle("GET", "/api/ask", query(**QUESTION, scores=END_GAME, passes_in_a_row=2,
                                                         samples=300, seed=4)).body)
    assert doc["game"]["passes"] == [0, 0, 2, 0, 0] and doc["passes_in_a_row"] == 2


BAD = [
    ("wrong-count", {"scores": "20,20,20"}, ["--scores", "20,20,20"], "--scores: 3 scores for 5 players"),
    ("not-a-number", {"scores": "20,x,20,20,20"}, ["--scores", "20,x,20,20,20"], "'x' is not a whole number"),
    ("empty-entry", {"scores": "20,,20,20,20"}, ["--scores", "20,,20,20,20"], "'' is not a whole number"),
    ("out-of-range", {"scores": "20,5000,20,20,20"}, ["--scores", "20,5000,20,20,20"], "--scores must be 1..999"),
    ("game-over", {"scores": "20,20,0,20,20"}, ["--scores", "20,20,0,20,20"], "at 0 or below it is over"),
    ("too-many", {"scores": ",".join(["20"] * 60)}, ["--scores", ",".join(["20"] * 60)], "60 numbers"),
    ("passes-count", {"scores": "20,20,20,20,20", "passes": "0,1"}, ["--scores", "20,20,20,20,20", "--passes", "0,1"],
     "--passes: 2 streaks for 5 players"),
    ("passes-negative", {"scores": "20,20,20,20,20", "passes": "0,-1,0,0,0"},
     ["--scores", "20,20,20,20,20", "--passes", "0,-1,0,0,0"], "--passes must be 0..99"),
    ("passes-alone", {"passes": "0,0,0,0,0"}, ["--passes", "0,0,0,0,0"], "--passes goes with --scores"),
    ("streaks-disagree", {"scores": "20,20,20,20,20", "passes": "0,0,1,0,0", "passes_in_a_row": 2},
     ["--scores", "20,20,20,20,20", "--passes", "0,0,1,0,0", "--passes-in-a-row", "2"], "disagree"),
    ("samples-cap", {"scores": "20,20,20,20,20", "samples": 3_000_000},
     ["--scores", "20,20,20,20,20", "--samples", "3000000"], "--samples with --scores must be 1..2,000,000"),
]


@pytest.mark.parametrize("change, cli_change, words", [pytest.param(q, c, w, id=n) for n, q, c, w in BAD])
def test_bad_scores_are_a_400_with_the_cli_message(app, change, cli_change, words):
    for route, method in (("/api/ask", "GET"), ("/api/jobs", "POST")):  # refused before any job starts
        response = app.handle(method, route, query(**QUESTION, **change))
        assert response.status == 400, response.body
        error = json.loads(response.body)["error"]
        assert words in error and "\n" not in error
    printed = CliRunner().invoke(main, [*CLI, *cli_change])
    assert printed.exit_code == 2
    assert printed.stderr == f"rumbaodds: error: {error}\n"


# -- the page, in a real browser at 400 px ------------------------------------------------------------------------
browser_only = pytest.mark.skipif(skip_reason() is not None, reason=str(skip_reason()))


@pytest.fixture(scope="module")
def phone(app):
    with running_server(app) as url, browser_context(400, 900) as context:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        yield page
        assert errors == [], errors


def fill(page, scores, samples=None, seed=None, hand=("HA", "HK", "S6", "C7", "D9"), trump="H8", players=5, seat=2):
    fill_phone(page, hand, trump, players, seat, samples=samples, seed=seed)  # the page's own phone flow
    if not page.eval_on_selector("#score-details", "d => d.open"):
        page.click("#score-details summary")
    page.fill("#scores", scores)


@browser_only
def test_the_score_line_is_folded_and_the_game_block_shows_ask_game(phone):
    page = phone
    assert not page.eval_on_selector("#score-details", "d => d.open")  # the phone flow is unchanged
    assert page.is_hidden("#scores")
    fill(page, END_GAME, samples=1500, seed=9)
    assert "5 numbers" in page.inner_text("#scores-hint")
    page.evaluate("document.getElementById('result').hidden = true")
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])", timeout=180_000)
    assert page.is_visible("#game-block")
    rows = page.eval_on_selector_all("#game-chart .bar-row", """rows => rows.map(r => ({
        action: r.dataset.action, pay: Number(r.dataset.ev), low: Number(r.dataset.low), high: Number(r.dataset.high),
        win: Number(r.dataset.pWin), text: r.querySelector('.ev').textContent, label: r.innerText,
        best: r.classList.contains('best')}))""")
    expected = ask_game(HAND, "H8", 5, 2, [15, 17, 4, 19, 12], samples=1500, seed=9)
    shown = {r["action"]: r for r in rows}
    assert set(shown) == {str(a) for a in expected.game_actions()}
    for action, name in expected.game_actions().items():
        pay, row = expected.payout(name), shown[str(action)]
        assert (row["pay"], row["low"], row["high"]) == (pay.mean, pay.low, pay.high)
        assert row["win"] == expected.win[name].mean and row["text"] == f"{pay.mean:+.2f}"
        assert f"wins the game {expected.win[name].mean:.1%}" in row["label"]
        assert row["best"] == (str(action) == str(expected.recommendation))
    assert page.get_attribute("#game-recommendation", "data-action") == str(expected.recommendation)
    sentence = page.inner_text("#game-differs")
    assert page.get_attribute("#game-differs", "data-differs") == str(expected.differs).lower()
    assert sentence.startswith("The score changes the best choice" if expected.differs else
                               "The score does not change the choice")
    assert f"--scores {END_GAME}" in page.inner_text("#repro")
    wide = page.evaluate("[...document.querySelectorAll('#game-block *')].filter(n => "
                         "n.getBoundingClientRect().right > window.innerWidth + 1).length")
    assert wide == 0  # nothing of the game block wider than the phone


@browser_only
def test_bad_scores_are_answered_inline_at_the_score_line(phone):
    page = phone
    fill(page, "20,20,20")
    page.click("#ask")
    page.wait_for_selector("#form-error:not([hidden])")
    assert page.inner_text("#form-error") == "--scores: 3 scores for 5 players (every seat, seat order)"
    assert "bad" in page.get_attribute("#scores", "class")
    page.fill("#scores", "")
