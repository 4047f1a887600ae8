"""What happens between landing on a space and meeting it, where abilities and Spells give the player
choices (house rules H5). The steps run in order; one that offers a choice stops the landing, and the
choice (kind `landing:<step>`) resumes it after that step:
1. `spells`: landing abilities (the Druid's Forest Lore);
2. `encounter`: other characters stand here (attack one, or meet the space), or the Ninja may pass;
3. `ward`: a Ward cast this turn: the space is not met;
4. `draw`: with more cards to draw than the space holds (Foresight, Contemplation, Divination; house),
   the space is filled with the extra cards and the player discards as many (`landing:draw:<n>`);
5. `evade`: the enemies lying here that the player's abilities let it evade, one by one, or `fight`.
Then the space is met (`places.PLACES`). A table the player need not roll on asks `roll` or `pass`.
The steps read the board landed on as a `LandingBoard`: the main board (`MAIN_BOARD`), or an expansion's
board whose spaces are met after the main board's landing steps (the Keep's, Keep 7.2, 13: abilities work
there as on the main board), which names the kind its choices are offered under, its cards and its draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Foe:
    """An expansion's enemy card as the evade hooks read a main-board card: its type, Strength and Craft,
    and no family (the Dungeon's and the Keep's cards have none)."""

    type: str
    strength: int
    craft: int
    family: str = ""


@dataclass(frozen=True, slots=True)
class LandingBoard:
    """The board a character lands on, as the landing steps read it: the kind its landing choices are
    offered under (`<kind>:<step>`; the encounter step's own kind if it names one), a card lying there as
    the abilities read it (None: no card of its deck), how many cards the space draws now, how it draws
    them with the extra ones (returning how many the player then discards) and how the space is met."""

    kind: str
    card: Callable[[MainContext, str], Any]
    draws: Callable[[MainContext, Resolution, str], int]
    fill: Callable[[MainContext, Resolution, str, int, int], int]
    meet: Callable[[MainContext, Resolution, str], None]
    encounter_kind: str = ""

    def kind_of(self, step: str) -> str:
        """Returns the kind of the choice a step offers on this board."""
        return self.encounter_kind if step == "encounter" and self.encounter_kind else f"{self.kind}:{step}"


Step = Callable[[MainContext, Resolution, str, LandingBoard], bool]


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
    """Returns what the player may do to the characters on its space (house rule H5.16)."""
    sheet = state["players"][player]
    found = []
    for victim in others_here(state, player):
        found.append(f"attack:{victim}")
        for ability, hook in at(ctx, sheet, OPTIONS):
            found.extend(hook.run(ctx, state, player, ability, victim))
    return found


def _spells(ctx: MainContext, res: Resolution, player: str, board: LandingBoard) -> bool:
    for ability, hook in at(ctx, sheet_of(res, player), LANDING):
        hook.run(ctx, res, player, ability)
    return True


def _encounter(ctx: MainContext, res: Resolution, player: str, board: LandingBoard) -> bool:
    state = state_of(res)
    options = encounter_options(ctx, state, player)
    if any(hook.run(ctx, state, player, a) for a, hook in at(ctx, sheet_of(res, player), PASS)):
        options.append(PASSED)
    if not options:
        return True
    offer(res, player, board.kind_of("encounter"), [SPACE, *options])
    return False


def _ward(ctx: MainContext, res: Resolution, player: str, board: LandingBoard) -> bool:
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


def _draw(ctx: MainContext, res: Resolution, player: str, board: LandingBoard) -> bool:
    sheet = sheet_of(res, player)
    evading = bool(at(ctx, sheet, EVADE))
    extra = extra_draws(ctx, res, player)
    draws = board.draws(ctx, res, player)
    if not draws or not (extra or evading):
        return True
    for ready in [r for r in sheet["ready"] if r["effect"] == "extra-card"]:
        spend(res, player, ready)
    return _offer_discard(ctx, res, player, board.fill(ctx, res, player, draws, extra), board)


def _offer_discard(ctx: MainContext, res: Resolution, player: str, count: int, board: LandingBoard) -> bool:
    # Only the cards of the board's deck (not dropped items) may go back.
    drawn = sorted({card for card in lying_here(res, player) if board.card(ctx, card) is not None})
    if count <= 0 or not drawn:
        return True
    offer(res, player, board.kind_of(f"draw:{count}"), drawn)
    return False


def evadable(ctx: MainContext, res: Resolution, player: str, board: LandingBoard | None = None) -> list[str]:
    """Returns the enemies lying here that the player's abilities let it evade (not yet evaded)."""
    sheet = sheet_of(res, player)
    hooks = at(ctx, sheet, EVADE)
    found = []
    for card_id in lying_here(res, player):
        card = (board or MAIN_BOARD).card(ctx, card_id)
        if card is None or card.type not in ("monster", "spirit") or card_id in sheet["evaded"]:
            continue
        if any(hook.run(ctx, sheet, ability, card) for ability, hook in hooks):
            found.append(card_id)
    return sorted(set(found))


def _evade(ctx: MainContext, res: Resolution, player: str, board: LandingBoard) -> bool:
    options = evadable(ctx, res, player, board)
    if not options:
        return True
    offer(res, player, board.kind_of("evade"), [*options, FIGHT])
    return False


STEPS: dict[str, Step] = {
    "spells": _spells,
    "encounter": _encounter,
    "ward": _ward,
    "draw": _draw,
    "evade": _evade,
}
ORDER = list(STEPS)


def run_steps(
    ctx: MainContext, res: Resolution, player: str, first: int = 0, board: LandingBoard | None = None
) -> bool:
    """Runs the landing steps from `first` (on the main board unless `board` names another); True when
    the space is to be met now."""
    board = board or MAIN_BOARD
    for step in ORDER[first:]:  # (a loop, not all() over a generator: every landing runs it)
        if not STEPS[step](ctx, res, player, board):
            return False
    return True


def meet_space(ctx: MainContext, res: Resolution, player: str) -> None:
    """Meets the player's space (its handler in `places`, handed up as `ctx.steps.meet_space`)."""
    ctx.steps.meet_space(ctx, res, player)


def _main_card(ctx: MainContext, card: str) -> Any:
    return ctx.cards.get(card)


def _main_draws(ctx: MainContext, res: Resolution, player: str) -> int:
    space = ctx.here(res, player)
    return 0 if space.kind in FILLED_LATER else space.draws


def _main_fill(ctx: MainContext, res: Resolution, player: str, draws: int, extra: int) -> int:
    # A main-board space is filled from the Adventure deck up to its cards and the extra ones.
    before = len(lying_here(res, player))
    fill_space(ctx, res, player, draws + extra)
    return len(lying_here(res, player)) - max(before, draws)


MAIN_BOARD = LandingBoard(LANDING_KIND, _main_card, _main_draws, _main_fill, meet_space)


def resume(
    ctx: MainContext, res: Resolution, player: str, after: str, board: LandingBoard | None = None
) -> None:
    """Goes on landing after the step `after`, then meets the space."""
    board = board or MAIN_BOARD
    if run_steps(ctx, res, player, ORDER.index(after) + 1, board):
        board.meet(ctx, res, player)


def decide_landing(
    ctx: MainContext, res: Resolution, player: str, option: str, step: str, board: LandingBoard | None = None
) -> None:
    """Resolves a landing choice (`<kind>:<step>`; on the main board unless `board` names another)."""
    board = board or MAIN_BOARD
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
        if _offer_discard(ctx, res, player, int(step.partition(":")[2]) - 1, board):
            resume(ctx, res, player, "draw", board)
    elif step == "evade" and option != FIGHT:
        res.emit(EnemyEvaded(player=player, card=option))
        if _evade(ctx, res, player, board):
            resume(ctx, res, player, step, board)
    elif in_play(res, player):
        resume(ctx, res, player, step, board)


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
