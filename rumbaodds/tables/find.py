"""The answer of the first table that covers a situation: full tables, then packed ones, then the shipped ones.

Above both kinds of table (:mod:`.lookup` reads full tables, :mod:`.pack` packed ones), so neither imports the other's
caller.
"""

from __future__ import annotations

from pathlib import Path

from ..answer.simulation import AskResult, Situation
from ..opponents.resolve import opponent_policy
from .lookup import answer_from_table, find_tables, load_table, matches, read_manifest
from .pack import answer_from_packed, find_packed, load_packed


def find_answer(root: str | Path | None, situation: Situation, opponents, play: str) -> AskResult | None:
    """The answer of the first table that covers ``situation``: full tables under ``root``, then packed tables
    under ``root``, then the packed tables shipped in the package. None when no table covers it."""
    opponents = opponent_policy(opponents, situation.rules, situation.players)  # once: every table compares to it
    if root is not None:
        for folder in find_tables(root):
            try:
                manifest = read_manifest(folder / "table.parquet")
            except (OSError, KeyError, ValueError):  # an unreadable folder is simply not a match
                continue
            if matches(manifest, situation, opponents, play):
                result = answer_from_table(load_table(folder), situation, opponents, play)
                if result is not None:
                    return result
    for path in find_packed(root):
        try:
            manifest = read_manifest(path)
        except (OSError, KeyError, ValueError):
            continue
        if matches(manifest, situation, opponents, play):
            result = answer_from_packed(load_packed(path), situation, opponents, play)
            if result is not None:
                return result
    return None
