"""The rule card: at most ``MAX_LINES`` lines per player count, fitted to a source of cells (:mod:`.cells`).

The report fits it to every cell of a packed full table (the swiss cards, ``cards.json``); it fits the cells of
a table's frame (:func:`.cells.from_table`) the same way, where the report keeps a quick table's lines in words
(:mod:`.lines`).

A card is read from the top: the first line that fits your hand says what to do; the last line says what to do
otherwise. A line is a choice (pass, play, call Rumba) with a condition a player checks at a glance, a
conjunction of at most ``MAX_ATOMS`` of: his seat (first to speak, middle seats, dealer, ...), how many trumps,
his highest trump, side aces, a void, and **hand points** (trump A 6, K 5, Q 4, J 3, lower trumps 2; side A 3,
side K 1: the points the opponent models use, docs/SIMULATION.md).

Fitting (greedy, then refined), from each choice as the last line, keeping the best: repeatedly add, at the
height where it helps most, the line that lowers the card's loss most (the points per hand it gives away against
each hand's best choice in the table, weighted by how often each hand is dealt); then sweep the lines, replacing
each by the best one given the others, until nothing improves. A line's **points saved** are what forgetting
it (and only it) would cost; the last line's, what the other choice there would cost. Cells are pooled first into
groups that every condition treats alike (seat, trumps, top trumps, side aces, side kings, voids).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ..cards import RANKS
from .cells import ACTIONS, PLAY, RUMBA, SIT, Z95, Cells
from .grids import Interval
from .shapes import Honours, rank_name

MAX_LINES = 8  # lines per player count, the last one "otherwise ..."
MAX_ATOMS = 3  # conditions per line (the seat not counted)
ATOM_COST = 2e-4  # points per hand an extra condition must save to be worth reading
NUMBERS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
SEATS = ("every seat", "first to speak", "middle seats", "dealer", "not first to speak", "not the dealer")
VERB = {SIT: "Pass", PLAY: "Play", RUMBA: "Call Rumba"}


@dataclass(frozen=True)
class Atom:
    """One condition on what a player sees: ``feature op value`` (op ">=", "<=", "==")."""

    feature: str  # trumps, top, aces, voids, points
    op: str
    value: int

    def holds(self, f: dict[str, np.ndarray]) -> np.ndarray:
        x = np.asarray(f[self.feature]).astype(np.int64)
        return x >= self.value if self.op == ">=" else (x <= self.value if self.op == "<=" else x == self.value)

    def text(self, top: int) -> str:
        v, op = self.value, self.op
        if self.feature == "trumps":
            word = "trump" if v == 1 else "trumps"
            if op == ">=":
                return "a trump" if v == 1 else f"{v}+ trumps"
            if op == "<=":
                return "no trump" if v == 0 else f"at most {NUMBERS.get(v, v)} {word}"
            return f"exactly {NUMBERS.get(v, v)} {word}"
        if self.feature == "top":
            name = rank_name(v)
            if op == ">=":
                return f"the trump {name}" if v >= top else f"a trump {name} or higher"
            return f"no trump {rank_name(v + 1)} or higher" if v + 1 < top else f"no trump {rank_name(top)}"
        if self.feature == "aces":
            if op == ">=":
                return "a side ace" if v == 1 else f"{v}+ side aces"
            return "no side ace" if v == 0 else f"at most {NUMBERS.get(v, v)} side ace{'s' if v > 1 else ''}"
        if self.feature == "voids":
            return "a void side suit" if op == ">=" else "no void side suit"
        if self.feature == "points":
            return f"{v}+ points" if op == ">=" else f"at most {v} points"
        raise ValueError(self.feature)  # pragma: no cover


@dataclass(frozen=True)
class Condition:
    seats: str = "every seat"
    atoms: tuple[Atom, ...] = ()

    def seat_mask(self, seat: np.ndarray, players: int) -> np.ndarray:
        seat = np.asarray(seat)
        return {"every seat": np.ones(len(seat), bool), "first to speak": seat == 0,
                "middle seats": (seat > 0) & (seat < players - 1), "dealer": seat == players - 1,
                "not first to speak": seat > 0, "not the dealer": seat < players - 1}[self.seats]

    def holds(self, f: dict[str, np.ndarray], players: int) -> np.ndarray:
        out = self.seat_mask(f["seat"], players)
        for a in self.atoms:
            out = out & a.holds(f)
        return out

    def text(self, top: int) -> str:
        return " and ".join(a.text(top) for a in self.atoms)


@dataclass
class CardLine:
    action: str
    condition: Condition | None  # None: the last line (otherwise)
    saved: Interval = field(default_factory=lambda: Interval(math.nan, math.nan, math.nan))

    def text(self, rules) -> str:
        top = RANKS.index(rules.ranks[-1])
        if self.condition is None:
            return f"Otherwise {VERB[self.action][0].lower() + VERB[self.action][1:]}."
        c = self.condition
        who = "" if c.seats == "every seat" else c.seats[0].upper() + c.seats[1:] + ": "
        verb = VERB[self.action] if not who else VERB[self.action][0].lower() + VERB[self.action][1:]
        cond = c.text(top)
        return f"{who}{verb} with {cond}." if cond else f"{who}{verb}."


@dataclass
class RuleCard:
    """One player count's card: lines in reading order (the last one: otherwise), and how well it does."""

    players: int
    lines: list[CardLine]
    lost: Interval  # points per hand following the card gives away against the table's best choice
    agreement: float  # weighted share of hands where the card's choice is the table's best
    agreement_sure: float  # the same among hands whose table interval excludes a tie
    pass_lost: float  # points per hand passing every hand gives away (what the lines save together)
    vs_grid: float = math.nan  # weighted share of hands where the card and their grid box differ
    grid_lost: float = math.nan  # points per hand following the grids gives away
    lower_bound_share: float = 0.0  # share of hands where the card's loss is a lower bound (a third choice)
    floor: float = math.nan  # the least any card in these words can lose, however many lines (:func:`floor_of`)

    def choice(self, f: dict[str, np.ndarray]) -> np.ndarray:
        """ACTIONS index per hand (``f``: hand features with ``seat``), first matching line."""
        n = len(np.asarray(f["seat"]))
        out = np.full(n, -1, dtype=np.int64)
        for line in self.lines:
            hit = np.ones(n, bool) if line.condition is None else line.condition.holds(f, self.players)
            out = np.where((out < 0) & hit, ACTIONS.index(line.action), out)
        return out

    def texts(self, rules) -> list[str]:
        return [line.text(rules) for line in self.lines]


