"""Speed of rumbaodds, measured and printed (never asserted): `make bench`."""
