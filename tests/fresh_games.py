"""Freshly played games of every ruleset, exported in every copy, for the verifier that works from the
documents alone (tests/replays/test_format_spec.py, which imports nothing of nightkeep: conftest hands it
these
files).

The games are chosen, by seeded search, to reach what the documents must explain: a deck reshuffled
from its discard pile, a pick restricted to some kinds of card, a character asked for by name, player
entropy, scripted dice, forks (new seed and same dice), and in Vampire Empire cards taken from the deck,
the cellar and the moat.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch
from uuid import UUID

from domain.actions import HOST
from domain.events import ActionTaken, CardDrawn, Event
from domain.hidden import PUBLIC
from domain.rulesets.castle.events import CardTaken
from domain.rulesets.talisman.events import DeckReshuffled
from event_store.app.replay_file import export_game
from event_store.app.service import GameService, play_with_bots

Wanted = Callable[[list[Event]], bool]


@contextmanager
def seeded_seeds() -> Iterator[None]:
    """Makes every game's secret seed a fixed sequence, so the search finds the same games each run."""
    counter = itertools.count()
    with patch(
        "event_store.app.service.new_seed", lambda: hashlib.sha256(b"fresh-%d" % next(counter)).digest()
    ):
        yield


def _events(service: GameService, game_id: UUID) -> list[Event]:
    return [r.event for r in service.recorded_events(game_id)]


def _first_game(service: GameService, make: Callable[[int], UUID], wanted: Wanted, tries: int = 400) -> UUID:
    for attempt in range(tries):
        game_id = make(attempt)
        if wanted(_events(service, game_id)):
            return game_id
    raise AssertionError("no seeded game reached what the format test needs")


def _reshuffled(events: list[Event]) -> bool:
    return any(isinstance(e, DeckReshuffled) for e in events)


def _restricted(events: list[Event]) -> bool:
    return any(isinstance(e, CardDrawn) and e.kinds for e in events)


def _takes_from_every_pile(events: list[Event]) -> bool:
    return {e.pile for e in events if isinstance(e, CardTaken)} == {"deck", "cellar", "moat"}


def _played(
    service: GameService, ruleset: str, seats: list[str], options: dict[str, str] | None = None
) -> Callable[[int], UUID]:
    def make(attempt: int) -> UUID:
        players = [(name, character or None) for name, _, character in (s.partition(":") for s in seats)]
        game_id = service.create_game(ruleset, players, options)
        play_with_bots(service, game_id, seed=attempt)
        return game_id

    return make


def fresh_games(folder: Path) -> list[Path]:
    """Plays the games and writes every copy of each as a replay file in `folder`; returns the paths."""
    service = GameService.open(":memory:")
    games: dict[str, UUID] = {}
    with seeded_seeds():
        six = ["Ann", "Bo", "Cy", "Di", "Ed", "Fy"]
        games["dungeon-reshuffled"] = _first_game(
            service, _played(service, "dungeon-short", six), _reshuffled
        )
        named = service.create_game(
            "dungeon-short",
            [("Ann", None), ("Bo", "warrior"), ("Cy", "Martial Artist")],
            entropy=[("Ann", b"ann's")],
        )
        play_with_bots(service, named, seed=1)
        games["dungeon-named-entropy"] = named
        scripted = service.create_game(
            "dungeon-short", [("Ann", None), ("Bo", None)], dice_script=[6, 5, 4, 3, 2, 1]
        )
        play_with_bots(service, scripted, seed=2)
        games["dungeon-scripted"] = scripted
        boundary = [i for i, e in enumerate(_events(service, named)) if isinstance(e, ActionTaken)][6]
        for same_dice in (False, True):
            fork_id, _ = service.fork_game(named, boundary, same_dice=same_dice)
            play_with_bots(service, fork_id, seed=3)
            games[f"dungeon-fork-{'same' if same_dice else 'new'}-dice"] = fork_id
        four = ["Ann", "Bo", "Cy", "Di"]
        games["keep-coffin"] = _first_game(service, _played(service, "keep-run", four), _restricted)
        games["keep-hoard-reshuffled"] = _first_game(
            service, _played(service, "keep-run", four, {"hoard": "true"}), _reshuffled
        )
        castle = _played(service, "vampire-empire", ["Hana:human", "Vlad:vampire"])
        games["castle-takes"] = _first_game(service, castle, _takes_from_every_pile)
        games["castle-sides-free"] = _first_game(
            service, _played(service, "vampire-empire", ["Vlad", "Hana"]), bool
        )
        # A game still running: its seed is secret, so only the turns' keys can check its draws.
        running = service.create_game("talisman", [("Ann", None), ("Bo", None), ("Cy", None)])
        play_with_bots(service, running, seed=4, max_actions=120)
        games["running-talisman"] = running
        email_game, email_service = played_by_email(folder / "by-email")
    paths = _write_copies(email_service, email_game, "castle-by-email", folder)
    for name, game_id in games.items():
        paths += _write_copies(service, game_id, name, folder)
    return paths


def _write_copies(service: GameService, game_id: UUID, name: str, folder: Path) -> list[Path]:
    players = service.get_game(game_id).meta["players"]
    viewers = [HOST, *players, PUBLIC] if name.startswith("castle") else [HOST]
    paths = []
    for viewer in viewers:
        path = folder / f"{name}-{viewer or 'public'}.nkr"
        path.write_bytes(export_game(service, game_id, viewer))
        paths.append(path)
    return paths


def played_by_email(folder: Path) -> tuple[UUID, GameService]:
    """Plays a Vampire Empire game by e-mail: Hana signs her entropy and actions, Vlad plays by mail."""
    from domain.bots import Bot
    from event_store.pbem.hosting import Host
    from event_store.pbem.keys import new_key
    from event_store.pbem.replica import Replica

    folder.mkdir(parents=True, exist_ok=True)
    with patch.dict(os.environ, {"NIGHTKEEP_KEYS": str(folder / "keys")}):
        host = Host(GameService(str(folder / "host.sqlite")), new_key("host"))
        hana_key = new_key("hana")
        game = host.create(
            "vampire-empire",
            [("Hana", "human"), ("Vlad", "vampire")],
            {"Hana": hana_key.public},
            {"Hana": "hana@example.org", "Vlad": "vlad@example.org"},
            "host@example.org",
            wait_for_entropy=True,
        )
        host.follow()
        invite = next(m.packet for m in host.due() if m.player == "Hana")
        replica = Replica(GameService(str(folder / "hana.sqlite")))
        member, _ = replica.join(invite)
        assert host.handle_text(replica.entropy_packet(member))[0].ok
        bot, service = Bot(7), host.service
        while not service.get_game(game).is_finished:
            state = service.get_game(game)
            player = state.status["to_act"][0]
            choice = bot.choose(state.ruleset, state.state, service.legal_actions(game, player))
            if player == "Vlad":
                host.take_mail_action(
                    game, "Vlad", state.version, choice, hashlib.sha256(b"%d" % state.version).digest()
                )
                continue
            host.follow()
            for mail in host.due():
                if mail.player == "Hana":
                    replica.receive(mail.packet)
                host.mark_sent(mail)
            assert host.handle_text(replica.action_packet(member, choice.id))[0].ok
    return game, service
