"""The Talisman main board (RULES.md §5): its content (board, places, decks, abilities) and its rules."""
