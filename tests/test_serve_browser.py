"""The page of `rumbaodds serve` on a phone at the table: Debian's Chromium at 400 px, driven by Playwright.

A player chooses who he is (first to speak ... the dealer), taps his cards
and the trump card and presses Ask, which stays on the screen. The answer
starts with one plain sentence made of the answer's own values, repeats the
situation and states its source truly (a table's file and cell, or the deals
and seed of a simulation); its numbers are those of
:func:`rumbaodds.answer.simulation.ask` or the table with the same seed. Any change or
error takes the old answer away; "Next hand" moves the dealer and clears the
hand and the earlier words; after a Rumba or a knock playing is "join"; the
dealer can ask "knock?" (GET /api/knock); settings survive a reload; a 63-bit
seed goes through exactly. Also: the layout at 400 px and 1400 px.

Skipped, with the reason, only where no Chromium is installed (``.ci/run``
installs it); the /api/knock route's own checks run everywhere. The
screenshots of reports/screens/ come from ``tests/browser/screens.py``.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlencode

import pytest
from browser import browser_context, build_tiny_table, running_server, skip_reason, tiny_questions
from browser.phone import advanced, answer, fill

from rumbaodds.answer import pipeline, simulation
from rumbaodds.answer.question import Question
from rumbaodds.cards import CardError
from rumbaodds.rules import RulesError, get_rules
from rumbaodds.web.app import App

browser_only = pytest.mark.skipif(skip_reason() is not None, reason=str(skip_reason()))

README = {"hand": ["HA", "HK", "HQ", "S6", "C7"], "trump": "H9", "players": 5, "seat": 2}  # a shipped table answers
SEED = "8612274886174038521"  # above 2**53: JavaScript's Number() rounds it to ...8000
# A Rumba called earlier. A weak hand, so that the deals where seat 0 calls Rumba are found quickly.
RUMBA_BEFORE = {"hand": ["S7", "C8", "D9", "ST", "C6"], "trump": "H9", "players": 4, "seat": 1, "before": ["rumba"]}
THROW_IN = {"hand": ["S7", "C8", "D9", "S6", "C6"], "trump": "H9", "players": 4, "seat": 1}  # every card below ten
VERB = {"rumba": "Call Rumba", "play": "Play", "pass": "Pass", "throw-in": "Throw in"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    rules_path, tables_root = build_tiny_table(tmp_path_factory.mktemp("browser-tiny"))
    app = App(tables_root, {"tiny": get_rules(rules_path)})
    with running_server(app) as url:
        yield url, app, rules_path


@pytest.fixture(scope="module")
def browser():
    with browser_context(400, 860) as context:
        yield context


@pytest.fixture
def page(browser, server):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server[0] + "api/status")  # the page's origin, without the page (which saves its settings)
    page.evaluate("localStorage.clear()")  # every test starts from the defaults
    page.goto(server[0])
    page.wait_for_selector("body[data-ready='1']")
    yield page
    page.close()
    assert errors == [], errors


def shown_rows(page, chart="#chart") -> dict:
    rows = page.eval_on_selector_all(f"{chart} .bar-row", """rows => rows.map(r => ({
        action: r.dataset.action, ev: Number(r.dataset.ev), low: Number(r.dataset.low), high: Number(r.dataset.high),
        text: r.querySelector('.ev').textContent, label: r.querySelector('.bar-label').innerText,
        best: r.classList.contains('best')}))""")
    return {r["action"]: r for r in rows}


def read_answer(page) -> dict:
    return {
        "rows": shown_rows(page),
        "sentence": page.inner_text("#recommendation"),
        "situation": page.inner_text("#situation"),
        "recommendation": page.get_attribute("#recommendation", "data-action"),
        "margin": page.get_attribute("#margin", "data-margin"),
        "source": page.get_attribute("#source", "data-source"),
        "source_text": page.inner_text("#source"),
        "tricks": page.eval_on_selector_all("#tricks .trick", "ts => ts.map(t => Number(t.dataset.share))"),
        "p_success": page.get_attribute("#p-success", "data-value") if page.query_selector("#p-success") else None,
        "document": json.loads(page.text_content("#raw")),
        "error_hidden": page.is_hidden("#form-error"),
    }


def ask(page, button="#ask", timeout=300_000) -> dict:
    answer(page, button, timeout)
    assert page.is_hidden("#form-error"), page.inner_text("#form-error")
    return read_answer(page)


def assert_same_numbers(shown: dict, expected: simulation.AskResult):
    assert set(shown["rows"]) == set(expected.actions)
    for name, choice in expected.actions.items():
        row = shown["rows"][name]
        assert (row["ev"], row["low"], row["high"]) == (choice.ev.mean, choice.ev.low, choice.ev.high), name
        assert row["text"] == f"{choice.ev.mean:+.2f}"
        assert row["best"] == (name == expected.recommendation)
    assert shown["recommendation"] == expected.recommendation
    assert float(shown["margin"]) == expected.margin.mean
    rumba = expected.actions.get("rumba")
    if rumba is not None:
        assert float(shown["p_success"]) == rumba.p_success.mean
        assert shown["tricks"] == list(rumba.tricks)


def is_cleared(page) -> bool:
    return page.is_hidden("#result") and page.inner_text("#recommendation") == "" and \
        page.eval_on_selector_all("#chart .bar-row", "rows => rows.length") == 0


def table_file(path: str) -> str:
    """How the page names a table's file: its folder and name (the full path below it)."""
    return "/".join(Path(path).parts[-2:])


