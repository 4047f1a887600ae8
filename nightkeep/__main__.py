"""Runs the `nightkeep` command: `python -m nightkeep …` is the console script."""

from cli.main import main

if __name__ == "__main__":
    main()
