"""Seeded bot playouts of the Keep run (house rule H3.18): 500 games end, and the rules' invariants hold.

The games are played with the decider directly (no store): `domain.bots.Bot` chooses, `HmacDice` seeded per
game rolls. After every event: a movement roll moves by the chart (Keep 5.2), a flight moves back by it
(Keep 10), positions stay on the Keep's spaces and lives never go negative. After every action: no space
holds two Teleport Tiles and `tiles[n]` is set exactly where one lies (Keep 6.1, 6.2). A sample of games is
turned into a chained log and audited with every draw recomputed from the revealed seed. Every other game
aims the Vampire Wizard's spells by its players' choices (`wizard=choose`, Keep 8.4), the others as a game
recorded before that option (no `wizard` key: the rules aim them).
"""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain.actions import HOST, START
from domain.audit import RawEntry, audit_log
from domain.bots import Bot
from domain.dice import commit_to_seed
from domain.events import (
    GENESIS_CHAIN,
    ActionTaken,
    DieRolled,
    Event,
    GameCreated,
    Moved,
    SeedCommitted,
    SeedRevealed,
    next_chain,
)
from domain.game import NIGHTKEEP_VERSION
from domain.rulesets.keep.content import TILE, load_deck
from domain.rulesets.keep.moves import CHART, OBELISK
from domain.rulesets.keep.run import KeepRun
from domain.rulesets.keep.state import ENTRANCE, LAST
from domain.rulesets.talisman.events import ChoiceMade, ChoiceOffered
from tests.keyed_logs import KeyedDice

pytestmark = pytest.mark.slow  # a playout: 500 seeded bot games

keep = KeepRun()

GAMES = 500
# Measured: the longest of these 500 games takes 197 actions (about 40 on average). A run only goes
# forward except for rare flights, Sentry and card set-backs and teleports, and a teleport loop frees a
# character after 3 turns, so a cap of 2,000 actions is ten times any game seen and only stops a
# runaway (a game that never ends fails the test).
MAX_ACTIONS = 2_000
AUDITED = range(0, GAMES, 10)  # every 10th game is audited (the audit re-decides every action)
CHARACTERS = ["warrior", "troll", "wizard", "", "", ""]
TILES = {card for card, c in load_deck().cards.items() if c.kind == TILE}


@dataclass
class Played:
    """One bot game: its setup, the actions taken with their events, and the final state."""

    seed: bytes
    created: GameCreated
    initial: dict[str, Any]
    steps: list[tuple[str, str, list[Event]]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)


def created_for(index: int) -> GameCreated:
    count = 2 + index % 5
    seats = [{"name": f"P{i}", "character": CHARACTERS[i] if index % 2 else ""} for i in range(count)]
    options = {"hoard": "true"} if index % 3 == 0 else {}  # Keep 15: every third game with the Hoard
    if index % 4 < 2:
        options["wizard"] = "choose"  # Keep 8.4: the player on the victim's right aims the spells
    return GameCreated(
        ruleset=keep.name,
        players=seats,
        options=options,
        content_hash=keep.content_hash(),
        scripted=False,
        dice_script=[],
        nightkeep_version=NIGHTKEEP_VERSION,
    )


def play(index: int) -> Played:
    created = created_for(index)
    seed = hashlib.sha256(f"keep-playout-{index}".encode()).digest()
    game = Played(seed, created, keep.initial_state(created))
    keyed, bot = KeyedDice(seed), Bot(index)
    ruleset = KeepRun(created.options)  # who aims the Vampire Wizard's spells is the game's option
    state = copy.deepcopy(game.initial)
    player, action = HOST, START
    for _ in range(MAX_ACTIONS):
        dice, _ = keyed.next_action()
        events = ruleset.decide(state, action, player, dice)
        game.steps.append((player, action, events))
        for event in events:
            keep.evolve(state, event)
        if keep.status(state)["status"] == "finished":
            break
        choice = bot.choose(keep, state, keep.legal_actions(state))
        player, action = choice.player, choice.id
    game.state = state
    return game


@pytest.fixture(scope="module")
def games() -> list[Played]:
    return [play(index) for index in range(GAMES)]


def test_every_bot_game_ends_within_the_cap_and_replays_to_the_same_state(games):
    """house rule H3.18 Keep run: a survivor of the Vault wins, else everyone is killed; Keep 9.1, 15."""
    longest = max(len(g.steps) for g in games)
    assert longest < MAX_ACTIONS
    winners = 0
    for game in games:
        status = keep.status(game.state)
        assert status["status"] == "finished"
        if status["winner"]:
            winners += 1
            sheet = game.state["players"][status["winner"]]
            assert sheet["space"] == LAST and sheet["status"] == "winner"  # survived the Vault
            assert sheet["talisman"] != game.state["hoard"]  # a Talisman, or the Hoard instead
        else:
            assert all(s["status"] == "out" and s["lives"] == 0 for s in game.state["players"].values())
        rebuilt = copy.deepcopy(game.initial)
        for _, _, events in game.steps:
            for event in events:
                keep.evolve(rebuilt, event)
        assert rebuilt == game.state
    assert winners > GAMES // 2  # most runs are won; some end with every character killed


