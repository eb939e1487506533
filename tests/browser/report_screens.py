"""Screenshots of the strategy reports for reports/screens/, taken in Debian's Chromium (Playwright).

    .venv/bin/python tests/browser/report_screens.py [REPORTS] [OUT]   # defaults: reports, reports/screens

For every rule set under REPORTS, at 1400 px and 400 px: the first screen (the cards), the grids of the usual
player count (5 swiss, 4 flemish; else the first), a box of them tapped (400 px), and the section after earlier
words; and the printed card of the usual player count (its PNG at print size); shrunk to 256 colours.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser import browser_context  # noqa: E402
from browser.screens import shrink  # noqa: E402

USUAL = {"swiss": 5, "flemish": 4}


def main(reports: Path, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for html in sorted(reports.glob("*/index.html")):
        name = html.parent.name
        for width, height in ((1400, 1000), (400, 860)):
            with browser_context(width, height) as context:
                page = context.new_page()
                page.goto(html.resolve().as_uri())
                path = out / f"report-{name}-{width}.png"
                page.screenshot(path=str(path))  # the first screen: the cards
                made.append(path)
                n = USUAL.get(name)
                heading = page.locator(f"h2#p{n}") if n and page.locator(f"h2#p{n}").count() else \
                    page.locator("h2[id^=p]").first
                grids = heading.locator("xpath=following-sibling::div[contains(@class,'grids')][1]")
                if grids.count():  # the rummy page has charts, no action grids
                    path = out / f"report-{name}-{width}-grids.png"
                    grids.screenshot(path=str(path))
                    made.append(path)
                    box = grids.locator("td[data-d]").nth(60)
                    if width == 400 and box.count():  # a box tapped: its values and two example hands
                        box.click()
                        path = out / f"report-{name}-{width}-tap.png"
                        box.locator("xpath=ancestor::div[contains(@class,'gridbox')][1]").screenshot(path=str(path))
                        made.append(path)
                words = page.locator("h2#words").locator("xpath=following-sibling::div[contains(@class,'grids')][1]")
                if words.count():
                    path = out / f"report-{name}-{width}-words.png"
                    words.screenshot(path=str(path))
                    made.append(path)
    for card in sorted(reports.glob("*/card_*p.png")):  # the printed card at print size (rendered from its PDF)
        n = USUAL.get(card.parent.name)
        if card.name == f"card_{n}p.png":
            path = out / f"report-{card.parent.name}-card-{n}p.png"
            path.write_bytes(card.read_bytes())
            made.append(path)
    for png in made:
        shrink(png)
        print(png, f"{png.stat().st_size // 1024} KiB")
    return made


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "reports"),
         Path(sys.argv[2] if len(sys.argv) > 2 else "reports/screens"))
