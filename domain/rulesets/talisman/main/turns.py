"""The end of every action on the main board: a quest met is rewarded, and unless a choice waits or
the game is over the turn passes on (lost turns are missed), then the bot round cap is checked."""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.talisman.main.choices import waiting
from domain.rulesets.talisman.main.context import MainContext, is_over, state_of
from domain.rulesets.talisman.main.ending import check_round_cap, in_play
from domain.rulesets.talisman.main.quests import check_quest
from domain.rulesets.talisman.turns import end_turn


def finish_action(ctx: MainContext, res: Resolution) -> None:
    """Closes an action: checks the quest of the player on turn, then passes the turn if nothing waits."""
    player = state_of(res)["turn"]
    if not is_over(res) and in_play(res, player):
        check_quest(ctx, res, player)
    if is_over(res) or waiting(res):
        return
    # house rule H6.1 (house): the cap is read as each turn passes, so turns missed in a row cannot run past
    # it.
    end_turn(res, player, ended=lambda: check_round_cap(ctx, res))
    check_round_cap(ctx, res)
