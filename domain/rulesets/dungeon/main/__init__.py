"""The Dungeon as an expansion of the main board (Dungeon 3-13, house rules H2, H5): `expansion`."""
