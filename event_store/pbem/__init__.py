"""Play by e-mail: keys, signed packets, the host and its outbox, the player's replica, mail in and out,
deadlines, the club host, the witness, proofs and digests. It imports `domain`, storage and the application
layer (`event_store.app`), never the read side: what a mail says and shows is handed in from above."""
