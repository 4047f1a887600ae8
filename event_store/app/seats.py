"""Who a command acts or looks as: the viewer a game is shown to, the player to act when none is named,
and the action a player's typing means (a number, an id or a unique prefix of one).

Hot-seat play at one terminal types as little as the rules allow: in a game without secrets the one
player to act is the default, and an action id that only one player has open names its player. A game
with secrets never guesses the seat: trying an action id on a guessed player would tell whoever is at
the keyboard whether another player holds that option.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.actions import HOST, Action
from domain.club import paused_by
from domain.errors import UsageError
from domain.game import STOPPED, Game
from domain.hidden import PUBLIC
from domain.suggest import did_you_mean
from event_store.recorded import RecordedEvent, created_of, redacted

# Who acts or whose actions to list, when --as is not given (hot-seat play at one terminal).
AS_ENV = "NIGHTKEEP_AS"


def resolve_viewer(viewer: str | None, players: list[str]) -> str:
    """Returns the viewer to redact for: a seated player, the host, or the public (no --as)."""
    if viewer is None:
        return PUBLIC
    if viewer == HOST or viewer in players:
        return viewer
    hint = did_you_mean(viewer, [*players, HOST])
    raise UsageError(f"no player {viewer!r} in this game (players: {', '.join(players)}, or host){hint}")


def seen_by(recorded: list[RecordedEvent], viewer: str | None) -> list[RecordedEvent]:
    """Returns a stored game's events as `viewer` may see them (the name checked against the game's
    seats; None: only public facts)."""
    players = [seat["name"] for seat in created_of(recorded).players]
    return redacted(recorded, resolve_viewer(viewer, players))


def who_acts(game: Game, player: str | None = None) -> str:
    """Says who is to act in a loaded game, or why nobody is (over, stopped, not started): public facts."""
    status = game.status
    if status["status"] == STOPPED:
        return f"the game was stopped: {status['reason']}"
    if status["status"] == "running" and (paused := paused_by(game.meta)):
        return f"play waits: {paused}"
    if status["status"] == "finished":
        return "the game is over" + (f", won by {status['winner']}" if status["winner"] else "")
    to_act: list[str] = status.get("to_act", [])
    if to_act == [HOST]:
        return "the game has not started yet (nightkeep start GAME)"
    if player is not None and player not in to_act:
        return f"it is not {player}'s turn ({', '.join(to_act)} to act)"
    return f"{', '.join(to_act)} to act"


def players_to_act(game: Game) -> list[str]:
    """Returns the seated players a loaded game waits on now (none when it is over or not started)."""
    status = game.status
    to_act: list[str] = status.get("to_act", []) if status["status"] == "running" else []
    return [p for p in to_act if p != HOST]


def refuse_if_secret(game: Game, what: str) -> None:
    """Refuses to go on without --as in a game whose players' options are private."""
    if game.ruleset.hidden_information:
        raise UsageError(
            f"{game.ruleset.name} keeps each player's options private: say {what} with --as PLAYER"
        )


def open_actions(game: Game, player: str | None = None) -> list[Action]:
    """Lists the actions open now in a loaded game, to one player (checked to be seated) or to everybody."""
    if player is not None:
        game.check_player(player)
    if game.status["status"] != "running" or paused_by(game.meta):
        return []  # over, stopped by an early reveal, or waiting on a rollback's answers: nobody acts
    return game.ruleset.legal_actions(game.state, player)


def pick_actor(game: Game, action_id: str) -> str:
    """Returns who takes `action_id` when no --as was given: the only player with that action open, or
    else the one player to act; refuses when that is a guess (two could, or the game keeps secrets)."""
    refuse_if_secret(game, "who acts")
    having = sorted({a.player for a in open_actions(game) if a.id == action_id})
    if len(having) == 1:
        return having[0]
    waiting = players_to_act(game)
    if len(waiting) == 1 and not having:
        return waiting[0]  # not open to them either: taking it says why
    if not waiting:
        raise UsageError(f"nobody can act: {who_acts(game)}")
    could = f" ({action_id} is open to {', '.join(having)})" if having else ""
    raise UsageError(f"say who acts with --as PLAYER (or {AS_ENV}): {who_acts(game)}{could}")


def actions_named(actions: Sequence[Action], typed: str, any_case: bool = False) -> list[Action]:
    """Returns the actions a player's typing may name: the one it numbers (from 1), the one whose id it
    is, else every one whose id it begins (`any_case`: ids compared without regard to case)."""
    text = typed.strip().casefold() if any_case else typed.strip()
    if text.isdecimal():  # isdigit() also takes "²", which int() refuses
        number = int(text)
        return [actions[number - 1]] if 1 <= number <= len(actions) else []
    ids = [a.id.casefold() if any_case else a.id for a in actions]
    exact = [a for a, id_ in zip(actions, ids, strict=True) if id_ == text]
    if len(exact) == 1:
        return exact
    return [a for a, id_ in zip(actions, ids, strict=True) if id_.startswith(text)] if text else []


def match_action(actions: Sequence[Action], typed: str) -> Action:
    """Returns the action a player typed: its number in the list (from 1), its id, or a unique prefix."""
    named = actions_named(actions, typed)
    if len(named) == 1:
        return named[0]
    text = typed.strip()
    if text.isdecimal():
        raise UsageError(f"there is no action {int(text)} (1 to {len(actions)})")
    if not named:
        raise UsageError(f"no action {text[:40]!r} now (type its number or id)")
    ids = ", ".join(a.id for a in named[:5])
    raise UsageError(f"{text[:40]!r} could be {ids}: type more of it or its number")


def find_action(game: Game, player: str, typed: str) -> Action | None:
    """Returns the named player's open action that `typed` names exactly or by a unique prefix, or None
    (then taking `typed` as it is gives the rules' own refusal)."""
    legal = open_actions(game, player)
    exact = next((a for a in legal if a.id == typed), None)
    if exact is not None or not typed:
        return exact
    starting = [a for a in legal if a.id.startswith(typed)]
    if len(starting) > 1:
        ids = ", ".join(a.id for a in starting[:5])
        raise UsageError(f"{typed[:40]!r} could be {ids}: type more of the action id")
    return starting[0] if starting else None
