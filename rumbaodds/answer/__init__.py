"""The answer pipeline: "what should I do with this hand?" answered by a table or a simulation, one way everywhere.

Read the modules in this order: each imports only the ones above it (``tests/test_imports.py`` reads this list
and checks it):

1. :mod:`.situation`: what the asking player knows at his turn to speak, checked as he typed it;
2. :mod:`.question`: the situation and how it may be answered (opponents, card play, samples, precision, seed,
   device), checked at the door;
3. :mod:`.conditioning`: the plan that deals the earlier seats hands consistent with what they said;
4. :mod:`.results`: an answer's records (every choice's estimate, the margin, the exchange) and the accumulator
   of simulated deals;
5. :mod:`.stopping`: when a simulation stops (its deals, its precision, or once its answer is settled);
6. :mod:`.simulation`: the simulation itself (``ask``, ``simulate``, ``knock``, ``exact_ask``; never a table);
7. :mod:`.pipeline`: the best source for a question: a table, what it leaves open settled by a short
   simulation, else a simulation.

The public API is the pipeline's: ``from rumbaodds.answer import ask, answer, knock_answer, document, Question``
(:mod:`.simulation`'s ``ask`` takes the same arguments and always simulates). These names are imported on first
use, not here: the tables the pipeline reads are built by the simulation (``rumbaodds.tables``), so importing the
pipeline with this package would close a circle through the tables.
"""

_PUBLIC = {"ask": "pipeline", "answer": "pipeline", "knock_answer": "pipeline", "document": "pipeline",
           "Question": "question"}


def __getattr__(name: str):
    """The public API (module docstring), imported on first use."""
    if _PUBLIC.get(name) == "pipeline":
        from . import pipeline

        return getattr(pipeline, name)
    if _PUBLIC.get(name) == "question":
        from . import question

        return getattr(question, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(_PUBLIC)
