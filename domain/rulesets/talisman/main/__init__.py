"""The Talisman main board (house rules H5): its content (board, places, decks, abilities) and its rules."""
