"""The rummy family (Rommé, Rummi, Rommé 40; RULES.md §8): can I open, and how soon?

- ``rules``: rule sets as data (presets ``romme``, ``rummi``, ``romme40``, TOML house rules);
- ``cards``: two decks and jokers as small integers, values and penalties;
- ``melds``: what a meld is, said plainly (the specification the others are checked against);
- ``solver``: the exact meld solver (Numba kernel); ``twin`` its plain-Python twin, ``brute`` a brute force;
- ``odds``: P(can open after each of the next draws), Monte Carlo kernel; ``twin_odds`` its twin;
- ``tables``, ``report``: statistics over random deals and the HTML page.

What is simulated, and every decision where the rule book is open: docs/RUMMY.md.
"""