def points(x: float) -> str:
    return f"{x:.1f}" if abs(x) >= 1 else f"{x:.2f}"


def api_message(*args, **kwargs) -> str:
    with pytest.raises((CardError, RulesError)) as caught:
        simulation.make_situation(*args, **kwargs)
    return str(caught.value)


# -- the phone flow ------------------------------------------------------------------------------------------------
@browser_only
def test_a_phone_asks_by_role_and_taps_and_gets_a_sentence_the_situation_and_the_table(page, server):
    roles = page.eval_on_selector_all("#seat option", "os => os.map(o => o.textContent)")
    assert roles == ["first to speak", "second to speak", "third to speak", "fourth to speak", "the dealer"]
    page.select_option("#seat", label="third to speak")  # chosen by role, never typed
    for card in README["hand"]:
        page.click(f"#picker [data-card='{card}']")
    page.click(f"#picker [data-card='{README['trump']}']")  # the picker moved on to the trump card by itself
    assert page.input_value("#hand-text") == "HA HK HQ S6 C7" and page.input_value("#trump-text") == "H9"
    sizes = page.eval_on_selector_all("#picker button.card", "bs => bs.map(b => b.getBoundingClientRect())"
                                                               ".map(r => [r.width, r.height])")
    assert len(sizes) == 36 and min(w for w, _ in sizes) >= 44 and min(h for _, h in sizes) >= 44, sizes
    for scroll in (0, 700):  # Ask on the screen and not covered, wherever the page is scrolled
        page.evaluate(f"window.scrollTo(0, {scroll})")
        box = page.locator("#ask").bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 860, box
        assert page.evaluate(f"document.elementFromPoint({box['x'] + box['width'] / 2}, "
                             f"{box['y'] + box['height'] / 2}).id") == "ask"
    assert page.eval_on_selector("#advanced", "d => d.open") is False  # samples, seed and the rest: folded away
    shown = ask(page, timeout=60_000)
    _, app, _ = server
    expected = pipeline.from_table(Question.of(" ".join(README["hand"]), "H9", 5, 2), app.tables_root)
    assert expected is not None and "table" in expected.meta["source"]
    document = pipeline.document(expected)
    if expected.meta["open"]:  # the page settled what the table left open (test_the_page_settles_what_...)
        assert shown["source"] == "table+simulation" and shown["source_text"].startswith("From a table and ")
        assert shown["document"]["source"]["open"] == expected.meta["open"]
    else:
        assert shown["document"] == document
        assert shown["source"] == "table" and shown["source_text"].startswith("From a table, no simulation now: ")
    assert f"{table_file(document['source']['table'])}, cell {document['source']['cell']:,}" in shown["source_text"]
    assert "Simulated" not in shown["source_text"]
    verb, value = sentence_parts(shown["document"])
    assert shown["sentence"].startswith(verb) and value in shown["sentence"]
    assert shown["situation"] == ("Hand \u2665A \u2665K \u2665Q \u2660" "6 \u2663" "7 \u00b7 trump \u2665" "9 \u00b7 "
                                  "5 players \u00b7 you speak third \u00b7 earlier words not known (no Rumba, no "
                                  "throw-in) \u00b7 swiss rules")
    page.click("#picker [data-card='C7']")  # one card changed: the answer is gone
    assert is_cleared(page)


