"""Club commands that mail-only players send by reply: press, an absence, and answers to a proposed
rollback. Each is recorded as the seat's mail-authenticated words (as a mail move is), once: the same
reply read again after a kill finds its mark, written in the transaction of the words it caused."""

from __future__ import annotations

from typing import Protocol
from uuid import UUID

from domain.club import PUBLIC_TO, away_until
from domain.errors import IllegalAction
from domain.signing import AUTH_MAIL
from event_store import clock
from event_store.pbem.club_host import answer_rollback, declare_vacation, last_proposal, send_press
from event_store.pbem.host_parts import Handled, HostLike
from event_store.pbem.reply_parsing import ClubCommand, Press, RollbackAnswer, Vacation
from event_store.sql import Statement


class ClubHost(HostLike, Protocol):
    """The host as a club command uses it (event_store.pbem.hosting.Host is one)."""

    def reply(self, to: str, subject: str, body: str, game_id: UUID, once: str = "") -> bool: ...


def handle_club_command(
    host: ClubHost, game_id: UUID, player: str, command: ClubCommand, nonce: bytes, version: int | None
) -> Handled:
    """Records a mail-only seat's press, absence or answer to a rollback; `nonce` names the reply (its
    digest) and `version` the event of the mail it answers (None: the reply lost its Game-Key, and the
    host's last mail to the seat stands for it)."""
    mark = f"club:{game_id}:{player}:{nonce.hex()}"
    if host.seen(mark) is not None:
        if isinstance(command, Vacation):  # (a pass killed after the absence, before its word to the seat)
            _confirm(host, game_id, player, mark)
        return Handled(True, game_id, player, f"already took {player}'s `{command.word}`", duplicate=True)
    # A plain insert: a second host reading the same reply at once fails on the mark, not twice over.
    rows: list[Statement] = [("INSERT INTO nightkeep_pbem_seen VALUES (?, ?)", [mark, "applied"])]
    match command:
        case Press(to=to, text=text):
            send_press(host, game_id, player, list(to) or [PUBLIC_TO], text, auth=AUTH_MAIL, rows=rows)
            said = f"{player}'s press was relayed to {', '.join(to) or 'everyone'}"
        case Vacation(seconds=seconds):
            declare_vacation(host, game_id, player, seconds, auth=AUTH_MAIL, rows=rows)
            said = f"{player} is away for {clock.span(seconds)}"
            _confirm(host, game_id, player, mark)
        case RollbackAnswer(agree=agree):
            answered = version if version is not None else host.seats(game_id)[player].sent
            _check_answers_proposal(host, game_id, answered)
            _, back = answer_rollback(host, game_id, player, agree, auth=AUTH_MAIL, rows=rows)
            said = f"{player} {'agreed to' if agree else 'refused'} the rollback" + (
                "; the game went back" if back else ""
            )
    return Handled(True, game_id, player, said)


def _check_answers_proposal(host: ClubHost, game_id: UUID, answered: int) -> None:
    """Refuses an answer to a rollback written before the rollback now waiting was proposed: an `agree`
    to one the host withdrew must not count for the next."""
    found = last_proposal(host, game_id)
    if found is None:
        raise IllegalAction("no rollback waits on an answer in this game")
    if answered < found[0]:
        raise IllegalAction(
            f"your answer replies to a mail of event {answered}, before the rollback now asked "
            f"(event {found[0]}) was proposed; reply to the host's mail that asks it"
        )


def _confirm(host: ClubHost, game_id: UUID, player: str, mark: str) -> None:
    """Tells the seat, once, that its absence was taken and until when (no other mail would say so)."""
    until = away_until(host.service.fold(game_id).meta, player)
    body = (
        f"Your absence is recorded: no turn of yours falls due before {clock.when(until)}; "
        "from then your turn's time runs as usual. Reply `status` for the board.\n"
    )
    to = host.seats(game_id)[player].mail
    host.reply(to, f"nightkeep vacation: game {game_id}", body, game_id, once=f"{mark}#told")
