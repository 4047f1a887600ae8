"""`bench-marathon`: a benchmark-only ruleset for games of thousands of events.

Why it exists: a real `dungeon-short` game ends after a few hundred events, so it can never show what
the store costs on a long game (1,000 or 10,000 events). This ruleset is a race on a very long track
(option `goal`, default 100,000 spaces) grown from the toy race (toy_ruleset.py), but each `roll` records the
same shared events the real rulesets record, with realistic sizes and mix:
DieRolled, Moved, a CardDrawn every few spaces (a fair `dice.pick` over a small deck) and TurnEnded.
Its `evolve` updates nested dicts the way the real rulesets do (per-player sheets, a deck with a
discard pile, a hand capped at a few cards), so folding it costs about what folding a real game costs.

It is registered at runtime by the benchmark script only (never in domain/rulesets):
    from domain import rulesets
    rulesets.register(RulesetEntry("bench-marathon", "benchmarks.marathon_ruleset:Marathon"))
"""

from __future__ import annotations

from typing import Any

from benchmarks.toy_ruleset import ToyRace
from domain.events import CardDrawn, CharacterDealt, DieRolled, Event, GameCreated, GameWon, Moved, TurnEnded
from domain.resolution import Resolution

MIN_PLAYERS = 1
MAX_PLAYERS = 6
GOAL = 100_000
CARD_EVERY = 3  # a card is drawn when a piece lands on a space divisible by this
HAND_LIMIT = 3  # MAX_PLAYERS * HAND_LIMIT < len(DECK), so the deck never runs dry
DECK = (
    "Bag of Gold",
    "Potion of Healing",
    "Goblin",
    "Trapdoor",
    "Mule",
    "Wraith",
    "Sword",
    "Amulet",
    "Lost",
    "Treasure Chest",
    "Ogre",
    "Healing Spring",
    "Giant Spider",
    "Shield",
    "Helmet",
    "Axe",
    "Water Bottle",
    "Raft",
    "Cursed Mirror",
    "Pixie",
)


def evolve(state: dict[str, Any], event: Event) -> dict[str, Any]:
    if isinstance(event, DieRolled):
        state["last_roll"] = list(event.values)
        state["players"][event.player]["rolls"] += 1
    elif isinstance(event, Moved):
        state["players"][event.piece]["pos"] = event.to_space
    elif isinstance(event, CardDrawn):
        deck = state["decks"][event.deck]
        if not deck["left"]:
            deck["left"], deck["discard"] = deck["discard"], []
        deck["left"].remove(event.card)
        sheet = state["players"][event.player]
        sheet["hand"].append(event.card)
        if event.card == "Bag of Gold":
            sheet["gold"] += 1
        if len(sheet["hand"]) > HAND_LIMIT:
            deck["discard"].append(sheet["hand"].pop(0))
    elif isinstance(event, TurnEnded):
        state["turn"] = state["order"].index(event.next_player)
        state["turns"] += 1
    elif isinstance(event, CharacterDealt):
        state["players"][event.player]["character"] = event.character
        state["started"] = True
    elif isinstance(event, GameWon):
        state["winner"] = event.player
    return state


class Marathon(ToyRace):
    """A race on a very long track, recording the events a real ruleset records."""

    name = "bench-marathon"
    character = "marathoner"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    evolve = staticmethod(evolve)  # the fold calls it directly, as a real ruleset's

    def content_hash(self) -> str:
        return "bench-marathon-1"

    def initial_state(self, created: GameCreated) -> dict[str, Any]:
        names = [p["name"] for p in created.players]
        return {
            "order": names,
            "turn": 0,
            "goal": int(created.options.get("goal", GOAL)),
            "started": False,
            "winner": "",
            "players": {
                n: {
                    "character": p["character"] or "",
                    "pos": 0,
                    "lives": 4,
                    "gold": 0,
                    "hand": [],
                    "rolls": 0,
                }
                for n, p in zip(names, created.players, strict=True)
            },
            "decks": {"adventure": {"left": list(DECK), "discard": []}},
            "last_roll": [],
            "turns": 0,
        }

    def resolve(self, res: Resolution, action_id: str, player: str) -> None:
        state, dice = res.state, res.dice
        (value,), draws = dice.roll(6)
        here = state["players"][player]["pos"]
        there = min(state["goal"], here + value)
        res.emit(
            DieRolled(player=player, purpose="movement", sides=6, values=[value], draws=draws),
            Moved(piece=player, board="track", from_space=here, to_space=there, reason="roll"),
        )
        if there == state["goal"]:
            res.emit(GameWon(player=player, reason="reached the goal"))
            return
        if there % CARD_EVERY == 0:
            deck = state["decks"]["adventure"]
            cards = deck["left"] or deck["discard"]
            card, draw = dice.pick(cards)
            res.emit(CardDrawn(player=player, deck="adventure", card=card, draw=draw))
        nxt = state["order"][(state["turn"] + 1) % len(state["order"])]
        res.emit(TurnEnded(player=player, next_player=nxt))
