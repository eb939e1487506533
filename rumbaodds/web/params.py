"""The query string of ``/api/ask`` and ``/api/jobs``: named like ``rumbaodds ask``'s options, checked here.

The form of each value (a whole number, a yes/no, a known name) and the range
of every number (rumbaodds.limits, the command line's own ranges) are checked
here; everything about the game (cards, seats, earlier words) is
checked by :func:`rumbaodds.answer.simulation.make_situation`, so the page gives the
command line's own one-line messages. Rule sets and opponent models are
chosen by name only (a page must not open files by path); house-rule files
are named to ``rumbaodds serve --rules FILE`` instead.

A server answers many people, so one request may ask for a few seconds of
simulation only (:func:`check_work`): its caps come from a work budget
(:data:`WORK_SECONDS`) and the kernels' measured speed, not from the command
line's own, much larger ranges.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from .. import limits
from ..cardplay import DEFAULT_PLAY
from ..limits import Limit, LimitError
from ..opponents.models import OpponentModel
from ..rules import RuleSet


class ParamError(ValueError):
    """A query parameter that cannot be read: answered with HTTP 400 and this message."""


@dataclass(frozen=True)
class Param:
    name: str  # the option of `rumbaodds ask`, with _ for -
    kind: str  # text, int, float, flag, list (comma-separated whole numbers, one per seat)
    required: bool = False
    example: str = ""
    limit: Limit | None = None  # the range of a number (int, float), shared with the command line


PARAMS: tuple[Param, ...] = (
    Param("hand", "text", True, "HA+HK+HQ+S6+C7"),
    Param("trump", "text", True, "H9"),
    Param("players", "int", True, "5", limits.PLAYERS),
    Param("seat", "int", True, "2", limits.SEAT),
    Param("rules", "text"),
    Param("passes_in_a_row", "int", limit=limits.PASSES_IN_A_ROW),
    Param("before", "text"),
    Param("dealer_knocked", "flag"),
    Param("opponents", "text"),
    Param("play", "text"),
    Param("samples", "int", limit=limits.ASK_SAMPLES),
    Param("precision", "float", limit=limits.ASK_PRECISION),
    Param("seed", "int", limit=limits.SEED),
    Param("simulate", "flag"),
    Param("settle", "flag"),  # a table's answer with what it leaves open settled now (the page's follow-up request)
    Param("scores", "list", example="20,14,7,3,18", limit=limits.SCORE),  # the game value (match/ask.py, §9)
    Param("passes", "list", example="0,2,0,0,1", limit=limits.PASSES_IN_A_ROW),  # with scores: every seat's streak
)
# -- the work of one request on this server ------------------------------------------------------------------------
WORK_SECONDS = 5.0  # a few seconds of simulation per request: every cap below comes from this budget
ASK_DEALS_PER_SECOND = 100_000  # ask's kernel on 2 cores: the README's hand, 200,000 deals in 1.9-2.8 s
GAME_DEALS_PER_SECOND = 8_000  # ask_game (scores=) on 2 cores: 20,000 deals in 2.5 s
WORST_SD = 8.0  # points: the widest spread of one choice's score change seen (a Rumba on a poor hand, 7.8)
SAMPLES_CAP = int(WORK_SECONDS * ASK_DEALS_PER_SECOND)  # 500,000 deals
GAME_SAMPLES_CAP = int(WORK_SECONDS * GAME_DEALS_PER_SECOND)  # 40,000 deals
# the finest precision the cap reaches even where conditioning leaves a quarter of the deals effective: 0.05
PRECISION_FLOOR = math.ceil(100 * 1.96 * WORST_SD / math.sqrt(SAMPLES_CAP / 4)) / 100
# the hard stop of any one run: 60 s. Not the budget of what a request may ask for (the caps above) but a safety net
# for slow, heavily conditioned situations: today's slowest default question (a 7-player dealer after six earlier
# words, 200,000 deals) takes up to 40 s on 2 cores
MAX_SECONDS = 12 * WORK_SECONDS
# the knock plays each deal out both ways and asks 200 inner deals for the dealer's best look-first choice: 6,000
# knock deals in 23 s on 2 cores. A knock request may ask for half the hard stop's worth: 7,500 deals
KNOCK_DEALS_PER_SECOND = 250
KNOCK_SAMPLES_CAP = int(MAX_SECONDS / 2 * KNOCK_DEALS_PER_SECOND)
GAME = ("scores", "passes")  # the score-aware question's own values (match.ask.ask_game)
BY_NAME = {p.name: p for p in PARAMS}
TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off"}


def _convert(param: Param, text: str):
    if param.kind == "text":
        return text
    if param.kind == "flag":
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise ParamError(f"{param.name}: {text!r} is not a yes/no value (use 1 or 0)")
    option = "--" + param.name.replace("_", "-")
    try:  # named like the command line's option, so that both give the very same message
        if param.kind == "list":
            return limits.parse_int_list(param.limit, text, option, param.example)
        return param.limit.parse(text, option)
    except LimitError as exc:
        raise ParamError(str(exc)) from None


def _pick(name: str, table: Mapping, what: str, option: str):
    key = name.strip().lower()
    if key not in table:
        raise ParamError(f"unknown {what} {name!r} (use {', '.join(table)}; `rumbaodds serve {option} FILE` "
                         f"adds one from a file)")
    return table[key]


def parse_query(query: Mapping[str, list[str]], rule_sets: Mapping[str, RuleSet],
                models: Mapping[str, OpponentModel]) -> dict:
    """The checked values of a parsed query string: :func:`ask_arguments` of them build the question.

    An empty value counts as not given (a form's blank field). Raises ParamError naming the parameter.
    """
    values: dict = {}
    for name, texts in query.items():
        param = BY_NAME.get(name)
        if param is None:
            raise ParamError(f"unknown parameter {name!r} (known: {', '.join(BY_NAME)})")
        if len(texts) > 1:
            raise ParamError(f"parameter {name!r} given {len(texts)} times")
        text = texts[0].strip()
        if text:
            values[name] = _convert(param, text)
    for param in PARAMS:
        if param.required and param.name not in values:
            raise ParamError(f"missing parameter {param.name!r} (e.g. {param.name}={param.example})")
    values["rules"] = _pick(values.get("rules", "swiss"), rule_sets, "rule set", "--rules")
    values["opponents"] = _pick(values.get("opponents", "equilibrium"), models, "opponent model", "--opponents")
    if values.get("samples") is not None and values.get("precision") is not None:
        raise ParamError("give --samples or --precision, not both")
    return values


def check_work(values: dict) -> None:
    """Refuse a run longer than this server gives one request (ParamError naming the limit).

    ``values`` have passed :func:`parse_query` (the command line's own ranges, with its own messages).
    """
    samples, precision = values.get("samples"), values.get("precision")
    game = values.get("scores") is not None
    cap = GAME_SAMPLES_CAP if game else SAMPLES_CAP
    if samples is not None and samples > cap:
        kind = " with scores" if game else ""
        raise ParamError(f"samples: at most {cap:,}{kind} per request on this server (about {WORK_SECONDS:g} s of "
                         f"simulation), got {samples:,}; `rumbaodds ask --samples` runs longer")
    if precision is not None and precision < PRECISION_FLOOR:
        raise ParamError(f"precision: at least {PRECISION_FLOOR:g} per request on this server (finer needs more "
                         f"than its {cap:,}-deal cap), got {precision:g}; `rumbaodds ask --precision` runs longer")


def check_knock_work(values: dict) -> None:
    """Refuse a knock run longer than this server gives one request (ParamError naming the limit)."""
    samples = values.get("samples")
    if samples is not None and samples > KNOCK_SAMPLES_CAP:
        raise ParamError(f"samples: at most {KNOCK_SAMPLES_CAP:,} knock deals per request on this server (about "
                         f"{MAX_SECONDS / 2:g} s of simulation), got {samples:,}; `rumbaodds knock --samples` runs "
                         "longer")


def caps() -> dict[str, int]:
    """The most deals one request may ask for here, by route (/api/meta: the page's "more deals" stays within)."""
    return {"samples": SAMPLES_CAP, "game_samples": GAME_SAMPLES_CAP, "knock_samples": KNOCK_SAMPLES_CAP}


def work_cap(values: dict) -> int:
    """The most deals one run of ``values`` may simulate here (a precision run stops with an error past it)."""
    return GAME_SAMPLES_CAP if values.get("scores") is not None else SAMPLES_CAP


def ask_arguments(values: dict) -> dict:
    """The subset of :func:`parse_query`'s values that :meth:`rumbaodds.answer.question.Question.of` takes."""
    return {k: v for k, v in values.items() if k not in ("simulate", "settle") and k not in GAME}


def game_arguments(values: dict) -> dict:
    """The keyword arguments of :func:`rumbaodds.match.ask.ask_game` for values with ``scores`` (issue 21)."""
    asked = ask_arguments(values)
    return {"hand": asked["hand"], "trump": asked["trump"], "players": asked["players"], "seat": asked["seat"],
            "scores": values["scores"], "passes": values.get("passes"), "rules": asked["rules"],
            "opponents": asked["opponents"], "play": asked.get("play", DEFAULT_PLAY),
            "dealer_knocked": asked.get("dealer_knocked", False), "before": asked.get("before"),
            "samples": asked.get("samples"), "precision": asked.get("precision"), "seed": asked.get("seed")}
