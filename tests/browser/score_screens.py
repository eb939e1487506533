"""Screenshots of the page's score line and game block for reports/screens/ (issue 21), in Debian's Chromium.

    PYTHONPATH=$PWD python3 tests/browser/score_screens.py [OUT]      # OUT defaults to reports/screens
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser import browser_context, running_server  # noqa: E402
from browser.phone import fill  # noqa: E402
from browser.screens import shrink, snap  # noqa: E402
from rumbaodds.web.app import App  # noqa: E402

HAND, TRUMP, SCORES = ["HA", "HK", "S6", "C7", "D9"], "H8", "15,17,4,19,12"


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with running_server(App("tables")) as url, browser_context(400, 900) as context:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        fill(page, HAND, TRUMP, 5, 2, samples=5000, seed=9)
        page.click("#advanced summary")  # folded again: the score line is the point here
        page.click("#score-details summary")
        page.fill("#scores", SCORES)
        page.click("#ask")
        page.wait_for_selector("#result:not([hidden])", timeout=300_000)
        page.wait_for_function("document.getElementById('warm').textContent.startsWith('Simulator ready')")
        snap(page, out / "serve-scores-400.png", 400)
        page.set_viewport_size({"width": 1400, "height": 1000})
        snap(page, out / "serve-scores-1400.png", 1400)
    for png in sorted(out.glob("serve-scores-*.png")):
        shrink(png)
        print(png, f"{png.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "reports/screens"))
