"""Plain-Python twins of the Numba kernels: the same procedures, written for reading, equal sample by sample.

``hand`` (the whole-hand simulator, driving the game's state machine ``rumbaodds.game``), ``condition`` (the
conditioned deal of the earlier seats), ``common`` (greedy play, the random stream, dealing), ``dd`` (the
double-dummy value) and ``table`` (the adaptive table cell). The kernels in ``engine/`` are the fast path;
nothing in ``engine/`` imports from here.
"""
