"""Club commands that mail-only players send by reply: press, vacation, and answers to a proposed
rollback. A stub: it refuses each until the host's club service takes them (the lead replaces it)."""

from __future__ import annotations

from uuid import UUID

from event_store.host_parts import Handled, HostLike
from event_store.reply_parsing import ClubCommand


def handle_club_command(
    host: HostLike, game_id: UUID, player: str, command: ClubCommand, sender: str
) -> Handled:
    """Refuses a club command: the club's service is not available yet."""
    return Handled(
        False,
        game_id,
        player,
        f"`{command.word}` is not available yet; reply `help` for what you can send now",
    )
