"""Actions: what a player may do now, identified by a stable string id such as `roll` or `attack:Bo`."""

from __future__ import annotations

from dataclasses import dataclass

HOST = "host"
START = "start"


@dataclass(frozen=True, slots=True)
class Action:
    """One legal action: its id (what `act` takes), who may take it, and a human label."""

    id: str
    player: str
    label: str

    def to_dict(self) -> dict[str, str]:
        """Returns the action as the CLI's JSON shape."""
        return {"id": self.id, "player": self.player, "label": self.label}
