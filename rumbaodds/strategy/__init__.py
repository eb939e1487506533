"""Self-consistent opponents: solved (equilibrium) strategies for every seat, player count and rule set.

``abstraction`` (the strength index and its buckets), ``game`` (the solver's
kernels: one decision of one seat, every action on the same deal), ``solver``
(regret matching over simulated deals, exploitability), ``exact`` (the same on
a tiny rule set by enumeration), ``store`` (the shipped strategy files) and
``policy`` (a strategy as the opponents of ``ask``, ``knock`` and tables).
"""
