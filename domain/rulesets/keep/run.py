"""The Keep run (RULES.md §3), registered as `keep-run`: the Vampire's Keep played on its own.

2-6 characters start on the Keep Entrance, outside the Keep: each must pass the entry test (three dice
under Strength + Craft + Lives) before it rolls to move; a failure costs its next turn. Movement follows
the Keep chart (5.2). The first character to survive the Talisman Vault with a Talisman wins (with the
Treasure Hoard under the option `hoard=true`, Keep 15); a killed character is out; if everyone is out
nobody wins. Fleeing (Keep 10) takes the character back to the Entrance by the chart, spaces passed
unmet; there it is outside again, loses its next turn and must pass the entry test again.
Spaces are in `spaces`, the Vault in `vault`, moves and teleports in `moves`, the state in `state`.

Action ids: `enter` (the entry test), `roll` (move; or break free of a teleport loop, or face the
Sacred Obelisk again), `flee`, `choose:<option>` when a space asked for a choice (the Sentry's toll:
a Follower or Magic Object id, or `life`; the Tome's gift: `strength`, `craft` or `lives`), and the
host's `start`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from domain.actions import HOST, START, Action
from domain.content import content_hash as hash_files
from domain.dice import Dice
from domain.errors import BadSetup, IllegalAction
from domain.events import DieRolled, Event, GameCreated
from domain.field_types import Seat
from domain.resolution import Resolution
from domain.rulesets.base import State
from domain.rulesets.keep.content import (
    content_paths,
    load_board,
    load_deck,
    load_spells,
    load_tables,
    load_vault,
)
from domain.rulesets.keep.events import EntryTested, FlightEnded, LoopEscaped, LoopFailed
from domain.rulesets.keep.moves import OBELISK, counter_ids, move_to, spaces_for
from domain.rulesets.keep.spaces import LIFE, TOME_GIFT, land, make_choice, obelisk_test, teleport_from
from domain.rulesets.keep.state import (
    ENTRANCE,
    KeepState,
    evolve,
    keep_sheet,
    keep_state,
    new_state,
    sheet_in,
)
from domain.rulesets.keep.vault import items_in_play
from domain.rulesets.talisman.characters import (
    canonical_seats,
    characters_path,
    check_seats,
    load_characters,
)
from domain.rulesets.talisman.characters import (
    character_choices as character_choices,
)
from domain.rulesets.talisman.events import FleeingDeclared, TurnLost
from domain.rulesets.talisman.state import STATE_VERSION
from domain.rulesets.talisman.turns import deal_characters, end_turn, race_status
from domain.suggest import did_you_mean

NAME = "keep-run"
CHARACTER_SLOT = "character"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
# `character_choices()` (imported above) lists what `--player NAME:CHARACTER` may name.
SUMMARY = "The Vampire's Keep on its own: pass the entry test, cross the Keep, reach the Talisman Vault."
OPTIONS = {"hoard": ("true", "false")}
OPTION_DEFAULTS = {"hoard": "false"}
OPTION_HELP = {"hoard": "the Treasure Hoard is rolled in the Vault (Keep 15)"}
FLEE_WEIGHT = 0.02  # bots flee rarely
state_version = STATE_VERSION  # the shape of the state snapshots hold (event_store.loading)
LOOP_TURNS = 3  # Keep 6.3: freed automatically after 3 failed turns


def content_hash() -> str:
    """Returns the sha256 of the content this game is played with (characters and the Keep's files)."""
    return hash_files([characters_path(), *content_paths()])


def validate_setup(players: list[dict[str, Any]], options: dict[str, Any]) -> None:
    """Raises BadSetup/UnknownCharacter for an unplayable setup (ContentError for bad data)."""
    for key, value in options.items():
        if key not in OPTIONS:
            hint = did_you_mean(key, OPTIONS)
            raise BadSetup(f"{NAME} has no option {key!r} (options: {', '.join(OPTIONS)}){hint}")
        if str(value).lower() not in OPTIONS[key]:  # canonical_setup records it in lower case
            hint = did_you_mean(str(value), OPTIONS[key])
            raise BadSetup(f"option {key} takes {' or '.join(OPTIONS[key])}, got {value!r}{hint}")
    check_seats(NAME, players, MIN_PLAYERS, MAX_PLAYERS)
    load_characters(), load_board(), load_deck(), load_vault(), load_spells(), load_tables()


def canonical_setup(players: list[Seat], options: dict[str, str]) -> tuple[list[Seat], dict[str, str]]:
    """Returns the setup as the game records it: each character asked for as its full id, each option's
    value in lower case (`hoard=True` is recorded `true`)."""
    return canonical_seats(players), {key: value.lower() for key, value in options.items()}


def initial_state(created: GameCreated) -> State:
    """Returns the state right after GameCreated (characters not dealt yet)."""
    state = new_state(
        created,
        list(load_deck().cards),
        counter_ids(),
        list(load_vault()),
        list(load_spells()),
    )
    return cast(State, state)


def legal_actions(state: State, player: str | None = None) -> list[Action]:
    """Returns the actions open now to the player whose turn it is."""
    return _legal_actions(cast(KeepState, state), player)


def _legal_actions(state: KeepState, player: str | None) -> list[Action]:
    if state["phase"] != "turn":
        return []
    current = state["turn"]
    if player not in (None, current):
        return []
    me = sheet_in(state, current)
    choice = state["choice"]
    if choice:
        return [
            Action(f"choose:{option}", current, _choice_label(choice["kind"], option))
            for option in choice["options"]
        ]
    if not me["entered"]:
        return [
            Action("enter", current, "Try to open the Keep's door (3 dice under Strength + Craft + Lives)")
        ]
    if me["looping"]:
        label = "Roll to break free of the teleport loop (1 die, at most Craft)"
    elif me["obelisk"]:
        label = "Face the Sacred Obelisk again (2 dice, at most Strength + Craft)"
    elif me["fleeing"]:
        label = "Roll and flee toward the Entrance"
    else:
        label = "Roll and move deeper into the Keep"
    actions = [Action("roll", current, label)]
    if me["space"] > ENTRANCE and not me["fleeing"]:
        actions.append(Action("flee", current, "Flee the Keep (irrevocable)"))
    return actions


def is_legal(state: State, player: str, action_id: str) -> bool:
    """Tells whether `action_id` is among legal_actions(state, player), without labelling any (an audit
    asks once per action); a game in its turn phase is not finished."""
    return _is_legal(cast(KeepState, state), player, action_id)


def _is_legal(state: KeepState, player: str, action_id: str) -> bool:
    if state["phase"] != "turn" or player != state["turn"]:
        return False
    choice = state["choice"]
    if choice:
        return action_id.startswith("choose:") and action_id.removeprefix("choose:") in choice["options"]
    me = sheet_in(state, player)
    if not me["entered"]:
        return action_id == "enter"
    if action_id == "flee":
        return bool(me["space"] > ENTRANCE and not me["fleeing"])
    return action_id == "roll"


def _choice_label(kind: str, option: str) -> str:
    if kind == TOME_GIFT:
        return f"Take +2 {option.capitalize()} from the Tome"
    if option == LIFE:
        return "Give the Sentry a life"
    cards = items_in_play().cards
    return f"Give the Sentry your {cards[option].name if option in cards else option}"


def _enter(res: Resolution, player: str) -> None:
    """The entry test (RULES.md §3): pass and go in next turn; fail and lose the next turn (Keep run)."""
    me = keep_sheet(res, player)
    faces, draws = res.dice.roll(6, 3)
    res.emit(DieRolled(player=player, purpose="entry", sides=6, values=faces, draws=draws))
    target = me["strength"] + me["craft"] + me["lives"]
    passed = sum(faces) < target
    res.emit(EntryTested(player=player, total=sum(faces), target=target, passed=passed))
    if not passed:
        res.emit(TurnLost(player=player, reason="the Keep's door held"))
    end_turn(res, player)


def _movement(res: Resolution, player: str) -> None:
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="movement", sides=6, values=[face], draws=draws))
    me = keep_sheet(res, player)
    steps = spaces_for(face)
    if me["fleeing"]:
        # Keep 10: back toward the Entrance by the chart; the spaces on the way are not met (house).
        move_to(res, player, me["space"] - steps, "flight")
        if keep_sheet(res, player)["space"] == ENTRANCE:
            res.emit(FlightEnded(player=player))
            res.emit(TurnLost(player=player, reason="fled the Keep"))
        return
    target = me["space"] + steps
    if me["space"] < OBELISK < target:
        # Keep 8.6: the Obelisk is a barrier only the strong of will pass, so a roll stops on it (house).
        target = OBELISK
    move_to(res, player, target, "roll")
    land(res, player)