# -- the candidates --------------------------------------------------------------------------------------------
def atom_family(rules) -> dict[str, list[Atom]]:
    top = Honours.of(rules).top
    h = rules.hand_size
    low = RANKS.index(rules.ranks[0])
    tops = [r for r in range(max(low, top - 3), top + 1)]
    return {
        "trumps": [Atom("trumps", ">=", k) for k in range(1, h + 1)] + [Atom("trumps", "<=", k) for k in range(h)]
        + [Atom("trumps", "==", k) for k in range(1, h)],
        "top": [Atom("top", ">=", r) for r in tops] + [Atom("top", "<=", r - 1) for r in tops],
        "aces": [Atom("aces", ">=", u) for u in range(1, min(3, h) + 1)] + [Atom("aces", "<=", u) for u in range(3)]
        + [Atom("voids", ">=", 1), Atom("voids", "<=", 0)],
        "points": [Atom("points", ">=", p) for p in range(2, 31)] + [Atom("points", "<=", p) for p in range(1, 30)],
    }


def _combos(rules, max_atoms: int) -> tuple[list[list[Atom]], np.ndarray]:
    """(atoms per slot, every combination of at most ``max_atoms`` atoms as slot indices (0: none), fewest
    atoms first)."""
    slots = list(atom_family(rules).values())
    idx = np.array(list(itertools.product(*[range(len(a) + 1) for a in slots])), dtype=np.int64)
    k = (idx > 0).sum(axis=1)
    idx = idx[k <= max_atoms]
    return slots, idx[np.argsort((idx > 0).sum(axis=1), kind="stable")]


def _condition(seats: str, slots, row) -> Condition:
    return Condition(seats, tuple(slots[j][i - 1] for j, i in enumerate(row) if i > 0))


