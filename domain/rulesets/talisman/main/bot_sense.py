"""What a sensible bot weighs before a fight it could avoid (house rules H5; house bots, not rules).

A fight on the main board is one die each side added to Strength (Combat) or Craft (Psychic Combat);
the higher total wins, a tie is a stand-off (house rules H1). So a fight's chance to win follows from the
two values alone: `win_chance`. A bot takes a fight it could avoid only when that chance is at least
`FAIR_CHANCE`; below it, it crosses on a Raft, pays the toll, evades or leaves the other character be.

The fights a bot could avoid (`avoidable_fight`): `cross:sentinel` (it may roll and move instead),
`choose:fight` on the Black Knight when it can pay the toll, `choose:fight` when an ability lets it evade
what lies on its space, and `choose:attack:<player>` / `choose:psychic:<player>` (it may meet the space).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product

from domain.actions import Action
from domain.rulesets.talisman.character import STARTING_LIVES
from domain.rulesets.talisman.combat import COMBAT, PSYCHIC
from domain.rulesets.talisman.main.abilities import ABILITIES
from domain.rulesets.talisman.main.choices import CHOOSE
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.items import effective
from domain.rulesets.talisman.main.movement import PORTAL_KIND, RAFT, SENTINEL_KIND
from domain.rulesets.talisman.main.places import WATER
from domain.rulesets.talisman.main.state import MIDDLE, OUTER, MainSheet, MainState

# House bots: a voluntary fight is worth taking at one chance in four to win, or better.
FAIR_CHANCE = Fraction(1, 4)
SENTINEL_ACTION = "cross:sentinel"
_DIFFERENCES = [mine - theirs for mine, theirs in product(range(1, 7), repeat=2)]


def win_chance(mine: int, theirs: int) -> Fraction:
    """Returns the chance that `mine` plus one die beats `theirs` plus one die (a tie is no win)."""
    return Fraction(sum(1 for d in _DIFFERENCES if mine + d > theirs), len(_DIFFERENCES))


def fight_value(ctx: MainContext, state: MainState, player: str, kind: str, opponent: str) -> int:
    """Returns what a character fights with: its Strength or Craft, items and abilities included."""
    sheet = state["players"][player]
    return effective(ctx, sheet, kind) + ABILITIES.combat_bonus(ctx, state, player, kind, opponent)


def avoidable_fight(ctx: MainContext, state: MainState, action: Action) -> tuple[int, int] | None:
    """Returns (the bot's value, the opponent's) for a fight the action starts though the bot could
    avoid it; None for any other action. Of several enemies, the strongest is the one counted."""
    player = action.player
    if action.id == SENTINEL_ACTION:
        sheet = state["players"][player]
        guard = ctx.space(sheet["board"], sheet["space"]).guard
        return fight_value(ctx, state, player, COMBAT, "the Sentinel"), guard
    choice = state["choice"]
    if choice is None or not action.id.startswith(CHOOSE) or choice["player"] != player:
        return None
    option, kind = action.id.removeprefix(CHOOSE), choice["kind"]
    how, _, victim = option.partition(":")
    if how in ("attack", "psychic") and victim in state["players"]:
        fought = PSYCHIC if how == "psychic" else COMBAT
        theirs = fight_value(ctx, state, victim, fought, player)
        return fight_value(ctx, state, player, fought, victim), theirs
    if option != "fight" or len(choice["options"]) < 2:
        return None
    sheet = state["players"][player]
    if kind == "black-knight":
        space = ctx.space(sheet["board"], sheet["space"])
        return fight_value(ctx, state, player, COMBAT, space.name), space.guard
    if kind.endswith(":evade"):
        return _strongest_enemy_here(ctx, state, player)
    return None


def _strongest_enemy_here(ctx: MainContext, state: MainState, player: str) -> tuple[int, int] | None:
    sheet = state["players"][player]
    worst: tuple[int, int] | None = None
    cards = ctx.cards
    for card_id in state["cards"][sheet["board"]][sheet["space"]]:
        card = cards.get(card_id)
        if card is None or card.type not in ("monster", "spirit"):
            continue
        kind, value = (COMBAT, card.strength) if card.type == "monster" else (PSYCHIC, card.craft)
        pair = (fight_value(ctx, state, player, kind, card_id), value)
        if worst is None or win_chance(*pair) < win_chance(*worst):
            worst = pair
    return worst


def is_poor_fight(ctx: MainContext, state: MainState, action: Action) -> bool:
    """Tells whether the action starts a fight the bot could avoid at less than a fair chance to win."""
    fight = avoidable_fight(ctx, state, action)
    return fight is not None and win_chance(*fight) < FAIR_CHANCE


# --- where a bot is heading -----------------------------------------------------------------------------

WARLOCKS_CAVE = "warlocks-cave"
ON_TARGET, NEARER, ELSEWHERE = 8.0, 3.0, 1.0  # how a bot weighs a move: onto its target, toward it, other
HURTFUL = 0.1
SheetTest = Callable[[MainContext, MainSheet], bool]
# The spaces that surely take a life from a character, or heal it (places.toml, house rule H5.9).
HURTS: dict[str, SheetTest] = {
    "desert": lambda ctx, sheet: not ctx.holds(sheet, WATER),
    "chapel": lambda ctx, sheet: sheet["alignment"] == "evil",
    "graveyard": lambda ctx, sheet: sheet["alignment"] == "good",
}
HEALS: dict[str, SheetTest] = {
    "chapel": lambda ctx, sheet: sheet["alignment"] == "good",
    "graveyard": lambda ctx, sheet: sheet["alignment"] == "evil",
}


def target(ctx: MainContext, state: MainState, player: str) -> tuple[str, int] | None:
    """Returns the space on its own region a bot heads for, or None (it wanders, growing stronger): the
    space its Warlock's quest names; in the Middle Region the Portal of Power once it holds a Talisman,
    else the Warlock's Cave (a quest for one); in the Outer Region the Sentinel when it may cross there."""
    sheet = state["players"][player]
    board = sheet["board"]
    quest = sheet["quest"]
    if quest is not None and quest["goal"] == "visit-space" and quest["target"]:
        aimed = ctx.position(quest["target"])
        if aimed[0] == board:
            return aimed
    if board == MIDDLE:
        if sheet["talismans"]:
            return _space_of(ctx, MIDDLE, PORTAL_KIND)
        return None if quest is not None else _space_of(ctx, MIDDLE, WARLOCKS_CAVE)
    if board == OUTER and not ctx.holds(sheet, RAFT):
        sentinel = _space_of(ctx, OUTER, SENTINEL_KIND)
        if sentinel is not None:
            guard = ctx.space(*sentinel).guard
            if win_chance(fight_value(ctx, state, player, COMBAT, "the Sentinel"), guard) >= FAIR_CHANCE:
                return sentinel
    return None


