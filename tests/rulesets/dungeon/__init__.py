"""The Dungeon: its board, the short game and its main-board expansion."""