def conditions(rules, max_atoms: int = MAX_ATOMS) -> list[Condition]:
    """Every condition of the family, simplest first (every seat before one seat group, fewer atoms first)."""
    slots, idx = _combos(rules, max_atoms)
    return [_condition(seats, slots, row) for seats in SEATS for row in idx]


def candidates(rules, f: dict[str, np.ndarray], players: int, max_atoms: int = MAX_ATOMS
               ) -> tuple[list[Condition], np.ndarray]:
    """(conditions, their masks over ``f``'s rows): one condition per distinct set of rows it holds for, the
    simplest (in :func:`conditions`' order); none that holds for no row. Vectorised over the slots,
    deduplicated by a random projection of the masks."""
    n = len(np.asarray(f["seat"]))
    slots, idx = _combos(rules, max_atoms)
    slot_masks = [np.vstack([np.ones(n, bool)] + [a.holds(f) for a in atoms]) for atoms in slots]
    projection = np.random.default_rng(12345).random(n)
    keep_conds, keep_masks, seen = [], [], set()
    chunk = 4096
    for seats in SEATS:
        seat = Condition(seats).seat_mask(f["seat"], players)
        for start in range(0, len(idx), chunk):
            part = idx[start:start + chunk]
            m = seat[None, :] & slot_masks[0][part[:, 0]]
            for j in range(1, len(slots)):
                m &= slot_masks[j][part[:, j]]
            keys = np.round(m @ projection, 6)
            for j in np.flatnonzero(keys > 0):
                key = float(keys[j])
                if key not in seen:
                    seen.add(key)
                    keep_conds.append(_condition(seats, slots, part[j]))
                    keep_masks.append(m[j])
    return keep_conds, np.array(keep_masks)


# -- groups of cells every condition treats alike ---------------------------------------------------------------
@dataclass
class Groups:
    features: dict[str, np.ndarray]  # per group (seat, trumps, top, aces, kings, voids, points)
    loss: np.ndarray  # (groups, 3) weighted loss sums / total weight
    var: np.ndarray  # (groups, 3, 3) sum of (w h_ab / 1.96)^2 / total^2: the variance of a switch a -> b
    loss_var: np.ndarray  # (groups, 3) the same of each choice's loss against each hand's best
    wrong: np.ndarray  # (groups, 3) weighted share of hands whose best is not this choice
    wrong_sure: np.ndarray  # (groups, 3) ... among the sure hands
    sure: np.ndarray  # (groups,) weighted share of sure hands
    unknown: np.ndarray  # (groups, 3) weighted share of hands whose loss of this choice is a lower bound
    total: float


def group_cells(fc: Cells) -> Groups:
    seat = fc.seat.astype(np.int64)
    per = fc.feature
    hon = (per("trump_lane") >> max(0, Honours.of(fc.rules).top - 3)) & 15
    key = (((((seat * 8 + per("n_trumps")) * 16 + hon) * 4 + per("side_aces")) * 4
            + np.minimum(per("side_kings"), 3)) * 4 + per("voids"))
    uniq, first, inv = np.unique(key, return_index=True, return_inverse=True)
    w = fc.weight
    total = float(w.sum())
    g = len(uniq)
    loss = np.stack([np.bincount(inv, w * fc.loss[:, a], g) for a in range(3)], axis=1) / total
    var = np.zeros((g, 3, 3))
    best = fc.best
    for a, b in itertools.permutations(range(3), 2):
        h = np.where(best == a, fc.loss_half[:, b], np.where(best == b, fc.loss_half[:, a],
                                                              np.hypot(fc.loss_half[:, a], fc.loss_half[:, b])))
        var[:, a, b] = np.bincount(inv, (w * h / Z95) ** 2, g) / total ** 2
    loss_var = np.stack([np.bincount(inv, (w * fc.loss_half[:, a] / Z95) ** 2, g) for a in range(3)],
                        axis=1) / total ** 2
    sure = fc.sure
    wrong = np.stack([np.bincount(inv, w * (best != a), g) for a in range(3)], axis=1) / total
    wrong_sure = np.stack([np.bincount(inv, w * ((best != a) & sure), g) for a in range(3)], axis=1) / total
    unknown = np.stack([np.bincount(inv, w * ~fc.known[:, a], g) for a in range(3)], axis=1) / total
    feats = {"seat": seat[first], "trumps": per("n_trumps")[first].astype(np.int64),
             "top": per("top_trump")[first].astype(np.int64), "aces": per("side_aces")[first].astype(np.int64),
             "voids": per("voids")[first].astype(np.int64), "points": per("points")[first].astype(np.int64)}
    return Groups(feats, loss, var, loss_var, wrong, wrong_sure, np.bincount(inv, w * sure, g) / total, unknown, total)


