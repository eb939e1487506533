"""Screenshots of the `rumbaodds serve` page for reports/screens/, taken in Debian's Chromium.

    .venv/bin/python tests/browser/screens.py [OUT]      # OUT defaults to reports/screens

The README hand at 1400 px and 400 px (whole page), an answer after a Rumba
call and an inline error at 400 px. Tables are read from ``tables/`` of the
current folder, as ``rumbaodds serve`` does.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser import browser_context, running_server  # noqa: E402
from rumbaodds.web.app import App  # noqa: E402


def fill(page, hand, trump, players, seat, before=(), samples=None, seed=None):
    page.select_option("#players", str(players))
    page.fill("#seat", str(seat))
    page.click("#clear")
    for i, word in enumerate(before):
        page.select_option(f"#before-{i}", word)
    for card in hand:
        page.click(f"#picker [data-card='{card}']")
    page.click("#mode-trump")
    page.click(f"#picker [data-card='{trump}']")
    page.fill("#samples", "" if samples is None else str(samples))
    page.fill("#seed", "" if seed is None else str(seed))


def answer(page):
    page.evaluate("document.getElementById('result').hidden = true")
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])", timeout=120_000)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    readme = (["HA", "HK", "HQ", "S6", "C7"], "H9", 5, 2)
    with running_server(App("tables")) as url, browser_context(1400, 1000) as context:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        fill(page, *readme, seed=11)
        answer(page)
        page.wait_for_function("document.getElementById('warm').textContent.startsWith('Simulator ready')")
        page.screenshot(path=str(out / "serve-1400.png"), full_page=True)
        page.set_viewport_size({"width": 400, "height": 900})
        page.screenshot(path=str(out / "serve-400.png"), full_page=True)
        fill(page, ["S7", "C8", "D9", "ST", "C6"], "H9", 4, 1, before=["rumba"], samples=20_000, seed=3)
        answer(page)
        page.locator("#result-section").screenshot(path=str(out / "serve-400-rumba-called.png"))
        fill(page, *readme[:3], 7)
        page.click("#ask")
        page.wait_for_selector("#form-error:not([hidden])")
        page.locator("#form-section").screenshot(path=str(out / "serve-400-bad-seat.png"))
    for png in sorted(out.glob("serve-*.png")):
        shrink(png)
        print(png, f"{png.stat().st_size // 1024} KiB")


def shrink(png: Path) -> None:
    """256 colours are plenty for a page of flat colours and text: a third of the size."""
    from PIL import Image

    with Image.open(png) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(png, optimize=True)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "reports/screens"))
