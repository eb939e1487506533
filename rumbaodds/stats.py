"""Estimates with their sample counts and 95% intervals: every figure travels with both."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo mean with its 95% interval ``[low, high]`` over ``samples`` draws."""

    mean: float
    low: float
    high: float
    samples: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @classmethod
    def of_mean(cls, values: np.ndarray) -> Estimate:
        """Normal-approximation interval mean ± 1.96 s/√N."""
        n = int(values.shape[0])
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = float(values.mean())
        sd = float(values.std(ddof=1)) if n > 1 else 0.0
        half = Z95 * sd / math.sqrt(n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def of_sums(cls, total: float, total_sq: float, n: int) -> Estimate:
        """The same interval from running sums (for runs done in batches)."""
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = total / n
        var = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
        half = Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def of_proportion(cls, hits: int, n: int) -> Estimate:
        """Wilson score interval: honest near 0 and 1, where the normal one is not."""
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        p = hits / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        # rounding can put a limit a hair inside p at 0 or 1: the interval always holds p
        return cls(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)), n)

    @classmethod
    def of_weighted(cls, sw: float, sw2: float, swx: float, sw2x: float, sw2x2: float, n: int) -> Estimate:
        """Self-normalised importance-sampling mean with its delta-method interval (weights 1: ``of_sums``).

        ``sw`` = sum of weights, ``sw2`` = sum of squared weights, ``swx`` = sum of w x,
        ``sw2x`` = sum of w^2 x, ``sw2x2`` = sum of w^2 x^2, over ``n`` samples.
        """
        if n == 0 or sw <= 0:
            return cls(math.nan, math.nan, math.nan, n)
        mean = float(swx / sw)
        if n < 2:
            return cls(mean, mean, mean, n)
        var = max(0.0, sw2x2 - 2 * mean * sw2x + mean * mean * sw2) / (sw * sw) * n / (n - 1)
        half = Z95 * math.sqrt(float(var))
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def of_weighted_proportion(cls, hit_weight: float, sw: float, sw2: float, n: int) -> Estimate:
        """Wilson interval of a weighted share, with the effective sample size ``sw^2 / sw2`` as its n."""
        if n == 0 or sw <= 0:
            return cls(math.nan, math.nan, math.nan, n)
        p = min(1.0, max(0.0, hit_weight / sw))
        ess = sw * sw / sw2
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * ess)) / (1 + z2 / ess)
        half = Z95 * math.sqrt(p * (1 - p) / ess + z2 / (4 * ess * ess)) / (1 + z2 / ess)
        return cls(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)), n)

    def as_dict(self, prefix: str = "ev") -> dict:
        return {prefix: self.mean, f"{prefix}_ci": [self.low, self.high]}

    def text(self, digits: int = 2) -> str:
        return f"{self.mean:+.{digits}f} [{self.low:+.{digits}f}, {self.high:+.{digits}f}]"
