"""A shipped strategy is valid when today's code reproduces its fixed-seed fingerprint exactly.

The fingerprint of a strategy file is what the solver's code computes from it
on a small fixed-seed run: a digest of the traversals against it (every
seat's information and every action's score, integers: exact on any
machine), the exploitability the solver measures on them, and the regrets
and averages after one solver iteration from scratch with its abstraction.
They are recorded in ``data/strategies/fingerprints.json`` together with the
digest of the file they belong to; ``tests/test_shipped_validity.py``
recomputes them. A refactor keeps them; a change that moves a number of the
game, the traversal or the solver does not (and a re-solved file needs a new
record). Record with ``python -m rumbaodds.strategy.check --record``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from ..rules import RuleSet
from . import solver as S
from . import store

FINGERPRINTS = store.SHIPPED / "fingerprints.json"
SAMPLES = 2_000  # traversals per seat: a second per file
SEED = 2026
DECIMALS = 10  # the floats (sums of many products) are compared rounded: the integers above are exact


def file_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def fingerprint(solved: store.Solved, rules: RuleSet | None = None, samples: int = SAMPLES,
                seed: int = SEED) -> dict:
    """The fixed-seed fingerprint of ``solved`` (``rules``: another rule set, for a negative control)."""
    rules = rules or solved.rules
    if solved.meta.get("name") == "score-equilibrium":
        return score_fingerprint(solved, rules, samples, seed)
    n, ab, strategy = solved.players, solved.abstraction, solved.strategy
    data = S.simulate(rules, n, ab, strategy, samples, seed)
    digest = hashlib.sha256()
    for a in (data.seat, data.info, np.nan_to_num(data.q, nan=-1e9)):
        digest.update(np.ascontiguousarray(a).tobytes())
    ex = S.exploitability(rules, n, ab, strategy, samples, seed + 1)
    state = S.SolveState(rules, n, ab, seed + 2, samples)
    S.iterate(state)
    return {"traversals": digest.hexdigest()[:16],
            "exploitability": [round(ex[s].mean, DECIMALS) for s in range(n)],
            "iteration": [summary for a in (state.regret_word, state.regret_throw, state.regret_knock, state.avg_word)
                          for summary in _summary(a)]}


def score_fingerprint(solved: store.Solved, rules: RuleSet, samples: int, seed: int) -> dict:
    """The same for a score-aware strategy (issue 38): traversals from the score states of a few games, valued in
    the game (``score_solver.GameSampler``), their exploitability in stakes, one iteration from the prior."""
    from . import score_solver as G

    n = solved.players
    _base, sampler = G.sampler_for(rules, n, 500, seed, samples, 8, base=store.find(solved.rules, n),
                                   by_seat="seat" in solved.meta.get("value_model", ""))
    data = sampler(solved.strategy, seed)
    digest = hashlib.sha256()
    for a in (data.seat, data.info, np.round(np.nan_to_num(data.q, nan=-1e9), 6), np.round(data.knock, 6)):
        digest.update(np.ascontiguousarray(a).tobytes())
    ex = G.exploitability(sampler, solved.strategy, n, seed + 1)
    state = G.prior_state(rules, n, _base, samples, seed + 2)
    S.iterate(state, sampler)
    return {"traversals": digest.hexdigest()[:16],
            "exploitability": [round(ex[s].mean, DECIMALS) for s in range(n)],
            "iteration": [summary for a in (state.regret_word, state.regret_throw, state.regret_knock, state.avg_word)
                          for summary in _summary(a)]}


def _summary(a: np.ndarray) -> list[float]:
    """Sum, sum of squares and an index-weighted sum: an array's numbers moved anywhere change one of them."""
    flat = a.ravel()
    return [round(float(x), DECIMALS) for x in (flat.sum(), flat @ flat, flat @ (np.arange(flat.size) % 97))]


def shipped_files() -> list[Path]:
    return sorted(store.SHIPPED.glob("*.npz"))


def recorded() -> dict:
    return json.loads(FINGERPRINTS.read_text()) if FINGERPRINTS.exists() else {}


def check(path: Path, rules: RuleSet | None = None) -> list[str]:
    """What differs between ``path``'s recorded fingerprint and today's (empty: valid)."""
    record = recorded().get(Path(path).name)
    if record is None:
        return [f"{Path(path).name}: no fingerprint recorded (python -m rumbaodds.strategy.check --record)"]
    if record["file"] != file_digest(path):
        return [f"{Path(path).name}: the file changed since its fingerprint was recorded (record it again)"]
    now = fingerprint(store.load(path), rules)
    return [f"{Path(path).name}: {key} {record[key]} != {now[key]}" for key in now if now[key] != record[key]]


def record_all() -> dict:
    """Record the fingerprints of every shipped strategy file (after a deliberate re-solve)."""
    out = {p.name: {"file": file_digest(p), **fingerprint(store.load(p))} for p in shipped_files()}
    FINGERPRINTS.write_text(json.dumps(out, indent=1) + "\n")
    return out


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        print(f"recorded {len(record_all())} fingerprints in {FINGERPRINTS}")
    else:
        problems = [line for p in shipped_files() for line in check(p)]
        print("\n".join(problems) or f"{len(shipped_files())} shipped strategies reproduce their fingerprints")
        sys.exit(1 if problems else 0)
