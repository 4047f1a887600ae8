"""Counting a PostgreSQL store's round trips, from libpq's own trace of what its connections exchange.

A round trip is a wait on the server: the client sends statements, ends them with a Sync (or sends one
simple query) and waits for the server's ReadyForQuery. Statements sent together in pipeline mode wait
once, however many they are; so the count of ReadyForQuery messages received is the count of round
trips, whatever the timing (the trace is libpq's `PQtrace`, through psycopg's `PGconn.trace`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

READY = "\tReadyForQuery\t"


class RoundTrips:
    """Traces every connection a PostgreSQL datastore hands out while installed; `taken()` tells how
    many round trips they have made since the last call."""

    def __init__(self, datastore: Any) -> None:
        self.datastore = datastore
        self._file = tempfile.TemporaryFile("a+")  # appended to, whatever is read meanwhile
        self._traced: dict[int, Any] = {}  # id -> pgconn, traced now
        self._read = 0  # ReadyForQuery lines counted so far

    def __enter__(self) -> RoundTrips:
        handing_out = self.datastore.get_connection

        @contextmanager
        def traced_connection() -> Iterator[Any]:
            with handing_out() as conn:
                self._trace(conn.pgconn)
                yield conn

        self.datastore.get_connection = traced_connection  # shadows the method on this datastore only
        return self

    def __exit__(self, *exc: object) -> None:
        self._flush()
        del self.datastore.get_connection
        self._file.close()

    def taken(self) -> int:
        """Returns the round trips made since the last call (or since installed)."""
        self._flush()
        self._file.seek(0)
        seen = sum(1 for line in self._file if line.startswith("B") and READY in line)
        new, self._read = seen - self._read, seen
        return new

    def _trace(self, pgconn: Any) -> None:
        from psycopg import pq

        if id(pgconn) not in self._traced:
            pgconn.trace(self._file.fileno())
            pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
            self._traced[id(pgconn)] = pgconn

    def _flush(self) -> None:
        from psycopg import pq

        # libpq writes the trace through a buffered stream that only stopping the trace flushes; the
        # connections are traced again when next handed out.
        for pgconn in self._traced.values():
            if pgconn.status != pq.ConnStatus.BAD:
                pgconn.untrace()
        self._traced.clear()
