"""The Talisman main board (house rules H5), registered as `talisman`: the ruleset object.

2-6 characters start on the spaces their cards name; each turn a character moves (a die and a
direction in the Outer and Middle Regions, one space in the Inner Region), crosses a region where it
may, or, on the Crown of Command, casts the Command Spell; the space it lands on is resolved
(`places`). The last character alive wins (or, with `ending=first`, the first to reach the Crown).

Action ids: `roll`, `go:<board>:<space>`, `advance`, `advance:crypt`, `retreat`, `cross:sentinel`,
`cross:back`, `cross:raft`, `portal:strength`, `portal:craft`, `command`, `choose:<option>`, the
abilities' and spells' own (`abilities.Abilities`), and the host's `start`.
The expansions are options (`dungeon=true`, `keep=true`, both allowed, house rule H5.20), each an
`expansion.Expansion` the ruleset asks at fixed points: a character on an expansion's board plays its
turn by that expansion's rules; on the main board the expansions add actions, outcomes and draws.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from domain.actions import HOST, Action
from domain.errors import BadSetup
from domain.events import CharacterDealt, Event, GameCreated
from domain.field_types import Seat
from domain.resolution import Resolution
from domain.rulesets.base import Evolver, GameStatus, OptionSpec
from domain.rulesets.talisman.characters import canonical_seats, load_characters
from domain.rulesets.talisman.effects import GAME_RULES, GameRules
from domain.rulesets.talisman.events import ChoiceMade
from domain.rulesets.talisman.main import movement
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.bot_sense import better_portal_stat, is_poor_fight, move_weight
from domain.rulesets.talisman.main.build import EXPANSIONS, build_context, content_paths, load_expansions
from domain.rulesets.talisman.main.choices import CHOOSE, option_label
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.decisions import make_choice
from domain.rulesets.talisman.main.ending import check_killed
from domain.rulesets.talisman.main.events import CharacterRestarted
from domain.rulesets.talisman.main.expansion import Expansion
from domain.rulesets.talisman.main.fights import fight
from domain.rulesets.talisman.main.handlers import HANDLERS
from domain.rulesets.talisman.main.items import items_at_turn_start
from domain.rulesets.talisman.main.regions import build_regions
from domain.rulesets.talisman.main.state import (
    ADVENTURE,
    CHARACTERS,
    CROWN,
    PURCHASE,
    ROLLED,
    SPELLS,
    START,
    TALISMANS,
    MainState,
    new_state,
)
from domain.rulesets.talisman.main.turns import finish_action
from domain.rulesets.talisman.shapes import discard_pile
from domain.rulesets.talisman.turns import TalismanRace, deal_characters

ENDING_HELP = (
    "crown: the Crown's Command Spell, the last character alive wins; first: the first character to reach "
    "the Crown wins (house rule H5.19)"
)
CAP_HELP = "round cap for bot games: after that many rounds the game ends drawn (0: none, house rule H6.1)"
# Bots lean toward the Crown: moving on, crossing and casting the Command Spell over going back.
BOT_WEIGHTS = {"advance": 4.0, "advance:crypt": 1.0, "retreat": 0.3, "cross:sentinel": 2.0, "cross:raft": 6.0}
BOT_WEIGHTS |= {"portal:strength": 3.0, "portal:craft": 3.0, "command": 1.0, "choose:leave": 0.3}
BOT_WEIGHTS |= {"cross:back": 0.2}  # bots head for the Crown
# Without a Talisman the Inner Region leads nowhere (the Valley of Fire is barred): bots go back out for one.
NEEDS_TALISMAN = {"portal:strength": 0.2, "portal:craft": 0.2, "advance": 0.3, "advance:crypt": 0.3}
NEEDS_TALISMAN |= {"retreat": 4.0}
EXPANSION_HELP = {
    "dungeon": (
        "the Dungeon expansion: Doorways in the Adventure deck lead into it (Dungeon 3, house rule H2.18)"
    ),
    "keep": "the Vampire's Keep expansion: the Talismans are won in its Vault (house rule H3.13, Keep 3-15)",
}
# Each expansion's own options keep their rule numbers in their help (house rule H5.20); each needs its
# expansion.
EXPANSION_OPTIONS = {  # its expansion is the key's first part (`check_options`)
    "dungeon.talisman_exit": (
        "Dungeon 13.1: the Treasure Chamber gives a Talisman and leads to the Portal of Power (no table)"
    ),
    "dungeon.crown_exit": (
        "Dungeon 13.2: once someone reaches the Crown, the Treasure Chamber leads to the Crown"
    ),
    "keep.talismans_in_deck": (
        "Keep 15.1: the Talismans stay in play outside the Keep; only the Mystic, the Enchantress and the "
        "Ethereal Portals lead in"
    ),
    "keep.hoard": "Keep 15.2: the Vault gives the Treasure Hoard instead of a Talisman",
    "keep.crown_exit": (
        "Keep 15.3: a character who survives the Vault with a Talisman goes straight to the Crown"
    ),
}
WIZARD_HELP = (
    "who aims the Vampire Wizard's spells (Keep 8.4): the player on the victim's right, or the rules"
)


class TalismanGame(TalismanRace[MainState]):
    """The `talisman` game on the main board, built from its options."""

    name = "talisman"
    summary = "The Talisman main board: reach the Crown of Command and outlast every other character."
    min_players = 2
    max_players = 6
    option_specs = {
        "ending": OptionSpec(("crown", "first"), "crown", ENDING_HELP),
        "bot_round_cap": OptionSpec(("0", "400"), "0", CAP_HELP),
        **{name: OptionSpec(("true", "false"), "false", EXPANSION_HELP[name]) for name in EXPANSIONS},
        **{key: OptionSpec(("true", "false"), "false", text) for key, text in EXPANSION_OPTIONS.items()},
        "keep.wizard": OptionSpec(("choose", "auto"), "choose", WIZARD_HELP),
    }
    handlers = HANDLERS

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.ctx = build_context(dict(self.options))
        self.regions = build_regions(self.ctx)
        self.expansions: tuple[Expansion[MainContext], ...] = self.ctx.expansions
        if self.expansions:
            self.handlers = merged_handlers(self.expansions)
            self.game_rules: GameRules | None = GameRules(kill=self._kill, fight=self._fight)
        else:
            self.game_rules = None

    def _kill(self, res: Resolution, player: str) -> None:
        check_killed(self.ctx, res, player)

    def _fight(self, res: Resolution, player: str, opponent: str, value: int, kind: str) -> str:
        return fight(self.ctx, res, player, opponent, value, kind)

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """Raises BadSetup for an option not taken or not allowed, an expansion's option without its
        expansion, and both of the Dungeon's alternatives together (Dungeon 13: either one replaces the
        Treasure Chamber's table)."""
        super().check_options(options)
        given = {str(k): str(v).lower() for k, v in options.items()}
        for key, spec in cls.option_specs.items():
            # An expansion's own option (`keep.hoard`…) set away from its default needs its expansion.
            expansion = key.partition(".")[0] if "." in key else ""
            value = given.get(key, spec.default)
            if expansion and value != spec.default and given.get(expansion) != "true":
                raise BadSetup(f"option {key}={value} needs its expansion: add --option {expansion}=true")
        if given.get("dungeon.talisman_exit") == given.get("dungeon.crown_exit") == "true":
            raise BadSetup("dungeon.talisman_exit and dungeon.crown_exit are alternatives (Dungeon 13)")

    # -- setup and content ------------------------------------------------------------------------

    def content_paths(self) -> list[Path]:
        """Returns the characters and the main board's content files."""
        return content_paths(self.options)

    def load_content(self) -> None:
        """Loads (and so checks) every content file the options put in play."""
        self.ctx.load_all()

    def canonical_setup(
        self, players: list[Seat], options: dict[str, str]
    ) -> tuple[list[Seat], dict[str, str]]:
        """Returns the seats with full character ids and every option, in lower case."""
        return canonical_seats(players), self.record_options(options)

    def initial_state(self, created: GameCreated) -> MainState:
        """Returns the state right after GameCreated: nobody dealt yet, every pile full and sorted."""
        requested = {p["name"]: p.get("character", "") or "" for p in created.players}
        state = new_state(
            [p["name"] for p in created.players],
            requested,
            self.ctx.sizes,
            self._piles(requested),
            self._starts(),
        )
        for exp in self.expansions:
            added = exp.content()
            state["piles"].update({name: sorted(cards) for name, cards in added.piles.items()})
            cast(dict[str, object], state).update(added.state_keys)  # its own keys, typed by it (`KeepPart`)
        return state

    def _piles(self, requested: Mapping[str, str]) -> dict[str, list[str]]:
        ctx = self.ctx
        adventure = [c.id for c in ctx.adventure.cards if not c.option or ctx.options.get(c.option) == "true"]
        return {
            ADVENTURE: adventure,
            discard_pile(ADVENTURE): [],
            PURCHASE: [i.id for i in ctx.purchase.items for _ in range(i.copies)],
            SPELLS: [s.id for s in ctx.spells.spells],
            discard_pile(SPELLS): [],
            TALISMANS: [t.id for t in ctx.talismans.talismans],
            CHARACTERS: [c for c in load_characters() if c not in requested.values()],
        }

    def _starts(self) -> dict[str, list[Any]]:
        board = self.ctx.board
        return {
            c.id: list(board.position(board.starts[c.start]))
            for c in load_characters().values()
            if c.start in board.starts
        }

    # -- the rules ----------------------------------------------------------------------------------

    def legal_actions(self, state: MainState, player: str | None = None) -> list[Action]:
        """Returns the actions open now: a pending choice's options, else the turn's moves."""
        main = state
        if main["phase"] != "turn":
            return []
        choice = main["choice"]
        if choice is not None:
            if player not in (None, choice["player"]):
                return []
            kind, chooser = choice["kind"], choice["player"]
            return [Action(f"{CHOOSE}{o}", chooser, self.choice_label(kind, o)) for o in choice["options"]]
        current = main["turn"]
        if player not in (None, current):
            return []
        sheet = main["players"][current]
        expansion = self.ctx.expansion_on(sheet["board"])
        if expansion is not None:
            return expansion.actions(main, current) + ABILITIES.castable(self.ctx, main, current)
        if sheet["board"] == CROWN:
            return [Action("command", current, "Cast the Command Spell")]
        if main["step"] == ROLLED:
            return movement.go_actions(self.ctx, main, current) + ABILITIES.castable(self.ctx, main, current)
        extra = ABILITIES.castable(self.ctx, main, current) + ABILITIES.encounter_choices(
            self.ctx, main, current
        )
        for exp in self.expansions:
            extra += exp.actions(main, current)
        return movement.move_actions(self.ctx, main, current) + extra

    def is_legal(self, state: MainState, player: str, action_id: str) -> bool:
        """Tells whether `action_id` is among legal_actions(state, player), without labelling them: a
        choice's options, the Crown's spell, the roll and where it leads are answered directly (the
        audit asks once per action); anything else asks `legal_actions`."""
        main = state
        if main["phase"] != "turn":
            return False
        choice = main["choice"]
        if choice is not None:
            chosen = action_id.startswith(CHOOSE) and action_id[len(CHOOSE) :] in choice["options"]
            return player == choice["player"] and chosen
        if player != main["turn"]:
            return False
        board = main["players"][player]["board"]
        expansion = self.ctx.expansion_on(board)
        if expansion is not None and not action_id.startswith("cast:"):
            return any(action.id == action_id for action in expansion.actions(main, player))
        if board == CROWN:
            return action_id == "command"
        rolled = main["step"] == ROLLED
        if action_id == "roll" and not rolled and board in movement.RING_BOARDS:
            return True
        if action_id.startswith("go:") and rolled:
            return action_id in movement.go_ids(self.ctx, main, player)
        return super().is_legal(state, player, action_id)

    def status(self, state: MainState) -> GameStatus:
        """Returns running/finished, the winner ("" for none) and who is to act."""
        main = state
        if main["phase"] == "over":
            return {"status": "finished", "winner": main["winner"], "to_act": []}
        if main["phase"] == "setup":
            return {"status": "running", "winner": "", "to_act": [HOST]}
        choice = main["choice"]
        return {"status": "running", "winner": "", "to_act": [choice["player"] if choice else main["turn"]]}

    def start(self, res: Resolution) -> None:
        """Deals the characters (named ones, the others at random) and opens play."""
        deal_characters(res)

    def resolve(self, res: Resolution, action_id: str, player: str) -> None:
        """Resolves one legal action, then closes it (the turn passes unless a choice waits)."""
        if self.game_rules is None:
            self._resolve(res, action_id, player)
            return
        with self._game_rules():
            self._resolve(res, action_id, player)

    @contextmanager
    def _game_rules(self) -> Iterator[None]:
        # The short games' steps run on the expansions' boards: they kill and fight by the main board's rules.
        token = GAME_RULES.set(self.game_rules)
        try:
            yield
        finally:
            GAME_RULES.reset(token)

    def _resolve(self, res: Resolution, action_id: str, player: str) -> None:
        if action_id.startswith(CHOOSE):
            option = action_id.removeprefix(CHOOSE)
            kind = res.state["choice"]["kind"]
            expansion = self._chooser(kind)
            if expansion is not None:
                res.emit(ChoiceMade(player=player, kind=kind, option=option))
                again = expansion.make_choice(res, player, kind, option)
                if not again:
                    finish_action(self.ctx, res)
                return
            make_choice(self.ctx, res, player, option)
        else:
            if res.state["step"] == START:
                items_at_turn_start(self.ctx, res, player)
                ABILITIES.turn_started(self.ctx, res, player)
            if self._resolve_expansion(res, action_id, player):
                return
            step = movement.STEPS.get(action_id) or movement.STEPS.get(action_id.split(":", 1)[0])
            if step is not None:
                step(self.ctx, self.regions, res, player, action_id)
            elif not ABILITIES.resolve_extra(self.ctx, res, player, action_id):
                ABILITIES.cast(self.ctx, res, player, action_id.removeprefix("cast:"))
        if action_id != "roll" and not ABILITIES.keeps_turn(res, action_id):
            finish_action(self.ctx, res)

    def choice_label(self, kind: str, option: str) -> str:
        """Returns one option of a pending choice of `kind` in words (an expansion's choice by it)."""
        owner = self._chooser(kind)
        return owner.choice_label(kind, option) if owner is not None else option_label(self.ctx, kind, option)

    def _chooser(self, kind: str) -> Expansion[MainContext] | None:
        head = kind.partition(":")[0]
        return next((exp for exp in self.expansions if head in exp.choice_kinds), None)

    def _resolve_expansion(self, res: Resolution, action_id: str, player: str) -> bool:
        """Resolves an action an expansion owns (any on its boards but a Spell; its main-board ones) and
        closes it; False when the action is the main board's."""
        if not self.expansions or action_id.startswith("cast:"):
            return False
        expansion = self.ctx.expansion_on(res.state["players"][player]["board"])
        again: bool | None
        if expansion is not None:
            again = expansion.resolve(res, action_id, player)
        else:
            again = next(
                (r for exp in self.expansions if (r := exp.resolve(res, action_id, player)) is not None),
                None,
            )
            if again is None:
                return False
        if not again:
            finish_action(self.ctx, res)
        return True

    def bot_weight(self, state: MainState, action: Action) -> float:
        """Returns how likely a bot is to pick an action: never a fight it could avoid at poor odds; a move
        toward where it heads (`bot_sense.target`: the Warlock's Cave, the Portal once it holds a Talisman,
        the Sentinel when it may cross); the Portal by its better ability; otherwise on toward the Crown."""
        main = state
        if is_poor_fight(self.ctx, main, action):
            return 0.0
        for exp in self.expansions:
            weight = exp.bot_weight(main, action)
            if weight is not None:
                return weight
        sheet = main["players"].get(action.player)
        if sheet is None:
            return BOT_WEIGHTS.get(action.id, 1.0)
        if action.id.startswith("go:"):
            _, board, space = action.id.split(":")
            return move_weight(self.ctx, main, action.player, board, int(space))
        if action.id in NEEDS_TALISMAN and not sheet["talismans"]:
            return NEEDS_TALISMAN[action.id]  # the Valley of Fire is barred to it: it goes for a Talisman
        if action.id.startswith("portal:"):
            return 3.0 if action.id == f"portal:{better_portal_stat(main, action.player)}" else 0.3
        return BOT_WEIGHTS.get(action.id, 1.0)