def sentence_parts(doc: dict) -> tuple[str, str | None]:
    """What the sentence must start with and a value it must name, from the answer's JSON alone."""
    best = doc["recommendation"]
    verb = "Join" if best == "play" and ("rumba" in doc["before"] or doc["dealer_knocked"]) else VERB[best]
    low, high = doc["margin"]["ev_ci"]
    if low <= 0:
        return verb + " or ", "too close to call"
    return verb, f"worth {points(doc['margin']['ev'])} points per hand more than"


@browser_only
def test_an_error_takes_the_old_answer_away(page):
    fill(page, **README)
    assert ask(page)["rows"]
    page.evaluate("document.getElementById('trump-text').value = 'HA'")  # changed without an input event
    page.click("#ask")
    page.wait_for_selector("#form-error:not([hidden])")
    assert page.get_attribute("#form-error", "data-message") == api_message("HA HK HQ S6 C7", "HA", 5, 2)
    assert page.inner_text("#form-error") == "the trump card \u2665A cannot also be in the hand"  # the page's cards
    assert is_cleared(page) and "bad" in page.get_attribute("#trump-text", "class")
    assert page.inner_text("#empty").startswith("No answer: the question has a mistake")
    fill(page, **README)
    page.click("#mode-hand")  # one card too many: tapped after the picker moved on to the trump card
    page.click("#picker [data-card='D8']")
    page.click("#ask")
    page.wait_for_selector("#form-error:not([hidden])")
    assert page.get_attribute("#form-error", "data-message") == api_message("HA HK HQ S6 C7 D8", "H9", 5, 2)
    page.click("#picker [data-card='D8']")  # any change takes the message away too
    assert page.is_hidden("#form-error") and page.get_attribute("#hand-text", "class") in (None, "")
    assert page.inner_text("#empty").startswith("Choose who you are")
    assert ask(page)["rows"]


@browser_only
def test_next_hand_moves_the_dealer_and_clears_the_hand_and_the_words(page):
    fill(page, **README, before=["pass", "play"], samples=1000, seed=1)
    assert ask(page)["rows"]  # an answer on the screen
    roles = []
    for _ in range(5):  # seat 2 of 5 -> 1 -> 0 -> the dealer -> 3 -> 2: the deal passes left (RULES.md §9)
        page.click("#next-hand")
        roles.append(page.eval_on_selector("#seat", "s => s.selectedOptions[0].textContent"))
        assert is_cleared(page)
        assert page.input_value("#hand-text") == "" and page.input_value("#trump-text") == ""
        words = page.eval_on_selector_all("#before select", "ss => ss.map(s => s.value)")
        assert words == ["-"] * int(page.input_value("#seat"))
        assert page.is_hidden("#knocked-row") == (roles[-1] == "the dealer")
        assert page.is_visible("#knock-ask") == (roles[-1] == "the dealer")  # swiss: the dealer may knock
    assert roles == ["second to speak", "first to speak", "the dealer", "fourth to speak", "third to speak"]
    page.select_option("#before-0", "pass")
    page.select_option("#players", "6")  # another table: the earlier words go
    assert page.eval_on_selector_all("#before select", "ss => ss.map(s => s.value)") == ["-", "-"]
    page.select_option("#before-1", "rumba")
    page.select_option("#rules", "flemish")  # another rule set: so do they
    assert page.eval_on_selector_all("#before select", "ss => ss.map(s => s.value)") == ["-", "-"]
    assert page.is_hidden("#knock-ask") and page.is_hidden("#knocked-row")  # flemish has no knock


