"""The page of `rumbaodds serve`: the loose ends a player's review found (issue 36), in Debian's Chromium at 400 px.

Next hand moves the score line with the seats; the note on words not known
follows the words given (a Rumba among them, flemish without throw-in); the
dealer's knock goes once a word is known; the seat list reads whole at
400 px; the trainer is linked and served at /trainer; a close answer offers
"more deals", which asks again with four times the deals (within the
server's caps) and shows the new answer; the game block, the knock's facts
and the errors speak a player's words and the page's card notation.

Skipped, with the reason, only where no Chromium is installed (like
tests/test_serve_browser.py); the routes' own checks run everywhere.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser import browser_context, running_server, skip_reason
from browser.phone import advanced, answer, fill

from rumbaodds.answer import pipeline, simulation
from rumbaodds.web.app import App
from rumbaodds.web.params import GAME_SAMPLES_CAP, KNOCK_SAMPLES_CAP, SAMPLES_CAP

browser_only = pytest.mark.skipif(skip_reason() is not None, reason=str(skip_reason()))
TRAINER = Path(__file__).resolve().parents[1] / "reports" / "trainer.html"  # `rumbaodds train --page`'s, committed


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = App(tmp_path_factory.mktemp("no-tables"), trainer=TRAINER)
    with running_server(app) as url:
        yield url, app


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


# -- 5. the seat list at 400 px -----------------------------------------------------------------------------------
SEAT_ROOM = """() => {  // each role's text against the room the closed list has for it (less its arrow)
  const s = document.getElementById('seat'), cs = getComputedStyle(s);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 24;
  return [...s.options].map(o => [o.textContent, pen.measureText(o.textContent).width, room]);
}"""


@browser_only
@pytest.mark.parametrize("width", [400, 360])
def test_the_seat_list_shows_its_whole_text_on_a_phone(page, width):
    page.set_viewport_size({"width": width, "height": 860})
    for rules in ("swiss", "flemish"):
        page.select_option("#rules", rules)
        players = page.eval_on_selector_all("#players option", "os => os.map(o => o.value)")[-1]
        page.select_option("#players", players)  # the most seats: the longest role ("seventh to speak")
        roles = page.evaluate(SEAT_ROOM)
        assert len(roles) == int(players) and roles[-1][0] == "the dealer", roles
        cut = [(text, round(need), round(room)) for text, need, room in roles if need > room]
        assert cut == [], (rules, width, cut)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# -- 1. Next hand: the score line follows the seats -----------------------------------------------------------------
def scores_read(page) -> tuple[str, str, str]:
    return page.input_value("#scores"), page.input_value("#streaks"), page.inner_text("#scores-who")


@browser_only
def test_next_hand_moves_every_score_with_its_player(page):
    page.select_option("#players", "5")
    page.select_option("#seat", "2")
    page.click("#score-details summary")
    page.fill("#scores", "20,14,7,3,18")
    page.fill("#streaks", "0,2,0,0,1")
    assert scores_read(page)[2] == ("first to speak 20 \u00b7 second to speak 14 \u00b7 you 7 \u00b7 fourth to speak 3"
                                    " \u00b7 the dealer 18")
    page.click("#next-hand")  # the deal passes left: the first to speak deals, everybody speaks one place earlier
    assert page.input_value("#seat") == "1"
    assert scores_read(page) == ("14,7,3,18,20", "2,0,0,1,0", "first to speak 14 \u00b7 you 7 \u00b7 third to speak 3"
                                 " \u00b7 fourth to speak 18 \u00b7 the dealer 20")
    assert page.evaluate("params().get('scores')") == "14,7,3,18,20"  # what Ask sends
    for _ in range(4):  # round the table: every score back at its first place
        page.click("#next-hand")
        assert re.search(r"\byou( \(the dealer\))? 7\b", scores_read(page)[2]), scores_read(page)
    assert scores_read(page)[:2] == ("20,14,7,3,18", "0,2,0,0,1") and page.input_value("#seat") == "2"
    page.fill("#scores", "20,14")  # not one per seat: left as typed (the answer says what is wrong)
    page.click("#next-hand")
    assert page.input_value("#scores") == "20,14" and page.is_hidden("#scores-who")


# -- 2-4. the earlier words: what "not known" means, the knock, throw-in only where there is one -----------------
def note(page) -> str:
    return page.inner_text("#before-note")


@browser_only
def test_the_note_on_words_not_known_follows_the_words_given(page):
    page.select_option("#players", "5")
    page.select_option("#seat", "3")
    assert note(page) == "Not known: you do not know it, but nobody called Rumba or threw in."
    page.select_option("#before-1", "rumba")
    assert "nobody called Rumba" not in note(page)
    assert note(page) == ("Not known: that player passed or played before the Rumba, passed or joined after it; "
                          "nobody threw in.")
    page.select_option("#before-0", "pass")
    assert note(page) == "Not known: that player passed or joined the Rumba; nobody threw in."
    page.select_option("#before-2", "play")  # every word given: nothing is not known
    assert note(page) == ""
    page.select_option("#before-1", "-")
    page.check("#knocked")
    assert note(page) == "Not known: that player passed or joined the dealer's knock."
    page.select_option("#rules", "flemish")  # no throw-in in flemish: never named
    page.select_option("#players", "4")
    page.select_option("#seat", "2")
    assert note(page) == "Not known: you do not know it, but nobody called Rumba."
    page.select_option("#before-0", "rumba")
    assert note(page) == "Not known: that player passed or joined the Rumba."


@browser_only
def test_the_knock_goes_once_an_earlier_word_is_known(page):
    page.select_option("#players", "5")
    page.select_option("#seat", label="the dealer")
    assert page.is_visible("#knock-box") and page.is_visible("#knock-ask")
    assert "you may knock" in page.inner_text("#seat-role") and page.inner_text("#trump-shown") == "tap it"
    page.select_option("#before-2", "rumba")  # after a knock nobody else calls Rumba: no knock was made
    assert page.is_hidden("#knock-box") and page.is_hidden("#knock-ask")
    assert page.inner_text("#seat-role") == "You deal and speak last." and page.inner_text("#trump-shown") == "none"
    page.select_option("#before-2", "-")
    assert page.is_visible("#knock-box") and page.is_visible("#knock-ask")
    page.select_option("#before-0", "pass")  # the knock comes before anybody speaks (RULES.md §4.2)
    assert page.is_hidden("#knock-box") and page.is_hidden("#knock-ask")
    page.click("#next-hand")  # a new hand, a new role
    page.click("#next-hand")
    page.click("#next-hand")
    page.click("#next-hand")
    page.click("#next-hand")  # the dealer again, the words cleared: the knock is back
    assert page.is_visible("#knock-box") and page.is_visible("#knock-ask")


@browser_only
def test_flemish_answers_never_name_a_throw_in(page):
    fill(page, ["HA", "HK", "C2", "S6", "D7"], "H9", 4, 2, rules="flemish", samples=1000, seed=1)
    answer(page)
    assert page.is_hidden("#form-error"), page.inner_text("#form-error")
    situation = page.inner_text("#situation")
    assert "earlier words not known (no Rumba)" in situation and "throw" not in situation.lower()
    assert "throw" not in page.inner_text("#before-note").lower()
    assert page.is_hidden("#throw-in-note")
    swiss = page.evaluate("doc => situationText(doc).map(p => p.join('')).join(' / ')",
                          {"rules": "swiss", "players": 5, "seat": 2, "before": ["-", "-"], "dealer_knocked": False})
    assert "earlier words not known (no Rumba, no throw-in)" in swiss  # the control: swiss has one


# -- 8. a player's words: the game block, the knock's shares, the errors' cards --------------------------------------
SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def shown_card(code: str) -> str:
    """The page's notation of a card: ♠9, ♥10."""
    return SUITS[code[0]] + ("10" if code[1:] == "T" else code[1:])


