"""Which opponents a question names, resolved to the kernels' :class:`~.policies.Policy`.

A question names its opponents in words: ``equilibrium`` (the solved
strategies of :mod:`rumbaodds.strategy`), a style of :mod:`.models` (``default``,
``bold``, ...), a TOML file of thresholds, or a mixed table ``BASE,SEAT=STYLE``.
This module sits above both :mod:`.models` and :mod:`rumbaodds.strategy`, so that the
policy record (:mod:`.policies`) and the solver below it never import back up.
"""

from __future__ import annotations

from ..rules import RulesError
from ..strategy.store import find
from ..strategy.tables import to_policy
from .models import ModelError, OpponentModel, get_model, points_text
from .policies import Policy, named_policy


def describe(opponents) -> str:
    """One line saying how these opponents decide (a Policy or a named model)."""
    if isinstance(opponents, OpponentModel):
        return points_text(opponents)
    kind = opponents.meta.get("kind")
    if kind == "thresholds":
        text = points_text(OpponentModel(**opponents.meta["model"]))
        return f"{text}; {opponents.meta['fallback']}" if opponents.meta.get("fallback") else text
    if kind == "strategy" and opponents.meta.get("score_classes") is not None:
        return ("score-aware equilibrium (each seat by the strategy of its score class: its distance to 0, the "
                "leader's, whether a pass costs the sit-out penalty)")
    if kind == "strategy":
        high = opponents.meta.get("exploitability_seat_high")
        told = f"; a best response gains at most {max(high, 0.0):.3f} points per hand at any seat (95%)" \
            if high is not None else ""
        return f"equilibrium (solved strategies, each seat a best response to the others{told})"
    if kind == "mixed":
        seats = ", ".join(f"seat {s} {name}" for s, name in sorted(opponents.meta["seats"].items()))
        return f"{opponents.meta.get('base', opponents.name)} with {seats}"
    return opponents.meta.get("description", opponents.name)


EQUILIBRIUM = "equilibrium"
HAND_EQUILIBRIUM = "hand-equilibrium"  # the per-hand equilibrium by name: what a game's score-blind player plays
FALLBACK = "default"
DEFAULT_HELP = ("[default: equilibrium, the solved strategies; a house rule with none solved yet: the default "
                "style]")


def default_opponents(rules, players: int) -> tuple[str, str | None]:
    """(model, why) of a question that names no opponents [issue 8]: ``equilibrium`` wherever a solved strategy
    exists (shipped for the presets, cached for house rules), else ``default`` with the sentence saying so."""
    try:
        find(rules, players)
    except RulesError as exc:
        return FALLBACK, f"no solved strategy for these rules at {players} players, so the default style ({exc})"
    return EQUILIBRIUM, None


def opponent_policy(spec, rules, players: int) -> Policy:
    """The policy of ``spec``: a Policy, an OpponentModel, ``equilibrium`` (the solved strategy), a model name or
    a TOML file (models.get_model); ``"BASE,SEAT=STYLE,..."`` seats a style at single seats (a mixed table)."""
    if isinstance(spec, Policy):
        if spec.players != players:
            raise ValueError(f"policy {spec.name!r} is for {spec.players} players, not {players}")
        return spec
    if isinstance(spec, OpponentModel):
        return named_policy(spec, rules, players)
    base, *seats = [part.strip() for part in ("" if spec is None else str(spec)).split(",")]
    fallback = None
    if not base:  # no opponents named: the equilibrium where a strategy is solved, else the default style
        base, fallback = default_opponents(rules, players)
    if base.lower() in (EQUILIBRIUM, HAND_EQUILIBRIUM):  # one hand alone: the per-hand equilibrium
        solved = find(rules, players)
        per_seat = [solved.exploitability[str(seat)]["high"] for seat in range(players)
                    if str(seat) in solved.exploitability]
        policy = to_policy(solved.strategy, solved.abstraction, meta={
            "exploitability": solved.exploitability.get("total"), "iterations": solved.meta.get("iterations"),
            "exploitability_seat_high": max(per_seat) if per_seat else None,
            "file": solved.path.name if solved.path else None})
    else:
        policy = named_policy(get_model(base), rules, players)
        if fallback:
            policy = Policy(policy.name, policy.players, *policy.as_tuple(), {**policy.meta, "fallback": fallback})
    for part in seats:
        seat, _, style = part.partition("=")
        if not seat.strip().isdigit() or not style:
            raise ModelError(f"--seat-model {part!r}: write SEAT=STYLE, e.g. 3=bold")
        s = int(seat)
        if not 0 <= s < players:
            raise ModelError(f"--seat-model {part!r}: seat {s} does not exist with {players} players")
        policy = policy.with_seat(s, opponent_policy(style, rules, players))
    return policy


__all__ = ["opponent_policy", "describe", "default_opponents", "EQUILIBRIUM", "FALLBACK", "DEFAULT_HELP"]
