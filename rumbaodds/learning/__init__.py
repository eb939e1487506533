"""Learning from the answers: a decision graded, a player's written-down hands reviewed, the trainer's drills.

- :mod:`.grading`: one decision against an answer: the points it loses, a band and a reason in words;
- :mod:`.review`: a file of the player's decisions, each graded, skill told apart from luck (``rumbaodds review``);
- :mod:`.trainer`: situations dealt as they occur at the table, the choice graded at once (``rumbaodds train``).
"""
