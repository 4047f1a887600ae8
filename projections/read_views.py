"""The read side's views of a game, as a fold: its game-list entry, its public board, its result and its
dice statistics, kept up to date one stored event at a time (`GameViews.apply`) or computed from a
game's whole log at once (`views_of_log`), so that the process keeping them can be checked against a
fold from zero.

Every view is what a read-only viewer may see: the public form of the log, with private events sealed
(as `nightkeep show GAME` without `--as` folds it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from domain.events import DieRolled
from domain.game import STOPPED, GameFold, Rewinds, game_status
from domain.hidden import PUBLIC
from event_store.recorded import RecordedEvent, redacted
from projections.views import render_board

# (player, purpose, face) -> how many dice showed that face.
DiceCounts = Counter[tuple[str, str, int]]
# Every view of every game, in one comparable shape: {"games", "boards", "results", "dice"}, each keyed
# by game id (see `Views.as_dict`).
ViewsDict = dict[str, dict[str, Any]]
WON, LOST, DRAWN = "won", "lost", "drawn"


@dataclass
class GameViews:
    """One game's views as its events are folded in: a public fold, and the dice its events rolled."""

    game_id: str
    fold: GameFold = field(default_factory=GameFold)
    updated: str = ""
    # Dice rolled since the views were last written (the store adds them up): exactly once per event.
    new_dice: DiceCounts = field(default_factory=Counter)

    def apply(self, recorded: RecordedEvent) -> None:
        """Folds one stored event (as recorded: it is sealed here for the public) into the views."""
        (public,) = redacted([recorded], PUBLIC)
        self.fold.apply(public.event, public.chain)
        self.updated = public.timestamp.isoformat()
        if isinstance(public.event, DieRolled):
            rolled = public.event
            self.new_dice.update((rolled.player, rolled.purpose, face) for face in rolled.values)

    @property
    def is_listed(self) -> bool:
        """Tells whether the game has views yet (a fork's copied GameCreated may come in a later batch)."""
        return bool(self.fold.ruleset_name)

    def entry(self) -> dict[str, Any]:
        """Returns the game-list entry: ruleset, players, status, winner, events and last update."""
        status = game_status(self.fold)
        return {
            "ruleset": self.fold.ruleset_name,
            "players": list(self.fold.meta["players"]),
            "status": status["status"],
            "winner": status["winner"] if status["status"] == "finished" else "",
            "events": self.fold.version,
            "updated": self.updated,
        }

    def board(self) -> dict[str, Any]:
        """Returns the board as `nightkeep show` renders it (full layout) and the version it shows."""
        stopped = game_status(self.fold)["status"] == STOPPED
        text = render_board(self.fold.ruleset_name, self.fold.state, stopped)
        return {"version": self.fold.version, "board": text}

    def results(self) -> dict[str, str]:
        """Returns each player's result once the game is finished (nothing before)."""
        entry = self.entry()
        if entry["status"] != "finished":
            return {}
        winner = entry["winner"]
        if not winner:
            return dict.fromkeys(entry["players"], DRAWN)
        return {player: WON if player == winner else LOST for player in entry["players"]}


def nested_dice(counts: Iterable[tuple[tuple[str, str, int], int]]) -> dict[str, dict[str, dict[str, int]]]:
    """Returns dice counts as {player: {purpose: {face (as text, as JSON keys are): count}}}."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for (player, purpose, face), count in sorted(counts):
        if count:
            out.setdefault(player, {}).setdefault(purpose, {})[str(face)] = count
    return out


def views_of_log(game_id: str, log: list[RecordedEvent]) -> GameViews:
    """Folds a game's whole log into its views at once, counting every die (the reference fold)."""
    views = GameViews(game_id)
    public = redacted(log, PUBLIC)
    views.fold.rewind_source = Rewinds.of([(r.event, r.chain) for r in public])
    for recorded in log:
        views.apply(recorded)
    return views


def views_dict(games: Iterable[GameViews]) -> ViewsDict:
    """Returns the views of games, each with all its dice counted, in the shape the store's views read."""
    out: ViewsDict = {"games": {}, "boards": {}, "results": {}, "dice": {}}
    for views in games:
        if not views.is_listed:
            continue
        out["games"][views.game_id] = views.entry()
        out["boards"][views.game_id] = views.board()
        if results := views.results():
            out["results"][views.game_id] = results
        if dice := nested_dice(views.new_dice.items()):
            out["dice"][views.game_id] = dice
    return out


def differences(kept: ViewsDict, folded: ViewsDict, most: int = 20) -> list[str]:
    """Says where kept views differ from folded ones, a line per game and view (at most `most`)."""
    found = []
    for view in ("games", "boards", "results", "dice"):
        mine, theirs = kept.get(view, {}), folded.get(view, {})
        for game_id in sorted(set(mine) | set(theirs)):
            if mine.get(game_id) != theirs.get(game_id):
                found.append(
                    f"{view} of {game_id}: kept {_short(mine.get(game_id))}, "
                    f"folded {_short(theirs.get(game_id))}"
                )
    return found[:most]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."
