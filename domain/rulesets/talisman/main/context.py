"""What the main board's rules read while resolving: the content in play, the game's options, the
expansions in play and the few steps a lower rule hands back up.

One `MainContext` is built per ruleset object (so per set of options) by `build.build_context` and
handed to every rule step. It is plain data: the content loaders, the main board's outcome table, the
table of steps (`MainSteps`) and the expansions' builders are given to it, so it imports none of the
rules that read it. It also gives the typed view of a Resolution's working state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import msgspec

from domain.resolution import Resolution
from domain.rulesets.talisman.cards import card_summary
from domain.rulesets.talisman.main.content_board import BoardFile, PlacesFile, Space, Table
from domain.rulesets.talisman.main.expansion import Expansion, ExpansionContent, ItemStats, TrophyValue
from domain.rulesets.talisman.main.state import MainSheet, MainState


# The rules read the working state on nearly every step: these skip `typing.cast`'s call.
def state_of(res: Resolution) -> MainState:
    """Returns the working state of a resolution, typed."""
    state: MainState = res.state
    return state


def sheet_of(res: Resolution, player: str) -> MainSheet:
    """Returns a player's sheet in the working state."""
    sheet: MainSheet = res.state["players"][player]
    return sheet


def is_over(res: Resolution) -> bool:
    """Tells whether the game ended while resolving."""
    return bool(res.state["phase"] == "over")


def lying_here(res: Resolution, player: str) -> list[str]:
    """Returns the face-up cards on the player's space."""
    sheet = sheet_of(res, player)
    return state_of(res)["cards"][sheet["board"]][sheet["space"]]


def _stats(effect: str, amount: int, save: int) -> ItemStats:
    return ItemStats(
        strength_bonus=amount if effect == "strength-bonus" else 0,
        craft_bonus=amount if effect == "craft-bonus" else 0,
        armour_save=save if effect == "armour" else 0,
    )


OutcomeRule = Callable[["MainContext", Resolution, str, int, str, str], None]


@dataclass(frozen=True, slots=True)
class ContentLoaders:
    """The main board's content files, each as the function that loads (and so validates) it."""

    board: Callable[[], BoardFile]
    places: Callable[[], PlacesFile]
    adventure: Callable[[], Any]
    adventure_extra: Callable[[str], Any]  # an expansion's own Adventure cards, by file name
    purchase: Callable[[], Any]
    spells: Callable[[], Any]
    talismans: Callable[[], Any]
    abilities: Callable[[], Any]


@dataclass(frozen=True, slots=True)
class MainSteps:
    """The rule steps a lower module hands back up to a higher one (landing meets the space it lands on,
    a fight asks the abilities): passed in as data, so the lower module imports none of its callers."""

    meet_space: Callable[[MainContext, Resolution, str], None]
    run_table: Callable[[MainContext, Resolution, str, str], None]
    encounter_character: Callable[[MainContext, Resolution, str, str], None]
    combat_bonus: Callable[[MainContext, MainState, str, str, str], int]
    go_to: Callable[[MainContext, Resolution, str, str, int, str], None]


