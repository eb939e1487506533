"""One answer to "should I call Rumba?", the same wherever it is asked.

``rumbaodds ask``, ``rumbaodds tables query``, the page and the JSON API of
``rumbaodds serve`` and the Python API all answer a :class:`~.question.Question`
through here: a built table when one covers it (:func:`from_table`), else a
simulation (:func:`rumbaodds.analysis.simulate`); the JSON document of the
answer is :func:`document`. So the command line and the page can never give
different numbers or different JSON.
"""

from __future__ import annotations

from collections.abc import Callable

from . import analysis
from .question import Question
from .tables import find_answer


def lookup(root, situation: analysis.Situation, opponents, play: str) -> analysis.AskResult | None:
    """The first table that answers ``situation``, as an AskResult (or None): full tables under ``root``, then
    packed ones under ``root``, then the packed tables shipped in the package (rumbaodds.tables.find_answer)."""
    return find_answer(root, situation, opponents, play)


def from_table(question: Question, tables_root="tables", simulate: bool = False) -> analysis.AskResult | None:
    """The table's answer when a table under ``tables_root`` (or shipped) covers ``question``, else None.

    A table answers only when the player asked for no run of his own (samples, precision, seed) and not
    ``simulate``.
    """
    if simulate or question.own_run:
        return None
    return lookup(tables_root, question.situation, question.opponents, question.play)


def answer(question: Question, tables_root="tables", simulate: bool = False,
           progress: Callable[[int, int], None] | None = None) -> analysis.AskResult:
    """The table's answer where there is one (see :func:`from_table`), else a simulation."""
    found = from_table(question, tables_root, simulate)
    return found if found is not None else analysis.simulate(question, progress)


def document(result: analysis.AskResult) -> dict:
    """The ``--json`` document of an answer: ``to_dict()``, plus ``source`` when a table gave it."""
    data = result.to_dict()
    if result.meta:
        data["source"] = result.meta
    return data


__all__ = ["Question", "answer", "document", "from_table", "lookup"]
