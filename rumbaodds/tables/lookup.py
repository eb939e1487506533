"""Reading full tables (Parquet folders) and answering ``ask`` from them (packed ones: :mod:`.pack`).

A situation is answered from a table only when the table's numbers are its
answer: the same numbers version (``engine.NUMBERS_VERSION``, see
:func:`.spec.numbers_problem`), rule set, player count, opponent model and card
play, no dealer's knock and no words known from the earlier seats. Hands are
looked up through their class (:mod:`.handclasses`): any trump suit and any
order of the side suits find the same row.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from ..answer.results import ExchangeCall, RumbaOutcomes
from ..answer.simulation import AskResult, ChoiceResult, Situation
from ..answer.situation import make_situation
from ..cards import RANKS, SUITS, format_card, mask_of
from ..engine.keep import keep_value_py
from ..game import Choice
from ..opponents.policies import Policy
from ..opponents.resolve import opponent_policy
from ..rules import RuleSet
from ..stats import Estimate
from ..twins.common import strength
from .handclasses import canonical_hand, enumerate_trump_rank_pairs
from .spec import TableError, numbers_problem


@dataclass
class Table:
    path: Path
    manifest: dict
    frame: pd.DataFrame
    knock: pd.DataFrame | None

    @property
    def rules(self) -> RuleSet:
        return RuleSet(**self.manifest["rules"])

    @property
    def players(self) -> int:
        return int(self.manifest["players"])

    def describe(self) -> str:
        return f"{self.path} ({describe_manifest(self.manifest)})"


def describe_manifest(m: dict) -> str:
    if m.get("samples_per_cell"):
        budget = f"{m['samples_per_cell']:,} deals per cell"
    else:
        budget = f"precision {m['precision']:g} points, {m['min_samples']:,}..{m['max_samples']:,} deals per cell"
    return (f"{m['rules']['name']}, {m['players']} players, opponents {m['opponents']['name']}, play {m['play']}, "
            f"{budget}, seed {m['seed']}")


@functools.lru_cache(maxsize=64)
def _manifest(path: str, mtime_ns: int, size: int) -> dict:
    return json.loads(pq.read_schema(path).metadata[b"rumbaodds"])


def read_manifest(path: str | Path) -> dict:
    """The manifest stored in a table's (or packed table's) Parquet metadata, without reading its rows.

    Read once per file version (cached by path, modification time and size): a lookup reads the manifest of every
    table it might use, and a group table's holds its calibration. Shared: copy it before changing it."""
    stat = Path(path).stat()
    return _manifest(str(path), stat.st_mtime_ns, stat.st_size)


def load_table(folder: str | Path) -> Table:
    folder = Path(folder)
    path = folder / "table.parquet" if folder.is_dir() else folder
    if not path.exists():
        raise TableError(f"no finished table at {path} (build it with `rumbaodds tables build`)")
    table = pq.read_table(path)
    manifest = json.loads(table.schema.metadata[b"rumbaodds"])
    knock_path = path.parent / "knock.parquet"
    knock = pq.read_table(knock_path).to_pandas() if knock_path.exists() else None
    return Table(path, manifest, table.to_pandas(), knock)


def find_tables(root: str | Path) -> list[Path]:
    """Finished table folders under ``root`` (the folder itself or one level down)."""
    root = Path(root)
    if not root.is_dir():
        return []
    found = [root] if (root / "table.parquet").exists() else []
    found += sorted(p for p in root.iterdir() if p.is_dir() and (p / "table.parquet").exists())
    return found


def _as_dict(settings) -> dict:
    """``settings.to_dict()`` of a flat dataclass (rule set, opponent model) without asdict's deep copies.

    Not cached by the object: rule sets that compare equal can differ in uncompared fields (description).
    """
    if hasattr(settings, "hand_rules"):  # a RuleSet: its own to_dict() (flat, and without §9's default fields)
        return settings.to_dict()
    out = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings)}
    if all(isinstance(v, str | int | float | bool) for v in out.values()):
        return out
    return settings.to_dict()


@functools.lru_cache(maxsize=16)
def _pairs(rules: RuleSet):
    return enumerate_trump_rank_pairs(rules)


def manifest_matches(manifest: dict, rules: RuleSet, players: int, opponents, play: str) -> bool:
    """Were this table's numbers computed by code of this numbers version for these settings?

    Opponents match when they decide alike (the digest of their policy arrays), whatever they are called.
    """
    if numbers_problem(manifest) is not None or manifest.get("players") != players or \
            manifest.get("play") != play or manifest.get("rules") != _as_dict(rules):
        return False
    policy = opponents if isinstance(opponents, Policy) else opponent_policy(opponents, rules, players)
    return (manifest.get("opponents") or {}).get("digest") == policy.to_dict()["digest"]


