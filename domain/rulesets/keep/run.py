"""The Keep run (house rule H3.18), registered as `keep-run`: the Vampire's Keep played on its own.

2-6 characters start on the Keep Entrance, outside the Keep: each must pass the entry test (three dice
under Strength + Craft + Lives) before it rolls to move; a failure costs its next turn. Movement follows
the Keep chart (Keep 5.2). The first character to survive the Talisman Vault with a Talisman wins (with the
Treasure Hoard under the option `hoard=true`, Keep 15); a killed character is out; if everyone is out
nobody wins. Fleeing (Keep 10) takes the character back to the Entrance by the chart, spaces passed
unmet; there it is outside again, loses its next turn and must pass the entry test again.
Spaces are in `spaces`, the Vault in `vault`, moves and teleports in `moves`, the state in `state`.

Action ids: `enter` (the entry test), `roll` (move; or break free of a teleport loop, or face the
Sacred Obelisk again), `flee`, `choose:<option>` when a space asked for a choice (the Sentry's toll:
a Follower or Magic Object id, or `life`; the Tome's gift: `strength`, `craft` or `lives`; the Vampire
Wizard's target, taken by the player on the victim's right: a player's name, or `discard`), and the
host's `start`.

The option `wizard` says who aims the Vampire Wizard's spells (Keep 8.4, `wizard`): `choose` (a new
game's default, recorded) or `auto` (the rules, as every game recorded before the option was played).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from domain.actions import Action
from domain.errors import BadSetup
from domain.events import GameCreated
from domain.field_types import Seat
from domain.resolution import Resolution
from domain.rulesets.base import GameStatus, OptionSpec
from domain.rulesets.keep.board import KeepBoard
from domain.rulesets.keep.content import (
    content_paths,
    load_board,
    load_deck,
    load_spells,
    load_tables,
    load_vault,
)
from domain.rulesets.keep.moves import counter_ids
from domain.rulesets.keep.spaces import LIFE, TOME_GIFT, make_choice, obelisk_test
from domain.rulesets.keep.state import (
    ENTRANCE,
    KEEP_STATE_VERSION,
    Choice,
    KeepState,
    evolve,
    keep_sheet,
    keep_state,
    new_state,
    sheet_in,
)
from domain.rulesets.keep.steps import break_free, entry_test, move_by_chart, roll_label
from domain.rulesets.keep.vault import items_in_play
from domain.rulesets.keep.wizard import DISCARD, WIZARD_TARGET
from domain.rulesets.talisman.characters import (
    canonical_seats,
    characters_path,
    load_characters,
)
from domain.rulesets.talisman.events import FleeingDeclared, TurnLost
from domain.rulesets.talisman.hooks import WinOnArrival
from domain.rulesets.talisman.turns import TalismanRace, deal_characters, end_turn, race_status

FLEE_WEIGHT = 0.02  # bots flee rarely
SELF_AIM_WEIGHT = 0.1  # a bot playing the Vampire Wizard rarely aims a spell at itself
HOARD_HELP = "the Treasure Hoard is rolled in the Vault (Keep 15)"
WIZARD_HELP = (
    "who aims the Vampire Wizard's spells (Keep 8.4): the player on the victim's right, or the rules"
)


def _choice_label(state: KeepState, choice: Choice, option: str) -> str:
    kind = choice["kind"]
    if kind == WIZARD_TARGET:
        spell = load_spells()[state["wizard"]["spell"]].name
        if option == DISCARD:
            return f"Have the Vampire Wizard discard {spell}"
        target = "yourself" if option == choice["player"] else option
        return f"Aim the Vampire Wizard's {spell} at {target}"
    if kind == TOME_GIFT:
        return f"Take +2 {option.capitalize()} from the Tome"
    if option == LIFE:
        return "Give the Sentry a life"
    cards = items_in_play().cards
    return f"Give the Sentry your {cards[option].name if option in cards else option}"


def _enter(res: Resolution, player: str) -> None:
    """The entry test (house rule H3.18): pass and go in next turn; fail and lose the next turn (Keep run)."""
    if not entry_test(res, player):
        res.emit(TurnLost(player=player, reason="the Keep's door held"))
    end_turn(res, player)


def _movement(res: Resolution, player: str, board: KeepBoard) -> None:
    if move_by_chart(res, player, board, "movement"):
        res.emit(TurnLost(player=player, reason="fled the Keep"))  # Keep run: a flight costs the next turn


def _roll(res: Resolution, player: str, board: KeepBoard) -> None:
    me = keep_sheet(res, player)
    if me["fleeing"]:
        _movement(res, player, board)  # a flight (declared on a loop or at the Obelisk too) just runs
    elif me["looping"]:
        if not break_free(res, player):
            end_turn(res, player)
            return
        _movement(res, player, board)
    elif me["obelisk"]:
        obelisk_test(res, player, me["space"])
    else:
        _movement(res, player, board)
    if not keep_state(res)["choice"]:
        end_turn(res, player)  # a space that asked for a choice waits for it


def _choose(res: Resolution, player: str, option: str, board: KeepBoard) -> None:
    make_choice(res, player, option, board)
    state = keep_state(res)
    if not state["choice"]:
        end_turn(res, state["turn"])  # the turn is the one who met the space (the Wizard's victim)


def _flee(res: Resolution, player: str) -> None:
    """Declares fleeing (Keep 10): irrevocable; from now on the character moves back to the Entrance."""
    res.emit(FleeingDeclared(player=player))


_HANDLERS: dict[str, Callable[[Resolution, str], None]] = {"enter": _enter, "flee": _flee}
# Keep run (house rule H3.18): the first character to survive the Talisman Vault wins; its board's hooks by
# the Treasure Hoard option (Keep 15), each with that win installed on the Vault.
_BOARDS = {
    (hoard, aimed): KeepBoard(WinOnArrival(f"survived the Talisman Vault with {prize}"), aimed)
    for hoard, prize in ((False, "a Talisman"), (True, "the Treasure Hoard"))
    for aimed in (False, True)
}


class KeepRun(TalismanRace[KeepState]):
    """The Vampire's Keep on its own (house rule H3.13): the first to survive the Talisman Vault wins."""

    name = "keep-run"
    summary = "The Vampire's Keep on its own: pass the entry test, cross the Keep, reach the Talisman Vault."
    min_players = 2
    max_players = 6
    option_specs = {
        "hoard": OptionSpec(("true", "false"), "false", HOARD_HELP),
        # Games recorded before the option were played with the rules aiming the Wizard's spells.
        "wizard": OptionSpec(("choose", "auto"), "choose", WIZARD_HELP, recorded_default="auto"),
    }
    evolve = staticmethod(evolve)
    state_version = KEEP_STATE_VERSION

    def content_paths(self) -> list[Path]:
        """Returns the characters and the Keep's files this game is played with."""
        return [characters_path(), *content_paths()]

    def validate_setup(self, players: list[dict[str, Any]], options: Mapping[str, Any]) -> None:
        """Raises BadSetup/UnknownCharacter for an unplayable setup (ContentError for bad data); with the
        Wizard aimed by a player, no seat may be named like the Wizard's discard."""
        super().validate_setup(players, options)
        aimed = str(options.get("wizard", "choose")).lower() == "choose"
        if aimed and any(seat.get("name") == DISCARD for seat in players):
            raise BadSetup(f"a player may not be named {DISCARD!r}: it is the Vampire Wizard's discard")

    def load_content(self) -> None:
        """Loads (and so checks) the characters and every file of the Keep."""
        load_characters(), load_board(), load_deck(), load_vault(), load_spells(), load_tables()

    def canonical_setup(
        self, players: list[Seat], options: dict[str, str]
    ) -> tuple[list[Seat], dict[str, str]]:
        """Returns the setup as the game records it: each character asked for as its full id, every
        option's value in lower case (`hoard=True` is recorded `true`, and `wizard=choose` by default)."""
        return canonical_seats(players), self.record_options(options)

    def initial_state(self, created: GameCreated) -> KeepState:
        """Returns the state right after GameCreated (characters not dealt yet)."""
        state = new_state(
            created,
            list(load_deck().cards),
            counter_ids(),
            list(load_vault()),
            list(load_spells()),
        )
        return state

    def legal_actions(self, state: KeepState, player: str | None = None) -> list[Action]:
        """Returns the actions open now to the player whose turn it is."""
        keep = state
        if keep["phase"] != "turn":
            return []
        choice = keep["choice"]
        current = choice.get("player", keep["turn"])  # a choice is its chooser's (the Wizard's player)
        if player not in (None, current):
            return []
        if choice:
            return [
                Action(f"choose:{option}", current, _choice_label(keep, choice, option))
                for option in choice["options"]
            ]
        me = sheet_in(keep, current)
        if not me["entered"]:
            label = "Try to open the Keep's door (3 dice under Strength + Craft + Lives)"
            return [Action("enter", current, label)]
        actions = [Action("roll", current, roll_label(me, "the Entrance"))]
        if me["space"] > ENTRANCE and not me["fleeing"]:
            actions.append(Action("flee", current, "Flee the Keep (irrevocable)"))
        return actions

    def is_legal(self, state: KeepState, player: str, action_id: str) -> bool:
        """Tells whether `action_id` is among legal_actions(state, player), without labelling any (an
        audit asks once per action); a game in its turn phase is not finished."""
        keep = state
        choice = keep["choice"]
        if keep["phase"] != "turn" or player != choice.get("player", keep["turn"]):
            return False
        if choice:
            return action_id.startswith("choose:") and action_id.removeprefix("choose:") in choice["options"]
        me = sheet_in(keep, player)
        if not me["entered"]:
            return action_id == "enter"
        if action_id == "flee":
            return me["space"] > ENTRANCE and not me["fleeing"]
        return action_id == "roll"

    def start(self, res: Resolution) -> None:
        """Deals characters (house rule H1.11) and opens play."""
        deal_characters(res)

    def resolve(self, res: Resolution, action_id: str, player: str) -> None:
        """Resolves the entry test, a roll, a flight or a choice a space asked for."""
        if action_id.startswith("choose:"):
            _choose(res, player, action_id.removeprefix("choose:"), self.board(keep_state(res)))
        elif action_id == "roll":
            _roll(res, player, self.board(keep_state(res)))
        else:
            _HANDLERS[action_id](res, player)

    def board(self, state: KeepState) -> KeepBoard:
        """Returns the Keep's hooks, with this game's win installed on the Talisman Vault and who aims
        the Vampire Wizard's spells (Keep 8.4)."""
        return _BOARDS[state["hoard"], self.options["wizard"] == "choose"]

    def status(self, state: KeepState) -> GameStatus:
        """Returns running/finished, the winner ("" for none) and who is to act (a choice's chooser)."""
        keep = state
        status = race_status(keep)
        if keep["phase"] == "turn" and keep["choice"]:
            status["to_act"] = [keep["choice"].get("player", keep["turn"])]
        return status

    def bot_weight(self, state: KeepState, action: Action) -> float:
        """Returns how likely a bot is to pick an action: fleeing is rare, and so is aiming the Vampire
        Wizard's spell at itself."""
        if action.id == "flee":
            return FLEE_WEIGHT
        return SELF_AIM_WEIGHT if action.id == f"choose:{action.player}" else 1.0
