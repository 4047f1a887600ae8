"""Vampire Empire (seed `003_…`, RULES.md §4): the castle card game's house characters and decks."""
