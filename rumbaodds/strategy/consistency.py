"""Does ``ask`` against the equilibrium recommend what the equilibrium itself does? (issue 8's self-consistency)

Deals are played by the equilibrium, so hands are weighted by how often they
occur; at a random seat's turn ``ask`` (knowing what that player knows: the
earlier words, a knock, a swap of the two of trump) is compared with the
equilibrium's own most likely choice for that seat, context and bucket
(:func:`own_action`). Where they differ, ``ask``'s values say what the
equilibrium's choice loses on that hand. ``ask`` sees the exact hand and the
strategy only its bucket, so some disagreement is the price of the
abstraction, not an error of either.
"""

from __future__ import annotations

import numpy as np

from ..answer import simulation
from ..answer.situation import WORD_NAMES
from ..cards import RANKS
from ..twins.condition import turn_of
from . import store
from .game import A_PASS, A_PLAY, A_RUMBA
from .tables import to_policy
from .twin_game import deal_and_speak


def choice_probabilities(row: np.ndarray, pass_ok: bool = True, rumba_ok: bool = True) -> dict[str, float]:
    """P(pass), P(rumba), P(play) of a row as its policy plays it (``engine.policy.masked_row``), unnormalised.

    Forbidden actions are dropped (the jack of trump turned forbids a pass, §5.2, inside the same information
    set), and the plays are one choice whatever the exchange, as in ``ask``'s recommendation.
    """
    return {"pass": row[A_PASS] if pass_ok else 0.0, "rumba": row[A_RUMBA] if rumba_ok else 0.0,
            "play": row[A_PLAY:].sum()}


def own_action(row: np.ndarray, pass_ok: bool = True, rumba_ok: bool = True) -> str:
    """The equilibrium's most likely choice in a row of word probabilities (pass, Rumba, play with 0..K discards).

    A row that plays 60% of the time, split over three exchanges, plays; nothing allowed left: play.
    """
    kinds = choice_probabilities(row, pass_ok, rumba_ok)
    if sum(kinds.values()) <= 0:
        return "play"
    return max(kinds, key=kinds.get)


def consistency(rules, players: int, hands: int = 2_000, samples: int = 10_000, seed: int = 3,
                details: list | None = None) -> dict:
    """Deals played by the equilibrium; at a random seat's turn, ``ask`` (knowing the earlier words, a knock, a swap)
    against the equilibrium's own most likely choice (:func:`own_action`) for that seat, context and bucket.

    ``details``: a list that receives one dict per asked hand (seat, context, bucket, both choices, the loss).
    """
    solved = store.find(rules, players)
    policy = to_policy(solved.strategy, solved.abstraction)
    top = RANKS.index(rules.ranks[-1])
    seats = np.random.default_rng(seed).integers(0, players, size=hands)
    asked, agree, lost, mass = 0, 0, [], []
    for i, seat in enumerate(int(s) for s in seats):
        d = deal_and_speak(rules, players, seat, policy, solved.strategy.knock, seed, i)
        if d["void"]:
            continue
        hero = d["dealt"][seat]
        swapper = next((s for s in range(seat) if d["trump_card"] in d["hands"][s]), None)
        words = [WORD_NAMES[c] for c in d["codes"]]
        jack = rules.jack_of_trump_forces_play and d["trump_card"] % 16 == RANKS.index("J")
        turn = turn_of(seat, d["codes"], players - 1 if d["knocked"] else d["rumba_seat"], d["knocked"], jack, rules)
        spoken = hero if swapper is not None or d["knocked"] else _after_swap(rules, hero, d["trump_card"])
        bucket = solved.abstraction.bucket_array()[policy.score(spoken, d["trump_card"] // 16, top, seat)]
        row = solved.strategy.word[seat, turn.ctx, bucket]
        own = own_action(row, turn.pass_ok, turn.rumba_ok)
        result = simulation.ask(sorted(hero), d["trump_card"], players, seat, rules, policy, samples=samples,
                              seed=seed + i, before=words or None, dealer_knocked=d["knocked"], swapped_by=swapper)
        asked += 1
        said = "pass" if result.recommendation == "throw-in" else result.recommendation
        allowed = choice_probabilities(row, turn.pass_ok, turn.rumba_ok)
        mass.append(allowed[said] / max(sum(allowed.values()), 1e-12))
        loss = 0.0
        if said == own:
            agree += 1
        else:
            chosen = result.actions.get(own)
            best = result.actions[result.recommendation]
            if chosen is not None:
                loss = chosen.ev.mean - best.ev.mean
                lost.append(loss)
        if details is not None:
            details.append({"seat": seat, "ctx": int(turn.ctx), "bucket": int(bucket), "own": own, "ask": said,
                            "pass_ok": bool(turn.pass_ok), "rumba_ok": bool(turn.rumba_ok),
                            "loss": loss, "row": row.round(3).tolist()})
    lost = np.array(lost)
    return {"rules": rules.name, "players": players, "hands asked": asked, "agree": agree / max(1, asked),
            "agree by probability": float(np.mean(mass)) if mass else 0.0,
            "differ by < 0.25 points": float((np.abs(lost) < 0.25).sum() / max(1, asked)),
            "mean loss where they differ": float(lost.mean()) if len(lost) else 0.0,
            "max loss where they differ": float(lost.max()) if len(lost) else 0.0,
            "loss per hand overall": float(lost.sum() / max(1, asked))}


def _after_swap(rules, hand, trump_card):
    two = trump_card // 16 * 16 + RANKS.index("2")
    if rules.two_of_trump_swap and two in hand and trump_card != two:
        return (set(hand) - {two}) | {trump_card}
    return hand


__all__ = ["consistency", "own_action"]
