"""Vampire Empire (seed `003_…`, house rules H4): the castle card game's house characters and decks."""
