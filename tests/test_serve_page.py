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
