"""A turn inside the Dungeon in a main-board game (Dungeon 6-9), by the short game's board and encounters.

Action ids: `roll` (one die toward the Treasure Chamber; back toward the Entrance the turn after a
defeat, 7.3, and while fleeing, 9), `flee` (9.1: declared before the roll, any time after leaving the
Entrance; irrevocable), after landing where other characters stand `dungeon:space` or a character
encounter (`attack:<player>`… as on the main board, house rule H5.16), the ways out (`exits`): `dungeon:door:
<board>:<space>` from the Entrance or by the Tunnel, `dungeon:chamber` from the Treasure Chamber.
House, as in the short game: no character encounters on the Entrance, the Treasure Chamber or the Guard
Room (its Guard must be fought); a space reached by a move back or a flight is met like any other. House:
the Tunnel is no way out for a fleeing character (9.1: it goes all the way to the Entrance) nor on the
turn after a defeat (7.3: that turn it moves back).
"""

from __future__ import annotations

from domain.actions import Action
from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.dungeon.content import load_board, load_deck
from domain.rulesets.dungeon.effects import DungeonBoard
from domain.rulesets.dungeon.main import exits, landing
from domain.rulesets.dungeon.main.state import DungeonFlags, flags
from domain.rulesets.dungeon.state import BOARD
from domain.rulesets.talisman.effects import still_on
from domain.rulesets.talisman.encounters import enemies_left
from domain.rulesets.talisman.events import FleeingDeclared, FollowerJoined, ObjectTaken
from domain.rulesets.talisman.main.context import MainContext, is_over, sheet_of
from domain.rulesets.talisman.main.ending import in_play
from domain.rulesets.talisman.main.items import may_hold, room_to_carry
from domain.rulesets.talisman.main.landing import encounter_options
from domain.rulesets.talisman.main.pvp import encounter_character
from domain.rulesets.talisman.main.spells import spend_misdirection
from domain.rulesets.talisman.main.spells_cards import laid_here, meet_laid
from domain.rulesets.talisman.main.state import MOVEMENT, ROLLED, MainState

ROLL, FLEE, SPACE = "roll", "flee", "dungeon:space"
ENTRANCE = 0


def tunnel_cards() -> frozenset[str]:
    """Returns the Dungeon cards that lead out of it where they lie (the Tunnel, Dungeon 8.3)."""
    return frozenset(card.id for card in load_deck().cards.values() if card.leaves_board)


def _roll_label(sheet: DungeonFlags) -> str:
    if sheet["fleeing"]:
        return "Roll and flee toward the Entrance"
    if sheet["defeated"]:
        return "Roll and move back toward the Entrance (defeated last turn)"
    return "Roll and move toward the Treasure Chamber"


def _forced(sheet: DungeonFlags) -> str:
    # Why every move goes toward the Entrance now, in words a player reads ("": it goes on inward).
    if sheet["fleeing"]:
        return "a character fleeing the Dungeon moves only toward the Entrance (Dungeon 9.1-9.2)"
    if sheet["defeated"]:
        return "a character defeated in the Dungeon moves back toward the Entrance next turn (Dungeon 7.3)"
    return ""


def may_meet_others(state: MainState, player: str) -> bool:
    """Tells whether the player's space lets it encounter the characters there (not the ends or the Guard
    Room)."""
    space = state["players"][player]["space"]
    board = load_board()
    return space not in (ENTRANCE, board.last) and board.spaces[space].kind != "guard-room"


def legal_actions(ctx: MainContext, state: MainState, player: str) -> list[Action]:
    """Returns the actions of a character in the Dungeon whose turn it is."""
    sheet = flags(state, player)
    space = state["players"][player]["space"]
    if state["step"] == ROLLED:
        name = load_board().spaces[space].name
        options = encounter_options(ctx, state, player) if may_meet_others(state, player) else []
        return [Action(SPACE, player, f"Encounter the {name}")] + [
            Action(option, player, _versus_label(option)) for option in options
        ]
    if space == load_board().last:
        return [Action(exits.CHAMBER, player, exits.chamber_label(ctx, state))]
    roll = Action(ROLL, player, _roll_label(sheet))
    if space == ENTRANCE:
        if sheet["fleeing"]:
            return exits.door_actions(ctx, state, player, "Leave the Dungeon (fled)")
        if sheet["dungeon_fresh"]:
            return [roll]  # Dungeon 8.2: not the turn after coming down
        return [roll, *exits.door_actions(ctx, state, player, "Leave the Dungeon")]
    if sheet["fleeing"]:
        return [roll]  # Dungeon 9.1: all the way to the Entrance
    actions = [roll, Action(FLEE, player, "Flee the Dungeon (irrevocable)")]
    # Dungeon 8.3; house: not the turn after a defeat, which must move back (7.3)
    # Dungeon 8.3: only by landing where the Tunnel lies (not where another drew it)
    landed = sheet.get("dungeon_landed")
    if (
        landed
        and not sheet["defeated"]
        and any(card in tunnel_cards() for card in state["cards"][BOARD][space])
    ):
        actions += exits.tunnel_actions(ctx, state, player)
    return actions