@browser_only
def test_after_a_rumba_playing_is_joining_with_the_numbers_of_ask(page):
    q = RUMBA_BEFORE
    fill(page, q["hand"], q["trump"], q["players"], q["seat"], before=q["before"], samples=3000, seed=3)
    shown = ask(page)
    expected = simulation.ask(" ".join(q["hand"]), q["trump"], q["players"], q["seat"], before="rumba",
                            samples=3000, seed=3)
    assert "rumba" not in shown["rows"]  # nobody calls a second Rumba
    assert_same_numbers(shown, expected)
    assert shown["rows"]["play"]["label"] == "join"
    assert "play" not in (shown["sentence"] + " " + page.inner_text("#margin")).lower()
    start, value = sentence_parts(shown["document"])
    assert shown["sentence"].startswith(start) and value in shown["sentence"], shown["sentence"]
    assert "before you: Rumba" in shown["situation"]
    page.select_option("#seat", "3")  # the word of a later seat: after the Rumba, play is join, no second Rumba
    page.select_option("#before-0", "rumba")
    labels = page.eval_on_selector_all("#before-1 option", "os => os.map(o => [o.textContent, o.disabled])")
    assert labels == [["not known", False], ["pass", False], ["join", False], ["Rumba", True]]
    page.select_option("#before-0", "pass")
    assert page.eval_on_selector("#before-1 option[value=play]", "o => o.textContent") == "play"


@browser_only
def test_after_a_knock_playing_is_joining(page):
    q = RUMBA_BEFORE
    fill(page, q["hand"], q["trump"], q["players"], q["seat"], knocked=True, samples=2000, seed=5)
    shown = ask(page)
    expected = simulation.ask(" ".join(q["hand"]), q["trump"], q["players"], q["seat"], dealer_knocked=True,
                            samples=2000, seed=5)
    assert_same_numbers(shown, expected)
    assert shown["rows"]["play"]["label"] == "join" and "the dealer knocked" in shown["situation"]
    assert page.eval_on_selector("#before-0 option[value=play]", "o => o.textContent") == "join"


@browser_only
def test_throw_in_is_shown_where_it_is_allowed(page):
    fill(page, **THROW_IN)
    shown = ask(page)
    assert "throw-in" in shown["document"]["actions"] and shown["rows"]["throw-in"]["label"] == "throw in"
    assert page.inner_text("#throw-in-note").startswith("You may throw in (every card below ten)")
    fill(page, **{**THROW_IN, "hand": ["S7", "C8", "D9", "SA", "C6"]})  # an ace: no throw-in
    shown = ask(page)
    assert "throw-in" not in shown["rows"] and page.is_hidden("#throw-in-note")


@browser_only
def test_the_settings_are_remembered_after_a_reload(page):
    fill(page, **README)
    page.select_option("#passes", "2")
    advanced(page, samples=1500, precision=None, seed=SEED)
    page.select_option("#opponents", index=1)
    page.select_option("#play", index=1)
    page.check("#simulate")
    settings = "() => ['rules', 'players', 'seat', 'passes', 'opponents', 'play', 'samples', 'precision', 'seed']" \
               ".map(id => document.getElementById(id).value).concat([document.getElementById('simulate').checked])"
    before = page.evaluate(settings)
    assert before[:4] == ["swiss", "5", "2", "2"] and before[6:9] == ["1500", "", SEED] and before[9] is True
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate(settings) == before
    assert f"seed {SEED}" in page.inner_text("#advanced-summary")
    assert page.input_value("#hand-text") == ""  # the cards are the hand's, not settings
    page.select_option("#rules", "flemish")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#rules") == "flemish"


