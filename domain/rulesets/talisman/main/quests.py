"""The Warlock's quests (house rule H5.10): a quest is done as soon as its goal is met, and its reward is a
Talisman. House goals (places.toml): lose lives (done at once), pay Gold (paid as soon as the character
has it), bring Followers, kill monsters or spirits worth so much since the quest was set, visit a space."""

from __future__ import annotations

from domain.resolution import Resolution
from domain.rulesets.talisman.events import GoldChanged
from domain.rulesets.talisman.main.context import MainContext, sheet_of
from domain.rulesets.talisman.main.ending import in_play, lose_lives
from domain.rulesets.talisman.main.events import QuestCompleted
from domain.rulesets.talisman.main.piles import draw_from
from domain.rulesets.talisman.main.state import TALISMANS, Quest


def _met(ctx: MainContext, res: Resolution, player: str, quest: Quest) -> bool:
    sheet = sheet_of(res, player)
    goal, amount = quest["goal"], quest["amount"]
    if goal == "lose-life":
        return not lose_lives(ctx, res, player, amount, "the Warlock's quest")
    if goal == "pay-gold":
        if sheet["gold"] < amount:
            return False
        res.emit(GoldChanged(player=player, amount=-amount, reason="the Warlock's quest"))
        return True
    if goal == "bring-follower":
        return len(sheet["followers"]) >= amount
    if goal in ("kill-monster", "kill-spirit"):
        return quest["progress"] >= amount
    return goal == "visit-space" and ctx.here(res, player).id == quest["target"]


def check_quest(ctx: MainContext, res: Resolution, player: str) -> None:
    """Completes the player's quest if its goal is met, with a Talisman as the reward."""
    quest = sheet_of(res, player)["quest"]
    if quest is None or not in_play(res, player) or not _met(ctx, res, player, quest):
        return
    res.emit(QuestCompleted(player=player, quest=quest["id"]))
    # Keep 4.5: with the Keep in play the reward may send the character to the Keep instead.
    if not any(exp.gains_talisman(res, player) for exp in ctx.expansions):
        draw_from(res, TALISMANS, player)  # none left: the quest goes unrewarded
