"""How a main-board game ends, and how a killed character's player goes on (house rules H1.7, H5.17).

- A character at 0 lives is killed: what it carried stays on its space; its player is dealt a new
  character at random (a pick from `characters`) on that character's starting space. House: the killed
  character goes back into the `characters` pile at once (it may be dealt again, to anyone); once a
  character stands on the Crown of Command, a killed character's player is out instead.
- The Crown (2nd edition): the character on it casts the Command Spell each turn (`command`: 1 die,
  4–6 → every other character loses 1 life); the last character alive wins. `ending=first` (the
  original rule): the first character to reach the Crown wins.
- House: characters on the Crown do not attack each other there; the Command Spell is the Crown's fight.
- House rule H5.21, the Crown against healing: while a character stands on the Crown, no Object or Follower
  heals any other character (a Ring of Healing would otherwise outheal the Command Spell for ever).
- House round cap for bot games (`bot_round_cap`): after that many rounds the game ends drawn.
"""

from __future__ import annotations

from domain.events import DieRolled, GameEnded, GameWon, LifeLost, PlayerOut
from domain.resolution import Resolution
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.main.context import MainContext, is_over, sheet_of, state_of
from domain.rulesets.talisman.main.events import CharacterDied, CharacterRestarted, CommandSpellCast
from domain.rulesets.talisman.main.state import CHARACTERS, CROWN

COMMAND_HITS = (4, 5, 6)  # house rule H5.19: the Command Spell takes a life from every other character

HOUSE_RULES = "docs/house-rules.md"  # the rules document the reasons' house rules are explained in


def in_play(res: Resolution, player: str) -> bool:
    """Tells whether a player's character is still in the game."""
    return sheet_of(res, player)["status"] == PLAYING


def lose_lives(ctx: MainContext, res: Resolution, player: str, amount: int, reason: str) -> bool:
    """Takes lives (no save, never below 0); returns True when that killed the character."""
    amount = min(amount, sheet_of(res, player)["lives"])
    if amount > 0:
        res.emit(LifeLost(player=player, amount=amount, reason=reason))
    return check_killed(ctx, res, player)


def check_killed(ctx: MainContext, res: Resolution, player: str) -> bool:
    """Kills a character at 0 lives (then restarts or puts out its player); True when it was killed."""
    sheet = sheet_of(res, player)
    if sheet["status"] != PLAYING or sheet["lives"] > 0:
        return False
    res.emit(
        CharacterDied(player=player, character=sheet["character"], board=sheet["board"], space=sheet["space"])
    )
    state = state_of(res)
    if state["crown_reached"] or not state["piles"][CHARACTERS]:
        # house rule H5.17: once someone stands on the Crown, a killed character's player is out (house);
        # so is one with no character left to deal (cannot happen today: killed ones go back to the pile).
        reason = "killed after the Crown of Command was reached" if state["crown_reached"] else ""
        res.emit(PlayerOut(player=player, reason=reason or "killed, and no character is left to deal"))
        check_last_alive(res)
        return True
    restart(ctx, res, player, sheet["character"])
    return True


def restart(ctx: MainContext, res: Resolution, player: str, killed: str) -> None:
    """Deals the player a new character at random, on that character's starting space (house rule H5.17)."""
    character, draw = res.dice.pick(list(state_of(res)["piles"][CHARACTERS]))
    board, space = state_of(res)["starts"].get(character, ["outer", 0])
    res.emit(
        CharacterRestarted(
            player=player, character=character, draw=draw, killed=killed, board=board, space=space
        )
    )


def check_last_alive(res: Resolution) -> None:
    """Ends the game when one character is left in it (it wins) or none (nobody does)."""
    if is_over(res):
        return
    left = [name for name in state_of(res)["order"] if in_play(res, name)]
    if len(left) == 1:
        res.emit(
            GameWon(player=left[0], reason=f"the last character alive (house rule H5.19, {HOUSE_RULES})")
        )
    elif not left:
        res.emit(GameEnded(winner="", reason="every character is out"))


def another_on_the_crown(res: Resolution, player: str) -> bool:
    """Tells whether a character other than the player's stands on the Crown of Command."""
    return any(
        other != player and in_play(res, other) and sheet_of(res, other)["board"] == CROWN
        for other in state_of(res)["order"]
    )


def reach_crown(ctx: MainContext, res: Resolution, player: str) -> None:
    """Runs when a character reaches the Crown of Command: with `ending=first` it wins."""
    if ctx.first_to_crown:
        res.emit(GameWon(player=player, reason="first to reach the Crown of Command (ending=first)"))


def cast_command_spell(ctx: MainContext, res: Resolution, player: str) -> None:
    """Casts the Command Spell: 1 die, on 4-6 every other character in play loses 1 life."""
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="command-spell", sides=6, values=[face], draws=draws))
    hit = face in COMMAND_HITS
    res.emit(CommandSpellCast(player=player, face=face, hit=hit))
    if not hit:
        return
    # Keep 11.2: no Spell cast on another board reaches a character in the Keep (a sheltered board).
    sheltered = {board for exp_content in ctx.expansion_contents for board in exp_content.sheltered}
    for other in state_of(res)["order"]:
        if (
            other != player
            and in_play(res, other)
            and not is_over(res)
            and sheet_of(res, other)["board"] not in sheltered
        ):
            lose_lives(ctx, res, other, 1, "the Command Spell")


def check_round_cap(ctx: MainContext, res: Resolution) -> bool:
    """Ends a bot game drawn once its round cap is passed (house rule H6.1); tells whether it is over."""
    cap = ctx.round_cap
    if cap and not is_over(res) and state_of(res)["round"] > cap:
        reason = f"house round cap for bot games (house rule H6.1, {HOUSE_RULES}): {cap} rounds played"
        res.emit(GameEnded(winner="", reason=reason))
    return is_over(res)
