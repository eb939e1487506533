"""The other players: opponent models (styles), the kernels' policy record, the resolver of a question's opponents.

- :mod:`.models`: the named threshold models (``default``, ``bold``, ...) and TOML files of thresholds;
- :mod:`.policies`: :class:`~.policies.Policy`, any opponents as the kernels see them (probabilities by seat,
  context and hand score); it and :mod:`.models` sit below ``rumbaodds.strategy``, whose solver builds policies;
- :mod:`.resolve`: which opponents a question names (``equilibrium``, a style, a TOML file, ``BASE,SEAT=STYLE``),
  resolved to a policy; it sits above ``rumbaodds.strategy`` (the solved strategies);
- :mod:`.call_belief`: what a Rumba call says of the caller's hand, for the worlds of PIMC's defenders.

Nothing is imported here, so that ``strategy`` can import :mod:`.policies` without loading :mod:`.resolve`.
"""
