"""What happens between landing on a space and meeting it, where abilities and Spells give the player
choices (RULES.md §5). The steps run in order; one that offers a choice stops the landing, and the
choice (kind `landing:<step>`) resumes it after that step:
1. `spells`: landing abilities (the Druid's Forest Lore);
2. `encounter`: other characters stand here (attack one, or meet the space), or the Ninja may pass;
3. `ward`: a Ward cast this turn: the space is not met;
4. `draw`: with more cards to draw than the space holds (Foresight, Contemplation, Divination; house),
   the space is filled with the extra cards and the player discards as many (`landing:draw:<n>`);
5. `evade`: the enemies lying here that the player's abilities let it evade, one by one, or `fight`.
Then the space is met (`places.PLACES`). A table the player need not roll on asks `roll` or `pass`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.resolution import Resolution
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.events import CardDiscarded
from domain.rulesets.talisman.main.ability_encounters import DRAWS, EVADE, LANDING, OPTIONS, PASS, TABLE
from domain.rulesets.talisman.main.ability_hooks import here_name
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, lying_here, sheet_of, state_of
from domain.rulesets.talisman.main.duels import spend
from domain.rulesets.talisman.main.ending import in_play
from domain.rulesets.talisman.main.events_abilities import AbilityUsed, EnemyEvaded
from domain.rulesets.talisman.main.hook_lookup import at
from domain.rulesets.talisman.main.piles import fill_space
from domain.rulesets.talisman.main.state import MainState

LANDING_KIND = "landing"
SPACE, PASSED, FIGHT, ROLL = "space", "pass", "fight", "roll"
FILLED_LATER = ("black-knight",)  # spaces whose cards are drawn after their own question
Step = Callable[[MainContext, Resolution, str], bool]


def others_here(state: MainState, player: str) -> list[str]:
    """Returns the other characters in play on the player's space."""
    mine = state["players"][player]
    return [
        name
        for name in state["order"]
        if name != player
        and name in state["players"]
        and state["players"][name]["status"] == PLAYING
        and (state["players"][name]["board"], state["players"][name]["space"])
        == (mine["board"], mine["space"])
    ]


def encounter_options(ctx: MainContext, state: MainState, player: str) -> list[str]:
    """Returns what the player may do to the characters on its space (RULES.md §5)."""
    sheet = state["players"][player]
    found = []
    for victim in others_here(state, player):
        found.append(f"attack:{victim}")
        for ability, hook in at(ctx, sheet, OPTIONS):
            found.extend(hook.run(ctx, state, player, ability, victim))
    return found


def _spells(ctx: MainContext, res: Resolution, player: str) -> bool:
    for ability, hook in at(ctx, sheet_of(res, player), LANDING):
        hook.run(ctx, res, player, ability)
    return True


def _encounter(ctx: MainContext, res: Resolution, player: str) -> bool:
    state = state_of(res)
    options = encounter_options(ctx, state, player)
    if any(hook.run(ctx, state, player, a) for a, hook in at(ctx, sheet_of(res, player), PASS)):
        options.append(PASSED)
    if not options:
        return True
    offer(res, player, f"{LANDING_KIND}:encounter", [SPACE, *options])
    return False


def _ward(ctx: MainContext, res: Resolution, player: str) -> bool:
    for ready in sheet_of(res, player)["ready"]:
        if ready["effect"] == "skip-encounter":
            spend(res, player, ready)  # Ward: the space is not met this turn
            return False
    return True


def extra_draws(ctx: MainContext, res: Resolution, player: str) -> int:
    """Returns how many more cards the player draws than its space holds."""
    state, sheet = state_of(res), sheet_of(res, player)
    extra = sum(int(hook.run(ctx, state, player, a)) for a, hook in at(ctx, sheet, DRAWS))
    return extra + sum(r["amount"] for r in sheet["ready"] if r["effect"] == "extra-card")


def _draw(ctx: MainContext, res: Resolution, player: str) -> bool:
    space, sheet = ctx.here(res, player), sheet_of(res, player)
    evading = bool(at(ctx, sheet, EVADE))
    extra = extra_draws(ctx, res, player)
    if not space.draws or space.kind in FILLED_LATER or not (extra or evading):
        return True
    for ready in [r for r in sheet["ready"] if r["effect"] == "extra-card"]:
        spend(res, player, ready)
    before = len(lying_here(res, player))
    fill_space(ctx, res, player, space.draws + extra)
    return _offer_discard(ctx, res, player, len(lying_here(res, player)) - max(before, space.draws))


