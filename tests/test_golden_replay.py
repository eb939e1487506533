"""The golden whole hands (tests/golden/, worked out by hand from the rule book) replayed by the engine.

Each file gives a deal, every seat's decision (or a named model), and the
hand as the rule book plays it. The twin (the game's state machine,
``rumbaodds.game``, driven by the twin's decisions) must reproduce all of it:
the words, the void, the Rumba seat, the card face up, every exchange, the
hands at play, the lead, every trick card by card, the tricks won and every score change. The
kernel (``engine/replay.py``, the same speaking, exchange, play and scoring
code as ``ask``) must give every seat, as the asking player, his score change
and his tricks. ``test_golden_format.py`` checks the files themselves.
"""

from __future__ import annotations

import numpy as np
import pytest
from golden_hands import golden_files, load

from rumbaodds.cards import format_card, mask_of, parse_card
from rumbaodds.engine import hand as K
from rumbaodds.engine import policy as P
from rumbaodds.engine.replay import replay_seat
from rumbaodds.game import HandState, Knock, Phase, SwapTwo, Word, two_of_trump
from rumbaodds.opponents.models import MODELS
from rumbaodds.opponents.policies import named_policy, scripted_policy
from rumbaodds.rules import rules_from_dict
from rumbaodds.twins import hand as th

FILES = golden_files()


class PileOrder:
    """A random stream whose shuffle puts the passers' cards in the file's ``passer_pile`` order (§4.6)."""

    def __init__(self, pile: list[int]):
        self.pile = pile
        self.state: HandState | None = None
        self.draws = None

    def below(self, bound: int) -> int:
        if self.draws is None:
            s = self.state
            start = [c for p in range(s.players) if s.words[p] is Word.PASS for c in sorted(s.hands[p])]
            assert sorted(start) == sorted(self.pile), "the passer pile holds the passers' cards"
            draws = []
            for j, target in enumerate(self.pile):
                k = start.index(target)
                draws.append(k - j)
                start[j], start[k] = start[k], start[j]
            self.draws = iter(draws)
        return next(self.draws)


def _cards(tokens) -> list[int]:
    return [parse_card(t) for t in tokens]


class Replay:
    """One golden file, read into engine terms."""

    def __init__(self, data: dict):
        spec = data["rules"]
        self.data = data
        self.rules = rules_from_dict({"base": spec} if isinstance(spec, str) else spec, source="golden")
        self.n = data["players"]
        self.trump_card = parse_card(data["trump_card"])
        self.hands = [set(_cards(h)) for h in data["hands"]]
        self.stock = _cards(data["stock"])
        if self.rules.passer_cards == "stock-bottom" and data.get("passer_pile"):
            # the kernel: the passers' pile in its given order, replayed as a stock that already holds it (the
            # twin's state machine shuffles it into that order, PileOrder)
            self.stock = self.stock + _cards(data["passer_pile"])
            self.engine_rules = self.rules.replace(passer_cards="put-away")
        else:
            self.engine_rules = self.rules
        self.passes = data.get("passes_in_a_row", [0] * self.n)
        self.knocked = bool(data.get("knock")) and self.rules.knock
        self.play = data["play"]
        self.expected = data["expected"]
        if "model" in data:
            self.policy = named_policy(MODELS[data["model"]], self.engine_rules, self.n)
            top = K.rules_array(self.rules)[K.R_TOP_RANK]
            trump = self.trump_card // 16
            self.words = [w or "pass" for w in self.expected["words"]]
            self.discards = [int(P.keep_discards(np.uint64(mask_of(h)), trump, top, self.rules.exchange_limit,
                                                 self.policy.ints[0, P.P_DISCARD_BELOW])) for h in self.hands]
            self.decided = list(self.words)
        else:
            decisions = {d["seat"]: d for d in data["decisions"]}
            self.decided = [decisions.get(s, {}).get("word", "rumba" if self.knocked else "pass")
                            for s in range(self.n)]
            self.discards = [decisions.get(s, {}).get("discards", 0) for s in range(self.n)]
            swaps = [decisions.get(s, {}).get("swap_two", False) for s in range(self.n)]
            self.policy = scripted_policy(self.n, self.decided, self.discards, swap_two=any(swaps) or not any(
                two_of_trump(self.trump_card) in h for h in self.hands))
            self.words = list(self.decided)

    def choice_of(self, seat: int) -> int:
        """The kernel's choice code for this seat as the asking player."""
        final = self.expected["words"][seat]
        if self.decided[seat] == "rumba":
            return K.C_RUMBA
        if final == "throw-in" or self.decided[seat] == "throw-in":
            return K.C_THROW_IN
        if final == "play":
            return K.C_PLAY + self.discards[seat]
        return K.C_PASS

    # -- the twin, everything: the game's state machine driven by the twin's decisions --------------------
    def twin(self) -> dict:
        rules, n = self.rules, self.n
        sit = th.Situation(rules, n, 0, self.trump_card, self.policy, self.knocked)
        numbers = [[0.5] * 4 for _ in range(n)]
        pile = _cards(self.data.get("passer_pile", []))
        rng = PileOrder(pile) if pile and rules.passer_cards == "stock-bottom" else th.stream_at(0)
        state = HandState(rules, self.hands, self.trump_card, _cards(self.data["stock"]), self.passes, rng=rng)
        if isinstance(rng, PileOrder):
            rng.state = state
        if self.knocked:
            state.apply(Knock(th.knock_discard(state.hands[n - 1], self.trump_card, sit.trump)))
        if state.may_swap() and self.policy.swaps(0):
            state.apply(SwapTwo())
        code = self.choice_of(0)
        if code == K.C_THROW_IN:
            assert Word.THROW_IN in state.legal_words(), "a throw-in the rules do not allow"
            return {"void": True, "thrower": 0}
        hero_word = {K.C_PASS: "pass", K.C_RUMBA: "rumba"}.get(code, "play")
        spoken = th.speak_on(sit, state, numbers, hero_word, hero_swaps=False)
        active = state.active
        out = {"void": spoken.void or not active, "words": spoken.words, "rumba_seat": spoken.rumba_seat,
               "table_card": None if spoken.table_card is None else format_card(spoken.table_card)}
        if out["void"]:
            return out
        out["exchanges"], out["hands_at_play"], out["leader"], out["tricks"] = [], None, None, []
        if state.phase is Phase.EXCHANGE:
            th.exchange_by_policy(sit, state, self.discards[0], numbers)
            out["exchanges"] = [{"seat": s, "discarded": sorted(thrown), "drawn": sorted(drawn)}
                                for s, thrown, drawn in state.exchanges]
        if state.phase is Phase.PLAY:
            out["hands_at_play"] = [sorted(state.hands[s]) if s in active else [] for s in range(n)]
            out["leader"] = state.leader
            th.play_out(state, self.play)
            for lead, cards, winner in state.tricks.log:
                out["tricks"].append({"leader": active[lead], "cards": [[active[i], format_card(c)] for i, c in cards],
                                      "winner": active[winner]})
        out["tricks_won"] = state.tricks_won
        out["score_changes"] = state.returns()
        return out

    # -- the kernel, seat by seat --------------------------------------------------------------
    def kernel(self, seat: int) -> tuple[int, int]:
        rules = self.engine_rules
        hands = np.array([mask_of(h) for h in self.hands], dtype=np.uint64)
        result = replay_seat(np.uint64(rules.deck_mask), hands, np.array(self.stock, dtype=np.int64),
                             self.trump_card, self.n, seat, self.choice_of(seat), self.knocked, K.rules_array(rules),
                             self.policy.as_tuple(), {"greedy": K.POLICY_GREEDY, "expert": K.POLICY_EXPERT}[self.play],
                             self.passes[seat])
        return int(result[0]), int(result[1])


