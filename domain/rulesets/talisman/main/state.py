"""The main board's typed state (its evolve steps are in `handlers`).

A `MainState` is the shared `TalismanState` (positions (board, space), face-up cards and gold per board
and space, named piles) plus the turn's progress (`step`, `rolled`), the round count, the pending
choice the turn waits on, whether anyone has reached the Crown, and where each character starts.
Piles (the replay format's ledger): `adventure`, `discard:adventure`, `purchase`, `spells`,
`discard:spells`, `talismans`, `characters`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from domain.rulesets.talisman.character import new_sheet
from domain.rulesets.talisman.characters import character_or_stand_in
from domain.rulesets.talisman.shapes import Sheet, TalismanState

ADVENTURE, PURCHASE, SPELLS, TALISMANS, CHARACTERS = (
    "adventure",
    "purchase",
    "spells",
    "talismans",
    "characters",
)
OUTER, MIDDLE, INNER, CROWN = "outer", "middle", "inner", "crown"
START, ROLLED = "start", "rolled"  # the turn's steps: before the move, after the movement roll
BEGUN = "begun"  # before the move, once a Spell was cast (the start-of-turn abilities have run)
MOVEMENT = "movement"  # the purpose of the movement roll


class MainSheet(Sheet):
    """A main-board character's sheet: the shared sheet plus alignment, spells, Talismans and quest."""

    alignment: str
    spells: list[str]
    talismans: list[str]
    quest: Quest | None  # the Warlock's quest in hand
    ready: list[Ready]  # effects waiting for a fight (Spells cast ahead, Raise the Dead)
    evaded: list[str]  # enemies evaded this turn (they stay face up, house rule H1.8)


class Ready(TypedDict):
    """An effect waiting for the character's next fight of its kind (`when`); `lasting` outlives the turn."""

    name: str
    effect: str
    amount: int
    when: str
    lasting: bool


class Quest(TypedDict):
    """A Warlock's quest in hand: its id, goal, how much, which space, and how far it has come."""

    id: str
    goal: str
    amount: int
    target: str
    progress: int


class Choice(TypedDict):
    """A decision the rules give a player; the turn waits until it is made (`choose:<option>`)."""

    player: str
    kind: str
    options: list[str]


class MainState(TalismanState):
    """The `talisman` game's state."""

    players: dict[str, MainSheet]  # type: ignore[misc]  # a TypedDict field narrowed to the main board's sheet
    step: str  # start / rolled
    rolled: int  # the movement roll while `step` is rolled
    round: int  # rounds begun (1 = the first round)
    choice: Choice | None
    crown_reached: bool  # house rule H5.17: from then on a killed character's player is out (house)
    spirit_bonus: int  # Craft every Spirit has more until the next Event (the Astral Conjunction)
    starts: dict[str, list[Any]]  # character id → [board, space] it starts on


def deck_of(card: str) -> str:
    """Returns the deck a card belongs to, read off its id (`talisman/card/…` → adventure)."""
    kind = card.split("/")[1] if card.count("/") >= 2 else ""
    return {"spell": SPELLS, "purchase": PURCHASE, "talisman": TALISMANS}.get(kind, ADVENTURE)


def new_state(
    order: list[str],
    requested: Mapping[str, str],
    sizes: Mapping[str, int],
    piles: dict[str, list[str]],
    starts: dict[str, list[Any]],
) -> MainState:
    """Returns the state right after GameCreated: nobody dealt yet, every pile sorted (a lazy shuffle)."""
    return {
        "order": list(order),
        "requested": dict(requested),
        "players": {},
        "turn": "",
        "phase": "setup",
        "winner": "",
        "cards": {board: [[] for _ in range(n)] for board, n in sizes.items()},
        "gold": {board: [0] * n for board, n in sizes.items()},
        "piles": {name: sorted(cards) for name, cards in piles.items()},
        "step": START,
        "rolled": 0,
        "round": 1,
        "choice": None,
        "crown_reached": False,
        "spirit_bonus": 0,
        "starts": starts,
    }


def fresh_sheet(character: str, board: str, space: int) -> MainSheet:
    """Returns a new character's sheet on its starting space (house rule H1.1: 4 lives, 1 gold)."""
    card = character_or_stand_in(character)
    sheet: MainSheet = {
        **new_sheet(card, board, space),
        "alignment": card.alignment,
        "spells": [],
        "talismans": [],
        "quest": None,
        "ready": [],
        "evaded": [],
    }
    return sheet
