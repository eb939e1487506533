"""Screenshots of the page's loose ends of issue 36 (tests/test_serve_page.py), for reports/screens/.

    PYTHONPATH=$PWD python3 tests/browser/page_screens.py [OUT]      # OUT defaults to reports/screens

At 400 px (the phone's screen as the player sees it, scrolled to the part
shown) and 1400 px (the whole page): the score line after Next hand, the
earlier words with a Rumba among them (the dealer: no knock), the seat list
of seven players and the trainer's link, a flemish answer, a close answer
and a close knock answer with "More deals", the game block in words and an
error naming its cards as the page does.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser import browser_context, running_server  # noqa: E402
from browser.phone import advanced, answer, fill  # noqa: E402
from browser.screens import shrink, snap  # noqa: E402
from rumbaodds.web.app import App  # noqa: E402

TRAINER = Path(__file__).resolve().parents[2] / "reports" / "trainer.html"
CLOSE = {"hand": ["HA", "DA", "D8", "HQ", "D7"], "trump": "SJ", "players": 4, "seat": 0, "samples": 300, "seed": 1}
FLEMISH = {"hand": ["HA", "HK", "C2", "S6", "D7"], "trump": "H9", "players": 4, "seat": 2, "rules": "flemish",
           "samples": 1000, "seed": 1}
GAME = {"hand": ["HA", "HK", "S6", "C7", "D9"], "trump": "H8", "players": 5, "seat": 2, "samples": 1500, "seed": 9}
ERROR = {"hand": ["HA", "HK", "HQ", "S6", "ST"], "trump": "H9", "players": 5, "seat": 2}


def at(page, selector: str, width: int) -> None:
    """On the phone: the part shown at the top of the screen."""
    if width < 900:
        page.eval_on_selector(selector, "e => e.scrollIntoView({block: 'start'})")


def fresh(page, width: int) -> None:
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.set_viewport_size({"width": width, "height": 860 if width < 900 else 1000})


def shots(page, out: Path, width: int) -> None:
    name = lambda what: out / f"serve-{width}-{what}.png"  # noqa: E731
    fresh(page, width)  # the seat list of seven players, the trainer's link in the header
    page.select_option("#players", "7")
    page.select_option("#seat", label="second to speak")
    snap(page, name("seats"), width)

    fresh(page, width)  # Next hand: every score with its player
    page.select_option("#players", "5")
    page.select_option("#seat", "2")
    page.click("#score-details summary")
    page.fill("#scores", "20,14,7,3,18")
    page.fill("#streaks", "0,2,0,0,1")
    page.click("#next-hand")
    at(page, "#score-details", width)
    snap(page, name("nexthand"), width)

    fresh(page, width)  # the dealer after a Rumba: what "not known" means, and no knock
    page.select_option("#players", "5")
    page.select_option("#seat", label="the dealer")
    page.select_option("#before-1", "rumba")
    at(page, "#before-block", width)
    snap(page, name("words"), width)

    for what, question, button in (("flemish", FLEMISH, "#ask"), ("moredeals", CLOSE, "#ask")):
        fresh(page, width)
        fill(page, **question)
        answer(page, button, timeout=600_000)
        snap(page, name(what), width)

    fresh(page, width)  # the knock, too close at 300 deals
    page.select_option("#players", "4")
    page.select_option("#seat", label="the dealer")
    page.click("#mode-trump")
    page.click("#picker [data-card='HA']")
    advanced(page, samples=300, seed=1)
    answer(page, "#knock-ask", timeout=600_000)
    snap(page, name("knockmore"), width)

    fresh(page, width)  # the game block in a player's words, the exchange's cards named
    fill(page, **GAME)
    page.click("#score-details summary")
    page.fill("#scores", "15,17,4,19,12")
    answer(page, timeout=600_000)
    at(page, "#game-block", width)
    snap(page, name("game"), width)

    fresh(page, width)  # an error, its cards as the page shows them
    fill(page, **ERROR)
    page.evaluate("document.getElementById('trump-text').value = 'ST'")
    answer(page)
    snap(page, name("cardserror"), width)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with running_server(App("tables", trainer=TRAINER)) as url, browser_context(400, 860) as context:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function("document.getElementById('warm').textContent.startsWith('Simulator ready')",
                               timeout=600_000)
        for width in (400, 1400):
            shots(page, out, width)
    for what in ("seats", "nexthand", "words", "flemish", "moredeals", "knockmore", "game", "cardserror"):
        for width in (400, 1400):
            png = out / f"serve-{width}-{what}.png"
            shrink(png)
            print(png, f"{png.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "reports/screens"))