def check_move(state: dict[str, Any], moved: Moved, face: int) -> None:
    """Keep 5.2 and 10: a roll goes forward by the chart (stopping on the Vault), a flight back by it
    (stopping on the Entrance); Keep 5.4: nothing alters either."""
    here = state["players"][moved.piece]["space"]
    assert moved.from_space == here
    if moved.reason == "roll":
        barrier = OBELISK if here < OBELISK else LAST  # the Obelisk stops a roll that would pass it
        assert moved.to_space == min(barrier, here + CHART[face]), moved
    elif moved.reason == "flight":
        assert moved.to_space == max(ENTRANCE, here - CHART[face]), moved
    else:  # a card or spell sends back (Keep 5.3), the Sentry to Hallway 3
        assert moved.reason in ("card", "sentry") and moved.to_space < here, moved


def check_sheets(state: dict[str, Any]) -> None:
    for sheet in state["players"].values():
        assert 1 <= sheet["space"] <= LAST, sheet
        assert sheet["lives"] >= 0, sheet


def check_killed_are_out(state: dict[str, Any]) -> None:
    """A character at 0 lives is out (its PlayerOut follows the LifeLost within the same action)."""
    for sheet in state["players"].values():
        assert sheet["status"] != "playing" or sheet["lives"] > 0, sheet


def check_tiles(state: dict[str, Any]) -> None:
    """Keep 6.2: one tile per space, and a space sends on (`tiles[n]`) exactly when its tile lies there."""
    for space in range(1, LAST + 1):
        lying = sum(card in TILES for card in state["cards"]["keep"][space])
        assert lying <= 1, (space, state["cards"]["keep"][space])
        assert bool(state["tiles"][space]) == (lying == 1), (space, state["cards"]["keep"][space])


def test_movement_positions_lives_and_tiles_hold_after_every_event(games):
    """Keep 5.2-5.4 and 10 (the chart, both ways), Keep 6.2 (one tile a space), house rule H1.1 (lives)."""
    for game in games:
        state = copy.deepcopy(game.initial)
        for _, _, events in game.steps:
            face = 0
            for event in events:
                if isinstance(event, DieRolled) and event.purpose == "movement":
                    face = event.values[0]
                elif isinstance(event, Moved):
                    check_move(state, event, face)
                    face = 0
                keep.evolve(state, event)
                check_sheets(state)
                # A tile's counter is drawn, or a second tile discarded, right after the draw itself:
                # within an action a space may hold a tile without its counter for one event or two.
                assert all(
                    not n or set(state["cards"]["keep"][i]) & TILES for i, n in enumerate(state["tiles"])
                )
            check_killed_are_out(state)
            check_tiles(state)


def chained_log(game: Played) -> list[RawEntry]:
    """Returns the game as the Game aggregate would record it: setup, each action and its events."""
    entries: list[RawEntry] = []
    chain = GENESIS_CHAIN

    def record(event: Event) -> None:
        nonlocal chain
        fields = event.to_fields()
        chain = next_chain(chain, event.type_name, event.class_version, fields)
        entries.append(RawEntry(len(entries) + 1, event.type_name, event.class_version, fields, chain))

    record(game.created)
    record(SeedCommitted(commitment=commit_to_seed(game.seed)))
    keyed = KeyedDice(game.seed)
    for event in keyed.opening():
        record(event)
    for player, action, events in game.steps:
        _, key = keyed.next_action()
        record(ActionTaken(player=player, action=action, nonce=b"", dice_key=key))
        for event in [*events, *keyed.after_action()]:
            record(event)
    record(SeedRevealed(seed=game.seed))
    return entries


def test_a_sample_of_games_audits_clean_with_every_draw_recomputed(games):
    """STYLE.md habit 2: every draw is recorded, and the audit recomputes it from the revealed seed."""
    for index in AUDITED:
        report = audit_log(chained_log(games[index]))
        assert report.ok, (index, [f.detail for f in report.findings])
        assert report.finished and report.draws > 0 and report.draws_verified == report.draws


def test_the_playouts_reach_the_rules_they_check(games):
    seen: Counter[str] = Counter()
    for game in games:
        for _, _, events in game.steps:
            seen.update(e.type_name for e in events)
            seen.update(f"Moved:{e.reason}" for e in events if isinstance(e, Moved))
            choices = (e for e in events if isinstance(e, ChoiceOffered | ChoiceMade))
            seen.update(f"{e.type_name}:{e.kind}" for e in choices)
    wanted = [
        "Moved:roll",
        "Moved:flight",
        "Moved:card",
        "Moved:sentry",
        "FlightEnded",
        "TeleportCounterDrawn",
        "Teleported",
        "LoopFailed",
        "LoopEscaped",
        "ObeliskTested",
        "SpellCast",
        "SpellDiscarded",
        "ChoiceOffered:wizard-target",
        "ChoiceMade:wizard-target",
        "TalismanTaken",
        "ItemGained",
        "VaultCardMet",
        "GameWon",
        "GameEnded",
    ]
    assert not [name for name in wanted if not seen[name]]


def test_is_legal_says_what_legal_actions_list_in_every_state_of_a_run(games):
    for game in games[:40]:
        state = copy.deepcopy(game.initial)
        players = list(game.state["players"])
        for _, _, events in game.steps:
            for event in events:
                keep.evolve(state, event)
                running = keep.status(state)["status"] != "finished"
                options = state["choice"]["options"] if state["choice"] else []
                candidates = ["roll", "flee", "enter", START, "choose:", "choose:nothing"]
                candidates += [f"choose:{option}" for option in options]
                for player in [*players, HOST, "nobody"]:
                    legal = {a.id for a in keep.legal_actions(state, player)}
                    assert legal <= set(candidates), legal - set(candidates)  # every kind of action is tried
                    for action_id in candidates:
                        assert keep.is_legal(state, player, action_id) == (running and action_id in legal)