def _versus_label(option: str) -> str:
    how, _, who = option.partition(":")
    verbs = {"attack": "Attack {} in Combat", "psychic": "Attack {} in Psychic Combat"}
    verbs |= {"steal": "Steal from {}", "beguile": "Beguile {}"}
    return verbs.get(how, how + " {}").format(who)


def resolve(ctx: MainContext, res: Resolution, board: DungeonBoard, action_id: str, player: str) -> bool:
    """Resolves one action in the Dungeon; True when the same player acts again."""
    if action_id == ROLL:
        return roll(ctx, res, board, player)
    if action_id == FLEE:
        res.emit(FleeingDeclared(player=player))
        return True  # fleeing never ends the turn: the roll follows
    if action_id == SPACE:
        meet(ctx, res, board, player)
    elif action_id == exits.CHAMBER:
        exits.leave_chamber(ctx, res, player)
    elif action_id.startswith(exits.DOOR):
        exits.leave_by_door(ctx, res, player, action_id)
    else:
        encounter_character(ctx, res, player, action_id)
    return False


def roll(ctx: MainContext, res: Resolution, board: DungeonBoard, player: str) -> bool:
    """Rolls one die and moves: toward the centre, or back when defeated (7.3) or fleeing (9); meets the
    space reached, unless other characters there give a choice (True: the player chooses)."""
    sheet = flags(res.state, player)
    forced = _forced(sheet)
    # Dungeon 10.3: a Misdirection turns a move; house rule H2.10: not a move forced toward the Entrance.
    backwards = spend_misdirection(res, player, forced) or bool(forced)
    reason = "flight" if sheet["fleeing"] else "retreat" if sheet["defeated"] else "roll"
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose=MOVEMENT, sides=6, values=[face], draws=draws))
    here, last = sheet_of(res, player)["space"], load_board().last
    # Dungeon 6.2, 8.1: forward, stopping on the Treasure Chamber; 7.3, 9: back, stopping on the Entrance.
    there = max(ENTRANCE, here - face) if backwards else min(last, here + face)
    character = sheet_of(res, player)["character"]
    board.move(res, player, there, reason)
    after = sheet_of(res, player)
    if (
        is_over(res)
        or not in_play(res, player)
        or after["character"] != character
        or there in (ENTRANCE, last)
    ):
        return False
    if may_meet_others(res.state, player) and encounter_options(ctx, res.state, player):
        return True
    meet(ctx, res, board, player)
    return False


def meet(ctx: MainContext, res: Resolution, board: DungeonBoard, player: str) -> None:
    """Meets the player's Dungeon space: a Hex or Barrier laid there, the main board's landing steps
    (`landing`: extra cards, evading), then the space itself (`encounter`)."""
    if laid_here(ctx, res, player) and not meet_laid(ctx, res, player):
        return  # a Hex or Barrier laid on a Dungeon space acts first (Dungeon 10.2)
    if landing.run_steps(ctx, res, player):  # Dungeon 7.1: a choice there stops the meeting
        encounter(ctx, res, board, player)


def landed(
    ctx: MainContext, res: Resolution, board: DungeonBoard, player: str, kind: str, option: str
) -> None:
    """Resolves a landing choice on a Dungeon space, then meets the space once no other choice waits."""
    if landing.decide(ctx, res, player, kind, option):
        encounter(ctx, res, board, player)


def encounter(ctx: MainContext, res: Resolution, board: DungeonBoard, player: str) -> None:
    """Encounters the player's Dungeon space (the Guard, its Dungeon cards), then takes up what a killed
    character left there that is no Dungeon card (Objects, Followers, Talismans) once no enemy is left."""
    space = sheet_of(res, player)["space"]
    character = sheet_of(res, player)["character"]
    board.encounter(res, player, space)
    if not still_on(res, player, space) or sheet_of(res, player)["character"] != character:
        return
    take_left_things(ctx, res, player, space)


def take_left_things(ctx: MainContext, res: Resolution, player: str, space: int) -> None:
    """Takes the main-board cards lying on a Dungeon space (what a killed character carried)."""
    deck = load_deck()
    lying = res.state["cards"][BOARD][space]
    if enemies_left(res, deck, player, space):
        return
    for card in [c for c in lying if c not in deck.cards]:
        sheet = sheet_of(res, player)
        if not may_hold(ctx, sheet, card):
            continue
        if ctx.cards.get(card) is not None and ctx.cards[card].type == "follower":
            res.emit(FollowerJoined(player=player, card=card, space=space))
        elif room_to_carry(ctx, sheet):
            res.emit(ObjectTaken(player=player, card=card, space=space))
