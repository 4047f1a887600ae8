"""The main board's expansions (house rule H5.20: `--option dungeon=true`, `--option keep=true`): each is an
`Expansion` object the `talisman` ruleset builds when its option is true, and asks through eleven hooks.

- **Its content** (`content_paths`, `content`, `check_content`): its files (its short game's, the
  Adventure cards it shuffles in, its own), and as one `ExpansionContent`: its boards' sizes and spaces,
  its decks, what its cards are worth once carried or killed, their names, its Magic Objects, the outcomes
  of cards and places it owns (`doorway`, `ethereal-portal`, `enter-keep`…), its keys of the main state
  and of every sheet (as the short games keep them, so the short games' steps run on the main state
  unchanged), its boards no Spell from elsewhere reaches, those the Spells on cards and spaces reach
  from the main board, and its sheet keys that force a character's moves. `check_content` also checks
  what the main board's content names on its boards (the foes a `not-against` limit names). Its evolve
  steps (`handlers`) run after the main board's for the same event type.
- **Its turns** (`actions`, `resolve`): a character standing on one of its boards (`boards`) plays its
  whole turn by its rules (Spells stay the main board's: `cast:` ids go to `abilities`); on the main board
  each expansion may add actions (enter the Dungeon from a Doorway…).
- **The main board's questions** (`card_drawn`: a third Doorway is discarded, Dungeon 4.1; `offers`: a
  way in it could not take is not offered; `gains_talisman`: Keep 4.5; `bot_weight`).
- **Its choices** (`choice_label`, `make_choice`): a choice whose kind's first part is in `choice_kinds`
  is labelled and made by it.

A turn it resolves is closed by the ruleset (`finish_action`: the turn passes unless a choice waits);
`resolve` returns True when the same player acts again (a Dungeon landing that offers a choice of
encounter, say). The expansions in play are built once per ruleset object, in the order of
`build.EXPANSIONS`. `Expansion` is generic in the context it reads (`MainContext`), so this module imports
nothing of the rules that ask it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from domain.actions import Action
from domain.events import Event
from domain.resolution import Resolution
from domain.rulesets.base import Evolver
from domain.rulesets.talisman.main.state import MainSheet, MainState

Ctx = TypeVar("Ctx")
# An outcome's rule: (context, resolution, player, amount, target, reason), as `outcomes.OUTCOMES`.
Outcome = Callable[[Ctx, Resolution, str, int, str, str], None]


@dataclass(frozen=True, slots=True)
class ItemStats:
    """What an Object or Follower adds in a fight: its bonuses and the face it saves a life on."""

    strength_bonus: int = 0
    craft_bonus: int = 0
    armour_save: int = 0


@dataclass(frozen=True, slots=True)
class TrophyValue:
    """What a killed enemy is worth as a trophy (house rule H1.6)."""

    trophy_kind: str
    trophy_value: int


@dataclass(frozen=True)
class ExpansionContent(Generic[Ctx]):
    """What an expansion adds to the content in play (`MainContext` merges it with the main board's)."""

    # Each board it adds: its number of spaces, and its spaces (`id`, `name`, `kind` are read).
    sizes: Mapping[str, int] = field(default_factory=dict)
    spaces: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    # Its decks by ledger name (discard piles included, empty).
    piles: Mapping[str, list[str]] = field(default_factory=dict)
    # Its cards: what they add in a fight, their worth as trophies, their names, its Magic Objects.
    items: Mapping[str, ItemStats] = field(default_factory=dict)
    trophies: Mapping[str, TrophyValue] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    magic: frozenset[str] = frozenset()
    # What each of its cards is and does in a few words (an option to discard one says it).
    summaries: Mapping[str, str] = field(default_factory=dict)
    # The outcomes of cards and places it owns, by outcome (or card effect) id.
    outcomes: Mapping[str, Callable[[Ctx, Resolution, str, int, str, str], None]] = field(
        default_factory=dict
    )
    # Its keys of the main state at GameCreated, and of a new character's sheet.
    state_keys: Mapping[str, object] = field(default_factory=dict)
    sheet_keys: Mapping[str, object] = field(default_factory=dict)
    # Its boards that no Spell cast on another board reaches (Keep 11.2: the Command Spell).
    sheltered: frozenset[str] = frozenset()
    # Its boards whose cards and spaces the Spells on cards and spaces reach from the main board (house
    # ruling: Spells reach the Dungeon, Dungeon 10.1-10.2).
    reached: frozenset[str] = frozenset()
    # Its sheet keys that, while true, send every move of the character one way, so that a Misdirection
    # does nothing to it (house rule H2.10, Misdirection and forced moves, Dungeon 7.3, 9.1-9.2).
    forced_moves: frozenset[str] = frozenset()


class Expansion(Generic[Ctx]):
    """One expansion of the main board, reading a context of type `Ctx`; every default adds nothing."""

    name: ClassVar[str]  # the option that brings it in: `dungeon`, `keep`
    boards: ClassVar[tuple[str, ...]] = ()  # the boards it adds (a sheet's `board`)
    adventure_file: ClassVar[str] = ""  # its Adventure cards' file in the talisman content folder ("": none)
    choice_kinds: ClassVar[frozenset[str]] = frozenset()  # the choice kinds (first part) it makes
    handlers: ClassVar[Mapping[type[Event], Evolver]] = {}  # run after the main board's step

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx

    # -- its content ----------------------------------------------------------------------------------

    @classmethod
    def content_paths(cls) -> list[Path]:
        """Returns the content files it adds to every game it is in, in order: its short game's, its
        Adventure cards' (`adventure_file`), its own (`build.content_paths`)."""
        return []

    def content(self) -> ExpansionContent[Ctx]:
        """Returns what it adds to the content in play (asked once per context, and at GameCreated)."""
        return ExpansionContent()

    def check_content(self) -> None:
        """Loads (and so checks) its content, against the context's where it names the main board's."""

    # -- its turns --------------------------------------------------------------------------------------

    def actions(self, state: MainState, player: str) -> list[Action]:
        """Returns the actions of the character whose turn it is (no choice waits): on one of its boards,
        that turn's; elsewhere, those it adds."""
        return []

    def resolve(self, res: Resolution, action_id: str, player: str) -> bool | None:
        """Resolves one of its `actions`: True when the same player acts again; None when the action is
        not its own (a character on the main board)."""
        return None

    # -- the main board's questions -----------------------------------------------------------------------

    def card_drawn(self, res: Resolution, player: str, card: str) -> None:
        """Runs after a card is drawn onto a main-board space (it may discard it: another is drawn)."""

    def offers(self, sheet: MainSheet, outcome: str) -> bool:
        """Tells whether a place's service with this outcome is worth offering the character now (False: a
        way in it could not take)."""
        return True

    def gains_talisman(self, res: Resolution, player: str) -> bool:
        """Takes over a Talisman the player is about to gain; True when it did (none is drawn)."""
        return False

    def bot_weight(self, state: MainState, action: Action) -> float | None:
        """Returns how likely a bot is to pick one of its actions (None: the ruleset's own weight)."""
        return None

    # -- its choices ----------------------------------------------------------------------------------

    def choice_label(self, kind: str, option: str) -> str:
        """Returns one option of one of its choices in words."""
        return option

    def make_choice(self, res: Resolution, player: str, kind: str, option: str) -> bool:
        """Carries out one of its choices (ChoiceMade is already emitted); True: the player acts again."""
        return False
