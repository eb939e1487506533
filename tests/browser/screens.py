"""Screenshots of the `rumbaodds serve` page for reports/screens/, taken in Debian's Chromium.

    PYTHONPATH=$PWD python3 tests/browser/screens.py [OUT]      # OUT defaults to reports/screens

At 400 px (a phone at the table: the screen the player sees after pressing
Ask, the action bar at its foot) and at 1400 px (the whole page): a Rumba
answer and a play answer (both from the shipped tables, at once), an answer
after a Rumba call (join or pass), the dealer's knock answer and an error;
and the phone's form with a hand tapped in (serve-400-form.png). Tables are
read from ``tables/`` of the current folder and the package, as
``rumbaodds serve`` does.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser import browser_context, running_server  # noqa: E402
from browser.phone import answer, fill  # noqa: E402
from rumbaodds.web.app import App  # noqa: E402

RUMBA = {"hand": ["HA", "HK", "HQ", "S6", "C7"], "trump": "H9", "players": 5, "seat": 2}  # the README hand
PLAY = {"hand": ["HJ", "H7", "SA", "D9", "C8"], "trump": "H6", "players": 4, "seat": 0}
JOIN = {"hand": ["HA", "HK", "S6", "C7", "D9"], "trump": "H8", "players": 4, "seat": 2, "before": ["pass", "rumba"],
        "samples": 4_000, "seed": 8612274886174038521}
KNOCK = {"hand": [], "trump": "HA", "players": 4, "seat": 3, "samples": 400, "seed": 7}
ERROR = {**RUMBA, "trump": "HA"}  # the trump card in the hand


def snap(page, path: Path, width: int) -> None:
    """The phone's screen as it is; the wide page whole (a window as tall as the page: the bar at its place)."""
    if width < 900:
        page.screenshot(path=str(path))
        return
    page.set_viewport_size({"width": width, "height": page.evaluate("document.documentElement.scrollHeight")})
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": width, "height": 1000})


def shots(page, out: Path, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 860 if width < 900 else 1000})
    if width < 900:
        fill(page, **RUMBA)
        page.evaluate("window.scrollTo(0, 0)")
        snap(page, out / f"serve-{width}-form.png", width)
    for name, question, button in (("rumba", RUMBA, "#ask"), ("play", PLAY, "#ask"), ("join", JOIN, "#ask"),
                                   ("knock", KNOCK, "#knock-ask"), ("error", ERROR, "#ask")):
        fill(page, **question)
        answer(page, button, timeout=600_000)
        snap(page, out / f"serve-{width}-{name}.png", width)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with running_server(App("tables")) as url, browser_context(400, 860) as context:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function("document.getElementById('warm').textContent.startsWith('Simulator ready')",
                               timeout=600_000)
        for width in (400, 1400):
            shots(page, out, width)
    for png in sorted(out.glob("serve-[0-9]*.png")):
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