@browser_only
def test_the_game_block_speaks_a_players_words_and_names_the_cards(page):
    fill(page, ["HA", "HK", "S6", "C7", "D9"], "H8", 5, 2, samples=1500, seed=9)
    page.click("#score-details summary")
    page.fill("#scores", "15,17,4,19,12")
    answer(page, timeout=300_000)
    assert page.is_hidden("#form-error"), page.inner_text("#form-error")
    doc = json.loads(page.text_content("#raw"))
    game = doc["game"]
    said = " ".join(page.inner_text(f"#{i}") for i in ("game-recommendation", "game-differs", "game-note",
                                                        "game-chart"))
    for internal in ("to-winners", "rumba is", "rumba ", "play0", "play1", "play2", "play3", "play4", "exchange 0"):
        assert internal not in said, (internal, said)
    assert "payout: to the winners" in page.inner_text("#game-note")
    assert game["assumes"] in " ".join(page.inner_text("#game-note").split())  # who sees the score (issue 38)
    best = game["recommendation"]
    choice = game["actions"][best]["choice"]
    if best == "play":  # the cards of the exchange, from the answer's own play_options
        discard = doc["play_options"][choice]["discard"]
        words = f"exchange {' '.join(shown_card(c) for c in discard)}" if discard else "keep all your cards"
        assert page.inner_text("#game-recommendation") == f"Best for the game: play, {words}"
    labels = page.eval_on_selector_all("#game-chart .bar-row .bar-label", "ls => ls.map(l => l.firstChild.textContent)")
    assert "call Rumba" in labels and "pass" in labels and any(x.startswith("play, ") for x in labels), labels
    # the sentence when the score changes the choice, from a document that says so
    changed = {**doc, "game": {**game, "recommendation": "play", "per_hand_recommendation": "rumba",
                               "score_changes_the_choice": True}}
    page.evaluate("doc => renderGame(doc)", changed)
    assert page.inner_text("#game-differs").startswith("The score changes the best choice: for this hand alone "
                                                       "calling Rumba is best, but at this score playing is, by ")


