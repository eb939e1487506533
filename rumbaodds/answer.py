"""One answer to "should I call Rumba?", the same wherever it is asked.

``rumbaodds ask``, ``rumbaodds tables query`` and the page of ``rumbaodds
serve`` all answer through here: a built table when one covers the situation
(:func:`from_table`), else a simulation by :func:`rumbaodds.analysis.ask`, and
the JSON document of the answer is :func:`document`. So the command line and
the page can never give different numbers or different JSON.
"""

from __future__ import annotations

from . import analysis
from .tables import find_answer


def lookup(root, situation: analysis.Situation, opponents, play: str) -> analysis.AskResult | None:
    """The first table that answers ``situation``, as an AskResult (or None): full tables under ``root``, then
    packed ones under ``root``, then the packed tables shipped in the package (rumbaodds.tables.find_answer)."""
    return find_answer(root, situation, opponents, play)


def table_allowed(samples, precision, seed, simulate: bool = False) -> bool:
    """A table answers only when the player asked for no run of his own (samples, precision, seed)."""
    return not simulate and samples is None and precision is None and seed is None


def from_table(hand, trump, players: int, seat: int, rules="swiss", passes_in_a_row: int = 0,
               dealer_knocked: bool = False, before=None, opponents=None, play: str = "expert",
               samples: int | None = None, precision: float | None = None, seed: int | None = None,
               tables_root="tables", simulate: bool = False,
               swapped_by: int | None = None) -> analysis.AskResult | None:
    """The table's answer when a table under ``tables_root`` covers the question, else None (then simulate).

    Bad input raises the API's own errors (CardError, RulesError, ModelError), checked before any table is read.
    """
    if not table_allowed(samples, precision, seed, simulate):
        return None
    situation = analysis.make_situation(hand, trump, players, seat, rules, passes_in_a_row, dealer_knocked, before,
                                        swapped_by)
    return lookup(tables_root, situation, opponents, play)


def document(result: analysis.AskResult) -> dict:
    """The ``--json`` document of an answer: ``to_dict()``, plus ``source`` when a table gave it."""
    data = result.to_dict()
    if result.meta:
        data["source"] = result.meta
    return data
