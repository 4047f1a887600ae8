"""The seams the characters' abilities and Spells plug into (issue 13, 3; house rules H1, H5.15).

The rules call these hook points; each asks the abilities of the character (abilities.toml, by its
`hook` name in `ABILITY_HOOKS`) that act there, so a character without abilities plays by the plain
rules:
- `combat_bonus(ctx, state, player, kind, opponent)` → Strength or Craft added in a fight;
- `resolve_combat(ctx, res, player, mine, opponent, value, kind)` → a fight's dice and outcome
  (`duels`: Weapon Master, Assassinate, Killer Blow, readied Spells), then Raise the Dead; a Dungeon
  Spirit fights with the Astral Conjunction's Craft (Dungeon 11.3);
- `life_saved(ctx, res, player, kind)` → a readied Iron Skin saves a life lost in Combat;
- `turn_started(ctx, res, player)` → before the player's first action of a turn;
- `encounter_choices(ctx, state, player)` → moves in place of rolling (`ability:<hook>:<board>:<space>`);
- `resolve_extra(ctx, res, player, action_id)` → resolves one of those moves;
- `destinations(ctx, state, player, spots)` → the spaces a movement roll may end on;
- `extra_draws(ctx, state, player)` → 0: extra cards are drawn by the landing steps (`landing`);
- `meets_space(ctx, res, player)` → the landing steps; False when they took over the space;
- `ignores_table(ctx, res, player)` → True when the player was offered not to roll on the table;
- `castable` / `cast` → Spells (`spells`); `keeps_turn` → a Spell cast does not end the turn;
- `choose(ctx, res, player, kind, option, arg)` → the choices these rules offer (`ABILITY_DECISIONS`).
"""

from __future__ import annotations

from collections.abc import Callable

from domain.actions import Action
from domain.resolution import Resolution
from domain.rulesets.talisman.combat import WON
from domain.rulesets.talisman.events import ChoiceMade
from domain.rulesets.talisman.main import spells
from domain.rulesets.talisman.main.ability_encounters import KILLED, routed
from domain.rulesets.talisman.main.ability_hooks import (
    ABILITY,
    ACTIONS,
    BONUS,
    DICE,
    START,
    STEPS,
    CombatDice,
)
from domain.rulesets.talisman.main.choices import pending
from domain.rulesets.talisman.main.context import MainContext
from domain.rulesets.talisman.main.duels import fight_dice, iron_skin
from domain.rulesets.talisman.main.hook_lookup import ABILITY_HOOKS, at, at_against
from domain.rulesets.talisman.main.items import extra_steps
from domain.rulesets.talisman.main.landing import LANDING_DECISIONS, run_steps, skips_table
from domain.rulesets.talisman.main.places_elsewhere import astral_bonus
from domain.rulesets.talisman.main.pvp import PVP_DECISIONS
from domain.rulesets.talisman.main.spells import SPELL_DECISIONS, SPELL_EFFECTS
from domain.rulesets.talisman.main.spells_cards import laid_here, meet_laid
from domain.rulesets.talisman.main.state import BEGUN, CROWN, MainState
from domain.rulesets.talisman.main.state import START as TURN_START

Decision = Callable[[MainContext, Resolution, str, str, str], None]
# A Rout may drive its loser across the Dungeon too (Dungeon 12.10): `routed` places it on either board.
ABILITY_DECISIONS: dict[str, Decision] = {
    **LANDING_DECISIONS,
    **PVP_DECISIONS,
    **SPELL_DECISIONS,
    "rout": routed,
}
# The choices of a Spell cast before moving: once made, the caster's turn goes on.
CONTINUING = frozenset(SPELL_DECISIONS)
__all__ = ["ABILITIES", "ABILITY_DECISIONS", "ABILITY_HOOKS", "SPELL_EFFECTS", "Abilities"]


def ring_spots(size: int, board: str, space: int, steps: set[int]) -> list[tuple[str, int]]:
    """Returns the spaces each number of `steps` away, either way round a ring of `size` spaces."""
    found: list[tuple[str, int]] = []
    for step in sorted(steps):
        for spot in ((board, (space + step) % size), (board, (space - step) % size)):
            if spot not in found:
                found.append(spot)
    return found