def _roll(res: Resolution, player: str) -> None:
    me = keep_sheet(res, player)
    if me["fleeing"]:
        _movement(res, player)  # a flight (declared on a loop or at the Obelisk too) just runs
    elif me["looping"]:
        if me["loop_fails"] >= LOOP_TURNS:
            res.emit(LoopEscaped(player=player, automatic=True))
        else:
            (face,), draws = res.dice.roll(6)
            res.emit(DieRolled(player=player, purpose="loop-escape", sides=6, values=[face], draws=draws))
            if face > me["craft"]:
                res.emit(LoopFailed(player=player))
                teleport_from(res, player, me["space"])
                end_turn(res, player)
                return
            res.emit(LoopEscaped(player=player, automatic=False))
        _movement(res, player)
    elif me["obelisk"]:
        obelisk_test(res, player, me["space"])
    else:
        _movement(res, player)
    if not keep_state(res)["choice"]:
        end_turn(res, player)  # a space that asked for a choice waits for it


def _choose(res: Resolution, player: str, option: str) -> None:
    make_choice(res, player, option)
    end_turn(res, player)


def _flee(res: Resolution, player: str) -> None:
    """Declares fleeing (Keep 10): irrevocable; from now on the character moves back to the Entrance."""
    res.emit(FleeingDeclared(player=player))