def _offer_discard(ctx: MainContext, res: Resolution, player: str, count: int) -> bool:
    drawn = sorted({card for card in lying_here(res, player) if card in ctx.cards})  # not dropped items
    if count <= 0 or not drawn:
        return True
    offer(res, player, f"{LANDING_KIND}:draw:{count}", drawn)
    return False


def evadable(ctx: MainContext, res: Resolution, player: str) -> list[str]:
    """Returns the enemies lying here that the player's abilities let it evade (not yet evaded)."""
    sheet = sheet_of(res, player)
    hooks = at(ctx, sheet, EVADE)
    found = []
    for card_id in lying_here(res, player):
        card = ctx.cards.get(card_id)
        if card is None or card.type not in ("monster", "spirit") or card_id in sheet["evaded"]:
            continue
        if any(hook.run(ctx, sheet, ability, card) for ability, hook in hooks):
            found.append(card_id)
    return sorted(set(found))


def _evade(ctx: MainContext, res: Resolution, player: str) -> bool:
    options = evadable(ctx, res, player)
    if not options:
        return True
    offer(res, player, f"{LANDING_KIND}:evade", [*options, FIGHT])
    return False


STEPS: dict[str, Step] = {
    "spells": _spells,
    "encounter": _encounter,
    "ward": _ward,
    "draw": _draw,
    "evade": _evade,
}
ORDER = list(STEPS)


def run_steps(ctx: MainContext, res: Resolution, player: str, first: int = 0) -> bool:
    """Runs the landing steps from `first`; True when the space is to be met now."""
    for step in ORDER[first:]:  # (a loop, not all() over a generator: every landing runs it)
        if not STEPS[step](ctx, res, player):
            return False
    return True


def meet_space(ctx: MainContext, res: Resolution, player: str) -> None:
    """Meets the player's space (its handler in `places`, handed up as `ctx.steps.meet_space`)."""
    ctx.steps.meet_space(ctx, res, player)


def resume(ctx: MainContext, res: Resolution, player: str, after: str) -> None:
    """Goes on landing after the step `after`, then meets the space."""
    if run_steps(ctx, res, player, ORDER.index(after) + 1):
        meet_space(ctx, res, player)


def decide_landing(ctx: MainContext, res: Resolution, player: str, option: str, step: str) -> None:
    """Resolves a landing choice (`landing:<step>`)."""
    if step == "encounter" and option == PASSED:
        res.emit(
            AbilityUsed(
                player=player, ability="skip-encounters", detail=here_name(ctx, sheet_of(res, player))
            )
        )
    elif step == "encounter" and option != SPACE:
        ctx.steps.encounter_character(ctx, res, player, option)
    elif step.startswith("draw"):
        res.emit(CardDiscarded(player=player, card=option, space=sheet_of(res, player)["space"]))
        if _offer_discard(ctx, res, player, int(step.partition(":")[2]) - 1):
            resume(ctx, res, player, "draw")
    elif step == "evade" and option != FIGHT:
        res.emit(EnemyEvaded(player=player, card=option))
        if _evade(ctx, res, player):
            resume(ctx, res, player, step)
    elif in_play(res, player):
        resume(ctx, res, player, step)


def skips_table(ctx: MainContext, res: Resolution, player: str) -> bool:
    """Offers `roll` or `pass` when the player need not roll on its space's table; True when offered."""
    sheet = sheet_of(res, player)
    space = ctx.here(res, player)
    if not any(hook.run(ctx, sheet, a, space) for a, hook in at(ctx, sheet, TABLE)):
        return False
    offer(res, player, f"{LANDING_KIND}:table", [ROLL, PASSED])
    return True


def decide_table(ctx: MainContext, res: Resolution, player: str, option: str) -> None:
    """Rolls on the space's table when the player chose to."""
    space = ctx.here(res, player)
    if option == ROLL and space.table:
        ctx.steps.run_table(ctx, res, player, space.table)


def landing_choice(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    """Resolves any `landing:` choice."""
    if arg == "table":
        decide_table(ctx, res, player, option)
    else:
        decide_landing(ctx, res, player, option, arg)


LANDING_DECISIONS: dict[str, Callable[[MainContext, Resolution, str, str, str], Any]] = {
    LANDING_KIND: landing_choice
}
