"""Whole games of Rumba (RULES.md §9): hands one after another until one or more players reach 0.

``score``: the score sheet (a hand's result applied to the score state, the end, the payout); ``kernel``: the
Numba game simulator and ``twin`` its plain-Python twin; ``exact``: exact game values of tiny rule sets by
dynamic programming over exactly enumerated hands; ``api``: :func:`game_values`.
"""

__all__ = ["game_values", "GameValues", "GameState"]


def __getattr__(name: str):
    """``api``'s names on first use: the solver's kernels import ``match.kernel`` (a hand with every seat kept),
    and an eager ``api`` here would import the opponents and the strategies back while they load."""
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(name)
