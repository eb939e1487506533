"""Deal files (RULES.md §7) and the trick engine's API for them (``rumbaodds deals``).

- :mod:`.files`: read, check, write and generate deals (JSON Lines, one deal a line);
- :mod:`.play`: play them (every hand by one card play) and solve them (double-dummy tricks).
"""