@dataclass(frozen=True)
class MainContext:
    """The content in play (board, places, decks), the options, the expansions and the steps handed up,
    as the rules read them (each content file is loaded on first use)."""

    loaders: ContentLoaders
    steps: MainSteps
    main_outcomes: Mapping[str, OutcomeRule]
    expansion_builders: tuple[Callable[[MainContext], Expansion[MainContext]], ...] = ()
    options: dict[str, str] = field(default_factory=dict)

    @cached_property
    def board(self) -> BoardFile:
        """Returns the main board (regions are boards)."""
        return self.loaders.board()

    @cached_property
    def places(self) -> PlacesFile:
        """Returns the places' die tables and the Warlock's quests."""
        return self.loaders.places()

    @cached_property
    def expansions(self) -> tuple[Expansion[MainContext], ...]:
        """Returns the expansions the options put in play, built once for this context."""
        return tuple(build(self) for build in self.expansion_builders)

    @cached_property
    def expansion_contents(self) -> tuple[ExpansionContent[MainContext], ...]:
        """Returns what each expansion in play adds to the content, in their order."""
        return tuple(exp.content() for exp in self.expansions)

    @cached_property
    def board_expansions(self) -> dict[str, Expansion[MainContext]]:
        """Returns the expansion each of the expansions' boards belongs to, by board id."""
        return {board: exp for exp in self.expansions for board in exp.boards}

    def expansion_on(self, board: str) -> Expansion[MainContext] | None:
        """Returns the expansion whose board this is (None for the main board's own boards)."""
        return self.board_expansions.get(board)

    @cached_property
    def outcome_rules(self) -> dict[str, OutcomeRule]:
        """Returns every outcome rule in play: the main board's, and those the expansions own."""
        found = dict(self.main_outcomes)
        for exp_content in self.expansion_contents:
            found.update(exp_content.outcomes)
        return found

    @cached_property
    def adventure(self) -> Any:
        """Returns the Adventure deck: the main board's cards and those the expansions in play shuffle in."""
        deck = self.loaders.adventure()
        files = [exp.adventure_file for exp in self.expansions if exp.adventure_file]
        extra = [self.loaders.adventure_extra(name) for name in files]
        if not extra:
            return deck
        return msgspec.structs.replace(deck, cards=deck.cards + tuple(c for f in extra for c in f.cards))

    @cached_property
    def purchase(self) -> Any:
        """Returns the Purchase deck."""
        return self.loaders.purchase()

    @cached_property
    def spells(self) -> Any:
        """Returns the Spell deck."""
        return self.loaders.spells()

    @cached_property
    def spells_by_id(self) -> dict[str, Any]:
        """Returns the Spells of the deck by id (legality asks for each Spell a character holds)."""
        return {spell.id: spell for spell in reversed(self.spells.spells)}  # the first of an id wins

    @cached_property
    def talismans(self) -> Any:
        """Returns the Talismans."""
        return self.loaders.talismans()

    @cached_property
    def abilities(self) -> Any:
        """Returns every character's abilities (abilities.toml)."""
        return self.loaders.abilities()

    @cached_property
    def cards(self) -> dict[str, Any]:
        """Returns the Adventure cards by id."""
        return {card.id: card for card in self.adventure.cards}

    @cached_property
    def items(self) -> dict[str, ItemStats]:
        """Returns what every Adventure and Purchase card adds in a fight, by id."""
        found = {c.id: _stats(c.effect, c.amount, c.save) for c in self.adventure.cards}
        found.update({i.id: _stats(i.effect, i.amount, i.save) for i in self.purchase.items})
        for exp_content in self.expansion_contents:
            found.update(exp_content.items)
        return found

    @cached_property
    def trophies(self) -> dict[str, TrophyValue]:
        """Returns what each enemy of the Adventure deck is worth as a trophy, by id."""
        found = {
            c.id: TrophyValue(c.type, c.strength if c.type == "monster" else c.craft)
            for c in self.adventure.cards
            if c.type in ("monster", "spirit")
        }
        for exp_content in self.expansion_contents:
            found.update(exp_content.trophies)
        return found

    @cached_property
    def prices(self) -> dict[str, int]:
        """Returns each Purchase item's price in Gold."""
        return {item.id: item.price for item in self.purchase.items}

    @cached_property
    def effects(self) -> dict[str, str]:
        """Returns the effect of every Adventure and Purchase card, by id."""
        found = {c.id: c.effect for c in self.adventure.cards}
        found.update({i.id: i.effect for i in self.purchase.items})
        return found

    @cached_property
    def amounts(self) -> dict[str, int]:
        """Returns the amount of every Adventure and Purchase card's effect, by id."""
        found = {c.id: c.amount for c in self.adventure.cards}
        found.update({i.id: i.amount for i in self.purchase.items})
        return found

    @cached_property
    def alignments(self) -> dict[str, str]:
        """Returns the alignment of every alignment-bound card, by id."""
        return {c.id: c.alignment for c in self.adventure.cards if c.alignment}

    def holds(self, sheet: MainSheet, effect: str) -> bool:
        """Tells whether a character carries an Object with that effect (a Raft, a Water Bottle…)."""
        return any(self.effects.get(card) == effect for card in sheet["objects"])

    @cached_property
    def names(self) -> dict[str, str]:
        """Returns the name of every card and item by id."""
        found = {c.id: c.name for c in self.adventure.cards}
        found.update({i.id: i.name for i in self.purchase.items})
        found.update({t.id: t.name for t in self.talismans.talismans})
        for exp_content in self.expansion_contents:
            found.update(exp_content.names)
        return found

    def card_name(self, card: str) -> str:
        """Returns a card's name (its id's last part if no deck in use has it)."""
        return self.names.get(card) or card.rsplit("/", 1)[-1].replace("-", " ")

    @cached_property
    def summaries(self) -> dict[str, str]:
        """Returns what every card in play is and does, in a few words, by id."""
        found = {c.id: card_summary(c.type, c.text, c.strength, c.craft) for c in self.adventure.cards}
        found.update({i.id: card_summary("object", i.text) for i in self.purchase.items})
        for exp_content in self.expansion_contents:
            found.update(exp_content.summaries)
        return found

    def card_words(self, card: str) -> str:
        """Returns a card's name with what it is and does: `Imp (Follower: +1 Craft in Psychic Combat)`."""
        summary = self.summaries.get(card)
        return f"{self.card_name(card)} ({summary})" if summary else self.card_name(card)

    def is_magic(self, card: str) -> bool:
        """Tells whether a card is a Magic Object."""
        found = self.cards.get(card)
        if found is not None:
            return bool(found.type == "magic-object")
        return any(card in exp_content.magic for exp_content in self.expansion_contents)

    def price(self, card: str) -> int:
        """Returns a Purchase item's price."""
        return self.prices[card]

    def load_all(self) -> None:
        """Loads (and so validates) every content file the rules read."""
        for name in ("board", "places", "adventure", "purchase", "spells", "talismans", "abilities"):
            getattr(self, name)
        for exp in self.expansions:
            exp.check_content()

    @cached_property
    def sizes(self) -> dict[str, int]:
        """Returns each board's number of spaces, the expansions' boards included."""
        found = {b.id: len(b.spaces) for b in self.board.boards}
        for exp_content in self.expansion_contents:
            found.update(exp_content.sizes)
        return found

    @cached_property
    def spaces(self) -> dict[str, tuple[Space, ...]]:
        """Returns each board's spaces by board id (the rules ask for a space on nearly every step), the
        expansions' boards included (their spaces have the `id`, `name` and `kind` the rules read)."""
        found: dict[str, tuple[Any, ...]] = {b.id: b.spaces for b in self.board.boards}
        for exp_content in self.expansion_contents:
            found.update(exp_content.spaces)
        return found

    @cached_property
    def positions(self) -> dict[str, tuple[str, int]]:
        """Returns the (board, index) of every space id, the expansions' boards included."""
        return {s.id: (board, i) for board, spaces in self.spaces.items() for i, s in enumerate(spaces)}

    def space(self, board: str, index: int) -> Space:
        """Returns the space at (board, index)."""
        return self.spaces[board][index]

    def place_words(self, board: str, index: int) -> str:
        """Returns a space as a player reads it: `the Woods (Outer 10)`, `the Crypt (Dungeon 3)`."""
        return f"the {self.space(board, index).name} ({board.title()} {index})"

    def here(self, res: Resolution, player: str) -> Space:
        """Returns the space a player stands on."""
        sheet = sheet_of(res, player)
        return self.space(sheet["board"], sheet["space"])

    def position(self, space_id: str) -> tuple[str, int]:
        """Returns the (board, index) of a space id."""
        found = self.positions.get(space_id)
        return found if found is not None else self.board.position(space_id)  # (which says what is wrong)

    def table(self, table_id: str) -> Table:
        """Returns a place's die table."""
        return self.places.table(table_id)

    @property
    def round_cap(self) -> int:
        """Returns the house round cap for bot games (0 = none, house rule H6.1)."""
        return int(self.options.get("bot_round_cap", "0"))

    @property
    def first_to_crown(self) -> bool:
        """Tells whether the first character to reach the Crown wins (`ending=first`)."""
        return self.options.get("ending", "crown") == "first"
