"""Storage and the game service: stores, recorders, concurrency, seats and ids."""
