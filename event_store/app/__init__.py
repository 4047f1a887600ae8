"""The application layer: GameService (create, act, fork, import, seats, game ids) over the storage of
`event_store`. It imports `domain` and storage only: never play by e-mail (`event_store.pbem`) nor the read
side (`projections`)."""
