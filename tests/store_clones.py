"""Many games in a store quickly: each a row-for-row copy of a played game under a new id.

A game's events name no game id and its chain covers only the events, so a copy with its seed is a
valid game of its own (it passes the audit). Used by the `games` tests (ids that share a prefix) and
`benchmarks/bench_cli.py` (10,000 games).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from uuid import UUID

from event_store import game_index
from event_store.app.service import GameService, play_with_bots
from event_store.sql import sql_store_of

# The games a store of clones is made of: (ruleset, players, bot actions; None: to the end).
TEMPLATES: list[tuple[str, list[str], int | None]] = [
    ("dungeon-short", ["Ann", "Bo", "Cy"], None),
    ("dungeon-short", ["Dee", "Eli"], 6),
    ("keep-run", ["Fay", "Gus", "Hal", "Ivy"], None),
    ("keep-run", ["Jo", "Kit"], 3),
    ("vampire-empire", ["Lev", "Mo"], None),
    ("vampire-empire", ["Ned", "Oda"], 4),
]


def play_templates(service: GameService) -> list[UUID]:
    """Stores one game of each template, played by seeded bots, and returns their ids."""
    made = []
    for n, (ruleset, players, actions) in enumerate(TEMPLATES):
        game_id = service.create_game(ruleset, [(name, None) for name in players])
        play_with_bots(service, game_id, seed=n, max_actions=actions if actions is not None else 100_000)
        made.append(game_id)
    return made


def clone_games(db: str, templates: Sequence[UUID], ids: Sequence[UUID]) -> None:
    """Stores a copy of the templates, in turn, under each of `ids` (with its seed and game index row, as
    the writer keeps it), in one transaction (on SQLite or PostgreSQL alike)."""
    service = GameService.open(db)
    try:
        store = sql_store_of(service.recorder)
        assert store is not None, "clones are made in a SQL store"
        table = service.recorder.events_table_name  # type: ignore[attr-defined]
        with store.transaction(commit=True) as c:
            rows, seeds, entries = {}, {}, {}
            for t in templates:
                c.execute(
                    f"SELECT originator_version, topic, state FROM {table} WHERE originator_id=?"
                    " ORDER BY originator_version",
                    [store.key(t)],
                )
                rows[t] = c.fetchall()
                c.execute("SELECT seed FROM nightkeep_secrets WHERE game_id=?", [t.hex])
                seeds[t] = c.fetchone()[0]
                c.execute(f"SELECT * FROM {game_index.TABLE} WHERE game_id=?", [store.key(t)])
                entries[t] = c.fetchone()[1:]
            for n, new_id in enumerate(ids):
                template = templates[n % len(templates)]
                c.executemany(
                    f"INSERT INTO {table} (originator_id, originator_version, topic, state)"
                    " VALUES (?, ?, ?, ?)",
                    [(store.key(new_id), *row) for row in rows[template]],
                )
                c.execute("INSERT INTO nightkeep_secrets VALUES (?, ?)", [new_id.hex, seeds[template]])
                marks = ", ".join("?" * len(game_index.COLUMNS))
                c.execute(
                    f"INSERT INTO {game_index.TABLE} VALUES ({marks})",
                    [store.key(new_id), *entries[template]],
                )
    finally:
        service.close()


def new_ids(count: int) -> list[UUID]:
    """Returns fresh random game ids."""
    return [uuid.uuid4() for _ in range(count)]
