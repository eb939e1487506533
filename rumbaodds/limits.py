"""The ranges of every number a user can give, defined once for the command line and the web API.

A value outside its range is refused at the door, before any table is read or
any deal simulated: the command line turns :class:`LimitError` into
``click.BadParameter`` (one line, exit code 2, rumbaodds.cli.options), the web
API into HTTP 400 (rumbaodds.web.params). Caps are stated, never silent: a run
longer than a cap is an error naming the cap, not a shorter run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_DEALS = 20_000_000  # the most deals one `ask` simulates (simulation.MAX_SAMPLES is this)
MAX_KNOCK_DEALS = MAX_DEALS // 100  # simulation.knock's own cap: each knock deal plays --inner-samples more
MAX_RUMMY_TURNS = 60  # rummy.odds.MAX_TURNS
SEED_HIGH = 2**63 - 1  # the counter-based random stream takes a 63-bit seed (seeds.check_seed)


class LimitError(ValueError):
    """A number outside its range: the message names the option and the range."""


@dataclass(frozen=True)
class Limit:
    """The closed range ``low..high`` of one integer or finite float; ``why`` says where the bound comes from."""

    low: int | float
    high: int | float
    kind: str = "int"  # int or float
    why: str = ""

    def describe(self) -> str:
        if self.kind == "int":
            high = "2**63-1" if self.high == SEED_HIGH else f"{self.high:,}"
            return f"{self.low:,}..{high}"
        return f"{self.low:g}..{self.high:g}"

    def parse(self, text, name: str):
        """``text`` (a string or a number) as a checked int or float; LimitError naming ``name`` otherwise."""
        if isinstance(text, bool):
            raise LimitError(f"{name}: {text!r} is not a number")
        if self.kind == "int":
            value = _parse_int(text, name)
        else:
            value = _parse_float(text, name)
        return self.check(value, name)

    def check(self, value, name: str):
        if not self.low <= value <= self.high:
            why = f" ({self.why})" if self.why else ""
            shown = _short(value)
            raise LimitError(f"{name} must be {self.describe()}{why}, got {shown}")
        return value


def _short(value) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


def _parse_int(text, name: str) -> int:
    if isinstance(text, int):
        return text
    if isinstance(text, float):
        if not text.is_integer():
            raise LimitError(f"{name}: {text!r} is not a whole number")
        return int(text)
    raw = str(text).strip()
    if len(raw) > 40:
        raise LimitError(f"{name}: {raw[:10]}... ({len(raw)} characters) is not a number in range")
    try:
        return int(raw)
    except ValueError:
        raise LimitError(f"{name}: {_short(raw)!r} is not a whole number") from None


def _parse_float(text, name: str) -> float:
    raw = str(text).strip()
    if len(raw) > 40:
        raise LimitError(f"{name}: {raw[:10]}... ({len(raw)} characters) is not a number in range")
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise LimitError(f"{name}: {_short(raw)!r} is not a number") from None
    if not math.isfinite(value):
        raise LimitError(f"{name}: {raw!r} is not a finite number")
    return value


# -- the ranges ----------------------------------------------------------------------------------------------------
SEED = Limit(0, SEED_HIGH, why="the random stream's seed")
DEAL_SEED = Limit(0, 2**64 - 1)  # deal files: the seed of `deals generate` (RULES.md §7)
PORT = Limit(0, 65535, why="0 picks a free port")
PLAYERS = Limit(2, 52, why="the rule set's own range is checked next")
SEAT = Limit(0, 51, why="below the player count")
PASSES_IN_A_ROW = Limit(0, 99, why="passes in a row before this hand")
ASK_SAMPLES = Limit(1, MAX_DEALS, why="the cap of one run")
ASK_PRECISION = Limit(0.01, 100.0, "float", why=f"finer would need more than the {MAX_DEALS:,}-deal cap")
KNOCK_SAMPLES = Limit(1, MAX_KNOCK_DEALS, why="the cap of one knock run")
KNOCK_PRECISION = Limit(0.1, 100.0, "float", why=f"finer would need more than the {MAX_KNOCK_DEALS:,}-deal cap")
INNER_SAMPLES = Limit(1, 100_000, why="deals per knock deal")
TABLE_PRECISION = Limit(0.01, 100.0, "float", why="points of half-width per cell")
CELL_SAMPLES = Limit(1, 10_000_000, why="deals per cell")
CELLS = Limit(1, 10_000_000)
CHUNK_CELLS = Limit(1, 10_000_000)
WORKERS = Limit(1, 4096)
ITERATIONS = Limit(1, 1_000_000)
SOLVE_SAMPLES = Limit(1, 100_000_000, why="deals per seat and iteration")
EVAL_SAMPLES = Limit(4, 1_000_000_000, why="a quarter is used at each check")
RUMMY_SAMPLES = Limit(1, 10_000_000, why="the cap of one run")
RUMMY_TURNS = Limit(1, MAX_RUMMY_TURNS)
DEAL_COUNT = Limit(0, 10**12)
HAND_SIZE = Limit(1, 5, why="the rule set's own hand size is checked next")
DPI = Limit(20, 1200, why="dots per inch of the charts")
REPORT_SAMPLES = Limit(2, 10_000_000)
REPORT_COUNT = Limit(1, 10_000_000)
GAMES = Limit(1, 10_000_000, why="the cap of one run")  # rumbaodds game: whole games simulated
# --scores, one entry: above the goal (0 in both presets; at 0 or below the game is over), so a house rule's goal_score
# must be 0 or more (rules.py)
SCORE = Limit(1, 999, why="a player's score in a game: at 0 or below it is over")


def parse_int_list(limit: Limit, text, name: str, example: str) -> tuple:
    """Comma-separated whole numbers, one per player (``20,14,7,3,18``), each within ``limit`` (--scores, --passes).

    The command line (options.IntList) and the web API (web.params) both read lists here: the same messages.
    """
    parts = str(text).replace(" ", "").split(",")
    if len(parts) > PLAYERS.high:
        raise LimitError(f"{name}: {len(parts)} numbers, more than the {PLAYERS.high} players of any table")
    out = []
    for part in parts:
        try:
            out.append(limit.parse(part, name))
        except LimitError as exc:
            raise LimitError(f"{exc} (write e.g. {example})") from None
    return tuple(out)

__all__ = ["Limit", "LimitError", "MAX_DEALS", "MAX_KNOCK_DEALS", "SEED", "PORT", "PLAYERS", "SEAT",
           "PASSES_IN_A_ROW", "ASK_SAMPLES", "ASK_PRECISION"]
