"""The Vampire's Keep (seed `000_…`, RULES.md §3): its board, decks and tables, and the `keep-run` game."""
