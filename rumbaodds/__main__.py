"""``python -m rumbaodds``: the command line, for a checkout without the installed ``rumbaodds`` script."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="rumbaodds")