def matches(manifest: dict, situation: Situation, opponents, play: str) -> bool:
    """Would this table's numbers be the answer to ``situation``?"""
    return (manifest_matches(manifest, situation.rules, situation.players, opponents, play)
            and not situation.dealer_knocked and situation.swapped_by is None
            and all(w == "-" for w in situation.before))


def table_hand(situation: Situation) -> tuple[int, int]:
    """(canonical hand mask in the table's trump suit, trump rank): the key of the situation's class."""
    rules = situation.rules
    classes_trump = _pairs(rules).classes.trump_suit
    mask = mask_of(situation.hand)
    if situation.trump != classes_trump:  # swap the trump suit onto the table's trump suit
        a, b = situation.trump, classes_trump
        lane_a = (mask >> (16 * a)) & 0xFFFF
        lane_b = (mask >> (16 * b)) & 0xFFFF
        mask = mask & ~((0xFFFF << (16 * a)) | (0xFFFF << (16 * b))) | (lane_a << (16 * b)) | (lane_b << (16 * a))
    return canonical_hand(mask, classes_trump, rules), situation.trump_card % 16


@functools.lru_cache(maxsize=16)
def _pair_keys(rules: RuleSet) -> np.ndarray:
    """``trump rank * classes + class row`` of every pair, ascending (pairs are sorted that way)."""
    pairs = _pairs(rules)
    return pairs.trump_ranks * len(pairs.classes) + pairs.class_rows


def pair_row(situation: Situation) -> int:
    """Row of the situation's (trump rank, class) pair in ``enumerate_trump_rank_pairs`` order: two
    ``searchsorted`` (class, then pair), so a lookup costs the same in a table of any size."""
    canon, rank = table_hand(situation)
    classes = _pairs(situation.rules).classes
    class_row = int(np.searchsorted(classes.hands, np.uint64(canon)))
    if class_row >= len(classes.hands) or int(classes.hands[class_row]) != canon:
        raise KeyError(f"no class for hand {canon:#x}")
    keys = _pair_keys(situation.rules)
    key = rank * len(classes) + class_row
    row = int(np.searchsorted(keys, key))
    if row >= len(keys) or int(keys[row]) != key:
        raise KeyError(f"trump rank {rank} is in the hand")
    return row


def cell_situation(row, rules: RuleSet, players: int) -> Situation:
    """The question a table row answers: its class's hand, in the classes' trump suit, at its seat."""
    trump = enumerate_trump_rank_pairs(rules).classes.trump_suit
    hand = " ".join(format_card(c) for c in range(64) if (int(row["hand"]) >> c) & 1)
    return make_situation(hand, format_card(trump * 16 + int(row["trump_rank"])), players, int(row["seat"]), rules)


def table_cell(table: Table, situation: Situation) -> pd.Series | None:
    """The row answering ``situation`` (any trump suit, any side-suit order), or None if not in the table."""
    frame = table.frame
    canon, rank = table_hand(situation)
    if table.manifest.get("cells") is None:  # a full table: the row is seat * pairs + pair row
        row = situation.seat * len(_pairs(situation.rules)) + pair_row(situation)
        if row < len(frame) and int(frame["hand"].iat[row]) == canon and int(frame["seat"].iat[row]) == \
                situation.seat and int(frame["trump_rank"].iat[row]) == rank:
            return frame.iloc[row]
    hit = frame[(frame["seat"] == situation.seat) & (frame["trump_rank"] == rank) & (frame["hand"] == np.uint64(canon))]
    return None if hit.empty else hit.iloc[0]


def table_discard(hand, k: int, trump_card: int, rules: RuleSet) -> tuple[int, ...]:
    """The ``k`` cards of ``hand`` of lowest keep value, ties weakest first: ``simulation.discard_cards`` in plain
    Python (the kernel's twin), so a table answers without waiting for a kernel to compile."""
    trump, top = trump_card // 16, RANKS.index(rules.ranks[-1])
    chosen = set(sorted(hand, key=lambda c: (keep_value_py(c, trump, top), strength(c, trump)))[:k])
    return tuple(c for c in hand if c in chosen)


def penalised(situation: Situation) -> bool:
    rules = situation.rules
    return rules.sit_out_limit > 0 and situation.passes_in_a_row + 1 >= rules.sit_out_limit


