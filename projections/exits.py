"""How each character left a game (won, killed where, fled, lost, still playing): the ruleset's own words,
read from a game's final fold and events for reports (projections/reports.py).

Each ruleset names its reader in `EXIT_READERS`; a ruleset without one gets `seat_exits` (won, lost or
playing per seat, from the game's status alone), so a new ruleset reports something until it adds its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from domain.events import CharacterDealt, Event, PlayerOut
from domain.game import game_status
from domain.rulesets.keep.events import EntryTested, FlightEnded
from domain.rulesets.talisman.main.events import CharacterDied, CharacterRestarted
from projections.report_rows import Exit

WON, KILLED, FLED, LOST, PLAYING = "won", "killed", "fled", "lost", "playing"

ExitReader = Callable[[Any, Sequence[Event]], list[Exit]]


def exits_of(fold: Any, events: Iterable[Any]) -> list[Exit]:
    """Returns how each seat's character left the game its fold and recorded events show, seat by seat;
    a seat that played several characters (the main board deals a new one after a death) has one
    exit for each, in the order played."""
    plain = [getattr(e, "event", e) for e in events]  # recorded events or bare ones
    reader = EXIT_READERS.get(fold.ruleset_name, seat_exits)
    return reader(fold, plain)


def ending_of(fold: Any, player: str) -> str:
    """Returns how the game stands for a player still in it at the end: won, lost (it ended, by a win,
    a cap, nobody left or a stop) or playing."""
    status = game_status(fold)
    if status["status"] == "finished" and status.get("winner") == player:
        return WON
    return PLAYING if status["status"] == "running" else LOST


def seat_exits(fold: Any, events: Sequence[Event]) -> list[Exit]:
    """Returns one exit per seat from the game's status alone (the character: the seat's side or
    character in the state, when it has one)."""
    players = fold.state.get("players", {})
    exits = []
    for name in fold.meta["players"]:
        sheet = players.get(name, {}) if isinstance(players, dict) else {}
        character = str(sheet.get("character") or sheet.get("side") or "")
        exits.append(Exit(name, character, ending_of(fold, name)))
    return exits


def place(board: str, space: int) -> str:
    """Names a space of any Talisman board in the timeline's words: `the Crypt (Dungeon 3)`."""
    from projections.talisman_names import where  # loads the boards' content only when asked

    return where(board, space)


def race_exits(fold: Any, events: Sequence[Event]) -> list[Exit]:
    """Exits of the short races (the Dungeon, the Keep): killed where the sheet fell, fled (out of the
    Dungeon by its Entrance, or out of the Keep's door and still outside when the game ended), else the
    game's ending."""
    out: dict[str, str] = {}
    outside_after_flight: set[str] = set()
    for event in events:
        if isinstance(event, PlayerOut):
            out[event.player] = event.reason
        elif isinstance(event, FlightEnded):
            outside_after_flight.add(event.player)
        elif isinstance(event, EntryTested) and event.passed:
            outside_after_flight.discard(event.player)
    exits = []
    for name in fold.meta["players"]:
        sheet = fold.state["players"][name]
        character = sheet["character"]
        reason = out.get(name)
        if reason is not None and reason.startswith(KILLED):
            exits.append(Exit(name, character, KILLED, place(sheet["board"], sheet["space"])))
        elif reason is not None:
            exits.append(Exit(name, character, FLED))
        elif name in outside_after_flight and ending_of(fold, name) == LOST:
            exits.append(Exit(name, character, FLED))
        else:
            exits.append(Exit(name, character, ending_of(fold, name)))
    return exits


def main_board_exits(fold: Any, events: Sequence[Event]) -> list[Exit]:
    """Exits of the main board: every character a player played, each killed where it died (the player
    is dealt another, house rule H5.17, or is out), and the last one alive won, lost or still playing."""
    played: dict[str, list[Exit]] = {name: [] for name in fold.meta["players"]}
    alive: dict[str, str] = {}
    for event in events:
        if isinstance(event, CharacterDealt):
            alive[event.player] = event.character
        elif isinstance(event, CharacterDied):
            where = place(event.board, event.space)
            played[event.player].append(Exit(event.player, event.character, KILLED, where))
            alive.pop(event.player, None)
        elif isinstance(event, CharacterRestarted):
            alive[event.player] = event.character
    for name, character in alive.items():
        played[name].append(Exit(name, character, ending_of(fold, name)))
    return [exit for name in fold.meta["players"] for exit in played[name]]


EXIT_READERS: dict[str, ExitReader] = {
    "dungeon-short": race_exits,
    "keep-run": race_exits,
    "talisman": main_board_exits,
    # Vampire Empire: each player plays a side (human or vampire), which wins or loses as a whole.
    "vampire-empire": seat_exits,
}