@browser_only
def test_the_knocks_shares_count_cards_in_words(page):
    shares = page.evaluate("['play0', 'play1', 'play2', 'rumba', 'pass'].map(choiceShare)")
    assert shares == ["play, keep all your cards", "play, exchange 1 card", "play, exchange 2 cards", "call Rumba",
                      "pass"]


@browser_only
def test_errors_name_cards_as_the_page_shows_them(page):
    fill(page, ["HA", "HK", "HQ", "S6", "ST"], "H9", 5, 2)
    page.evaluate("document.getElementById('trump-text').value = 'ST'")  # the ten of spades in the hand, and trump
    page.click("#ask")
    page.wait_for_selector("#form-error:not([hidden])")
    api = page.get_attribute("#form-error", "data-message")  # the API's (and the command line's) own words
    assert "ST" in api and "\u2660" not in api
    assert page.inner_text("#form-error") == api.replace("ST", "\u2660" "10")
    page.fill("#hand-text", "HA HK HQ S6 C7 D8")
    page.fill("#trump-text", "H9")
    page.click("#ask")
    page.wait_for_function("!document.getElementById('form-error').hidden && "
                           "document.getElementById('form-error').dataset.message.includes('D8')")
    assert page.inner_text("#form-error") == ("a swiss hand has 5 cards, got 6: \u2665A \u2665K \u2665Q \u2660" "6 "
                                              "\u2663" "7 \u2666" "8")
    texts = page.evaluate("['card S2 is not in the swiss deck (suits C D H S, ranks 6..A)', '--seat: seat 9', "
                          "'write e.g. HA HK HQ S6 C7 or S10'].map(cardsInText)")
    assert texts == ["card \u2660" "2 is not in the swiss deck (suits C D H S, ranks 6..A)", "--seat: seat 9",
                     "write e.g. \u2665A \u2665K \u2665Q \u2660" "6 \u2663" "7 or \u2660" "10"]


# -- 6. the trainer, linked and served ---------------------------------------------------------------------------
@browser_only
@pytest.mark.skipif(not TRAINER.is_file(), reason="no reports/trainer.html in this checkout")
def test_the_page_links_the_trainer_served_at_slash_trainer(page, server):
    link = page.locator("#trainer-link")
    assert link.is_visible() and link.inner_text() == "Practise: the trainer"
    box = link.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 400 and box["height"] >= 30, box  # on the phone, tappable
    link.click()
    page.wait_for_url(server[0] + "trainer")
    assert page.title() == "Rumba trainer"
    page.go_back()
    page.wait_for_selector("body[data-ready='1']")
    with running_server(App(server[1].tables_root), warm=False) as url:  # a server with no trainer page: no link
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        assert page.is_hidden("#trainer-link")