def merged_handlers(expansions: tuple[Expansion[MainContext], ...]) -> dict[type[Event], Evolver]:
    """Returns the main board's evolve steps with each expansion's run after them for the same event; a new
    character's sheet (dealt or restarted) gets every expansion's sheet keys."""
    steps: dict[type[Event], list[Evolver]] = {kind: [step] for kind, step in HANDLERS.items()}
    for exp in expansions:
        for kind, step in exp.handlers.items():
            steps.setdefault(kind, []).append(step)
    if expansions:
        keys_step = _sheet_keys_step(expansions)
        for kind in (CharacterDealt, CharacterRestarted):
            steps.setdefault(kind, []).insert(1, keys_step)
    return {kind: found[0] if len(found) == 1 else _chain(found) for kind, found in steps.items()}


def _chain(steps: list[Evolver]) -> Evolver:
    def apply(state: Any, event: Any) -> None:
        for step in steps:
            step(state, event)

    return apply


def _sheet_keys_step(expansions: tuple[Expansion[MainContext], ...]) -> Callable[[Any, Any], None]:
    # The expansions' content is read on the first sheet made, not when the ruleset is built.
    merged: dict[str, Any] = {}

    def apply(state: Any, event: Any) -> None:
        if not merged:
            for exp in expansions:
                merged.update(exp.content().sheet_keys)
        state["players"][event.player].update(copy.deepcopy(merged))

    return apply


load_expansions()  # their event types are the talisman ruleset's too
