"""The main board's expansions (RULES.md §5: `--option dungeon=true`, `--option keep=true`): each is an
`Expansion` object the `talisman` ruleset builds when its option is true, and asks at fixed points.

- **Its boards.** A character standing on one of the expansion's boards (`boards`) plays its whole turn
  by the expansion's rules: `legal_actions`, `is_legal` and `resolve` (Spells stay the main board's:
  `cast:` ids go to `abilities`, which asks where the caster stands).
- **The main board.** On the main board each expansion in play may add actions (`main_actions`,
  `resolve_main`: enter the Dungeon from a Doorway…), own outcomes of cards and places (`outcomes`:
  `doorway`, `ethereal-portal`, `enter-keep`…), take a card as it is drawn (`card_drawn`: a third
  Doorway is discarded, Dungeon 4.1) and take over a Talisman's gain (`gains_talisman`: Keep 4.5).
- **Its content.** Its short game's files and its own (`own_content_paths`), the Adventure cards it
  shuffles in (`adventure_file`, merged into the Adventure deck by `MainContext`), its decks
  (`piles`), its boards' sizes (`sizes`), and what its cards are worth once carried or killed
  (`items`, `trophies`, `names`, `magic`).
- **Its state** lives in the main state's own keys (`state_keys`, added by `initial_state`) and in every
  sheet's (`sheet_keys`, added by `fresh_sheet`), as the short games keep them, so the short games' steps
  run on the main state unchanged; its evolve steps (`handlers`) run after the main board's for the same
  event type.
- **Its choices.** A choice whose kind's first part is in `choice_kinds` is labelled and made by it.

A turn it resolves is closed by the ruleset (`finish_action`: the turn passes unless a choice waits);
`resolve` returns True when the same player acts again (a Dungeon landing that offers a choice of
encounter, say). The expansions in play are built once per ruleset object, in the order of
`build.EXPANSIONS`. `Expansion` is generic in the context it reads (`MainContext`), so this module imports
nothing of the rules that ask it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from domain.actions import Action
from domain.events import Event
from domain.resolution import Resolution
from domain.rulesets.base import Evolver
from domain.rulesets.talisman.main.state import MainSheet, MainState

Ctx = TypeVar("Ctx")


@dataclass(frozen=True, slots=True)
class ItemStats:
    """What an Object or Follower adds in a fight: its bonuses and the face it saves a life on."""

    strength_bonus: int = 0
    craft_bonus: int = 0
    armour_save: int = 0


@dataclass(frozen=True, slots=True)
class TrophyValue:
    """What a killed enemy is worth as a trophy (RULES.md §1)."""

    trophy_kind: str
    trophy_value: int


class Expansion(Generic[Ctx]):
    """One expansion of the main board, reading a context of type `Ctx`; every default adds nothing."""

    name: ClassVar[str]  # the option that brings it in: `dungeon`, `keep`
    boards: ClassVar[tuple[str, ...]] = ()  # the boards it adds (a sheet's `board`)
    adventure_file: ClassVar[str] = ""  # its Adventure cards' file in the talisman content folder ("": none)
    choice_kinds: ClassVar[frozenset[str]] = frozenset()  # the choice kinds (first part) it makes
    handlers: ClassVar[Mapping[type[Event], Evolver]] = {}  # run after the main board's step

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx

    # -- content and setup ------------------------------------------------------------------------

    @classmethod
    def short_game_content_paths(cls) -> list[Path]:
        """Returns its short game's content files (its board and decks), in every game it is in."""
        return []

    @classmethod
    def own_content_paths(cls) -> list[Path]:
        """Returns the content files it adds beyond its short game's files and its Adventure file (both
        in every game it is in, `main.build.content_paths`)."""
        return []

    def load_content(self) -> None:
        """Loads (and so checks) its content."""

    def sizes(self) -> dict[str, int]:
        """Returns the number of spaces of each board it adds (the state's `cards` and `gold` lists)."""
        return {}

    def piles(self) -> dict[str, list[str]]:
        """Returns its decks and piles by ledger name (discard piles included, empty)."""
        return {}

    def spaces(self) -> dict[str, tuple[Any, ...]]:
        """Returns the spaces of each board it adds, by board id (the main board's rules read a space's
        `id`, `name` and `kind` wherever a character stands: `MainContext.space`)."""
        return {}

    def state_keys(self) -> Mapping[str, object]:
        """Returns its keys of the main state, with their values at GameCreated."""
        return {}

    def sheet_keys(self) -> Mapping[str, object]:
        """Returns its keys of every character's sheet, with a new character's values."""
        return {}

    def items(self) -> dict[str, ItemStats]:
        """Returns what its decks' Objects and Followers add in a fight, by card id."""
        return {}

    def trophies(self) -> dict[str, TrophyValue]:
        """Returns what its decks' enemies are worth as trophies, by card id."""
        return {}

    def names(self) -> dict[str, str]:
        """Returns the names of its cards, by id."""
        return {}

    def magic(self) -> frozenset[str]:
        """Returns the ids of its Magic Objects."""
        return frozenset()

    # -- a turn on its boards -----------------------------------------------------------------------

    def legal_actions(self, state: MainState, player: str) -> list[Action]:
        """Returns the actions of a character on one of its boards whose turn it is (no choice waits)."""
        return []

    def is_legal(self, state: MainState, player: str, action_id: str) -> bool:
        """Tells whether `action_id` is among `legal_actions(state, player)`."""
        return any(action.id == action_id for action in self.legal_actions(state, player))

    def resolve(self, res: Resolution, action_id: str, player: str) -> bool:
        """Resolves one legal action of a character on its boards; True when the same player acts again."""
        return False

    # -- on the main board --------------------------------------------------------------------------

    def main_actions(self, state: MainState, player: str) -> list[Action]:
        """Returns the actions it adds for a character on the main board whose turn it is."""
        return []

    def resolve_main(self, res: Resolution, action_id: str, player: str) -> bool | None:
        """Resolves one of its `main_actions` (True: the same player acts again); None when not its own."""
        return None

    def outcomes(self) -> dict[str, Callable[[Ctx, Resolution, str, int, str, str], None]]:
        """Returns the outcomes of cards and places it owns, by outcome (or card effect) id."""
        return {}

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