_HANDLERS: dict[str, Callable[[Resolution, str], None]] = {"enter": _enter, "roll": _roll, "flee": _flee}


def decide(state: State, action_id: str, player: str, dice: Dice) -> list[Event]:
    """Returns the events an action causes; never mutates `state`."""
    return _decide(state, action_id, player, dice, in_place=False)


def decide_in_place(state: State, action_id: str, player: str, dice: Dice) -> list[Event]:
    """Like decide, for an auditor that has checked the action is legal: evolves `state` itself through
    the returned events (the audit adopts it)."""
    return _decide(state, action_id, player, dice, in_place=True)


def _decide(state: State, action_id: str, player: str, dice: Dice, in_place: bool) -> list[Event]:
    res = Resolution(state, dice, evolve, in_place)
    if action_id == START:
        if player != HOST or state["phase"] != "setup":
            raise IllegalAction("only the host starts a game, once")
        deal_characters(res)
        return res.events
    # In place, the auditor has checked legality (game.check_legal) already: once per action is enough.
    if not in_place and (action_id not in {a.id for a in legal_actions(state, player)}):
        raise IllegalAction(f"{action_id!r} is not a legal action for {player} now")
    if action_id.startswith("choose:"):
        _choose(res, player, action_id.removeprefix("choose:"))
    else:
        _HANDLERS[action_id](res, player)
    return res.events


def status(state: State) -> dict[str, Any]:
    """Returns running/finished, the winner ("" for none) and who is to act."""
    return race_status(cast(KeepState, state))


def bot_weight(state: State, action: Action) -> float:
    """Returns how likely a bot is to pick an action: fleeing is rare."""
    return FLEE_WEIGHT if action.id == "flee" else 1.0
