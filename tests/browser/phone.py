"""Filling in the page of `rumbaodds serve` as a player does: rule set, players, who he is, then a tap per card.

Shared by tests/test_serve_browser.py and the screenshots (tests/browser/screens.py).
"""

from __future__ import annotations


def advanced(page, **values) -> None:
    """Fill in ``values`` (samples=, precision=, seed=; None: blank), opening the folded advanced settings if needed."""
    if all((page.input_value(f"#{name}") or None) == (None if value is None else str(value))
           for name, value in values.items()):
        return  # nothing to change: left folded as it is
    if not page.eval_on_selector("#advanced", "d => d.open"):
        page.click("#advanced summary")
    for name, value in values.items():
        page.fill(f"#{name}", "" if value is None else str(value))


def fill(page, hand, trump, players, seat, rules=None, before=(), samples=None, seed=None, knocked=False) -> None:
    """A new hand: the role by its seat number (0 speaks first, players - 1 deals), earlier words, cards, trump."""
    if rules is not None:
        page.select_option("#rules", rules)
    page.select_option("#players", str(players))
    page.select_option("#seat", str(seat))
    page.click("#clear")
    for i, word in enumerate(before):
        page.select_option(f"#before-{i}", word)
    if knocked:
        page.check("#knocked")
    page.click("#mode-hand")
    for card in hand:
        page.click(f"#picker [data-card='{card}']")
    if trump:
        page.click("#mode-trump")
        page.click(f"#picker [data-card='{trump}']")
    advanced(page, samples=samples, seed=seed)


def answer(page, button: str = "#ask", timeout: float = 120_000) -> None:
    """Press Ask (or Knock?) and wait for the answer or an error (a table's answer: once what it left open is
    settled, when the page asks for that)."""
    page.click(button)
    page.wait_for_selector("#result:not([hidden]) #source:not([data-pending]), #form-error:not([hidden])",
                           timeout=timeout)
