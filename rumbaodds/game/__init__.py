"""The rules of one hand of Rumba in code: the readable rule book (RULES.md §2-§5).

- ``actions``: the moves as typed values (:class:`Word`, :class:`Knock`, :class:`SwapTwo`, :class:`Say`,
  :class:`Exchange`, :class:`Play`) and the asking player's :class:`Choice`;
- ``speaking``: who may say what at his turn (knock, throw-in, Rumba, must play);
- ``tricks``: who may play which card, and who wins a trick (§3);
- ``score``: the score tables (§4.8, §5.8);
- ``state``: :class:`HandState`, one hand from the deal to the score, with ``legal_words``,
  ``legal_exchanges``, ``legal_cards``, ``apply`` and ``returns``.

It imports only ``rumbaodds.cards`` and ``rumbaodds.rules``. The Numba kernels (``engine/``) are the fast path
of the same rules; the plain-Python twins (``rumbaodds/twins/``) drive this state machine with the kernels'
opponent decisions and random draws, and the tests keep kernel and twin equal sample by sample.
"""

from .actions import Action, Choice, Exchange, IllegalAction, Knock, Phase, Play, Say, SwapTwo, Word
from .score import hand_returns, passer_change, trick_score
from .state import HandState, two_of_trump
from .tricks import Tricks, card_beats, legal_cards

__all__ = ["Action", "Choice", "Exchange", "IllegalAction", "Knock", "Phase", "Play", "Say", "SwapTwo", "Word",
           "HandState", "two_of_trump", "Tricks", "card_beats", "legal_cards", "hand_returns", "passer_change",
           "trick_score"]