@browser_only
def test_a_63_bit_seed_goes_through_exactly(page):
    assert page.evaluate(f"String(Number('{SEED}'))") != SEED  # the negative control: a number would be rounded
    fill(page, **README, samples=1000, seed=SEED)
    shown = ask(page)
    expected = simulation.ask(" ".join(README["hand"]), "H9", 5, 2, samples=1000, seed=int(SEED))
    assert shown["source"] == "simulation" and page.inner_text("#seed-out") == SEED
    assert page.inner_text("#samples-out") == "1,000"
    assert page.inner_text("#repro").endswith(f"--samples 1000 --seed {SEED}")
    assert shown["document"] == pipeline.document(expected)  # the JSON shown on the page, the seed's digits and all
    assert_same_numbers(shown, expected)
    raw = page.request.get(f"{page.url}api/ask?" + urlencode({**README, "hand": "HA HK HQ S6 C7", "samples": 1000,
                                                               "seed": SEED})).text()
    assert f'"seed": {SEED}, "seed_text": "{SEED}"' in raw


@browser_only
def test_the_page_settles_what_a_table_answer_leaves_open_and_says_so(page, server, monkeypatch):
    _, app, rules_path = server
    q, _ = tiny_questions(rules_path, app.tables_root)
    table = pipeline.from_table(Question.of(**q, rules=get_rules(rules_path)), app.tables_root)
    read = threading.Event()
    settle = pipeline.settle

    def settle_once_read(*args, **kwargs):  # the follow-up waits until the table's answer on screen has been read
        read.wait(60)
        return settle(*args, **kwargs)

    monkeypatch.setattr(pipeline, "settle", settle_once_read)
    fill(page, q["hand"].split(), q["trump"], q["players"], q["seat"], rules="tiny")
    page.click("#ask")
    page.wait_for_selector("#source[data-pending='settle']", timeout=120_000)  # the table's answer, at once
    first = read_answer(page)
    read.set()
    assert first["source"] == "table" and first["document"] == pipeline.document(table)
    assert "to settle it" in page.inner_text("#settling")
    page.wait_for_selector("#result:not([hidden]) #source:not([data-pending])", timeout=120_000)
    shown = read_answer(page)
    assert shown["source"] == "table+simulation" and shown["source_text"].startswith("From a table and ")
    doc = shown["document"]
    assert doc["source"]["kind"] == "table+simulation" and doc["source"]["open"] == table.meta["open"]
    assert page.inner_text("#settle-deals") == f"{doc['source']['simulation']['deals']:,}"
    assert f"{table_file(table.meta['table'])}, cell {table.meta['cell']:,};" in shown["source_text"]
    assert shown["recommendation"] == doc["recommendation"]
    settled = pipeline.answer(Question.of(**q, rules=get_rules(rules_path)), app.tables_root)  # as `ask` answers
    if "time" not in (settled.meta["simulation"]["stopped"], doc["source"]["simulation"]["stopped"]):
        assert doc == pipeline.document(settled)
    page.click("#ask")  # again, and a card changed while the follow-up runs: the old question's answer never returns
    page.wait_for_selector("#source[data-pending='settle']", timeout=120_000)
    page.click(f"#picker [data-card='{q['hand'].split()[0]}']")
    assert is_cleared(page)
    for _ in range(200):  # until the server has nothing left to run (the follow-up was cancelled or ended)
        if app.simulations.idle():
            break
        page.wait_for_timeout(50)
    page.wait_for_timeout(500)  # more than the page's polling interval
    assert is_cleared(page)


@browser_only
def test_an_answer_from_a_built_table_names_its_file_and_cell(page, server):
    _, app, rules_path = server
    _, q = tiny_questions(rules_path, app.tables_root)  # nothing left open: the table's answer stands alone
    fill(page, q["hand"].split(), q["trump"], q["players"], q["seat"], rules="tiny")
    shown = ask(page)
    expected = pipeline.from_table(Question.of(**q, rules=get_rules(rules_path)), app.tables_root)
    assert expected is not None and "table" in expected.meta["source"]
    assert shown["source"] == "table"
    assert f"{table_file(expected.meta['table'])}, cell {expected.meta['cell']:,};" in shown["source_text"]
    assert "shipped" not in shown["source_text"]
    assert_same_numbers(shown, expected)


