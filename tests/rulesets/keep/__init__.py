"""The Vampire's Keep: its board, the Keep run and its main-board expansion."""
