"""What the main board's rules read while resolving: the content in play and the game's options.

One `MainContext` is built per ruleset object (so per set of options) and handed to every rule step;
it also gives the typed view of a Resolution's working state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from domain.resolution import Resolution
from domain.rulesets.talisman.main.state import MainSheet, MainState

if TYPE_CHECKING:
    from domain.rulesets.talisman.main.content_board import BoardFile, PlacesFile, Space, Table
    from domain.rulesets.talisman.main.expansion import Expansion
    from domain.rulesets.talisman.main.outcomes import OutcomeRule


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


def _stats(effect: str, amount: int, save: int) -> ItemStats:
    return ItemStats(
        strength_bonus=amount if effect == "strength-bonus" else 0,
        craft_bonus=amount if effect == "craft-bonus" else 0,
        armour_save=save if effect == "armour" else 0,
    )


@dataclass(frozen=True)
class MainContext:
    """The content in play (board, places, decks) and the options, as the rules read them."""

    options: dict[str, str] = field(default_factory=dict)

    @cached_property
    def board(self) -> BoardFile:
        """Returns the main board (regions are boards)."""
        from domain.rulesets.talisman.main.content import load_board

        return load_board()

    @cached_property
    def places(self) -> PlacesFile:
        """Returns the places' die tables and the Warlock's quests."""
        from domain.rulesets.talisman.main.content import load_places

        return load_places()

    @cached_property
    def expansions(self) -> tuple[Expansion, ...]:
        """Returns the expansions the options put in play (`expansion`), built once."""
        from domain.rulesets.talisman.main.expansion import build_expansions

        return build_expansions(self, self.options)

    @cached_property
    def board_expansions(self) -> dict[str, Expansion]:
        """Returns the expansion each of the expansions' boards belongs to, by board id."""
        return {board: exp for exp in self.expansions for board in exp.boards}

    def expansion_on(self, board: str) -> Expansion | None:
        """Returns the expansion whose board this is (None for the main board's own boards)."""
        return self.board_expansions.get(board)

    @cached_property
    def outcome_rules(self) -> dict[str, OutcomeRule]:
        """Returns every outcome rule in play: the main board's, and those the expansions own."""
        from domain.rulesets.talisman.main.outcomes import OUTCOMES

        found = dict(OUTCOMES)
        for exp in self.expansions:
            found.update(exp.outcomes())
        return found

    @cached_property
    def adventure(self) -> Any:
        """Returns the Adventure deck: the main board's cards and those the expansions in play shuffle in."""
        import msgspec

        from domain.rulesets.talisman.main.content import load_adventure, load_adventure_extra

        deck = load_adventure()
        extra = [load_adventure_extra(exp.adventure_file) for exp in self.expansions if exp.adventure_file]
        if not extra:
            return deck
        return msgspec.structs.replace(deck, cards=deck.cards + tuple(c for f in extra for c in f.cards))

    @cached_property
    def purchase(self) -> Any:
        """Returns the Purchase deck."""
        from domain.rulesets.talisman.main.content import load_purchase

        return load_purchase()

    @cached_property
    def spells(self) -> Any:
        """Returns the Spell deck."""
        from domain.rulesets.talisman.main.content import load_spells

        return load_spells()

    @cached_property
    def talismans(self) -> Any:
        """Returns the Talismans."""
        from domain.rulesets.talisman.main.content import load_talismans

        return load_talismans()

    @cached_property
    def abilities(self) -> Any:
        """Returns every character's abilities (abilities.toml)."""
        from domain.rulesets.talisman.main.content import load_abilities

        return load_abilities()

    @cached_property
    def cards(self) -> dict[str, Any]:
        """Returns the Adventure cards by id."""
        return {card.id: card for card in self.adventure.cards}

    @cached_property
    def items(self) -> dict[str, ItemStats]:
        """Returns what every Adventure and Purchase card adds in a fight, by id."""
        found = {c.id: _stats(c.effect, c.amount, c.save) for c in self.adventure.cards}
        found.update({i.id: _stats(i.effect, i.amount, i.save) for i in self.purchase.items})
        for exp in self.expansions:
            found.update(exp.items())
        return found

    @cached_property
    def trophies(self) -> dict[str, TrophyValue]:
        """Returns what each enemy of the Adventure deck is worth as a trophy, by id."""
        found = {
            c.id: TrophyValue(c.type, c.strength if c.type == "monster" else c.craft)
            for c in self.adventure.cards
            if c.type in ("monster", "spirit")
        }
        for exp in self.expansions:
            found.update(exp.trophies())
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
        for exp in self.expansions:
            found.update(exp.names())
        return found

    def card_name(self, card: str) -> str:
        """Returns a card's name (its id's last part if no deck in use has it)."""
        return self.names.get(card) or card.rsplit("/", 1)[-1].replace("-", " ")

    def is_magic(self, card: str) -> bool:
        """Tells whether a card is a Magic Object."""
        found = self.cards.get(card)
        if found is not None:
            return bool(found.type == "magic-object")
        return any(card in exp.magic() for exp in self.expansions)

    def price(self, card: str) -> int:
        """Returns a Purchase item's price."""
        return self.prices[card]

    def load_all(self) -> None:
        """Loads (and so validates) every content file the rules read."""
        for name in ("board", "places", "adventure", "purchase", "spells", "talismans", "abilities"):
            getattr(self, name)
        for exp in self.expansions:
            exp.load_content()

    @cached_property
    def sizes(self) -> dict[str, int]:
        """Returns each board's number of spaces, the expansions' boards included."""
        found = {b.id: len(b.spaces) for b in self.board.boards}
        for exp in self.expansions:
            found.update(exp.sizes())
        return found

    @cached_property
    def spaces(self) -> dict[str, tuple[Space, ...]]:
        """Returns each board's spaces by board id (the rules ask for a space on nearly every step), the
        expansions' boards included (their spaces have the `id`, `name` and `kind` the rules read)."""
        found: dict[str, tuple[Any, ...]] = {b.id: b.spaces for b in self.board.boards}
        for exp in self.expansions:
            found.update(exp.spaces())
        return found

    @cached_property
    def positions(self) -> dict[str, tuple[str, int]]:
        """Returns the (board, index) of every space id, the expansions' boards included."""
        return {s.id: (board, i) for board, spaces in self.spaces.items() for i, s in enumerate(spaces)}

    def space(self, board: str, index: int) -> Space:
        """Returns the space at (board, index)."""
        return self.spaces[board][index]

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
        """Returns the house round cap for bot games (0 = none, RULES.md §5)."""
        return int(self.options.get("bot_round_cap", "0"))

    @property
    def first_to_crown(self) -> bool:
        """Tells whether the first character to reach the Crown wins (`ending=first`)."""
        return self.options.get("ending", "crown") == "first"
