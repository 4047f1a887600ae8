"""The Vampire's Keep as an expansion of the main board (Keep 3-15, RULES.md §3 and §5): `expansion`."""
