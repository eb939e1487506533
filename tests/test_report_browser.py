"""The strategy report in a real browser (Debian's Chromium via Playwright): it fits a phone.

At 400 px and 1400 px: nothing wider than the window (no horizontal scrolling), no text under 11 px, every
element inside the window, images scaled to it, and the rule card of a player count on one screen. Checked
on the committed reports (reports/*/index.html, what ``make report`` wrote) and on a page rendered here from
full-size synthetic grids (so the check does not depend on the committed files). Skipped, with the reason,
only where no Chromium is installed (``.ci/run`` installs it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser import browser_context, skip_reason

from rumbaodds.report import grids, page, shapes, sources
from rumbaodds.report.lines import Line
from rumbaodds.rules import get_rules

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=str(skip_reason()))

REPORTS = Path(__file__).resolve().parents[1] / "reports"

LAYOUT = """width => {
  const out = {scroll: document.documentElement.scrollWidth, cut: [], small: [], images: [], texts: 0};
  for (const e of document.querySelectorAll('body *')) {
    if (!e.offsetParent) continue;  // not shown
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < -0.5 || r.right > width + 0.5) out.cut.push(e.tagName + '.' + e.className + ' ' +
                                                           (e.textContent || '').slice(0, 40));
    const own = Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (own) {
      out.texts += 1;
      if (parseFloat(getComputedStyle(e).fontSize) < 11) out.small.push(e.tagName + ' ' +
                                                                         e.textContent.trim().slice(0, 40));
    }
    if (e.tagName === 'IMG' && r.width > width) out.images.push(e.alt);
  }
  out.cards = Array.from(document.querySelectorAll('.card')).map(c => c.getBoundingClientRect().height);
  return out;
}"""


def synthetic_page(tmp_path: Path) -> Path:
    """A page with every box of every row filled (the widest a grid gets), long lines and labels."""
    rules = get_rules("swiss")
    rows, cols = shapes.trump_rows(rules), shapes.side_columns(rules)
    boxes = {}
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            best = ("rumba", "play", "pass")[(i + j) % 3]
            margin = grids.Interval(0.37 * j - 0.5, 0.37 * j - 0.9, 0.37 * j + 0.2)
            boxes[(r, c)] = grids.Box(r, c, 1234, 123_400, 1.0, {best: grids.Interval(-1.0, -1.5, -0.5)}, best,
                                      "play", margin, 0.9 if j % 4 == 0 else 1.0)
    grid = grids.Grid("Seats 1\u20135 (middle)", rows, cols, ("pass", "play", "rumba"), boxes)
    info = sources.TableInfo(7, "default", 21_000, 2_100_000, True, "tables/swiss-7p-default-expert-100x-3000cells")
    lines = [Line("rumba", "Call Rumba with 4+ trumps headed by the K or better, or 3+ trumps headed by the A and "
                  "a side ace.", grids.Interval(0.41, 0.3, 0.5), where="per hand", seats="Seats 1\u20135"),
             Line("sit", "Sit out with fewer than 2 trumps, or two trumps below the Q, and at most one side ace; "
                  "otherwise play.", grids.Interval(0.2, 0.1, 0.3), where="per hand")] * 3
    sections = [page.CountSection(7, [grid, grid, grid], lines, info, third=grid,
                                  files={"PNG": "card_7p.png", "PDF": "card_7p.pdf"})]
    rp = page.ReportPage(rules, "swiss", "today", sections, [], [], 5, [], [info], "rumbaodds report " + "x" * 300,
                         ["rumbaodds tables build --rules swiss --players 7"])
    path = tmp_path / "synthetic.html"
    path.write_text(page.render(rp), encoding="utf-8")
    return path


def pages(tmp_path: Path) -> list[Path]:
    committed = sorted(REPORTS.glob("*/index.html"))
    assert committed, "reports/*/index.html are committed (make report writes them)"
    return committed + [synthetic_page(tmp_path)]


@pytest.mark.parametrize("width", [400, 1400])
def test_reports_fit_the_window(tmp_path, width):
    height = 860
    with browser_context(width, height) as context:
        tab = context.new_page()
        for path in pages(tmp_path):
            tab.goto(path.resolve().as_uri())
            layout = tab.evaluate(LAYOUT, width)
            assert layout["texts"] > 50, path  # the check did see the page
            assert layout["scroll"] <= width, (path, layout["scroll"])
            assert layout["cut"] == [], (path, layout["cut"][:5])
            assert layout["small"] == [], (path, layout["small"][:5])
            assert layout["images"] == [], (path, layout["images"])
            if path.name == "index.html" and path.parent.name != "rummy":  # the rummy page has charts, no cards
                assert layout["cards"] and max(layout["cards"]) <= height, (path, layout["cards"])


def test_the_check_sees_overflow_and_small_text(tmp_path):
    # negative control: a page with a wide table and 9 px text fails both checks
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><head><meta name=viewport content=\"width=device-width\"></head><body>"
                   "<table style=\"width:900px\"><tr><td>wide</td></tr></table><p style=\"font-size:9px\">tiny</p>"
                   + "<p>text</p>" * 60 + "</body></html>")
    with browser_context(400, 860) as context:
        tab = context.new_page()
        tab.goto(bad.resolve().as_uri())
        layout = tab.evaluate(LAYOUT, 400)
    assert layout["scroll"] > 400 and layout["cut"] and layout["small"] == ["P tiny"]


def full_page(tmp_path: Path) -> Path:
    """A page of full-table grids (every box filled, with the values a tap shows) and a rule card."""
    from rumbaodds.report import card as rulecard

    rules = get_rules("swiss")
    rows, cols = shapes.trump_rows(rules), shapes.side_columns(rules)
    boxes = {}
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            best = ("rumba", "play", "pass")[(i + j) % 3]
            box = grids.Box(r, c, 1234, 123_400, 1.0, {}, best, ("play", "pass", "play")[(i + j) % 3],
                            grids.Interval(0.3 * j, 0.3 * j - 0.2, 0.3 * j + 0.2), 0.9)
            box.sure_other = 0.04 * (j % 4)
            box.extra.update({"full": True, "share": 0.002 * (i + 1), "unknown": 0.0,
                              "by_best": {"pass": 0.05, "play": 0.05, "rumba": 0.9},
                              "examples": [{"hand": "CK S7 S8 S9 SA", "trump": "S6", "seat": 1, "best": best,
                                            "runner": "play", "margin": 1.2, "half": 0.4}]})
            boxes[(r, c)] = box
    grid = grids.Grid("Seats 1\u20133 (middle)", rows, cols, ("pass", "play", "rumba"), boxes, (1, 2, 3), quick=False)
    info = sources.TableInfo(5, "equilibrium", 2_730_060, 183_000_000, False, "rumbaodds/tables/packed/swiss-5p")
    line = rulecard.CardLine("rumba", rulecard.Condition("not the dealer", (rulecard.Atom("trumps", ">=", 2),
                                                                           rulecard.Atom("points", ">=", 12))),
                             grids.Interval(0.07, 0.06, 0.08))
    card = rulecard.RuleCard(5, [line] * 7 + [rulecard.CardLine("play", None, grids.Interval(0.2, 0.19, 0.21))],
                             grids.Interval(0.0498, 0.0496, 0.05), 0.882, 0.978, 0.74, 0.05, 0.047, 0.002)
    sections = [page.CountSection(5, [grid, grid, grid], [], info, card=card,
                                  files={"A4 PDF": "card_5p.pdf", "A5 PDF": "card_5p_a5.pdf", "PNG": "card_5p.png"})]
    rp = page.ReportPage(rules, "swiss", "today", sections, [], [], 5, [], [info], "rumbaodds report", [])
    path = tmp_path / "full.html"
    path.write_text(page.render(rp), encoding="utf-8")
    return path


TAP = """() => {
  const d = document.querySelector('tr.dr');
  if (!d || d.hidden) return null;
  const r = d.getBoundingClientRect();
  const size = parseFloat(getComputedStyle(d.querySelector('p')).fontSize);
  return {text: d.innerText, left: r.left, right: r.right, size: size};
}"""


def test_a_tap_on_a_box_shows_its_values_at_400_px(tmp_path):
    committed = REPORTS / "swiss" / "index.html"
    with browser_context(400, 860, touch=True) as context:
        tab = context.new_page()
        for path in [full_page(tmp_path)] + ([committed] if committed.exists() else []):
            tab.goto(path.resolve().as_uri())
            layout = tab.evaluate(LAYOUT, 400)
            assert layout["scroll"] <= 400 and layout["cut"] == [] and layout["small"] == [], (path, layout["cut"][:3])
            assert tab.evaluate(TAP) is None  # nothing shown before a tap
            box = tab.locator(".gridbox td[data-d]").nth(12)
            box.scroll_into_view_if_needed()
            box.tap()
            shown = tab.evaluate(TAP)
            assert shown is not None, path
            assert "Second best:" in shown["text"] and "Example:" in shown["text"], shown["text"][:300]
            assert shown["left"] >= 0 and shown["right"] <= 400 and shown["size"] >= 11
            layout = tab.evaluate(LAYOUT, 400)
            assert layout["scroll"] <= 400 and layout["cut"] == [], layout["cut"][:3]
            tab.locator("tr.dr button.x").tap()
            assert tab.evaluate(TAP) is None  # closed


COUNTS = """() => Array.from(document.querySelectorAll('table.g td .n')).map(
  n => [n.textContent, n.scrollWidth, n.clientWidth])"""


def counts_page(tmp_path: Path, css: str = "") -> Path:
    """A quick-table page whose boxes hold the widest counts a flemish grid shows (5 digits, and one of 6), every
    box of every row filled; ``css`` is added to the page's style (the negative control's old layout)."""
    rules = get_rules("flemish")
    rows, cols = shapes.trump_rows(rules), shapes.side_columns(rules)
    boxes = {}
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            best = ("rumba", "play", "pass")[(i + j) % 3]
            count = 123_456 if (i, j) == (0, 0) else 88_888 - i * 100 - j
            boxes[(r, c)] = grids.Box(r, c, count, 100 * count, 1.0, {best: grids.Interval(-1.0, -1.5, -0.5)}, best,
                                      "play", grids.Interval(0.37 * j - 0.5, 0.37 * j - 0.9, 0.37 * j + 0.2), 1.0)
    grid = grids.Grid("Seats 1\u20134 (middle)", rows, cols, ("pass", "play", "rumba"), boxes)
    info = sources.TableInfo(6, "default", 900_000, 108_000_000, True, "tables/flemish-6p-default-150000cells")
    sections = [page.CountSection(6, [grid, grid, grid], [], info, files={"PNG": "card_6p.png"})]
    rp = page.ReportPage(rules, "flemish", "today", sections, [], [], 4, [], [info], "rumbaodds report", [])
    path = tmp_path / "counts.html"
    path.write_text(page.render(rp).replace("</style>", css + "</style>", 1), encoding="utf-8")
    return path


def test_five_digit_counts_fit_their_box_at_400_px(tmp_path):
    """Issue 36: a flemish grid's 5-digit situation counts were cut off at 400 px. Every count element's text fits
    its box (scrollWidth <= clientWidth) on a page of the widest counts and on the committed pages."""
    # negative control: the layout before the fix (a plain block, the 58 px row labels) cuts the 5-digit counts
    before = "table.g td .n{letter-spacing:0}@media (max-width:480px){table.g th.r{width:58px}}"
    with browser_context(400, 860) as context:
        tab = context.new_page()
        tab.goto(counts_page(tmp_path, before).resolve().as_uri())
        cut = [c for c in tab.evaluate(COUNTS) if c[1] > c[2]]
        assert len(cut) > 100 and all(len(text) == 5 for text, _, _ in cut), cut[:3]
        for path in [counts_page(tmp_path)] + sorted(REPORTS.glob("*/index.html")):
            tab.goto(path.resolve().as_uri())
            counts = tab.evaluate(COUNTS)
            if path.name == "counts.html":
                assert len(counts) == 3 * 9 * len(shapes.trump_rows(get_rules("flemish")))
                assert {len(text) for text, _, _ in counts} == {4, 5}  # 123,456 reads 123k
            cut = [c for c in counts if c[1] > c[2]]
            assert cut == [], (path, cut[:5])
            layout = tab.evaluate(LAYOUT, 400)
            assert layout["scroll"] <= 400 and layout["cut"] == [] and layout["small"] == [], (path, layout["cut"][:3])


def test_the_end_of_the_game_page_fits_a_phone():
    """reports/endgame.html (issue 38): its grids scale to 400 px, nothing cut, no small text."""
    path = REPORTS / "endgame.html"
    assert path.exists(), "reports/endgame.html is committed (rumbaodds report-endgame writes it)"
    with browser_context(400, 860) as context:
        tab = context.new_page()
        tab.goto(path.resolve().as_uri())
        layout = tab.evaluate(LAYOUT, 400)
        assert tab.locator("img").count() >= 2
        assert layout["scroll"] <= 400 and layout["cut"] == [] and layout["small"] == [], layout
        assert layout["images"] == [], layout["images"]
