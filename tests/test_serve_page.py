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

import re

import pytest
from browser import browser_context, running_server, skip_reason
from browser.phone import advanced, answer, fill

from rumbaodds.web.app import App

browser_only = pytest.mark.skipif(skip_reason() is not None, reason=str(skip_reason()))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = App(tmp_path_factory.mktemp("no-tables"))
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
    page.select_option("#before-2", "rumba")  # after a knock nobody else calls Rumba: no knock was made
    assert page.is_hidden("#knock-box") and page.is_hidden("#knock-ask")
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
