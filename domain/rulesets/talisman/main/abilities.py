"""The seams the characters' abilities and spells plug into (issue 13, 3; filled in by the abilities work).

The rules call these hook points; each default does nothing, so a character without abilities plays
by the plain rules:
- `combat_bonus(state, player, kind, opponent)` → Strength or Craft added in a combat (e.g. more
  Strength against spirits);
- `turn_started(ctx, res, player)` → runs before the player's first action of a turn (heal at start,
  a spell at start);
- `encounter_choices(state, player)` → extra actions a character may take instead of moving
  (character-against-character encounters, evading enemies);
- `resolve_extra(ctx, res, player, action_id)` → resolves one of those actions;
- `destinations(ctx, state, player, spots)` → the spaces a movement roll may end on (more movement,
  moving through woods…);
- `extra_draws(ctx, state, player)` → Adventure cards drawn beyond what the space holds;
- `meets_space(ctx, res, player)` → False when the character does not encounter its space (skips
  encounters, evades, or is offered to attack a character there instead: a pending choice whose
  kind is registered in `decisions.DECISIONS`, which may then call `places.meet_space`);
- `ignores_table(ctx, state, player)` → True when the space's die table does not apply to it.
Spells: `castable(ctx, state, player)` lists `cast:<spell>` actions (each spell says when it may be
cast), `cast(ctx, res, player, spell)` resolves one; both empty until spell effects are registered in
`SPELL_EFFECTS` (spell effect id → resolver).
An ability is registered in `ABILITY_HOOKS` under its `hook` name from `abilities.toml`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from domain.actions import Action
from domain.resolution import Resolution

if TYPE_CHECKING:
    from domain.rulesets.talisman.main.context import MainContext
    from domain.rulesets.talisman.main.state import MainState


class Abilities:
    """Every hook point of the main-board rules, each a no-op by default."""

    def combat_bonus(self, state: MainState, player: str, kind: str, opponent: str) -> int:
        """Returns what the player's abilities add to its Strength (combat) or Craft (psychic)."""
        return 0

    def turn_started(self, ctx: MainContext, res: Resolution, player: str) -> None:
        """Runs the abilities that act at the start of the player's turn."""

    def encounter_choices(self, ctx: MainContext, state: MainState, player: str) -> list[Action]:
        """Returns extra actions the player's abilities (or other characters on its space) open."""
        return []

    def resolve_extra(self, ctx: MainContext, res: Resolution, player: str, action_id: str) -> bool:
        """Resolves one of `encounter_choices`' actions; False when the id is not one of them."""
        return False

    def destinations(
        self, ctx: MainContext, state: MainState, player: str, spots: list[tuple[str, int]]
    ) -> list[tuple[str, int]]:
        """Returns the (board, space) a movement roll may end on, as the abilities change them."""
        return spots

    def extra_draws(self, ctx: MainContext, state: MainState, player: str) -> int:
        """Returns how many more Adventure cards the character draws on its space."""
        return 0

    def meets_space(self, ctx: MainContext, res: Resolution, player: str) -> bool:
        """Tells whether the character encounters the space it landed on."""
        return True

    def ignores_table(self, ctx: MainContext, state: MainState, player: str) -> bool:
        """Tells whether the die table of the character's space does not apply to it."""
        return False

    def castable(self, ctx: MainContext, state: MainState, player: str) -> list[Action]:
        """Returns the `cast:<spell>` actions open to the player now."""
        return []

    def cast(self, ctx: MainContext, res: Resolution, player: str, spell: str) -> None:
        """Casts one of the player's spells."""


# Ability hook name (abilities.toml `hook`) → what it adds; spell effect id → its resolver.
ABILITY_HOOKS: dict[str, Callable[..., object]] = {}
SPELL_EFFECTS: dict[str, Callable[..., None]] = {}
ABILITIES = Abilities()
