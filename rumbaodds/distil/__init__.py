"""Distilling PIMC card play into the fast ``distilled`` policy (issue 17).

PIMC (``engine/pimc.py``) plays well but thousands of times slower than the
table engine can afford. :mod:`.record` plays deals with every seat by PIMC
and records each decision (what the player knew and the card PIMC chose);
:mod:`.fit` fits a conditional-logit scorer of the legal cards (features:
``twins/distilled.py``) to those choices, one weight vector per follow
rule, role and moment, and writes ``engine/distilled_weights.py``, which the kernel
``engine/distilled.py`` reads. ``python -m rumbaodds.distil`` does both, with
fixed seeds, so the shipped weights are reproducible by one command.
"""
