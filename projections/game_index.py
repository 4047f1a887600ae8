"""Listing the game index: every game's entry (ruleset, players, status, who is to act, events, times)
as the writer keeps it in the store (event_store.game_index), and the helpers listings share.

Listings only read: they run on read-only standbys. A store no writer has opened since the index came
has none yet; its entries are then computed from the events (a fold per game, slow on a big store),
and `built` says so, for the listing to tell what to run."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from event_store.game_index import Entry

# A short id is at least this long (as git's are 7): long enough that few games of a store share it.
SHORT_ID = 8
# What a listing of a store without an index says (on stderr): how to build it.
NOT_BUILT = (
    "this store's game index is not built yet, so the games were read from their events (slow); "
    "any write or `nightkeep games --rebuild` on the primary builds it"
)

__all__ = ["NOT_BUILT", "Entry", "GameIndex", "is_running", "select_games", "short_ids"]


class GameIndex:
    """The entries of a GameService's games, read from the index its writers keep."""

    def __init__(self, service: Any) -> None:
        self._service = service
        self.built = True  # whether the last listing was read from a built index

    def games(self) -> list[Entry]:
        """Returns every game's entry, most recently played first, with who is to act (nobody in a
        game that is over)."""
        entries, self.built = self._service.listed_games()
        return list(entries)

    def find_who_acts(self, entries: Iterable[Entry]) -> None:
        """Kept for callers of the former index: the entries already say who is to act."""

    def rebuild(self) -> int:
        """Builds the index again from the events (a write: the primary's); returns how many games."""
        return int(self._service.rebuild_game_index())


def short_ids(game_ids: Sequence[str]) -> dict[str, str]:
    """Returns each id's shortest prefix of at least SHORT_ID characters that no other id shares."""
    ordered = sorted(game_ids)
    # How many leading characters each id shares with the next one in order (only its neighbours can
    # share more with it than any other id does).
    shared = [_common_prefix(a, b) for a, b in zip(ordered, ordered[1:], strict=False)]
    shortest = {}
    for i, game_id in enumerate(ordered):
        most = max(shared[i - 1] if i else 0, shared[i] if i < len(shared) else 0)
        shortest[game_id] = game_id[: max(SHORT_ID, most + 1)]
    return shortest


def _common_prefix(a: str, b: str) -> int:
    """Returns how many leading characters two ids share (any number below SHORT_ID counts as 0)."""
    if a[:SHORT_ID] != b[:SHORT_ID]:
        return 0  # the usual case, decided at once
    n = SHORT_ID
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def is_running(entry: Entry) -> bool:
    """Tells whether a game is still to be played on here: running, and not a copy that cannot go on."""
    return bool(entry["status"] == "running" and ("copy_of" not in entry or entry.get("replica")))


def select_games(entries: Iterable[Entry], running: bool = False, ruleset: str | None = None) -> list[Entry]:
    """Returns the entries that pass the filters, in their order."""
    return [
        e for e in entries if (not running or is_running(e)) and (ruleset is None or e["ruleset"] == ruleset)
    ]
