"""The report's number rules (rumbaodds.report.precision): never a wrong sign, ≈0 where the interval holds 0,
no 100% where the interval does not exclude the other answer. Hand-worked cases, a property over every
interval, and a naive formatter as the negative control."""

from __future__ import annotations

import math
import re

from hypothesis import given
from hypothesis import strategies as st

from rumbaodds.report import precision as fmt

M = fmt.MINUS


def test_hand_worked_signs():
    assert fmt.signed(-0.03, -0.05, -0.01) == f"{M}0.03"  # below 0 for sure: never "-0" or "+0"
    assert fmt.signed(-0.03, -0.2, 0.1) == fmt.ABOUT_ZERO  # could be either side
    assert fmt.signed(0.004, 0.001, 0.007) == "+0.004"
    assert fmt.signed(2.04, 1.0, 3.1) == "+2.0"
    assert fmt.signed(-1.25, -1.6, -0.9, 2) == f"{M}1.25"
    assert fmt.signed(0.0, 0.0, 0.0) == fmt.ABOUT_ZERO  # an exact 0 has no sign either
    assert fmt.signed(math.nan, -1, 1) == "n/a"
    assert fmt.with_interval(-1.2, -1.6, -0.8) == f"{M}1.2 [{M}1.6, {M}0.8]"
    assert fmt.interval(-0.03, 1.2) == f"[{M}0.03, +1.2]"  # each end keeps its own sign
    assert fmt.number(-0.00001) == f"{M}<0.001" and fmt.number(-0.04) == f"{M}0.04" and fmt.number(0.0) == "0"


def test_costs_are_about_zero_until_their_interval_lifts_off():
    assert fmt.cost(0.3, -0.1, 0.7) == fmt.ABOUT_ZERO
    assert fmt.cost(0.3, 0.0, 0.6) == fmt.ABOUT_ZERO  # an interval touching 0 does not exclude it
    assert fmt.cost(0.3, 0.05, 0.55) == "0.3"
    assert fmt.cost(0.02, 0.01, 0.03) == "0.02"  # never rounded to "0.0"


def test_shares_never_claim_certainty_they_do_not_have():
    assert fmt.share(0.996, 0.97, 1.0) == ">99%"
    assert fmt.share(1.0, 0.9, 1.0) == ">99%"  # every hand agreed, but the interval allows less
    assert fmt.share(1.0, 1.0, 1.0) == "100%"
    assert fmt.share(0.002, 0.0, 0.03) == "<1%"
    assert fmt.share(0.0, 0.0, 0.0) == "0%"
    assert fmt.share(0.62) == "62%"
    assert fmt.share_with_interval(0.62, 0.55, 0.69) == "62% [55%, 69%]"


def naive(mean: float, low: float, high: float) -> str:
    """The formatting issue 10 found in the old report: one decimal, sign always shown."""
    return f"{mean:+.1f}"


def honest(text: str, mean: float, low: float, high: float) -> bool:
    """The rule: '≈0' exactly when the interval holds 0, else a non-zero number on the interval's side of 0."""
    if low <= 0 <= high:
        return text == fmt.ABOUT_ZERO
    match = re.fullmatch(rf"([+{M}])<?(\d+(\.\d+)?)", text)
    if not match:
        return False
    value = float(match.group(2))
    return value != 0 and (match.group(1) == "+") == (low > 0)


@given(st.floats(-20, 20), st.floats(0, 5), st.floats(0, 5), st.integers(0, 2))
def test_every_signed_value_is_honest(mean, below, above, digits):
    low, high = mean - below, mean + above
    assert honest(fmt.signed(mean, low, high, digits), mean, low, high)


def test_the_naive_formatter_fails_the_same_check():
    # negative control: the check above catches the old report's "-0.0" and "+0.0"
    assert not honest(naive(-0.03, -0.05, -0.01), -0.03, -0.05, -0.01)
    assert not honest(naive(-0.03, -0.2, 0.1), -0.03, -0.2, 0.1)
    assert honest(fmt.signed(-0.03, -0.05, -0.01), -0.03, -0.05, -0.01)
