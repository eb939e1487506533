"""Grading one decision against an answer: the points it loses, a band, and a reason in words.

An answer (:func:`rumbaodds.answer.answer`: a table's, else a simulation's) values every choice open to the player
in expected score change (scores count down: the best choice has the lowest value). The decision the player made
loses ``value(his choice) - value(best choice)`` points per hand, with a 95% interval:

- his action is the runner-up's: the answer's own paired margin (what ``rumbaodds ask`` prints);
- both values known (a simulation, a full table): their difference, with the unpaired interval (wider than a
  paired one, so a tie is never made to look like a mistake);
- a packed table keeps only the best choice, the runner-up and their margin: a third action then loses *at least*
  the margin (the runner-up is the best of the other actions), and a play with another exchange than the table's
  best is graded by its word only (:attr:`Grade.exchange_valued` False) unless the caller simulates.

Bands (points per hand; a point is what one trick is worth to a player who plays, RULES.md §4.8 and §5.8):

- ``best``: below :data:`BEST_BELOW` = 0.05, the quantum of the packed tables (``tables/pack.py`` EV_SCALE): no
  table can tell such a loss from none;
- ``inaccuracy``: below :data:`INACCURACY_BELOW` = 0.25, a quarter of a trick per hand: it matters over a game of
  twenty hands, hardly in one;
- ``mistake``: below :data:`MISTAKE_BELOW` = 1.0: up to a whole trick per hand given away;
- ``blunder``: 1.0 or more, more than a trick per hand, the price of a failed Rumba's risk taken without cause.

Two labels come before the bands and are never called wrong: ``too close`` when the 95% interval of the loss
includes 0 (a tie is never a mistake), and ``mixed`` when the solved equilibrium itself plays both his action and
the best one with hands like his (each at least :data:`MIXED_SHARE` of the time, :func:`equilibrium_mix`): both
count as best, unless the answer shows that for this very hand his choice costs at least a quarter point (the
strategy mixes over a bucket of hands of one strength; the hand's own answer is finer). The points lost are still
the answer's own number, so totals stay unbiased.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..answer.results import AskResult
from ..answer.simulation import discard_cards
from ..answer.situation import Situation
from ..cards import RANKS, format_card, parse_hand
from ..engine import policy as P
from ..game import Choice, speaking
from ..game.state import two_of_trump
from ..rules import RulesError
from ..stats import Estimate
from ..twins.condition import row as policy_row
from ..twins.condition import top_of, turn_of

BEST_BELOW = 0.05
INACCURACY_BELOW = 0.25
MISTAKE_BELOW = 1.0
MIXED_SHARE = 0.2
BANDS = ("best", "mixed", "too close", "inaccuracy", "mistake", "blunder")
CORRECT = ("best", "mixed", "too close")  # never called wrong
ACTIONS = ("pass", "play", "rumba", "join", "knock", "throw-in")
_SYNONYMS = {"throw in": "throw-in", "throwin": "throw-in", "throw_in": "throw-in", "sit out": "pass",
             "sit-out": "pass", "call rumba": "rumba"}


class DecisionError(RulesError):
    """A decision that cannot be graded in its situation (a word not open to him, cards he does not hold)."""


@dataclass(frozen=True)
class Decision:
    """What the player did: his action and, for ``play``, the cards he exchanged (None: not told)."""

    action: str
    discard: tuple[int, ...] | None = None

    @classmethod
    def of(cls, choice: str, discard=None) -> Decision:
        """A decision from the words a player writes: ``play`` with ``discard`` "S6 C7" (or a list of cards)."""
        word = " ".join(str(choice).strip().lower().split())
        word = _SYNONYMS.get(word, word)
        if word not in ACTIONS:
            raise DecisionError(f"choice {choice!r}: use one of {', '.join(ACTIONS)}")
        cards = None
        if discard is not None and not (isinstance(discard, str) and not discard.strip()):
            cards = tuple(parse_hand(discard if isinstance(discard, str) else " ".join(map(str, discard))))
            if cards and word not in ("play", "join"):
                raise DecisionError(f"discard {' '.join(format_card(c) for c in cards)}: only a player who plays "
                                    f"exchanges cards, not one who says {word}")
        return cls(word, cards)


@dataclass
class Grade:
    """One decision graded: points lost (a 95% interval), a band, the best choice and why."""

    action: str  # what he did: pass, play, rumba, join, throw-in, knock
    option: str | None  # the choice valued (play2: play exchanging two), None for a knock
    best: str  # the best action (pass, play, rumba, throw-in, knock, no knock)
    best_option: str | None
    best_discard: tuple[int, ...]
    loss: Estimate
    band: str
    reason: str = ""
    at_least: bool = False  # ``loss`` is a lower bound (a packed table's third action)
    exchange_valued: bool = True  # False: his exchange differs from the only one the table values
    expected: Estimate | None = None  # the expected score change of his choice, where the answer knows it
    source: str = "simulation"
    shares: dict[str, float] | None = None  # the equilibrium's mix for hands like his, where it is known
    notes: list[str] = field(default_factory=list)
    after_call: bool = False  # he answers a Rumba call or a knock: to play is to join, without an exchange

    @property
    def correct(self) -> bool:
        return self.band in CORRECT

    @property
    def best_text(self) -> str:
        """The best choice in words: ``play, exchange S6 C7`` or ``rumba``."""
        if self.best == "play" and self.after_call:
            return "join"
        if self.best == "play" and self.best_option is not None:
            return "play, " + exchange_words(self.best_discard)
        return self.best

    def to_dict(self) -> dict:
        return {"action": self.action, "option": self.option, "best": self.best, "best_option": self.best_option,
                "best_discard": [format_card(c) for c in self.best_discard], "best_text": self.best_text,
                "points_lost": self.loss.mean, "points_lost_ci": [self.loss.low, self.loss.high],
                "at_least": self.at_least, "band": self.band, "correct": self.correct, "reason": self.reason,
                "exchange_valued": self.exchange_valued,
                "expected": None if self.expected is None else self.expected.mean, "source": self.source,
                "equilibrium_mix": self.shares, "notes": list(self.notes)}


RANK_WORDS = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def rank_word(rank: str) -> str:
    """A rank as players say it: ``T`` is ten."""
    return RANK_WORDS.get(rank, rank)


def exchange_words(cards: Sequence[int]) -> str:
    return ("exchange " + " ".join(format_card(c) for c in cards)) if cards else "keep all cards"


def loss_text(g: Grade) -> str:
    """The points lost in words: ``0``, ``0.35 [0.10, 0.60]``, or ``≥ 1.20 [...]`` for a lower bound."""
    if g.loss.mean == 0 and g.loss.low == 0 and g.loss.high == 0:
        return "0"
    return f"{'≥ ' if g.at_least else ''}{g.loss.mean:.2f} [{g.loss.low:.2f}, {g.loss.high:.2f}]"


def band_of(loss: Estimate, exact_zero: bool = False) -> str:
    """The band of a loss: ``best`` for none, ``too close`` where its interval includes 0, else by its mean."""
    if exact_zero or (loss.mean == 0 and loss.low == 0 and loss.high == 0):
        return "best"
    if loss.low <= 0:
        return "too close"
    if loss.mean < BEST_BELOW:
        return "best"
    if loss.mean < INACCURACY_BELOW:
        return "inaccuracy"
    if loss.mean < MISTAKE_BELOW:
        return "mistake"
    return "blunder"


# -- which choice he made -------------------------------------------------------------------------------------------
def caller_of(situation: Situation) -> int | None:
    """The seat whose Rumba (or knock) he answers, or None in a normal game."""
    if situation.dealer_knocked:
        return situation.players - 1
    return situation.before.index("rumba") if situation.rumba_called_before else None


def chosen_option(situation: Situation, decision: Decision) -> tuple[Choice, list[str]]:
    """The choice of ``situation.choices()`` his decision names, with notes (an exchange valued approximately).

    ``join`` and ``play`` after a Rumba or a knock are the same choice (no exchange in a Rumba, §4.6, §5.6); a play
    in a normal game exchanges ``len(discard)`` cards (not told: his best exchange, decided by the caller).
    """
    open_choices = situation.choices()
    caller = caller_of(situation)
    notes: list[str] = []
    action = decision.action
    if action == "knock":
        raise DecisionError("knock is the dealer's decision before he looks at his cards: grade it with the knock "
                            "answer (rumbaodds knock), not a hand's")
    if action == "join":
        if caller is None:
            raise DecisionError("join: nobody called Rumba or knocked before you; say play")
        action = "play"
    if action == "play":
        cards = decision.discard
        if caller is not None:
            if cards:
                raise DecisionError("nobody exchanges cards after a Rumba call or a knock (RULES.md §4.6, §5.6)")
            choice = Choice.PLAY0
        else:
            held = set(situation.hand) | set(situation.spoken_hand())
            if cards is not None:
                stray = [format_card(c) for c in cards if c not in held]
                if stray:
                    raise DecisionError(f"discard {' '.join(stray)}: not in the hand "
                                        f"{' '.join(format_card(c) for c in situation.hand)}")
                if len(set(cards)) != len(cards):
                    raise DecisionError("discard names a card twice")
                limit = situation.rules.exchange_limit
                if len(cards) > limit:
                    raise DecisionError(f"discard of {len(cards)} cards: {situation.rules.name} allows 0..{limit}")
                choice = Choice.play(len(cards))
                engine = discard_cards(situation.hand, len(cards), situation.trump, situation.rules)
                if set(engine) != set(cards):
                    notes.append(f"your exchange valued as {' '.join(format_card(c) for c in engine)}, the "
                                 f"{len(cards)} of lowest keep value")
            else:
                choice = None  # his best exchange: the caller picks it from the answer
        if choice is not None and choice not in open_choices:
            words = ", ".join(sorted({c.action for c in open_choices}))
            raise DecisionError(f"play is not open here (choices: {words})")
        return choice, notes
    choice = Choice(action)
    if choice not in open_choices:
        why = {"pass": "you must play here", "rumba": "only the first Rumba of a hand is allowed, none after a knock",
               "throw-in": f"only a hand of cards all below {rank_word(situation.rules.throw_in_below)} may be "
                           f"thrown in, and not after a knock"}.get(action, "")
        raise DecisionError(f"{action} is not open here{': ' + why if why else ''}")
    return choice, notes


# -- the grade ------------------------------------------------------------------------------------------------------
def _unpaired(a: Estimate, b: Estimate) -> Estimate:
    """a - b with an interval from both half-widths (no pairing: wider than the paired one)."""
    mean = a.mean - b.mean
    half = math.hypot(a.half_width, b.half_width)
    return Estimate(mean, mean - half, mean + half, min(a.samples, b.samples))


ZERO = Estimate(0.0, 0.0, 0.0, 0)


def _source(result: AskResult) -> str:
    return str(result.meta.get("source", "simulation")) if result.meta else "simulation"


def _action(name: str) -> str:
    return Choice(name).action


def best_option(result: AskResult) -> tuple[str, tuple[int, ...]]:
    """(the best choice's name, its discard): the lowest value of the recommended action."""
    best = result.recommendation
    named = [n for n in result.options if _action(n) == best]
    if named:
        name = min(named, key=lambda n: result.options[n].ev.mean)
        return name, tuple(result.options[name].discard)
    if best == "play" and "best_discards" in result.meta:  # a packed table: the exchange is in its meta
        k = int(result.meta["best_discards"])
        return str(Choice.play(k)), discard_cards(result.situation.hand, k, result.situation.trump,
                                                  result.situation.rules)
    return best, ()


def grade(result: AskResult, decision: Decision, shares: dict[str, float] | None = None,
          paired: Callable[[str, str], Estimate] | None = None,
          exact: tuple[Estimate, Estimate] | None = None) -> Grade:
    """Grade ``decision`` against ``result`` (the answer to his situation). ``shares``: the equilibrium's mix of
    actions for his hand (:func:`equilibrium_mix`; computed here from the answer's opponents when None).

    A simulation's answer may add ``paired(a, b)``: EV(a) - EV(b) on its own deals (tighter than two values'
    unpaired difference), and ``exact``: (loss, expected score) of the very cards he exchanged, where they are
    not the policy's (:mod:`.settling` simulates them)."""
    situation = result.situation
    choice, notes = chosen_option(situation, decision)
    if exact is not None:
        notes = [n for n in notes if not n.startswith("your exchange valued as")]
        notes.append(f"your exchange {' '.join(format_card(c) for c in decision.discard)} simulated as you made it")
    if choice is not None and situation.rumba_first and Choice.NO_RUMBA in result.options \
            and choice.action in ("pass", "play") and caller_of(situation) is None:
        choice = Choice.NO_RUMBA  # rumba-first, round one: not calling, his play or pass follows in round two
    best_name, best_discard = best_option(result)
    best = result.recommendation
    options = result.options
    if choice is None:  # a play whose exchange he did not tell: his best exchange
        plays = [n for n in options if Choice(n).is_play]
        choice = Choice(min(plays, key=lambda n: options[n].ev.mean)) if plays else Choice.play(
            int(result.meta.get("best_discards", 0)))
        notes.append("exchange not told: graded as play with its best exchange")
    action = decision.action if decision.action == "join" or choice == Choice.NO_RUMBA else choice.action
    at_least = False
    exchange_valued = True
    known = choice in options
    expected = options[choice].ev if known else None
    if exact is not None:
        loss, expected = exact
        if loss.high < 0:  # his own exchange beats every exchange the policy values: nothing lost
            notes.append(f"your exchange is better than the policy's best ({exchange_words(best_discard)}) by "
                         f"{-loss.mean:.2f} [{-loss.high:.2f}, {-loss.low:.2f}] points")
            loss = ZERO
    elif str(choice) == best_name:
        loss = ZERO
    elif paired is not None and known and best_name in options:
        loss = paired(str(choice), best_name)  # on the simulation's own deals
    elif known and best_name in options:
        if _action(choice) == result.runner_up and result.margin is not None and \
                options[choice] is result.actions.get(result.runner_up):
            loss = result.margin  # the answer's own paired margin: what `ask` prints
        else:
            loss = _unpaired(options[choice].ev, options[best_name].ev)
    elif _action(choice) == best:  # a packed table: the word is best, his exchange is not the one it values
        loss = ZERO
        exchange_valued = False
        notes.append(f"the table values only the best exchange ({exchange_words(best_discard)}); yours was graded "
                     f"by its word")
    elif _action(choice) == result.runner_up and (not choice.is_play or str(choice) == _runner_play(result)):
        loss = result.margin
    else:  # a third action, or the runner-up's word with another exchange: at least the margin
        loss = result.margin if result.margin is not None else ZERO
        at_least = True
        if _action(choice) == result.runner_up:
            exchange_valued = False
    if shares is None:
        shares = equilibrium_mix(situation, result.opponents)
    band = band_of(loss, exact_zero=loss is ZERO or (exact is None and str(choice) == best_name))
    mixes = shares is not None and _mix_word(action) != best and shares.get(best, 0.0) >= MIXED_SHARE and \
        shares.get(_mix_word(action), 0.0) >= MIXED_SHARE
    if mixes and band != "best":
        if loss.low < INACCURACY_BELOW:
            band = "mixed"
        else:  # the strategy mixes over a bucket of hands; for this very hand the answer shows a real cost
            notes.append(f"the equilibrium mixes {best} and {_mix_word(action)} with hands of this strength, but "
                         f"for this hand {action} costs at least {loss.low:.2f} points")
    if band == "best" and loss is not ZERO and loss.high == 0 and loss.low == 0 and str(choice) != best_name:
        notes.append(f"{action} is worth exactly as much as {best} here")
    return Grade(action, str(choice), best, best_name, best_discard, loss, band,
                 reason_for(situation, best, action, band, shares), at_least, exchange_valued, expected,
                 _source(result), shares, notes, caller_of(situation) is not None)


def _runner_play(result: AskResult) -> str | None:
    """The play choice a packed table's margin values: its best exchange (``best_discards``)."""
    if "best_discards" in result.meta:
        return str(Choice.play(int(result.meta["best_discards"])))
    return None


def _mix_word(action: str) -> str:
    return "play" if action == "join" else action


# -- the equilibrium's mix ------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=32)
def _score_shares(rules, values_key: bytes, hands: int = 20_000, seed: int = 11) -> np.ndarray:
    """Share of random hands at each strength index (the policy's card values ``values_key``)."""
    values = np.frombuffer(values_key, dtype=np.int64).reshape(2, 16)
    deck = np.array(rules.deck)
    rng = np.random.default_rng(seed)
    top = top_of(rules)
    trump = deck[0] // 16
    picks = np.argsort(rng.random((hands, len(deck))), axis=1)[:, :rules.hand_size]
    cards = deck[picks]
    distance = np.clip(top - cards % 16, 0, 15)
    scores = values[(cards // 16 == trump).astype(int), distance].sum(axis=1)
    return np.bincount(np.minimum(scores, P.NSCORE - 1), minlength=P.NSCORE) / hands


def _average_row(policy, seat: int, ctx: int, shares: np.ndarray) -> tuple[float, float, float]:
    row = np.asarray(policy.words[seat, ctx])  # [NSCORE, 3]
    return tuple(float(x) for x in shares @ row)


def equilibrium_mix(situation: Situation, policy) -> dict[str, float] | None:
    """How often the solved equilibrium takes each action with the player's hand at his seat: ``{action: share}``.

    From the strategy's probabilities at his seat, his hand's strength index and his context (what the earlier
    seats said). Words he does not know (``-``, not a Rumba) are averaged over: each earlier seat plays or passes
    with the strategy's average over random hands at its own context (his hand's cards left in their decks: an
    approximation). None where the opponents are not a solved strategy (styles have no mixed choices).
    """
    if policy is None or getattr(policy, "meta", {}).get("kind") != "strategy":
        return None
    rules, seat = situation.rules, situation.seat
    if situation.rumba_first:
        return None
    top = top_of(rules)
    hand = situation.spoken_hand()
    score = policy.score(hand, situation.trump, top, seat)
    knocked = situation.dealer_knocked
    jack = situation.jack_forced
    codes = {"pass": P.W_PASS, "play": P.W_PLAY, "rumba": P.W_RUMBA}
    unknown = [i for i, w in enumerate(situation.before) if w == "-"]
    shares_by_seat = {}
    mix = np.zeros(4)  # pass, play, rumba, throw-in
    for guess in itertools.product((P.W_PASS, P.W_PLAY), repeat=len(unknown)):
        words = [codes.get(w, P.W_PASS) for w in situation.before]
        for i, w in zip(unknown, guess):
            words[i] = w
        rumba_seat = words.index(P.W_RUMBA) if P.W_RUMBA in words else -1
        weight = 1.0
        for i in unknown:
            turn = turn_of(i, words, rumba_seat, knocked, jack, rules)
            key = policy.values[i].tobytes()
            if key not in shares_by_seat:
                shares_by_seat[key] = _score_shares(rules, key)
            p_pass, p_play, _ = _average_row(policy, i, turn.ctx, shares_by_seat[key])
            if not turn.pass_ok:
                p_pass = 0.0
            total = p_pass + p_play
            p = (p_play / total if total > 0 else 1.0) if words[i] == P.W_PLAY else \
                (p_pass / total if total > 0 else 0.0)
            weight *= p
        if weight <= 0:
            continue
        turn = turn_of(seat, words, rumba_seat, knocked, jack, rules)
        open_words = {c.action for c in situation.choices()}
        q = policy_row(policy, seat, turn.ctx, score, "pass" in open_words, "rumba" in open_words)
        throw = float(policy.throws[seat, turn.ctx, score]) if "throw-in" in open_words else 0.0
        mix += weight * np.array([q[0] * (1 - throw), q[1] * (1 - throw), q[2] * (1 - throw), throw])
    if mix.sum() <= 0:
        return None
    mix /= mix.sum()
    return {name: float(x) for name, x in zip(("pass", "play", "rumba", "throw-in"), mix) if x > 0}


# -- a reason in words ----------------------------------------------------------------------------------------------
def sure_trump_tricks(situation: Situation) -> list[int]:
    """The trumps of his hand that win a trick whatever the others hold: his unbroken run from the top trump down.

    The turned card is skipped only where it cannot be in anyone's hand (RULES.md [D-2]: it goes to a hand only by
    a knock or, flemish, a swap of the two of trump); the hand is the one he speaks with (after his own swap).
    """
    rules = situation.rules
    hand = set(situation.spoken_hand())
    trump = situation.trump
    turned = situation.trump_card
    two = two_of_trump(turned)
    turned_out = not situation.dealer_knocked and situation.swapped_by is None and \
        (not rules.two_of_trump_swap or two in situation.hand or turned == two)
    run = []
    for rank in reversed([RANKS.index(r) for r in rules.ranks]):
        card = trump * 16 + rank
        if card in hand:
            run.append(card)
        elif card == turned and turned_out:
            continue
        else:
            break
    return run


def hand_facts(situation: Situation) -> dict:
    """What the reason is made of, counted from his hand: sure trump tricks, trumps, side aces."""
    hand = situation.spoken_hand()
    trump = situation.trump
    ace = RANKS.index("A")
    trumps = sorted((c for c in hand if c // 16 == trump), key=lambda c: -(c % 16))
    return {"sure": sure_trump_tricks(situation), "trumps": trumps,
            "side_aces": [c for c in hand if c // 16 != trump and c % 16 == ace]}


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _count(n: int, word: str) -> str:
    return f"{'no' if n == 0 else n} {word}{'' if n == 1 else 's'}"


def reason_for(situation: Situation, best: str, action: str | None = None, band: str | None = None,
               shares: dict[str, float] | None = None) -> str:
    """A short reason in words, made only of facts: counted from the hand, the rules and the equilibrium's mix."""
    facts = hand_facts(situation)
    sure, trumps, aces = facts["sure"], facts["trumps"], facts["side_aces"]
    parts = []
    if sure:
        parts.append(f"{_count(len(sure), 'sure trump trick')} ({' '.join(format_card(c) for c in sure)})")
    else:
        parts.append(_count(len(trumps), "trump") + (f" ({' '.join(format_card(c) for c in trumps)})" if trumps
                                                     else "") + ", no sure trump trick" * bool(trumps))
    parts.append(_count(len(aces), "side ace"))
    text = ", ".join(parts)
    need = situation.rules.rumba_min_tricks
    if best == "rumba" or action == "rumba":
        text += f"; a Rumba needs {need} tricks"
    rules = situation.rules
    if rules.sit_out_limit and situation.passes_in_a_row + 1 >= rules.sit_out_limit and "pass" in (best, action):
        text += f"; a pass now would be your {_ordinal(situation.passes_in_a_row + 1)} in a row: " \
                f"+{rules.sit_out_penalty} points"
    if speaking.may_throw_in(rules, situation.spoken_hand(), situation.dealer_knocked,
                             caller_of(situation) is not None) and "throw-in" in (best, action):
        text += f"; every card below {rank_word(rules.throw_in_below)}: a throw-in voids the hand (worth 0, like a " \
                "pass)"
    if band == "mixed" and shares:
        mixed = ", ".join(f"{name} {share:.0%}" for name, share in sorted(shares.items(), key=lambda kv: -kv[1])
                          if share >= 0.05)
        text += f"; the equilibrium mixes with hands like this ({mixed}): both count as best"
    return text


def grade_knock(result, knocked: bool) -> Grade:
    """The dealer's knock (or not) against ``simulation.knock``'s answer: the loss is the margin, or 0."""
    margin = result.margin  # EV(no knock) - EV(knock): positive means knocking is better
    knock_best = margin.mean > 0
    if knocked == knock_best:
        loss = ZERO
    else:
        loss = margin if not knocked else Estimate(-margin.mean, -margin.high, -margin.low, margin.samples)
    best = "knock" if knock_best else "no knock"
    band = band_of(loss, exact_zero=loss is ZERO)
    reason = (f"a knock succeeds {result.p_success.mean:.0%} of the time with trump card "
              f"{format_card(result.trump_card)}; nobody joins {result.p_uncontested:.0%} of knocks")
    return Grade("knock" if knocked else "no knock", None, best, None, (), loss, band, reason,
                 expected=result.knock if knocked else result.no_knock, source="simulation")


__all__ = ["BANDS", "BEST_BELOW", "INACCURACY_BELOW", "MISTAKE_BELOW", "MIXED_SHARE", "CORRECT", "ACTIONS",
           "Decision", "DecisionError", "Grade", "band_of", "chosen_option", "grade", "grade_knock", "best_option",
           "equilibrium_mix", "loss_text", "sure_trump_tricks", "hand_facts", "reason_for", "exchange_words",
           "caller_of", "rank_word"]
