"""The Sentry (Keep 8.2, house rule H3.4, space 4) in a main-board game: the Keep run's table, with the main
board's Magic Objects (any deck's) among the tolls and the rounds stopped once the character is killed.

House, as the Keep run: on a 6 the player chooses a Follower, a Magic Object or a life (with neither
Follower nor Magic Object the life goes without asking); winning a round or a stand-off lets it go on
next turn; losing both rounds sends it back to Hallway 3.
"""

from __future__ import annotations

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.keep.content import load_board, load_tables
from domain.rulesets.keep.main.inside import Inside
from domain.rulesets.keep.moves import SENTRY_RETREAT, KeepMover
from domain.rulesets.keep.spaces import LIFE, SENTRY, SENTRY_TOLL
from domain.rulesets.keep.vault import items_in_play
from domain.rulesets.talisman.combat import COMBAT, LOST, PSYCHIC
from domain.rulesets.talisman.effects import lose_lives
from domain.rulesets.talisman.encounters import fight
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, sheet_of

ROUNDS = {"combat_rounds": COMBAT, "psychic_rounds": PSYCHIC}


def land(ctx: MainContext, res: Resolution, player: str, hooks: KeepMover) -> None:
    """Rolls on the Sentry's table and does what the line says."""
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose="sentry", sides=6, values=[face], draws=draws))
    line = load_tables().line("sentry", face)
    if line.effect == "give_up":
        sheet = sheet_of(res, player)
        magic = [card for card in sheet["objects"] if ctx.is_magic(card)]
        if sheet["followers"] or magic:
            offer(res, player, SENTRY_TOLL, [*sheet["followers"], *magic, LIFE])
        else:
            lose_lives(res, player, 1, SENTRY)
        return
    kind = ROUNDS.get(line.effect)
    if kind is None:
        return  # slipped past
    board = load_board()
    value = board.sentry_strength if kind == COMBAT else board.sentry_craft
    inside, outcomes = Inside(res, player), []
    for _ in range(max(1, line.amount)):
        outcomes.append(fight(res, player, SENTRY, value, kind, items_in_play()))
        if not inside.still(res, player):
            return
    if all(outcome == LOST for outcome in outcomes):
        hooks.move(res, player, SENTRY_RETREAT, "sentry")
