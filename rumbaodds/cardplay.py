"""The card plays a question can name, and the one every answer uses unless told otherwise.

``distilled`` plays as PIMC's search would (issue 17, docs/SIMULATION.md
"Card play"); ``greedy`` and ``expert`` stay for comparison. The shipped
tables and strategies are built with :data:`DEFAULT_PLAY`, so changing it
means rebuilding them (their stamps say which card play they used).
"""

CARD_PLAYS = ("greedy", "expert", "distilled")
DEFAULT_PLAY = "distilled"
SEARCHED_PLAY = "pimc"  # the search itself: a question may ask for it (``ask --play pimc``), never a table

__all__ = ["CARD_PLAYS", "DEFAULT_PLAY", "SEARCHED_PLAY"]