def _sorted_exchanges(items):
    return [{"seat": e["seat"], "discarded": sorted(_cards(e["discarded"])) if e["discarded"] and
             isinstance(e["discarded"][0], str) else sorted(e["discarded"]),
             "drawn": sorted(_cards(e["drawn"])) if e["drawn"] and isinstance(e["drawn"][0], str)
             else sorted(e["drawn"])} for e in items]


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_twin_replays_the_golden_hand(path):
    replay = Replay(load(path))
    want = replay.expected
    got = replay.twin()
    assert got["void"] == want["void"], "void"
    if want["void"] and want.get("void_reason") == "throw-in":
        return  # the words after a throw-in were never said
    if want["void"]:
        assert all(w in ("pass", None) for w in want["words"])
    assert got["words"] == [w or "pass" for w in want["words"]], "words"
    assert got["rumba_seat"] == want["rumba_seat"], "rumba seat"
    if want["void"]:
        return
    assert got["table_card"] == want["table_card"], "card face up"
    assert _sorted_exchanges(got["exchanges"]) == _sorted_exchanges(want["exchanges"]), "exchanges"
    if want["hands_at_play"] is not None:
        assert got["hands_at_play"] == [sorted(_cards(h)) for h in want["hands_at_play"]], "hands at play"
    assert got["leader"] == want["leader"], "leader"
    assert got["tricks"] == want["tricks"], "tricks"
    assert got["tricks_won"] == want["tricks_won"], "tricks won"
    assert got["score_changes"] == want["score_changes"], "score changes"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_kernel_replays_every_seat_of_the_golden_hand(path):
    replay = Replay(load(path))
    want = replay.expected
    for seat in range(replay.n):
        score, tricks = replay.kernel(seat)
        assert score == want["score_changes"][seat], f"seat {seat}: score"
        if want["tricks_won"][seat] is None:
            assert tricks < 0, f"seat {seat}: tricks {tricks}, the book plays none for him"
        else:
            assert tricks == want["tricks_won"][seat], f"seat {seat}: tricks"


def test_the_issue_example_gives_seat_0_five_tricks():
    """Issue 7: flemish, 2 players, SA SK SQ SJ ST against CA CK CQ CJ CT, hearts trump: seat 0 leads, takes 5."""
    replay = Replay(load(next(p for p in FILES if p.stem.startswith("01_issue_example"))))
    assert replay.twin()["tricks_won"] == [5, 0]
    assert replay.kernel(0) == (-5, 5)
