"""Screenshots of the trainer page (reports/trainer.html) at 400 px (a phone) and 1400 px, in Debian's Chromium.

    python tests/browser/trainer_screens.py [PAGE] [OUT]   # defaults: reports/trainer.html, reports/screens

Pictures of one practice round of 10 hands, dealt with the page's ``?seed=``, at each width: a question
(``trainer-400-question.png``), a graded answer (the costliest choice of the first hand, so the grade shows a loss:
``trainer-400-answer.png``) and the summary of the round (``trainer-400-summary.png``); the same at 1400 px
(``trainer-1400-*.png``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser import browser_context  # noqa: E402

SEED = 7


def costliest(page) -> str:
    """The open choice of the hand on screen that loses the most (read from the page's own data)."""
    return page.evaluate("Object.keys(current.g).sort((a, b) => current.g[b][0] - current.g[a][0])[0]")


def play_round(page, hands: int = 10, shots: dict | None = None) -> None:
    """Answer a round: the costliest choice on the first hand, the best one on odd hands, else the costliest."""
    page.select_option("#length", str(hands))
    if shots:
        page.screenshot(path=shots["question"], full_page=True)
    for i in range(hands):
        choice = costliest(page) if i % 2 == 0 else page.evaluate("current.b")
        page.click(f"#choices button[data-choice='{choice}']")
        if shots and i == 0:
            page.screenshot(path=shots["answer"], full_page=True)
        page.click("#next")
    page.wait_for_selector("#summary:not(.hidden)")
    if shots:
        page.screenshot(path=shots["summary"], full_page=True)


WIDTHS = {400: 860, 1400: 900}  # width: height of the window


def take(page_path: Path, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    taken = []
    for width, height in WIDTHS.items():
        shots = {name: out / f"trainer-{width}-{name}.png" for name in ("question", "answer", "summary")}
        with browser_context(width, height) as context:
            page = context.new_page()
            page.goto(page_path.resolve().as_uri() + f"?seed={SEED}")
            page.wait_for_selector("body[data-ready='1']")
            play_round(page, 10, shots)
        taken.extend(shots.values())
    return taken


if __name__ == "__main__":
    page_file = Path(sys.argv[1] if len(sys.argv) > 1 else "reports/trainer.html")
    folder = Path(sys.argv[2] if len(sys.argv) > 2 else "reports/screens")
    for path in take(page_file, folder):
        print(path)
