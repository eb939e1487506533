"""How the report writes a number it knows only within an interval.

Rules (issue 10, "honest precision"), used by every chart and every table of the report:

- A signed value shows its sign only when its 95% interval excludes 0; otherwise it is written ``≈0``. It is
  never rounded into a wrong or empty sign: -0.03 with an interval below 0 is ``−0.03``, never ``−0.0`` or ``+0``.
- A cost (a value that is 0 or more by construction, such as the points a mistake gives away) is ``≈0`` when
  its interval reaches 0, else written with enough digits to be non-zero.
- A share is never written ``100%`` (or ``0%``) unless its interval excludes every other answer: ``>99%`` and
  ``<1%`` otherwise.
- Means come with their interval where the value is read: ``−1.2 [−1.6, −0.8]``.

Minus signs are the typographic minus (U+2212), as in print.
"""

from __future__ import annotations

import math

MINUS = "\u2212"
ABOUT_ZERO = "\u22480"  # ≈0
MAX_DIGITS = 3


def _finite(*values: float) -> bool:
    return all(v is not None and math.isfinite(float(v)) for v in values)


def _digits_for(value: float, digits: int) -> int:
    """Enough decimals that ``value`` (non-zero) does not round to 0 (at most MAX_DIGITS)."""
    d = digits
    while d < MAX_DIGITS and round(abs(value), d) == 0:
        d += 1
    return d


def number(value: float, digits: int = 1, signed: bool = True) -> str:
    """A plain number with the typographic minus; never ``-0.0``: a value rounding to 0 gets more digits, and
    one still 0 at MAX_DIGITS decimals is written ``<0.001`` with its sign (``0`` only for 0 itself)."""
    if not _finite(value):
        return "n/a"
    if value == 0:
        return "0"
    sign = MINUS if value < 0 else ("+" if signed else "")
    if round(abs(value), MAX_DIGITS) == 0:
        return f"{sign}<{10.0 ** -MAX_DIGITS:.{MAX_DIGITS}f}"
    d = _digits_for(value, digits)
    return sign + f"{abs(value):.{d}f}"


def excludes_zero(low: float, high: float) -> bool:
    return _finite(low, high) and (low > 0 or high < 0)


def signed(mean: float, low: float, high: float, digits: int = 1) -> str:
    """A signed mean: its sign only when the interval excludes 0, else ``≈0``."""
    if not _finite(mean, low, high):
        return "n/a"
    if not excludes_zero(low, high):
        return ABOUT_ZERO
    if (mean > 0) != (low > 0):  # a mean outside its own interval: trust the interval's side
        mean = low if low > 0 else high
    return number(mean, digits, signed=True)


def cost(mean: float, low: float, high: float, digits: int = 1) -> str:
    """A value >= 0 by construction (points given away): ``≈0`` unless its interval lies above 0."""
    if not _finite(mean, low, high):
        return "n/a"
    if not low > 0:
        return ABOUT_ZERO
    return number(max(mean, low), digits, signed=False)


def interval(low: float, high: float, digits: int = 1) -> str:
    """``[−1.6, −0.8]``: each end with enough digits that its sign is right."""
    if not _finite(low, high):
        return "[n/a]"
    return f"[{number(low, digits)}, {number(high, digits)}]"


def with_interval(mean: float, low: float, high: float, digits: int = 1) -> str:
    """A signed mean and its interval: ``−1.2 [−1.6, −0.8]``, or ``≈0 [−0.3, +0.2]``."""
    return f"{signed(mean, low, high, digits)} {interval(low, high, digits)}"


def share(p: float, low: float | None = None, high: float | None = None) -> str:
    """A share in whole percent; ``100%`` / ``0%`` only when the interval is exactly there (or no interval and
    the value is exact), else ``>99%`` / ``<1%``."""
    if not _finite(p):
        return "n/a"
    low = p if low is None else low
    high = p if high is None else high
    pct = round(100 * p)
    if pct >= 100:
        return "100%" if low >= 1.0 else ">99%"
    if pct <= 0:
        return "0%" if high <= 0.0 else "<1%"
    return f"{pct}%"


def share_with_interval(p: float, low: float, high: float) -> str:
    """``62% [55%, 69%]``."""
    if not _finite(p, low, high):
        return "n/a"
    return f"{share(p, low, high)} [{share(low, low, low)}, {share(high, high, high)}]"


def count(n: float) -> str:
    """A count with thousands separators: 12,345."""
    return f"{int(round(n)):,}"


__all__ = ["ABOUT_ZERO", "MINUS", "cost", "count", "excludes_zero", "interval", "number", "share",
           "share_with_interval", "signed", "with_interval"]
