"""The `nightkeep` command line: thin commands that parse, call the service, and render."""
