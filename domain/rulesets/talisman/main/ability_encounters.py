"""The characters' abilities of landing on a space and of meeting enemies and characters
(abilities.toml, house wording, house rule H5.15).

`ENCOUNTER_HOOKS` maps a hook name to its point and function:
- `landing` `(ctx, res, player, ability)`: on landing, before the space is met;
- `draws` `(ctx, state, player, ability) → int`: Adventure cards drawn beyond the space's, one of
  them then discarded by the player's choice (house: the deck is shuffled lazily, so looking ahead is
  seeing one more card than is kept);
- `pass` `(ctx, state, player, ability) → bool`: the player may choose not to meet its space;
- `evade` `(ctx, sheet, ability, card) → bool`: the player may evade that enemy;
- `table` `(ctx, sheet, ability, space) → bool`: the player need not roll on that space's table;
- `killed` `(ctx, res, player, ability, card)`: after the player killed an enemy in a fight;
- `beat` `(ctx, res, player, ability, loser)`: after the player beat a character in Combat;
- `options` `(ctx, state, player, ability, victim) → [str]`: what else it may do to a character it meets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.resolution import Resolution
from domain.rulesets.talisman.character import room_for_spells
from domain.rulesets.talisman.combat import COMBAT
from domain.rulesets.talisman.events import TurnLost
from domain.rulesets.talisman.main.ability_hooks import Hook, here_name
from domain.rulesets.talisman.main.ability_limits import amount_on, either_way
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, sheet_of
from domain.rulesets.talisman.main.events_abilities import EffectReadied
from domain.rulesets.talisman.main.piles import draw_from
from domain.rulesets.talisman.main.places_elsewhere import DUNGEON, dungeon_spots, place_of
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.state import INNER, SPELLS, MainSheet, MainState

if TYPE_CHECKING:
    from domain.rulesets.talisman.main.content_abilities import Ability
    from domain.rulesets.talisman.main.content_board import Space

ANY = 0  # an evade-enemies amount of 0: any enemy


def _spell_on_space(ctx: MainContext, res: Resolution, player: str, ability: Ability) -> None:
    # house rule H5.15: landing on the Forest, take Spells up to the Craft limit (house rule H1.2) (Druid;
    # house).
    if here_name(ctx, sheet_of(res, player)) != ability.target:
        return
    for _ in range(room_for_spells(sheet_of(res, player))):
        if not draw_from(res, SPELLS, player):
            return


def _extra_card(ctx: MainContext, state: MainState, player: str, ability: Ability) -> int:
    # house rule H5.15: draw `amount` more, then discard as many (Prophetess, Philosopher; house); an amount
    # limit sets it on an expansion's board (Dungeon 12.8: the Philosopher sees only the next card).
    return amount_on(ability, state["players"][player]["board"])


def _may_pass(ctx: MainContext, state: MainState, player: str, ability: Ability) -> bool:
    # house rule H5.15: the player may choose not to meet the space it lands on (Ninja; house).
    return True


def _evade(ctx: MainContext, sheet: MainSheet, ability: Ability, card: Any) -> bool:
    # house rule H5.15: an enemy may be evaded (Elf in Woods, Thief in the City, Martial Artist, Ninja;
    # house).
    if ability.target and here_name(ctx, sheet) != ability.target:
        return False
    value = card.strength if card.type == "monster" else card.craft
    return ability.amount == ANY or value <= ability.amount


def _charm(ctx: MainContext, sheet: MainSheet, ability: Ability, card: Any) -> bool:
    # house rule H5.15: animals do not attack; the player may pass them by (Minstrel; house).
    return bool(card.family == ability.target)


def _ignore_table(ctx: MainContext, sheet: MainSheet, ability: Ability, space: Space) -> bool:
    # house rule H5.15: the player need not roll on the table of spaces of that kind (Dwarf; house).
    return space.kind == ability.target


def _raise_dead(ctx: MainContext, res: Resolution, player: str, ability: Ability, card: str) -> None:
    # house rule H5.15: a Monster killed serves: +`amount` Strength in the next Combat (Ghoul; house).
    found = ctx.cards.get(card)
    if found is not None and found.type == "monster":
        ready = EffectReadied(
            player=player,
            name=ability.name,
            effect="strength-bonus",
            amount=ability.amount,
            when=COMBAT,
            lasting=True,
        )
        res.emit(ready)


def _imprison(ctx: MainContext, res: Resolution, player: str, ability: Ability, loser: str) -> None:
    # house rule H5.15: a character beaten in Combat misses its next `amount` turns (Inquisitor; house).
    for _ in range(max(1, ability.amount)):
        res.emit(TurnLost(player=loser, reason=ability.name))


def rout_options(ctx: MainContext, sheet: MainSheet, steps: int, either: bool = True) -> list[str]:
    """Returns the space ids `steps` either way of a character in the Outer or Middle Region; in the
    Dungeon, `steps` back toward the Entrance, or either way when `either` (Dungeon 12.10)."""
    if sheet["board"] == DUNGEON:
        return dungeon_spots(ctx, sheet["space"], steps, either)
    ring = ctx.expansion_on(sheet["board"]) is None and sheet["board"] != INNER
    if not ring or ctx.sizes[sheet["board"]] < 2:
        return []  # house: nobody is routed in the Inner Region, nor in the Keep (Keep 5.4)
    size, spaces = ctx.sizes[sheet["board"]], ctx.spaces[sheet["board"]]
    spots = {(sheet["space"] + steps) % size, (sheet["space"] - steps) % size}
    return sorted(spaces[i].id for i in spots)


def _rout(ctx: MainContext, res: Resolution, player: str, ability: Ability, loser: str) -> None:
    # house rule H5.15: a character beaten in Combat is driven back, the winner's choice of way (Zulu; house).
    board = sheet_of(res, player)["board"]
    options = rout_options(ctx, sheet_of(res, loser), max(1, ability.amount), either_way(ability, board))
    offer(res, player, f"rout:{loser}", options)


def routed(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    """Drives the beaten character to the space chosen (the main board's or the Dungeon's)."""
    board, space = place_of(ctx, option)
    relocate(res, arg, board, space, "rout")


def _psychic(ctx: MainContext, state: MainState, player: str, ability: Ability, victim: str) -> list[str]:
    # house rule H5.15: a character attacked may be fought in Psychic Combat (Sorceress, Wizard; house).
    return [f"psychic:{victim}"]


def _steal(ctx: MainContext, state: MainState, player: str, ability: Ability, victim: str) -> list[str]:
    # house rule H5.15: take Gold instead of attacking (Thief; house).
    return [f"steal:{victim}"] if state["players"][victim]["gold"] else []


def _beguile(ctx: MainContext, state: MainState, player: str, ability: Ability, victim: str) -> list[str]:
    # house rule H5.15: try to take a Follower (4-6) (Sorceress; house).
    return [f"beguile:{victim}"] if state["players"][victim]["followers"] else []


LANDING, DRAWS, PASS, EVADE, TABLE = "landing", "draws", "pass", "evade", "table"
KILLED, BEAT, OPTIONS = "killed", "beat", "options"
ENCOUNTER_HOOKS: dict[str, Hook] = {
    "spell-on-space": Hook(LANDING, _spell_on_space),
    "extra-card": Hook(DRAWS, _extra_card),
    "peek-next-card": Hook(DRAWS, _extra_card),
    "skip-encounters": Hook(PASS, _may_pass),
    "evade-enemies": Hook(EVADE, _evade),
    "charm-animals": Hook(EVADE, _charm),
    "ignore-space-table": Hook(TABLE, _ignore_table),
    "raise-dead": Hook(KILLED, _raise_dead),
    "imprison": Hook(BEAT, _imprison),
    "rout": Hook(BEAT, _rout),
    "psychic-combat-choice": Hook(OPTIONS, _psychic),
    "steal-gold": Hook(OPTIONS, _steal),
    "beguile": Hook(OPTIONS, _beguile),
}
