"""Storage for nightkeep: the GameService application, its msgpack transcoder and store settings."""