# -- 7. more deals for an answer too close to call ------------------------------------------------------------------
CLOSE = {"hand": ["HA", "DA", "D8", "HQ", "D7"], "trump": "SJ", "players": 4, "seat": 0}  # pass or play: within 0.05
CLEAR = {"hand": ["HA", "HK", "HQ", "S6", "C7"], "trump": "H9", "players": 5, "seat": 2}  # Rumba, by 2 points


@browser_only
def test_more_deals_asks_a_close_answer_again_with_four_times_the_deals(page):
    fill(page, **CLEAR, samples=300, seed=1)
    answer(page)
    assert page.is_hidden("#more-box") and page.query_selector("#more-deals") is None  # settled: nothing offered
    fill(page, **CLOSE, samples=300, seed=1)
    answer(page)
    first = json.loads(page.text_content("#raw"))
    low, high = first["margin"]["ev_ci"]
    assert low <= 0 <= high and "too close to call" in page.inner_text("#recommendation")
    assert page.inner_text("#more-deals") == "More deals: 1,200"
    box = page.locator("#more-deals").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 400 and box["height"] >= 44, box  # a phone's tap
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.click("#more-deals")
    page.wait_for_selector("#result:not([hidden]) #source:not([data-pending])", timeout=120_000)
    page.wait_for_function("document.getElementById('samples-out')?.textContent === '1,200'", timeout=120_000)
    doc = json.loads(page.text_content("#raw"))
    expected = simulation.ask(" ".join(CLOSE["hand"]), CLOSE["trump"], CLOSE["players"], CLOSE["seat"], samples=1200,
                              seed=1)
    assert doc == pipeline.document(expected)  # the same question, four times the deals: the answer of `ask`
    assert page.inner_text("#repro").endswith("--samples 1200 --seed 1")
    assert page.input_value("#samples") == "300"  # a one-off: the settings stay as they were
    if expected.margin.low <= 0:  # still close: four times again
        assert page.get_attribute("#more-deals", "data-samples") == "4800"
    else:
        assert page.is_hidden("#more-box")


@browser_only
def test_more_deals_asks_a_close_knock_again(page):
    page.select_option("#players", "4")
    page.select_option("#seat", label="the dealer")
    page.click("#mode-trump")
    page.click("#picker [data-card='HA']")
    advanced(page, samples=300, seed=1)
    answer(page, "#knock-ask", timeout=300_000)
    first = json.loads(page.text_content("#raw"))
    assert first["too_close_to_call"] is True and first["samples"] == 300
    page.click("#more-deals")
    page.wait_for_function("document.getElementById('samples-out')?.textContent === '1,200'", timeout=300_000)
    doc = json.loads(page.text_content("#raw"))
    expected = simulation.knock("HA", 4, samples=1200, seed=1)
    assert doc == {**expected.to_dict(), "seed_text": "1"}
    assert page.inner_text("#repro") == "rumbaodds knock --trump HA --players 4 --samples 1200 --seed 1"


@browser_only
def test_more_deals_stays_within_the_servers_caps(page, server):
    caps = server[1].meta()["caps"]
    assert caps == {"samples": SAMPLES_CAP, "game_samples": GAME_SAMPLES_CAP, "knock_samples": KNOCK_SAMPLES_CAP}
    asked = page.evaluate("""() => [
        moreDeals({samples: 2000}, 'ask'), moreDeals({samples: 400000}, 'ask'), moreDeals({samples: 500000}, 'ask'),
        moreDeals({samples: 15000, game: {}}, 'ask'), moreDeals({samples: 4000}, 'knock'),
        moreDeals({samples: 40, source: {kind: 'table+simulation', deals: 100000, simulation: {deals: 3000}}}, 'ask'),
        moreDeals({samples: 100000, source: {kind: 'table', deals: 100000}}, 'ask')]""")
    assert asked == [8000, SAMPLES_CAP, None, GAME_SAMPLES_CAP, KNOCK_SAMPLES_CAP, 12000, 400000]
    close = {"recommendation": "pass", "runner_up": "play", "samples": SAMPLES_CAP, "margin": {"ev": 0.01,
                                                                                            "ev_ci": [-0.02, 0.04]}}
    page.evaluate("doc => offerMoreDeals(doc, 'ask')", close)  # at the cap: no button, the command line named
    assert page.query_selector("#more-deals") is None
    assert page.inner_text("#more-capped") == ("500,000 deals is this server's most for one question; `rumbaodds ask "
                                               "--samples` runs longer.")
