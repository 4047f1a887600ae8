"""The Dungeon as an expansion of the main board (Dungeon 3-13, RULES.md §2 and §5): `expansion`."""
