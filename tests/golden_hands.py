"""Golden whole hands (tests/golden/): load the files and check them against the rule book alone.

Every file is one whole hand worked out by hand from ``shared/RULES.md`` and
``docs/SIMULATION.md`` (format: ``tests/golden/README.md``). This module is a
second, independent reading of the same two texts, kept small on purpose: it
imports nothing of the engine (only ``rumbaodds.cards`` to read cards) and
re-derives from the book what a file claims: the deck, the words, the swap and
the knock, the exchange, the lead, the legality and winner of every trick (and
every card of a ``greedy`` hand), the tricks won and the score changes.
``check_hand`` returns the list of disagreements (empty: the file agrees with
the book).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from rumbaodds.cards import RANKS, SUITS, format_card, parse_card

GOLDEN = Path(__file__).parent / "golden"

# -- the presets, field by field from RULES.md §4 (swiss) and §5 (flemish) -------------------
# Field names are those of rumbaodds.rules.RuleSet, plus ``normal_lead`` (who leads a normal game).
SWISS_BOOK = {
    "name": "swiss", "suits": "CDHS", "ranks": "6789TJQKA", "hand_size": 5,  # §4 table, §4.1
    "min_players": 3, "max_players": 7, "start_score": 20,
    "follow_rule": "stechzwang",  # §3 swiss
    "speaking_order": "one-round",  # §4.4
    "exchange_limit": 4, "passer_cards": "stock-bottom",  # §4.6
    "knock": True,  # §4.2
    "throw_in": True, "throw_in_below": "T",  # §4.3
    "jack_of_trump_forces_play": False, "two_of_trump_swap": False,
    "rumba_lead": "rumba-player", "normal_lead": "dealer",  # §4.7 [D-8]
    "others_after_rumba": "choose",  # §4.4 [D-5]
    "lone_rumba_allowed": True, "lone_rumba_score": -5, "lone_player_score": -5,  # §4.5, rule 10, [D-7]
    "rumba_min_tricks": 3, "rumba_success_per_trick": -2, "rumba_success_flat": 0, "rumba_fail_score": 10,  # §4.8
    "normal_per_trick": -1, "normal_no_trick": 5, "rumba_others_per_trick": -1, "rumba_others_no_trick": 5,
    "sit_out_limit": 3, "sit_out_penalty": 5,  # §4.8 rule 17
    "sit_out_repeats": True, "void_counts_as_pass": False, "throw_in_after_rumba": True,  # SIMULATION.md decisions
    # §9 the game: ends after the first hand in which someone reaches 0 [D-18], below 0 counts as 0 [D-19],
    # the others pay their points to the winners [D-20]; the same in flemish (seed 001)
    "goal_score": 0, "winners": "at-goal", "score_floor": True, "payout": "to-winners",
}
FLEMISH_BOOK = dict(
    SWISS_BOOK,
    name="flemish", ranks="23456789TJQKA", min_players=2, max_players=6, start_score=21,  # §5 table
    follow_rule="flemish",  # §3 flemish, [D-1]
    exchange_limit=3, passer_cards="put-away",  # §5.6
    knock=False, throw_in=False,  # the seed has neither
    jack_of_trump_forces_play=True, two_of_trump_swap=True,  # §5.2, §5.3 [D-9]
    rumba_lead="first-after-dealer", normal_lead="first-after-dealer",  # §5.7 [D-10]
    others_after_rumba="must-play",  # §5.4
    lone_rumba_allowed=False,  # §5.5
    rumba_success_per_trick=0, rumba_success_flat=-10, rumba_fail_score=10,  # §5.8
    rumba_others_per_trick=-2, rumba_others_no_trick=10,
    sit_out_limit=0,  # no sit-out penalty in §5.8
)
BOOK = {"swiss": SWISS_BOOK, "flemish": FLEMISH_BOOK}
NOT_RULES = ("description",)  # RuleSet fields that are not rules

# -- opponent models, SIMULATION.md "Opponent models" -----------------------------------------
NEVER, ALWAYS = 10**6, -(10**6)
MODELS = {
    "default": {"rumba": 17, "play": 5, "join": 8, "discard_below": 1, "throw_in": True, "swap_two": True},
    "cautious": {"rumba": 20, "play": 7, "join": 10, "discard_below": 1, "throw_in": True, "swap_two": True},
    "bold": {"rumba": 15, "play": 3, "join": 6, "discard_below": 2, "throw_in": False, "swap_two": True},
    "all": {"rumba": NEVER, "play": ALWAYS, "join": ALWAYS, "discard_below": 0, "throw_in": False, "swap_two": False},
}

PASS, PLAY, RUMBA, THROW_IN = "pass", "play", "rumba", "throw-in"
WORDS = (PASS, PLAY, RUMBA, THROW_IN)
PLAYS = ("greedy", "expert")
DECK_FIELDS = ("suits", "ranks", "hand_size")  # they change the deck or the deal itself


class GoldenError(ValueError):
    """A golden file that cannot be read at all."""


# =============================================================================
# Cards (RULES.md §1, §6)
# =============================================================================
def suit(card: int) -> int:
    return card // 16


def rank(card: int) -> int:
    return card % 16


def cards(tokens) -> list[int]:
    return [parse_card(t) for t in tokens]


def text(card_list) -> list[str]:
    return [format_card(c) for c in card_list]


def strength(card: int, trump: int) -> tuple:
    """§6: every trump above every non-trump, then rank, then the suit C < D < H < S."""
    return (suit(card) == trump, rank(card), suit(card))


def beats(card: int, win: int, trump: int) -> bool:
    """§3: would ``card`` take the trick from the card ``win`` that wins it now?"""
    if suit(card) == suit(win):
        return rank(card) > rank(win)
    return suit(card) == trump


def keep_value(card: int, trump: int, top: int) -> int:
    """SIMULATION.md "Keep value": trump 2 + max(0, 4 - d); side ace 3, side king 1; d = top - rank."""
    d = top - rank(card)
    if suit(card) == trump:
        return 2 + max(0, 4 - d)
    return 3 if d == 0 else 1 if d == 1 else 0


# =============================================================================
# Rules
# =============================================================================
def resolve_rules(spec) -> dict:
    """``"swiss"``, ``"flemish"`` or ``{"base": ..., field: value}`` as a dict of every field."""
    if isinstance(spec, str):
        spec = {"base": spec}
    if not isinstance(spec, dict) or spec.get("base") not in BOOK:
        raise GoldenError(f"rules {spec!r}: name swiss or flemish, or give a dict with base swiss or flemish")
    rules = dict(BOOK[spec["base"]])
    for key, value in spec.items():
        if key == "base":
            continue
        if key not in rules:
            raise GoldenError(f"rules: unknown field {key!r}")
        if type(value) is not type(rules[key]):
            raise GoldenError(f"rules: field {key}: {value!r} is not a {type(rules[key]).__name__}")
        rules[key] = value
    return rules


def deck_of(rules: dict) -> list[int]:
    return [s * 16 + RANKS.index(r) for s in (SUITS.index(x) for x in rules["suits"]) for r in rules["ranks"]]


def pass_penalty(rules: dict, passes_before: int) -> int:
    """Rule 17: the sit_out_limit-th pass in a row costs the penalty (sit_out_repeats: every one after it too)."""
    limit = rules["sit_out_limit"]
    if limit <= 0:
        return 0
    streak = passes_before + 1
    due = streak >= limit if rules["sit_out_repeats"] else streak % limit == 0
    return rules["sit_out_penalty"] if due else 0


# =============================================================================
# The hand as the book plays it
# =============================================================================
@dataclass
class Table:
    """Everything the checks need about one file, read once."""

    path: str
    data: dict
    rules: dict
    n: int
    trump_card: int
    trump: int
    top: int
    hands: list[list[int]]
    stock: list[int]
    passes: list[int]
    knock: bool
    model: dict | None
    decisions: list[dict] | None
    problems: list[str] = field(default_factory=list)

    @property
    def dealer(self) -> int:
        return self.n - 1

    def bad(self, why: str) -> None:
        self.problems.append(why)

    def points(self, hand) -> int:
        return sum(keep_value(c, self.trump, self.top) for c in hand)

    # -- what a seat wants (its decision or the opponent model on its cards) -------------
    def wants(self, seat: int, hand, rumba_called: bool, may_throw_in: bool = False) -> str:
        """The seat's decision; the model's word on its points (SIMULATION.md "Opponent models")."""
        if self.model is None:
            return self.decisions[seat]["word"]
        pts, m = self.points(hand), self.model
        if may_throw_in and m["throw_in"]:
            return THROW_IN
        if not rumba_called and pts >= m["rumba"]:
            return RUMBA
        return PLAY if pts >= (m["join"] if rumba_called else m["play"]) else PASS

    def wants_swap(self, seat: int) -> bool:
        return self.model["swap_two"] if self.model is not None else bool(self.decisions[seat].get("swap_two"))

    def wish(self, seat: int, hand) -> int:
        if self.model is None:
            return self.decisions[seat].get("discards", 0)
        low = sum(1 for c in hand if keep_value(c, self.trump, self.top) < self.model["discard_below"])
        return min(low, self.rules["exchange_limit"])

    def all_below(self, hand) -> bool:
        return all(rank(c) < RANKS.index(self.rules["throw_in_below"]) for c in hand)

    def jack_turned(self) -> bool:
        return self.rules["jack_of_trump_forces_play"] and rank(self.trump_card) == RANKS.index("J")


def read(path: str, data: dict) -> Table:
    """Parse one file; format errors raise GoldenError."""
    for key in ("name", "explains", "rules", "players", "trump_card", "hands", "stock", "play", "expected"):
        if key not in data:
            raise GoldenError(f"missing key {key!r}")
    rules = resolve_rules(data["rules"])
    n = data["players"]
    model = decisions = None
    if ("model" in data) == ("decisions" in data):
        raise GoldenError("give either decisions or model")
    if "model" in data:
        if data["model"] not in MODELS:
            raise GoldenError(f"unknown model {data['model']!r}")
        model = MODELS[data["model"]]
    else:
        decisions = data["decisions"]
    trump_card = parse_card(data["trump_card"])
    knock = bool(data.get("knock", False)) and rules["knock"]  # a knock only where the rule set has one
    t = Table(path, data, rules, n, trump_card, suit(trump_card), RANKS.index(rules["ranks"][-1]),
              [cards(h) for h in data["hands"]], cards(data["stock"]), list(data.get("passes_in_a_row", [0] * n)),
              knock, model, None)
    if decisions is not None:
        by_seat = {}
        for d in decisions:
            if d.get("word") not in WORDS:
                raise GoldenError(f"decision {d}: word must be one of {WORDS}")
            by_seat[d["seat"]] = d
        needed = set(range(n)) - ({t.dealer} if knock else set())
        if not needed <= set(by_seat) <= set(range(n)):
            raise GoldenError(f"decisions must name the seats {sorted(needed)}")
        if [d["seat"] for d in decisions] != sorted(by_seat):
            raise GoldenError("decisions must be listed in speaking order (seat 0 first)")
        t.decisions = [by_seat.get(s, {"seat": s, "word": RUMBA}) for s in range(n)]
    return t


def check_deal(t: Table) -> None:
    """§1, §4.1, §5.1: the deck of the rule set, each card once, hand sizes, the stock complete."""
    rules, deck = t.rules, deck_of(t.rules)
    if not rules["min_players"] <= t.n <= rules["max_players"]:
        t.bad(f"{t.n} players: the rule set allows {rules['min_players']}..{rules['max_players']}")
    if len(t.hands) != t.n:
        t.bad(f"{len(t.hands)} hands for {t.n} players")
    for s, h in enumerate(t.hands):
        if len(h) != rules["hand_size"]:
            t.bad(f"seat {s} holds {len(h)} cards, the rule set deals {rules['hand_size']}")
    if rules["max_players"] * rules["hand_size"] + 1 > len(deck):
        t.bad(f"{rules['max_players']} players x {rules['hand_size']} cards + the trump card exceed the deck")
    every = [c for h in t.hands for c in h] + [t.trump_card] + t.stock
    seen = set()
    for c in every:
        if c not in deck:
            t.bad(f"card {format_card(c)} is not in the deck {rules['suits']} {rules['ranks']}")
        if c in seen:
            t.bad(f"card {format_card(c)} appears twice")
        seen.add(c)
    missing = [c for c in deck if c not in seen]
    if missing:
        t.bad(f"the stock lacks {text(missing)}")
    if len(t.passes) != t.n or any(not isinstance(p, int) or p < 0 for p in t.passes):
        t.bad("passes_in_a_row: one count >= 0 per seat")
    if t.data["play"] not in PLAYS:
        t.bad(f"play {t.data['play']!r} is not one of {PLAYS}")
    if t.decisions is not None:
        for d in t.decisions:
            if not 0 <= d.get("discards", 0) <= rules["exchange_limit"]:
                t.bad(f"seat {d['seat']}: discards {d['discards']} outside 0..{rules['exchange_limit']}")


@dataclass
class Spoken:
    words: list  # per seat: pass, play, rumba, throw-in, or None (never spoke: an earlier throw-in)
    rumba_seat: int | None
    void_reason: str | None
    table_card: int | None
    hands: list[list[int]]  # after the swap and the knock


def speak(t: Table) -> Spoken:
    """RULES.md §4.2-§4.5, §5.2-§5.5, SIMULATION.md steps 4-5: words, swap, knock, throw-in, void."""
    rules, n, dealer = t.rules, t.n, t.dealer
    hands = [list(h) for h in t.hands]
    words: list = [None] * n
    table_card: int | None = t.trump_card
    rumba_seat = None
    two = t.trump * 16 + RANKS.index("2")

    if t.knock:  # §4.2 [D-3]: the dealer is the Rumba player; he takes the turned card for his weakest if stronger
        rumba_seat, words[dealer] = dealer, RUMBA
        low = min(hands[dealer], key=lambda c: strength(c, t.trump))
        if strength(t.trump_card, t.trump) > strength(low, t.trump):
            hands[dealer].remove(low)
            hands[dealer].append(t.trump_card)
            table_card = None

    def swap(s: int) -> None:  # §5.3 [D-9]: the two of trump for the turned card, before speaking
        nonlocal table_card
        if rules["two_of_trump_swap"] and not t.knock and two in hands[s] and table_card == t.trump_card \
                and t.wants_swap(s):
            hands[s].remove(two)
            hands[s].append(t.trump_card)
            table_card = two
        elif rules["two_of_trump_swap"] and t.model is None and t.decisions[s].get("swap_two"):
            t.bad(f"seat {s} cannot swap the two of trump here")  # "swap_two" where the rule set has no swap: ignored

    def throws_in(s: int) -> bool:  # §4.3 [D-4]
        allowed = rules["throw_in"] and not t.knock and t.all_below(hands[s]) and (
            rumba_seat is None or rules["throw_in_after_rumba"])
        if t.wants(s, hands[s], rumba_seat is not None, allowed) != THROW_IN:
            return False
        if not allowed:
            t.bad(f"seat {s} may not throw in here")
        return allowed

    def forced(s: int) -> bool:  # §5.2 jack of trump; §5.4 must play after a Rumba call
        after_call = rumba_seat is not None and s > rumba_seat and rules["others_after_rumba"] == "must-play"
        return t.jack_turned() or after_call

    def plays(s: int) -> str:
        want = t.wants(s, hands[s], rumba_seat is not None)
        return PLAY if forced(s) or want in (PLAY, RUMBA) else PASS

    def result(void_reason=None) -> Spoken:
        if void_reason is None and not any(w in (PLAY, RUMBA) for w in words):
            void_reason = "nobody plays"  # [D-6]
        return Spoken(words, rumba_seat, void_reason, table_card, hands)

    if rules["speaking_order"] == "one-round" or t.knock:
        for s in range(n):
            if t.knock and s == dealer:
                continue
            swap(s)
            if throws_in(s):
                words[s] = THROW_IN
                return result("throw-in")
            want = t.wants(s, hands[s], rumba_seat is not None)
            lone_dealer = not rules["lone_rumba_allowed"] and s == dealer and all(w == PASS for w in words[:s])
            if want == RUMBA and rumba_seat is None and not lone_dealer:  # only the first Rumba [D-5], §5.5
                words[s], rumba_seat = RUMBA, s
            else:
                words[s] = plays(s)
        return result()

    # rumba-first (§4.4): round one asks Rumba in seat order, round two play or pass (or join)
    for s in range(n):
        swap(s)
        if throws_in(s):
            words[s] = THROW_IN
            return result("throw-in")
        if rumba_seat is None and t.wants(s, hands[s], False) == RUMBA:
            rumba_seat = s
    for s in range(n):
        words[s] = RUMBA if s == rumba_seat else plays(s)
    return result()


def lead(rules: dict, n: int, active: list[int], rumba_seat: int | None) -> int:
    """§4.7 [D-8], §5.7 [D-10]: who leads the first trick."""
    dealer, first = n - 1, active[0]  # first active from seat 0 on = first clockwise from the dealer
    if rumba_seat is not None:
        return rumba_seat if rules["rumba_lead"] == "rumba-player" else first
    if rules["normal_lead"] == "dealer" and dealer in active:
        return dealer
    return first


def legal_cards(hand, trick: list[int], trump: int, follow_rule: str) -> list[int]:
    """RULES.md §3, clause by clause; ``trick``: the cards played to it so far."""
    if not trick:
        return list(hand)
    led = suit(trick[0])
    win = trick[0]
    for c in trick[1:]:
        if beats(c, win, trump):
            win = c
    same = [c for c in hand if suit(c) == led]
    if same:  # clause 1 of both rules: follow suit, with a winning card when able
        return [c for c in same if beats(c, win, trump)] or same
    trumps = [c for c in hand if suit(c) == trump]
    winning_trumps = [c for c in trumps if beats(c, win, trump)]
    if follow_rule == "stechzwang":
        return (winning_trumps or trumps) or list(hand)  # clause 2 (rule 20: a trump even if it cannot win), 3
    return [c for c in hand if suit(c) != trump] + winning_trumps if winning_trumps else list(hand)  # [D-1]


def greedy_card(hand, trick: list[int], trump: int, follow_rule: str) -> int:
    """§6 greedy: lead the strongest; follow with the weakest winning card, else the weakest legal one."""
    legal = legal_cards(hand, trick, trump, follow_rule)
    if not trick:
        return max(legal, key=lambda c: strength(c, trump))
    win = trick[0]
    for c in trick[1:]:
        if beats(c, win, trump):
            win = c
    winning = [c for c in legal if beats(c, win, trump)]
    return min(winning or legal, key=lambda c: strength(c, trump))


def score(rules: dict, spoken: Spoken, tricks_won: list, passes: list[int]) -> list[int]:
    """§4.8 / §5.8 tables, rule 17, [D-4] [D-6] [D-7]."""
    n = len(spoken.words)
    if spoken.void_reason == "throw-in":
        return [0] * n  # [D-4]: void, nobody's pass
    if spoken.void_reason == "nobody plays":  # [D-6]
        return [pass_penalty(rules, p) if rules["void_counts_as_pass"] else 0 for p in passes]
    changes = [pass_penalty(rules, passes[s]) if w == PASS else 0 for s, w in enumerate(spoken.words)]
    active = [s for s, w in enumerate(spoken.words) if w in (PLAY, RUMBA)]
    if len(active) == 1:  # nobody else plays: no tricks
        lone = active[0]
        lone_rumba = lone == spoken.rumba_seat and rules["lone_rumba_allowed"]
        changes[lone] = rules["lone_rumba_score"] if lone_rumba else rules["lone_player_score"]
        return changes
    for s in active:
        k = tricks_won[s]
        if s == spoken.rumba_seat:
            made = k >= rules["rumba_min_tricks"]
            changes[s] = rules["rumba_success_flat"] + rules["rumba_success_per_trick"] * k if made \
                else rules["rumba_fail_score"]
        elif spoken.rumba_seat is not None:
            changes[s] = rules["rumba_others_per_trick"] * k if k else rules["rumba_others_no_trick"]
        else:
            changes[s] = rules["normal_per_trick"] * k if k else rules["normal_no_trick"]
    return changes


# =============================================================================
# Checking one file
# =============================================================================
def check_exchange(t: Table, spoken: Spoken, active: list[int]) -> list[list[int]]:
    """§4.6 / §5.6, SIMULATION.md step 6: seat order, lowest keep values out, the stock top in."""
    exp = t.data["expected"]
    pile = list(t.stock)
    passers = [c for s, w in enumerate(spoken.words) if w == PASS for c in spoken.hands[s]]
    under_known = True
    if t.rules["passer_cards"] == "stock-bottom":  # swiss: the passers' cards, shuffled, under the stock
        if "passer_pile" in t.data:
            under = cards(t.data["passer_pile"])
            if sorted(under) != sorted(passers):
                t.bad(f"passer_pile {t.data['passer_pile']} is not the passers' cards {text(passers)}")
            pile += under
        else:
            under_known = not passers
            pile += [None] * len(passers)  # their order is not given: the exchange must not reach them
    hands = [list(h) for h in spoken.hands]
    got = exp.get("exchanges", [])
    if [e.get("seat") for e in got] != active:
        t.bad(f"exchanges: one entry per active seat in seat order {active}, got {[e.get('seat') for e in got]}")
        return hands
    for entry in got:
        s = entry["seat"]
        count = min(t.wish(s, hands[s]), len(pile))  # nobody discards more than the stock can replace
        out = sorted(hands[s], key=lambda c: (keep_value(c, t.trump, t.top), strength(c, t.trump)))[:count]
        drawn, pile = pile[:count], pile[count:]
        if None in drawn and not under_known:
            t.bad("the exchange reaches the passers' cards: give passer_pile")
            return hands
        if cards(entry["discarded"]) != out or cards(entry["drawn"]) != drawn:
            t.bad(f"seat {s} exchanges {text(out)} for {text(drawn)}, file says {entry['discarded']} "
                  f"for {entry['drawn']}")
        hands[s] = [c for c in hands[s] if c not in out] + drawn
    return hands


def check_tricks(t: Table, spoken: Spoken, hands: list[list[int]], active: list[int]) -> list[int]:
    """§3 legality and winner of every trick, the ``greedy`` card when that is the play; tricks per seat."""
    exp = t.data["expected"]
    held = {s: list(hands[s]) for s in active}
    won = [None] * t.n
    for s in active:
        won[s] = 0
    leader = lead(t.rules, t.n, active, spoken.rumba_seat)
    if exp.get("leader") != leader:
        t.bad(f"the lead is seat {leader} (§4.7/§5.7), file says {exp.get('leader')}")
    tricks = exp.get("tricks", [])
    if len(tricks) != t.rules["hand_size"]:
        t.bad(f"{len(tricks)} tricks, the hand has {t.rules['hand_size']}")
    for i, trick in enumerate(tricks):
        order = [active[(active.index(leader) + k) % len(active)] for k in range(len(active))]
        seats = [p[0] for p in trick["cards"]]
        if trick.get("leader") != leader or seats != order:
            t.bad(f"trick {i + 1}: seats {order} from leader {leader}, file says {seats} from {trick.get('leader')}")
            return won
        played: list[int] = []
        for s, token in trick["cards"]:
            c = parse_card(token)
            if c not in held[s]:
                t.bad(f"trick {i + 1}: seat {s} does not hold {token}")
                return won
            legal = legal_cards(held[s], played, t.trump, t.rules["follow_rule"])
            if c not in legal:
                t.bad(f"trick {i + 1}: seat {s} may not play {token} (legal: {text(legal)})")
            elif t.data["play"] == "greedy":
                g = greedy_card(held[s], played, t.trump, t.rules["follow_rule"])
                if g != c:
                    t.bad(f"trick {i + 1}: greedy seat {s} plays {format_card(g)}, file says {token}")
            held[s].remove(c)
            played.append(c)
        best = 0
        for k in range(1, len(played)):
            if beats(played[k], played[best], t.trump):
                best = k
        winner = seats[best]
        if trick.get("winner") != winner:
            t.bad(f"trick {i + 1} goes to seat {winner}, file says {trick.get('winner')}")
        won[winner] += 1
        leader = winner
    return won


def check_hand(path: str, data: dict) -> list[str]:
    """Every disagreement between a golden file and the rule book (empty list: none)."""
    try:
        t = read(path, data)
    except (GoldenError, ValueError, KeyError, TypeError) as exc:
        return [f"unreadable: {exc}"]
    exp = t.data["expected"]
    check_deal(t)
    if t.problems:
        return t.problems
    spoken = speak(t)
    if t.model is not None:  # model files show the hand points each seat speaks by (after its swap)
        pts = [t.points(h) for h in spoken.hands]
        if t.data.get("hand_points") != pts:
            t.bad(f"hand_points are {pts}, file says {t.data.get('hand_points')}")

    def same(key, value):
        if exp.get(key) != value:
            t.bad(f"expected.{key}: the book gives {value!r}, file says {exp.get(key)!r}")

    same("words", spoken.words)
    same("void", spoken.void_reason is not None)
    same("void_reason", spoken.void_reason)
    same("rumba_seat", spoken.rumba_seat)
    same("table_card", None if spoken.table_card is None else format_card(spoken.table_card))
    active = [s for s, w in enumerate(spoken.words) if w in (PLAY, RUMBA)]
    won: list = [None] * t.n
    if spoken.void_reason is None and len(active) >= 2:
        if spoken.rumba_seat is None:
            hands = check_exchange(t, spoken, active)
        else:
            same("exchanges", [])  # no exchange in a Rumba or knock (§4.6, §5.6)
            hands = spoken.hands
        at_play = [sorted(hands[s]) if s in active else [] for s in range(t.n)]
        got = exp.get("hands_at_play")
        if got is None or [sorted(cards(h)) for h in got] != at_play:
            t.bad(f"expected.hands_at_play: the book gives {[text(h) for h in at_play]}")
        won = check_tricks(t, spoken, hands, active)
    else:  # void, lone player or lone Rumba: no exchange, no tricks (§4.5, §5.5)
        for key, value in (("exchanges", []), ("hands_at_play", None), ("leader", None), ("tricks", [])):
            same(key, value)
    same("tricks_won", won)
    same("score_changes", score(t.rules, spoken, won, t.passes))
    return t.problems


# =============================================================================
# Loading
# =============================================================================
def golden_files(root: Path = GOLDEN) -> list[Path]:
    return sorted(root.glob("*/*.json"))


def load(path: Path) -> dict:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise GoldenError(f"{path}: not valid JSON ({exc})") from None


def field_pairs(root: Path = GOLDEN / "fields") -> dict[str, list[Path]]:
    """``fields/<field>__<label>.json`` grouped by field."""
    pairs: dict[str, list[Path]] = {}
    for path in sorted(root.glob("*.json")):
        pairs.setdefault(path.stem.split("__")[0], []).append(path)
    return pairs