@browser_only
def test_the_sentence_says_too_close_to_call_from_the_interval(page):
    close = {"recommendation": "rumba", "runner_up": "play", "before": [], "dealer_knocked": False,
             "margin": {"ev": 0.12, "ev_ci": [-0.3, 0.54]}, "actions": {"rumba": {"p_success": 0.614}}}
    clear = {**close, "margin": {"ev": 2.4, "ev_ci": [2.1, 2.7]}, "actions": {"rumba": {"p_success": 0.98}}}
    said = page.evaluate("docs => docs.map(sentence)", [close, clear])
    assert said == [
        {"close": True, "text": "Call Rumba or play: too close to call; call Rumba is ahead by only 0.12 points per "
                                "hand, within the noise; you make the Rumba 61% of the time."},
        {"close": False, "text": "Call Rumba: you make it 98% of the time; it is worth 2.4 points per hand more "
                                 "than playing."}]
    bare = page.evaluate("doc => sentence(doc)", {**clear, "actions": {}, "margin": None})  # say less, invent none
    assert bare == {"close": False, "text": "Call Rumba."}
    knock = {"recommendation": "no knock", "margin": {"ev": 0.09, "ev_ci": [-0.15, 0.33]}, "actions": {}}
    text = page.evaluate("doc => knockSentence(doc).text", knock)
    assert text.startswith("Knock or look at your cards: too close to call; knocking is ahead by only 0.09")


# -- the knock ----------------------------------------------------------------------------------------------------
@browser_only
def test_the_dealer_asks_knock_before_he_looks_at_his_hand(page):
    page.select_option("#players", "4")
    page.select_option("#seat", label="the dealer")
    assert page.is_visible("#knock-box")
    advanced(page, samples=300, seed=SEED)
    page.click("#knock-ask")  # no trump card yet
    page.wait_for_selector("#form-error:not([hidden])")
    assert page.inner_text("#form-error").startswith("Tap the trump card first")
    page.click("#picker [data-card='HA']")  # the picker moved to the trump card
    assert page.input_value("#trump-text") == "HA"
    shown = ask(page, "#knock-ask", timeout=600_000)
    expected = simulation.knock("HA", 4, samples=300, seed=int(SEED))
    assert shown["document"] == {**expected.to_dict(), "seed_text": SEED}
    rows = shown["rows"]
    assert set(rows) == {"knock", "no-knock"}
    for name, est in (("knock", expected.knock), ("no-knock", expected.no_knock)):
        assert (rows[name]["ev"], rows[name]["low"], rows[name]["high"]) == (est.mean, est.low, est.high)
    assert shown["recommendation"] == expected.recommendation
    gain = expected.margin  # EV(no knock) - EV(knock)
    if gain.low <= 0 <= gain.high:
        assert "too close to call" in shown["sentence"]
    else:
        assert shown["sentence"].startswith("Knock:" if expected.recommendation == "knock" else "Do not knock")
        assert f"{points(abs(gain.mean))} points per hand more" in shown["sentence"]
    assert page.inner_text("#seed-out") == SEED
    assert page.inner_text("#repro") == f"rumbaodds knock --trump HA --players 4 --samples 300 --seed {SEED}"
    assert shown["situation"].startswith("You deal \u00b7 trump \u2665A \u00b7 4 players")
    page.click("#picker [data-card='HK']")  # another trump card: the knock answer goes
    assert is_cleared(page)


def knock_query(**params) -> dict[str, list[str]]:
    return parse_qs(urlencode(params), keep_blank_values=True)


@pytest.mark.parametrize("params, words", [
    ({"trump": "H9", "players": 4, "samples": 300_000}, "--samples must be 1..200,000"),
    ({"trump": "H9", "players": 4, "precision": 0.01}, "--precision must be 0.1..100"),
    ({"trump": "H9", "players": 4, "hand": "HA"}, "unknown parameter 'hand' for /api/knock"),
    ({"trump": "H2", "players": 4}, "card H2 is not in the swiss deck"),
    ({"trump": "H9", "players": 9}, "9 players"),
    ({"trump": "H9", "players": 4, "rules": "flemish"}, "rule set 'flemish' has no knock"),
    ({"players": 4}, "missing parameter 'trump'"),
    ({"trump": "H9", "players": 4, "seed": -1}, "--seed must be 0..2**63-1"),
    ({"trump": "H9", "players": 4, "samples": 10, "precision": 1}, "give --samples or --precision, not both"),
])
def test_the_knock_route_refuses_bad_input_with_one_line(params, words):
    response = App("no-such-tables").handle("GET", "/api/knock", knock_query(**params))
    assert response.status == 400, response.body
    error = json.loads(response.body)["error"]
    assert words in error and "\n" not in error


