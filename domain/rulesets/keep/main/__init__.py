"""The Vampire's Keep as an expansion of the main board (Keep 3-15, house rules H3, H5): `expansion`."""