def atom_features(f: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Hand features (cells.hand_features names, with ``seat``) under the names the atoms read."""
    return {"seat": np.asarray(f["seat"]), "trumps": np.asarray(f["n_trumps"]), "top": np.asarray(f["top_trump"]),
            "aces": np.asarray(f["side_aces"]), "voids": np.asarray(f["voids"]), "points": np.asarray(f["points"])}


# -- fitting -------------------------------------------------------------------------------------------------
def _assign(lines: list[tuple[int, int]], masks: np.ndarray, default: int, n: int) -> np.ndarray:
    out = np.full(n, default, dtype=np.int64)
    for i, a in reversed(lines):
        out = np.where(masks[i], a, out)
    return out


def fit_card(fc: Cells, max_lines: int = MAX_LINES, max_atoms: int = MAX_ATOMS) -> RuleCard:
    """The card of ``fc``'s player count (see the module docstring): the best of the fits started from each
    choice as the last line."""
    g = group_cells(fc)
    cands, masks = candidates(fc.rules, g.features, fc.players, max_atoms)
    cost = np.array([ATOM_COST * len(c.atoms) + (ATOM_COST if c.seats != "every seat" else 0.0) for c in cands])
    fits = [_fit(g, masks, cost, max_lines, start) for start in range(len(ACTIONS))]
    lines, default, _ = min(fits, key=lambda fit: fit[2])
    return _card(fc, g, cands, masks, lines, default)


def _fit(g, masks: np.ndarray, cost: np.ndarray, max_lines: int, default: int):
    """Greedy growth (each new line where it saves most, at any height), then sweeps replacing each line by the
    best given the others and refitting the last line, until nothing improves: (lines, default, loss + cost)."""
    n = len(g.loss)
    fmask = masks.astype(np.float32)
    rows = np.arange(n)

    def loss_of(lines, default_):
        return float(g.loss[rows, _assign(lines, masks, default_, n)].sum()) + float(sum(cost[i] for i, _ in lines))

    def best_line(below: np.ndarray, free: np.ndarray) -> tuple[float, tuple[int, int] | None]:
        """The line (condition, action) that saves most on ``free`` groups now following ``below``."""
        base = g.loss[rows, below]
        best = (0.0, None)
        for a in range(len(ACTIONS)):
            gain = fmask @ ((base - g.loss[:, a]) * free).astype(np.float32) - cost
            i = int(gain.argmax())
            if gain[i] > best[0] + 1e-12:
                best = (float(gain[i]), (i, a))
        return best

    lines: list[tuple[int, int]] = []
    for _round in range(4):
        while len(lines) < max_lines - 1:  # grow: the best line at the best height
            options = [(*best_line(_assign(lines[k:], masks, default, n), (~_above(lines[:k], masks, n)).astype(float)),
                        k) for k in range(len(lines) + 1)]
            gain, line, k = max(options, key=lambda o: o[0])
            if line is None:
                break
            lines.insert(k, line)
        grown = list(lines)
        for _ in range(6):  # refine: each line replaced by the best given the others, default refitted
            improved = False
            for j in range(len(lines)):
                gain, line = best_line(_assign(lines[j + 1:], masks, default, n),
                                       (~_above(lines[:j], masks, n)).astype(float))
                if line is not None and line != lines[j]:
                    trial = lines[:j] + [line] + lines[j + 1:]
                    if loss_of(trial, default) < loss_of(lines, default) - 1e-9:
                        lines, improved = trial, True
            covered = _above(lines, masks, n)
            new_default = int((g.loss * ~covered[:, None]).sum(axis=0).argmin())
            if new_default != default:
                default, improved = new_default, True
            lines = [ln for k, ln in enumerate(lines) if masks[ln[0]] @ ~_above(lines[:k], masks, n)]  # dead lines
            lines, default = _last_line_is_otherwise(lines, masks, default, n)
            if not improved:
                break
        if len(lines) >= max_lines - 1 or lines == grown:
            break
    return lines, default, loss_of(lines, default)


def _last_line_is_otherwise(lines, masks, default: int, n: int) -> tuple[list[tuple[int, int]], int]:
    """A line that takes every hand the lines above it leave ("Play.") is the card's "Otherwise": the lines
    below it, and the old default, would never be read."""
    for k, (i, a) in enumerate(lines):
        if masks[i][~_above(lines[:k], masks, n)].all():
            return lines[:k], a
    return lines, default


def _above(lines, masks, n) -> np.ndarray:
    out = np.zeros(n, bool)
    for i, _a in lines:
        out |= masks[i]
    return out


def floor_of(g: Groups) -> float:
    """Points per hand lost by the best card in these words with no limit on its lines: each group of hands that
    every condition treats alike gets its own best choice. What remains is lost because hands that look alike to
    the card (seat, trumps, top trumps, side aces and kings, voids) still differ in their best choice."""
    return float(g.loss.min(axis=1).sum())


def _interval(d: np.ndarray, var: np.ndarray) -> Interval:
    mean = float(d.sum())
    half = Z95 * math.sqrt(float(var.sum()))
    return Interval(mean, mean - half, mean + half)


def _switch(g: Groups, old: np.ndarray, new: np.ndarray) -> Interval:
    """Points per hand saved by choosing ``new`` instead of ``old`` per group (paired intervals)."""
    rows = np.arange(len(old))
    d = g.loss[rows, old] - g.loss[rows, new]
    v = np.where(old == new, 0.0, g.var[rows, old, new])
    return _interval(d, v)


def _card(fc: Cells, g: Groups, cands, masks, lines, default) -> RuleCard:
    n = len(g.loss)
    rows = np.arange(n)
    choice = _assign(lines, masks, default, n)
    out: list[CardLine] = []
    for k, (i, a) in enumerate(lines):  # saved: what forgetting this line (and only it) would cost
        without = _assign(lines[:k] + lines[k + 1:], masks, default, n)
        out.append(CardLine(ACTIONS[a], cands[i], _switch(g, without, choice)))
    other = min((x for x in range(3) if x != default), key=lambda x: g.loss[rows, _assign(lines, masks, x, n)].sum())
    out.append(CardLine(ACTIONS[default], None, _switch(g, _assign(lines, masks, other, n), choice)))
    choice = _assign(lines, masks, default, n)
    lost = _interval(g.loss[rows, choice], g.loss_var[rows, choice])
    sure_total = float(g.sure.sum())
    agreement_sure = 1.0 - float(g.wrong_sure[rows, choice].sum()) / sure_total if sure_total > 0 else math.nan
    return RuleCard(fc.players, out, lost, 1.0 - float(g.wrong[rows, choice].sum()), agreement_sure,
                    float(g.loss[:, ACTIONS.index(SIT)].sum()), lower_bound_share=float(g.unknown[rows, choice].sum()),
                    floor=floor_of(g))


def card_features(cards_hands, trump_cards, seats, rules) -> dict[str, np.ndarray]:
    """Features of real hands (lists of card ints, any trump suit) at their seats, for :meth:`RuleCard.choice`."""
    from ..cards import SUIT_BITS
    from .cells import hand_features

    masks, ranks, suits = [], [], []
    for cards, trump in zip(cards_hands, trump_cards):
        m = 0
        for c in cards:
            m |= 1 << int(c)
        masks.append(m)
        ranks.append(int(trump) % SUIT_BITS)
        suits.append(int(trump) // SUIT_BITS)
    out: dict[str, list] = {}
    for m, r, s in zip(masks, ranks, suits):
        f = hand_features(np.array([m], dtype=np.uint64), np.array([r]), rules, s)
        for k, v in f.items():
            out.setdefault(k, []).append(v[0])
    feats = {k: np.array(v) for k, v in out.items()}
    feats["seat"] = np.asarray(seats)
    return atom_features(feats)


__all__ = ["MAX_ATOMS", "MAX_LINES", "Atom", "CardLine", "Condition", "RuleCard", "atom_features", "card_features",
           "conditions", "fit_card", "floor_of", "group_cells"]