class Abilities:
    """Every hook point of the main-board rules, asking the character's abilities at each."""

    def combat_bonus(self, ctx: MainContext, state: MainState, player: str, kind: str, opponent: str) -> int:
        """Returns what the player's abilities add to its Strength (combat) or Craft (psychic)."""
        sheet = state["players"][player]
        found = at_against(ctx, sheet, BONUS, opponent)
        return sum(int(hook.run(ctx, state, player, a, kind, opponent)) for a, hook in found)

    def resolve_combat(
        self, ctx: MainContext, res: Resolution, player: str, mine: int, opponent: str, value: int, kind: str
    ) -> str:
        """Resolves a fight with an enemy: readied effects, then the dice as the abilities say."""
        sheet = res.state["players"][player]
        value += astral_bonus(ctx, res.state, sheet["board"], opponent, kind)  # Dungeon 11.3
        dice = CombatDice()
        for ability, hook in at_against(
            ctx, sheet, DICE, opponent
        ):  # not against the Guard (Dungeon 12.2, 12.7)
            dice = hook.run(ability, kind, dice)
        outcome = fight_dice(ctx, res, player, mine, opponent, value, kind, dice)
        if outcome == WON:
            for ability, hook in at_against(ctx, res.state["players"][player], KILLED, opponent):
                hook.run(ctx, res, player, ability, opponent)
        return outcome

    def life_saved(self, ctx: MainContext, res: Resolution, player: str, kind: str) -> bool:
        """Tells whether a readied effect saved the life the player just lost in a fight."""
        return iron_skin(res, player, kind)

    def turn_started(self, ctx: MainContext, res: Resolution, player: str) -> None:
        """Runs the abilities that act at the start of the player's turn."""
        for ability, hook in at(ctx, res.state["players"][player], START):
            hook.run(ctx, res, player, ability)

    def encounter_choices(self, ctx: MainContext, state: MainState, player: str) -> list[Action]:
        """Returns the moves the player's abilities open in place of rolling."""
        sheet = state["players"][player]
        if state["step"] not in (TURN_START, BEGUN) or sheet["board"] == CROWN:
            return []
        return [action for a, hook in at(ctx, sheet, ACTIONS) for action in hook.run(ctx, state, player, a)]

    def resolve_extra(self, ctx: MainContext, res: Resolution, player: str, action_id: str) -> bool:
        """Resolves an `ability:<hook>:<board>:<space>` move; False when the id is not one."""
        if not action_id.startswith(ABILITY):
            return False
        _, hook, board, space = action_id.split(":")
        ctx.steps.go_to(ctx, res, player, board, int(space), hook)
        return True

    def destinations(
        self, ctx: MainContext, state: MainState, player: str, spots: list[tuple[str, int]]
    ) -> list[tuple[str, int]]:
        """Returns the (board, space) a movement roll may end on, with the abilities' other step counts."""
        sheet = state["players"][player]
        if sheet["board"] == spells.KEEP:
            return spots  # Keep 5.4, 13: nothing alters movement in the Keep (its chart rules it)
        if sheet["ready"] and spells.misdirected(sheet):
            return [spot for spot in spots if spot == spots[-1]]  # Dungeon 10.3: only anticlockwise
        found = at(ctx, sheet, STEPS)
        if not found:
            return spots  # most characters count no other steps (every `go` asks)
        rolled = state["rolled"] + extra_steps(ctx, sheet)  # a mount's steps are the roll's (items)
        steps: set[int] = set()
        for ability, hook in found:
            steps |= hook.run(ability, rolled, sheet)
        more = ring_spots(ctx.sizes[sheet["board"]], sheet["board"], sheet["space"], steps)
        return spots + [spot for spot in more if spot not in spots]

    def extra_draws(self, ctx: MainContext, state: MainState, player: str) -> int:
        """Returns 0: the landing steps draw the extra cards and have the player discard them."""
        return 0

    def meets_space(self, ctx: MainContext, res: Resolution, player: str) -> bool:
        """Runs the landing steps; tells whether the space is to be met now (a Misdirection is spent; a
        Hex laid there strikes, a Barrier keeps the space from being met at all)."""
        spells.spend_misdirection(res, player)
        if laid_here(ctx, res, player) and not meet_laid(ctx, res, player):
            return False
        return run_steps(ctx, res, player)

    def ignores_table(self, ctx: MainContext, res: Resolution, player: str) -> bool:
        """Tells whether the player was offered not to roll on its space's table (then it waits)."""
        return skips_table(ctx, res, player)

    def castable(self, ctx: MainContext, state: MainState, player: str) -> list[Action]:
        """Returns the `cast:<spell>` actions open to the player now."""
        return spells.castable(ctx, state, player)

    def cast(self, ctx: MainContext, res: Resolution, player: str, spell: str) -> None:
        """Casts one of the player's spells (`<spell id>` or `<spell id>:<target>`)."""
        spells.cast(ctx, res, player, spell)

    def keeps_turn(self, res: Resolution, action_id: str) -> bool:
        """Tells whether the turn goes on after the action (a Spell cast, and the choices it left)."""
        if pending(res.state) or res.state["phase"] != "turn":
            return False
        if action_id.startswith(spells.CAST):
            return True
        made = [e for e in res.events if isinstance(e, ChoiceMade)]
        return bool(made) and made[-1].kind.partition(":")[0] in CONTINUING

    def choose(
        self, ctx: MainContext, res: Resolution, player: str, kind: str, option: str, arg: str
    ) -> None:
        """Resolves a choice the abilities, Spells or characters' encounters offered."""
        ABILITY_DECISIONS[kind](ctx, res, player, option, arg)


ABILITIES = Abilities()
