"""Storage and the game service: stores, recorders, concurrency, shards, seats and ids."""
