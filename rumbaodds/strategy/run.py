"""``strategy solve``: iterate, measure, checkpoint, resume; and what a table of one style is worth exploiting.

A solve writes a checkpoint (every regret and average) after each
iteration, so a killed solve started again with the same command goes on
from its last finished iteration and ends with the same strategy. A
checkpoint belongs to the numbers version of the code that wrote it (its
name and its settings say which): after a bump the play behind the regrets
has changed, and resuming a finished solve of the old play would only
re-measure the old strategy (numbers version 5's first re-solve did). The
exploitability of the average strategy is measured every ``check_every``
iterations on fresh deals and once more, with more deals, at the end.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .. import engine
from ..cardplay import DEFAULT_PLAY
from ..opponents.models import MODELS
from ..opponents.policies import named_policy
from ..rules import RulesError, RuleSet
from ..stats import Estimate
from . import store
from .abstraction import Abstraction, fit_abstraction
from .solver import SolveState, average_strategy, check_solvable, exploitability, iterate, total_exploitability

STYLES = ("cautious", "default", "bold", "all")
STATE_ARRAYS = ("regret_word", "regret_throw", "regret_knock", "avg_word", "avg_throw", "avg_knock")


def _estimates(per_seat: dict[int, Estimate]) -> dict:
    out = {str(s): {"mean": e.mean, "low": e.low, "high": e.high, "samples": e.samples} for s, e in per_seat.items()}
    total = total_exploitability(per_seat)
    out["total"] = {"mean": total.mean, "low": total.low, "high": total.high, "samples": total.samples}
    return out


def checkpoint_path(out: Path) -> Path:
    """Where the solve writing ``out`` keeps its state: one file per numbers version (``engine.NUMBERS_TAG``)."""
    return store.cache_folder() / "checkpoints" / f"{Path(out).stem}.{engine.NUMBERS_TAG}.state.npz"


def _save_state(path: Path, state: SolveState, seconds: float, settings: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}.npz")
    record = {"settings": settings, "iteration": state.iteration, "history": state.history, "seconds": seconds,
              "abstraction": state.abstraction.to_dict()}
    np.savez(tmp, record=np.array(json.dumps(record)), **{k: getattr(state, k) for k in STATE_ARRAYS})
    os.replace(tmp, path)


def _load_state(path: Path, rules: RuleSet, players: int, settings: dict):
    with np.load(path, allow_pickle=False) as data:
        record = json.loads(str(data["record"]))
        if record["settings"] != settings:
            raise RulesError(f"{path} holds a solve with other settings ({record['settings']}); remove it or solve "
                             f"with the same options")
        state = SolveState(rules, players, Abstraction.from_dict(record["abstraction"]), settings["seed"],
                           settings["samples"], record["iteration"], *(data[k] for k in STATE_ARRAYS),
                           history=record["history"])
    return state, float(record["seconds"])


def solve(rules: RuleSet, players: int, iterations: int = 80, samples: int = 40_000, seed: int = 0,
          out: Path | None = None, eval_samples: int = 100_000, check_every: int = 10,
          progress: Callable[[int, int, Estimate | None], None] | None = None, styles=STYLES) -> store.Solved:
    """Solve (or resume solving) and write the strategy file; returns it."""
    check_solvable(rules)
    rules.check_players(players)
    for name, value in (("--iterations", iterations), ("--samples", samples), ("--eval-samples", eval_samples),
                        ("--check-every", check_every)):
        if value <= 0:
            raise RulesError(f"{name} must be positive, got {value}")
    out = Path(out) if out is not None else store.default_path(rules, players)
    settings = {"rules": rules.to_dict(), "players": players, "samples": samples, "seed": seed,
                "dynamics": "regrets against the others' average", "play": DEFAULT_PLAY,
                "numbers": engine.NUMBERS_VERSION}
    ckpt = checkpoint_path(out)
    seconds = 0.0
    if ckpt.exists():
        state, seconds = _load_state(ckpt, rules, players, settings)
    else:
        state = SolveState(rules, players, fit_abstraction(rules, seed=seed + 1), seed, samples)
    last = None
    if state.history:
        last = Estimate(**{k: state.history[-1]["total"][k] for k in ("mean", "low", "high", "samples")})
    if progress is not None:
        progress(state.iteration, iterations, last)
    while state.iteration < iterations:
        start = time.perf_counter()
        iterate(state)
        if state.iteration % check_every == 0 or state.iteration == iterations:
            per_seat = exploitability(rules, players, state.abstraction, average_strategy(state), eval_samples // 4,
                                      seed + 7919 * state.iteration)
            state.history.append({"iteration": state.iteration, **_estimates(per_seat)})
            last = total_exploitability(per_seat)
        seconds += time.perf_counter() - start
        _save_state(ckpt, state, seconds, settings)
        if progress is not None:
            progress(state.iteration, iterations, last)
    strategy = average_strategy(state)
    final = exploitability(rules, players, state.abstraction, strategy, eval_samples, seed + 104729)
    meta = {"name": "equilibrium", "play": DEFAULT_PLAY, "iterations": state.iteration,
            "samples_per_iteration": samples, "seed": seed,
            "seconds": round(seconds, 1), "exploitability": _estimates(final), "history": state.history,
            "method": "regret matching+ over simulated deals, linear averaging (docs/STRATEGY.md)"}
    meta["exploit_styles"] = {name: _estimates(exploit_style(rules, players, state.abstraction, strategy, name,
                                                              eval_samples // 2, seed + 31 * (i + 1)))
                              for i, name in enumerate(styles)}
    solved = store.Solved(strategy, rules, players, state.abstraction, meta)
    store.save(out, solved)
    solved.path = out
    return solved


def exploit_style(rules: RuleSet, players: int, abstraction: Abstraction, strategy, style: str, samples: int,
                  seed: int) -> dict[int, Estimate]:
    """Per seat: what the best response to a whole table of ``style`` gains over playing the equilibrium there."""
    table = named_policy(MODELS[style], rules, players)
    return exploitability(rules, players, abstraction, strategy, samples, seed, table=table,
                          knock_prob=np.zeros(16))


__all__ = ["solve", "exploit_style", "STYLES", "checkpoint_path"]
