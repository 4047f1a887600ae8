"""The Dungeon expansion (`--option dungeon=true`): its board beside the main board (Dungeon 3-13).

Set-up (3): the four Doorways are shuffled into the Adventure deck (`adventure-dungeon.toml`), the
Dungeon deck lies beside its board with the Tunnel in it (8.3; only the short game removes it). The rules
are in `entering` (Doorways, 4-5), `turn` (inside, 6-9, by the short game's board and encounters) and
`exits` (leaving, 8-9, 13); the state and its evolve steps in `state`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from domain.actions import Action
from domain.content import content_path
from domain.events import Event
from domain.resolution import Resolution
from domain.rulesets.base import Evolver
from domain.rulesets.dungeon.content import Board, load_board, load_deck
from domain.rulesets.dungeon.content import content_paths as short_game_paths
from domain.rulesets.dungeon.encounters import GUARD
from domain.rulesets.dungeon.main import entering, exits, landing, turn
from domain.rulesets.dungeon.main.board import MainDungeonBoard, dungeon_hooks
from domain.rulesets.dungeon.main.bots import bot_weight
from domain.rulesets.dungeon.main.content import ADVENTURE_FILE, exits_path, load_exits
from domain.rulesets.dungeon.main.state import DEFEATED, FLEEING, SHEET_KEYS, handlers
from domain.rulesets.dungeon.state import BOARD, DECK
from domain.rulesets.talisman.main.choices import option_label
from domain.rulesets.talisman.main.content_abilities import check_limit_targets
from domain.rulesets.talisman.main.content_base import DIR
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.expansion import Expansion, ExpansionContent, ItemStats, TrophyValue
from domain.rulesets.talisman.main.outcomes import apply_outcome
from domain.rulesets.talisman.main.state import MainState
from domain.rulesets.talisman.shapes import discard_pile


def _doorway(ctx: Any, res: Resolution, player: str, amount: int, target: str, reason: str) -> None:
    # Dungeon 5.1: landing on a Doorway does nothing now; the way down is the next turn's `dungeon:enter`.
    return None


class DungeonExpansion(Expansion[MainContext]):
    """The Dungeon beside the main board."""

    name: ClassVar[str] = "dungeon"
    boards: ClassVar[tuple[str, ...]] = (BOARD,)
    adventure_file: ClassVar[str] = ADVENTURE_FILE
    choice_kinds: ClassVar[frozenset[str]] = frozenset({exits.DOOR_CHOICE, landing.CHOICE})
    handlers: ClassVar[dict[type[Event], Evolver]] = handlers()

    def __init__(self, ctx: MainContext) -> None:
        super().__init__(ctx)
        self._hooks: tuple[Board, MainDungeonBoard] | None = None

    @classmethod
    def content_paths(cls) -> list[Path]:
        """Returns the Dungeon board and deck (the short game's files), its Doorways (Adventure cards) and
        the ways out of the Dungeon (the Treasure Chamber table, the Tunnel)."""
        return [*short_game_paths(), content_path(DIR, ADVENTURE_FILE), exits_path()]

    def content(self) -> ExpansionContent[MainContext]:
        """Returns the Dungeon board, its deck (the Tunnel in it: it leads to the main board, Dungeon 8.3),
        its cards' worth, names and Magic Objects, the Doorway's outcome, a new character's flags, the board
        the Spells on cards and spaces reach from the main board and the flags that force a move."""
        board, cards = load_board(), load_deck().cards.values()
        return ExpansionContent(
            sizes={BOARD: len(board.spaces)},
            spaces={BOARD: board.spaces},
            piles={DECK: list(load_deck().cards), discard_pile(DECK): []},
            items={
                c.id: ItemStats(c.strength_bonus, c.craft_bonus, c.armour_save)
                for c in cards
                if c.kind in ("object", "magic-object", "follower")
            },
            trophies={c.id: TrophyValue(c.trophy_kind, c.trophy_value) for c in cards if c.is_enemy},
            names={c.id: c.name for c in cards},
            magic=frozenset(c.id for c in cards if c.kind == "magic-object"),
            summaries={c.id: c.summary for c in cards},
            outcomes={"doorway": _doorway},
            sheet_keys=dict(SHEET_KEYS),
            reached=frozenset({BOARD}),  # house rule H2.11, Spells reach the Dungeon (Dungeon 10.1-10.2)
            forced_moves=frozenset({FLEEING, DEFEATED}),  # Dungeon 9.1-9.2, 7.3: toward the Entrance
        )

    def check_content(self) -> None:
        """Loads (and so checks) the Dungeon's board, deck and ways out, whose spaces must be the board's,
        and the abilities limited to `not-against` a foe of the Dungeon: the Guard (Dungeon 12.2, 12.7)."""
        load_board(), load_deck()
        check_limit_targets(self.ctx.abilities, BOARD, (GUARD,))
        found = load_exits()
        for row in found.chamber:
            if row.to != "doorway":
                self.ctx.position(row.to)
        self.ctx.position(found.fallback)

    # -- a turn in the Dungeon --------------------------------------------------------------------

    def board_hooks(self) -> MainDungeonBoard:
        """Returns the Dungeon board's hooks, with the main game's arrival on the Treasure Chamber (made
        once per board content in use)."""
        board = load_board()
        if self._hooks is None or self._hooks[0] is not board:
            self._hooks = (board, dungeon_hooks(board, self._arrival))
        return self._hooks[1]

    def _arrival(self, res: Resolution, player: str) -> None:
        # Dungeon 13.1: reaching the Treasure Chamber gives a Talisman to one who holds none.
        if (
            self.ctx.options.get("dungeon.talisman_exit") == "true"
            and not res.state["players"][player]["talismans"]
        ):
            apply_outcome(
                self.ctx, res, player, "gain-talisman", 1, "", "the Treasure Chamber (Dungeon 13.1)"
            )

    def actions(self, state: MainState, player: str) -> list[Action]:
        """Returns the actions of a character in the Dungeon whose turn it is; on the main board,
        `dungeon:enter` for a character on a Doorway (Dungeon 5)."""
        if state["players"][player]["board"] == BOARD:
            return turn.legal_actions(self.ctx, state, player)
        return entering.main_actions(self.ctx, state, player)

    def resolve(self, res: Resolution, action_id: str, player: str) -> bool | None:
        """Resolves one action in the Dungeon (True when the same player acts again); on the main board,
        goes down a Doorway (`dungeon:enter`), None for any other action."""
        if res.state["players"][player]["board"] == BOARD:
            return turn.resolve(self.ctx, res, self.board_hooks(), action_id, player)
        if action_id != entering.ENTER:
            return None
        entering.enter(self.ctx, res, player)
        return False

    # -- the main board's questions ---------------------------------------------------------------

    def card_drawn(self, res: Resolution, player: str, card: str) -> None:
        """Discards a third Doorway drawn (Dungeon 4.1)."""
        entering.card_drawn(self.ctx, res, player, card)

    # -- its choices and its bots -------------------------------------------------------------------

    def choice_label(self, kind: str, option: str) -> str:
        """Returns a landing choice's option (a card to discard or evade) or a Doorway to come out at, in
        words."""
        if landing.is_landing(kind):
            return option_label(self.ctx, f"landing:{kind.partition(':')[2]}", option)
        return exits.door_label(self.ctx, option)

    def make_choice(self, res: Resolution, player: str, kind: str, option: str) -> bool:
        """Goes on meeting a Dungeon space after a landing choice, or comes out at the Doorway chosen (the
        Treasure Chamber's 1)."""
        if landing.is_landing(kind):
            turn.landed(self.ctx, res, self.board_hooks(), player, kind, option)
        else:
            exits.door_chosen(self.ctx, res, player, option)
        return False

    def bot_weight(self, state: MainState, action: Action) -> float | None:
        """Returns how likely a bot is to pick one of the Dungeon's actions (None: not one of them)."""
        return bot_weight(self.ctx, state, action)