def move_weight(ctx: MainContext, state: MainState, player: str, board: str, space: int) -> float:
    """Returns how a bot weighs moving to a space: one that surely takes a life from it seldom, one that
    heals it when it is hurt often; else onto its target, nearer to it, or anywhere else."""
    sheet = state["players"][player]
    kind = ctx.space(board, space).kind
    if kind in HURTS and HURTS[kind](ctx, sheet):
        return HURTFUL
    if kind in HEALS and sheet["lives"] < STARTING_LIVES and HEALS[kind](ctx, sheet):
        return ON_TARGET
    aimed = target(ctx, state, player)
    if aimed is None or aimed[0] != board:
        return ELSEWHERE
    if aimed[1] == space:
        return ON_TARGET
    here = state["players"][player]["space"]
    size = ctx.sizes[board]
    nearer = _ring_distance(space, aimed[1], size) < _ring_distance(here, aimed[1], size)
    return NEARER if nearer else ELSEWHERE


def better_portal_stat(state: MainState, player: str) -> str:
    """Returns the ability a bot tries the Portal of Power with: the higher of its Strength and Craft."""
    sheet = state["players"][player]
    return "craft" if sheet["craft"] > sheet["strength"] else "strength"


def _ring_distance(a: int, b: int, size: int) -> int:
    return min((a - b) % size, (b - a) % size)


def _space_of(ctx: MainContext, board: str, kind: str) -> tuple[str, int] | None:
    return next(((board, i) for i in range(ctx.sizes[board]) if ctx.space(board, i).kind == kind), None)
