"""Storage for nightkeep: where games are stored (config, the SQLite and PostgreSQL recorders, the msgpack
transcoder, the host's seeds and the at-rest cipher), loading a game from its snapshot, and reading recorded
events back (the one reader every incoming log passes). It imports `domain` only; the application service
lives in `event_store.app`, play by e-mail in `event_store.pbem`, and neither is imported from here."""