def test_the_knock_route_answers_as_rumbaodds_knock_does():
    response = App("no-such-tables").handle("GET", "/api/knock", knock_query(trump="H9", players=4, samples=60,
                                                                            seed=SEED))
    assert response.status == 200
    assert f'"seed": {SEED},' in response.body.decode()
    expected = simulation.knock("H9", 4, samples=60, seed=int(SEED))
    assert json.loads(response.body) == {**expected.to_dict(), "seed_text": SEED}
    assert App("x").handle("POST", "/api/knock", knock_query(trump="H9", players=4)).status == 405


# -- progress, and the layout ---------------------------------------------------------------------------------------
@browser_only
def test_a_long_run_shows_real_progress_and_can_be_cancelled(page):
    fill(page, **README, samples=500_000, seed=1)
    page.click("#ask")
    page.wait_for_function("""() => { const b = document.getElementById('progress-bar');
        return !document.getElementById('progress').hidden && b.max === 500000 && b.value > 0 && b.value < b.max; }""",
                           timeout=120_000)
    assert "of 500,000 deals" in page.inner_text("#progress-text")
    page.click("#cancel")
    page.wait_for_selector("#progress", state="hidden")
    assert page.is_hidden("#form-error")
    fill(page, **README, samples=2_000, seed=2)
    assert ask(page)["rows"]  # the cancelled run let go of the simulator


@browser_only
def test_the_page_asks_nothing_of_the_internet(browser, server):
    page = browser.new_page()
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(server[0])
    page.wait_for_selector("body[data-ready='1']")
    fill(page, **README)
    answer(page)
    page.close()
    assert asked and all(url.startswith(server[0]) for url in asked), asked


LAYOUT_CHECK = """width => {
  const out = {scroll: document.documentElement.scrollWidth, cut: [], small: []};
  const sel = 'h1, h2, h3, label, button, select, input, .bar-label, .bar-value, .ticks span, .trick span, #source, ' +
              '#recommendation, #margin, #situation, .note, .sign, li, summary';
  for (const e of document.querySelectorAll(sel)) {
    if (!e.offsetParent && getComputedStyle(e).position !== 'fixed') continue;  // not shown
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < -0.5 || r.right > width + 0.5) out.cut.push(e.tagName + '#' + e.id + '.' + e.className + ' ' +
                                                           (e.textContent || '').slice(0, 30));
    if (parseFloat(getComputedStyle(e).fontSize) < 12) out.small.push(e.tagName + ' ' + e.textContent.slice(0, 30));
  }
  return out;
}"""


@browser_only
@pytest.mark.parametrize("width", [1400, 400])
def test_layout_fits_the_window(page, width):
    page.set_viewport_size({"width": width, "height": 900})
    fill(page, **README)
    page.click("#advanced summary")  # open: its fields are checked too
    ask(page)
    for rules, hand, trump in (("swiss", None, None), ("flemish", ["HA", "HK", "C2", "S6", "D7"], "H9")):
        if hand:  # the flemish picker has 13 ranks a row
            fill(page, hand, trump, 4, 1, rules=rules)
        layout = page.evaluate(LAYOUT_CHECK, width)
        assert layout["scroll"] <= width and layout["cut"] == [] and layout["small"] == [], layout
        smallest = page.eval_on_selector_all("#picker button.card", "bs => Math.min(...bs.map(b => "
                                                                    "Math.min(b.offsetWidth, b.offsetHeight)))")
        assert smallest >= 44, (rules, smallest)
