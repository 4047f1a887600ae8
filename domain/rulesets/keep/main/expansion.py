"""The Vampire's Keep expansion (`--option keep=true`): its board beside the main board (Keep 3-15).

Set-up (Keep 3): the Keep's 16 house Adventure cards (`adventure-keep.toml`) and the 8 Ethereal
Portals of the main deck are shuffled in; the Talismans are out of reach outside the Keep (Keep 3.3,
4.5: `entry`), unless `keep.talismans_in_deck` (Keep 15.1). The Keep deck, the Vault deck and the
Teleport counters are piles of the main state. Ways in are in `entry`, a turn on the Keep in `turn`,
its spaces in `hooks` (the Keep run's, with the main board's Sentry, Wizard and Vault), the Vault and
the Exit Table in `vault`, the main state's Keep keys and their evolve steps in `state`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from domain.actions import Action
from domain.content import content_path
from domain.resolution import Resolution
from domain.rulesets.keep.content import content_paths as short_game_paths
from domain.rulesets.keep.content import load_board, load_deck, load_spells, load_tables, load_vault
from domain.rulesets.keep.main import entry, turn, wizard
from domain.rulesets.keep.main.hooks import LANDING, MEET, MainKeep
from domain.rulesets.keep.main.state import HANDLERS, SHEET_KEYS, KeepSheet, state_keys
from domain.rulesets.keep.moves import counter_ids
from domain.rulesets.keep.spaces import LIFE, SENTRY_TOLL, TOME_GIFT, pay_or_take
from domain.rulesets.keep.state import BOARD, COUNTERS, KEEP_DECK, LAST, VAULT_DECK
from domain.rulesets.keep.vault import items_in_play
from domain.rulesets.keep.wizard import DISCARD, WIZARD_TARGET
from domain.rulesets.talisman.main.choices import option_label
from domain.rulesets.talisman.main.content_abilities import check_limit_targets
from domain.rulesets.talisman.main.content_base import DIR
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.expansion import Expansion, ExpansionContent, ItemStats, TrophyValue
from domain.rulesets.talisman.main.landing import SPACE, decide_landing
from domain.rulesets.talisman.main.spells import spell_of
from domain.rulesets.talisman.main.state import MainSheet, MainState
from domain.rulesets.talisman.shapes import discard_pile

# Bots go in when a way opens and leave the Keep's door alone rarely; they flee rarely.
BOT_WEIGHTS = {"choose:go": 4.0, "choose:stay": 0.5, "flee": 0.02, "choose:warlock-keep": 3.0}
BOT_WEIGHTS |= {"choose:mystic-keep": 3.0, "choose:enchantress-keep": 3.0}
SELF_AIM_WEIGHT = 0.1
# A bot that holds a Talisman has what the Vault would give it: it seldom takes a way in (Keep 4).
WAYS_IN = ("choose:go", "choose:warlock-keep", "choose:mystic-keep", "choose:enchantress-keep")
# It leaves with it, too: sheltering in the Keep from the Command Spell (Keep 11.2) never wins a game.
HOLDING_TALISMAN_WEIGHTS = {way: 0.1 for way in WAYS_IN} | {"choose:stay": 3.0, "flee": 1.0}


class KeepExpansion(Expansion[MainContext]):
    """The Vampire's Keep beside the main board."""

    name: ClassVar[str] = "keep"
    boards: ClassVar[tuple[str, ...]] = (BOARD,)
    adventure_file: ClassVar[str] = "adventure-keep.toml"
    choice_kinds: ClassVar[frozenset[str]] = frozenset(
        {entry.PORTAL, WIZARD_TARGET, SENTRY_TOLL, TOME_GIFT, MEET, LANDING}
    )
    handlers = HANDLERS

    def __init__(self, ctx: MainContext) -> None:
        super().__init__(ctx)
        self.board = MainKeep(ctx, ctx.options.get("keep.wizard", "choose") == "choose")

    # -- its content -----------------------------------------------------------------------------------

    @classmethod
    def content_paths(cls) -> list[Path]:
        """Returns the Keep's board, decks and tables (the Keep run's files) and its house Adventure cards."""
        return [*short_game_paths(), content_path(DIR, cls.adventure_file)]

    def content(self) -> ExpansionContent[MainContext]:
        """Returns the Keep's spaces (1-21 on 3 levels, index 0 unused: space 1 again, Keep 3.2, 5.1,
        H3.10), its decks and Teleport counters with their discard piles (Keep 3.4-3.6, 14.1, 14.2),
        what its, the Vault's and the Treasure Hoard's cards are worth and named, its ways in (the Mystic's,
        the Enchantress's, the Warlock's and the Portals) and its keys of the state (the Hoard option, Keep
        15.2) and of every sheet."""
        keep, cards = load_board().spaces, items_in_play().cards.values()
        piles = {KEEP_DECK: list(load_deck().cards), VAULT_DECK: list(load_vault()), COUNTERS: counter_ids()}
        names = {card.id: card.name for card in cards}
        names.update({card.id: card.name for card in load_vault().values()})
        return ExpansionContent(
            sizes={BOARD: LAST + 1},
            spaces={BOARD: (keep[0], *keep)},
            piles=piles | {discard_pile(KEEP_DECK): [], discard_pile(VAULT_DECK): []},
            items={
                card.id: ItemStats(card.strength_bonus, card.craft_bonus, card.armour_save)
                for card in cards
                if not card.is_enemy
            },
            trophies={
                card.id: TrophyValue(card.trophy_kind, card.trophy_value) for card in cards if card.is_enemy
            },
            names=names,
            magic=frozenset(c.id for c in cards if c.kind == "magic-object"),
            summaries={card.id: card.summary for card in cards},
            outcomes=dict(entry.OUTCOMES),
            state_keys=state_keys(self.ctx.options.get("keep.hoard") == "true"),
            sheet_keys=KeepSheet(**SHEET_KEYS),
            sheltered=frozenset({BOARD}),  # Keep 11.2: the Command Spell does not reach the Keep
        )

    def check_content(self) -> None:
        """Loads (and so checks) the Keep's board, decks and tables; no ability may be limited to
        `not-against` a foe of the Keep (it names none)."""
        load_board(), load_deck(), load_vault(), load_spells(), load_tables()
        check_limit_targets(self.ctx.abilities, BOARD, ())

    # -- its turns: a turn on the Keep ------------------------------------------------------------------

    def actions(self, state: MainState, player: str) -> list[Action]:
        """Returns the actions of a character on the Keep whose turn it is (none on the main board)."""
        return turn.actions(state, player) if state["players"][player]["board"] == BOARD else []

    def resolve(self, res: Resolution, action_id: str, player: str) -> bool | None:
        """Resolves one action on the Keep (True when the player steps out and plays on); None on the main
        board, where the Keep adds no action."""
        if res.state["players"][player]["board"] != BOARD:
            return None
        return turn.resolve(self.ctx, res, action_id, player, self.board)

    # -- the main board's questions ---------------------------------------------------------------------

    def offers(self, sheet: MainSheet, outcome: str) -> bool:
        """Tells whether a way into the Keep is worth offering the character now (Keep 4.2-4.4, 10)."""
        return entry.offers(self.ctx, sheet, outcome)

    def gains_talisman(self, res: Resolution, player: str) -> bool:
        """Keep 4.5: a Talisman's gain leads to the Keep Entrance instead (not under Keep 15.1)."""
        return entry.gains_talisman(self.ctx, res, player)

    # -- its choices ----------------------------------------------------------------------------------

    def choice_label(self, kind: str, option: str) -> str:
        """Returns one option of the Keep's choices in words."""
        head, _, step = kind.partition(":")
        if head == MEET:
            return option_label(self.ctx, "landing:encounter", option)
        if head == LANDING:
            return option_label(self.ctx, f"landing:{step}", option)
        if head == entry.PORTAL:
            go = "Step through the Ethereal Portal to the Keep Entrance"
            return go if option == entry.GO else "Leave the Ethereal Portal be"
        if head == TOME_GIFT:
            return f"Take +2 {option.capitalize()} from the Tome"
        if head == SENTRY_TOLL:
            return (
                "Give the Sentry a life"
                if option == LIFE
                else f"Give the Sentry your {self.ctx.card_name(option)}"
            )
        spell = spell_of(self.ctx, kind.partition(":")[2]).name
        if option == DISCARD:
            return f"Have the Vampire Wizard discard {spell}"
        return f"Aim the Vampire Wizard's {spell} at {option}"

    def make_choice(self, res: Resolution, player: str, kind: str, option: str) -> bool:
        """Carries out one of the Keep's choices."""
        head, _, step = kind.partition(":")
        if head == MEET:
            self._meet(res, player, option)
        elif head == LANDING:
            decide_landing(self.ctx, res, player, option, step, self.board.landing)  # Keep 7.2, 13
        elif head == entry.PORTAL:
            entry.through_portal(self.ctx, res, player, kind, option)
        elif head == WIZARD_TARGET:
            wizard.aim(self.ctx, res, option, self.board)
        else:
            pay_or_take(res, player, head, option)  # the Sentry's toll or the Tome's gift, as the Keep run
        return False

    def _meet(self, res: Resolution, player: str, option: str) -> None:
        """Goes on to meet the space landed on, or attacks a character standing there (Keep 7.1), or
        passes the space (the Ninja's Unseen, Keep 7.2, 13)."""
        if option == SPACE:
            self.board.landed(res, player)
        else:
            decide_landing(self.ctx, res, player, option, "encounter", self.board.landing)

    def bot_weight(self, state: MainState, action: Action) -> float | None:
        """Returns how likely a bot is to take one of the Keep's actions (None: not the Keep's to say); a
        bot playing the Vampire Wizard rarely aims his Spell at itself; one holding a Talisman seldom
        goes in and flees when it can."""
        choice = state["choice"]
        if choice is not None and choice["kind"].partition(":")[0] == WIZARD_TARGET:
            return SELF_AIM_WEIGHT if action.id == f"choose:{action.player}" else 1.0
        sheet = state["players"].get(action.player)
        if sheet is not None and sheet["talismans"] and action.id in HOLDING_TALISMAN_WEIGHTS:
            return HOLDING_TALISMAN_WEIGHTS[action.id]
        return BOT_WEIGHTS.get(action.id)
