"""Storage for nightkeep: where games are stored (config, the SQLite and PostgreSQL recorders, the msgpack
transcoder, the host's seeds and the at-rest cipher), loading a game from its snapshot, and reading recorded
events back, including the one reader every incoming log passes (`log_reader`: bytes to checked recorded
events, needing only `domain` and `recorded`, so imports, packets and the read side all share it). It
imports `domain` only; the application service lives in `event_store.app`, play by e-mail in
`event_store.pbem`, and neither is imported from here."""
