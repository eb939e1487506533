"""Plain-Python twins of the Numba kernels: the same procedures, written for reading, equal sample by sample.

``hand`` (the whole-hand simulator, driving the game's state machine ``rumbaodds.game``), ``condition`` (the
conditioned deal of the earlier seats), ``common`` (greedy play, the random stream, dealing), ``dd`` (the
double-dummy value), ``table`` (the adaptive table cell) and ``card_lines`` (the rule card's line sums,
``report/line_sums.py``). The kernels are the fast path; nothing that runs them imports from here.
"""