def assemble_answer(situation: Situation, opponents, play: str, options: dict[str, ChoiceResult],
                    stored: tuple[str, str, Estimate] | None, seed: int, n: int, tries: float, meta: dict,
                    exchange: ExchangeCall | None = None) -> AskResult:
    """An AskResult from per-choice estimates; ``stored`` = (best kind, runner-up kind, paired margin)."""
    ranked = sorted(options, key=lambda name: options[name].ev.mean)
    best = ranked[0]
    runner = next((x for x in ranked[1:] if Choice(x).action != Choice(best).action), None)
    margin = None
    if runner is not None:
        if stored is not None and (Choice(best).action, Choice(runner).action) == stored[:2]:
            margin = stored[2]
        else:  # the stored margin is for another pair of choices; give the unpaired difference
            a, b = options[runner].ev, options[best].ev
            half = float(np.hypot(a.half_width, b.half_width))
            margin = Estimate(a.mean - b.mean, a.mean - b.mean - half, a.mean - b.mean + half, n)
    result = AskResult(situation, opponents, play, seed, n, tries, options, Choice(best).action,
                       None if runner is None else Choice(runner).action, margin, exchange=exchange)
    result.meta = meta
    return result


def answer_from_table(table: Table, situation: Situation, opponents, play: str) -> AskResult | None:
    """An AskResult read from the table, or None when the table does not cover the situation (a neighbour-group
    table answers once packed: ``rumbaodds tables pack``, where its calibration fits how members are answered)."""
    if not matches(table.manifest, situation, opponents, play) or table.manifest.get("neighbours"):
        return None
    row = table_cell(table, situation)
    if row is None or float(row["tries"]) < 0:
        return None
    n = int(row["samples"])
    pen = penalised(situation)

    def est(column: str) -> Estimate:
        """A column's estimate over its own deals (fewer than the cell's: dropped, clearly worse)."""
        mean, half = float(row[column]), float(row[column + "_half"])
        return Estimate(mean, mean - half, mean + half, int(row.get(column + "_deals", n)))

    options: dict[str, ChoiceResult] = {}
    for name in situation.choices():
        if name == "pass":
            options[name] = ChoiceResult(name, est("ev_pass_penalised") if pen else Estimate(0.0, 0.0, 0.0, n))
        elif name == "throw-in":
            options[name] = ChoiceResult(name, Estimate(0.0, 0.0, 0.0, n))
        elif name == "rumba":
            options[name] = ChoiceResult(
                name, est("ev_rumba"),
                p_success=Estimate(float(row["p_success"]), float(row["p_success_low"]), float(row["p_success_high"]),
                                   int(row.get("ev_rumba_deals", n))),
                outcomes=RumbaOutcomes(float(row["p_made"]), float(row["p_lost"]), float(row["p_uncontested"]),
                                       float(row["p_void"]), float(row["p_lone_play"])),
                tricks=tuple(float(row[f"tricks_{t}"]) for t in range(6)))
        else:
            k = Choice(name).exchanged
            options[name] = ChoiceResult(name, est(f"ev_play{k}"),
                                         discard=table_discard(situation.hand, k, situation.trump_card,
                                                               situation.rules))
    stored = None if pen else (str(row["best"]), str(row["runner_up"]), est("margin"))
    pairs = _pairs(situation.rules)
    meta = {"source": "table", "table": str(table.path), "cell": int(row["cell"]), "format": "full",
            "cell_key": {"seat": situation.seat, "trump_rank": RANKS[int(row["trump_rank"])],
                         "class": int(row["class_row"]), "class_hand": pairs.classes.hand_text(int(row["class_row"])),
                         "class_trump_suit": SUITS[pairs.classes.trump_suit]},
            "deals": n, "seed": int(table.manifest["seed"]), "missing": []}
    return assemble_answer(situation, opponents, play, options, stored, int(table.manifest["seed"]), n,
                           float(row["tries"]), meta, exchange_of_row(row, situation))


def exchange_of_row(row, situation: Situation) -> ExchangeCall | None:
    """The best exchange of a full-table row and whether the table resolved it (every other one dropped as
    clearly worse, the rule of :mod:`.pack`); None where the situation has one exchange or none."""
    counts = [c.exchanged for c in situation.choices() if c.is_play]
    if len(counts) <= 1:
        return None
    n = int(row["samples"])
    live = [k for k in counts if int(row.get(f"ev_play{k}_deals", n)) >= n]
    best = min(live or counts, key=lambda k: float(row[f"ev_play{k}"]))
    rest = sorted((k for k in counts if k != best), key=lambda k: (k not in live, float(row[f"ev_play{k}"])))
    cards = lambda k: table_discard(situation.hand, k, situation.trump_card, situation.rules)  # noqa: E731
    return ExchangeCall(cards(best), cards(rest[0]), None, not any(k in live for k in rest))
