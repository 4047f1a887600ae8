"""The Vampire Wizard (Keep 8.4, house rule H3.6, space 14): three spells, one at a time, and who aims them.

House decisions, in nightkeep's words:
- The Wizard draws three spells from the Spell deck, one at a time (the Keep-only game's house deck);
  cast or not, each goes to the spell discard pile. Casting stops once the character who landed (the
  victim) is killed; otherwise the victim's turn ends after the third spell.
- Who decides is the game's option `wizard`. Under `choose` (what a new game gets) the Wizard is played
  by the player on the victim's right (house rule H3.6): the character before it in seating order still
  in the race (turns pass the other way), worked out again for each spell (a Wizard's player killed
  by its own spell hands the Wizard on). For each spell
  that would hurt somebody, that player aims it with `choose:<name>` at any character in the race that
  has entered the Keep, the victim and itself included, or sends it to the discard pile with
  `choose:discard` (so no seat may be named `discard`). A spell that would hurt nobody is discarded
  without asking, and one aimed at a character it would not hurt (it would do nothing or help it) is
  discarded unused.
- With nobody else left in the race, and under `auto` (how every game recorded before the option was
  played), the rules aim each spell at the victim and discard those that would do nothing or help it.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.resolution import Resolution
from domain.rulesets.keep.content import load_spells
from domain.rulesets.keep.events import SpellCast, SpellDiscarded
from domain.rulesets.keep.moves import KeepMover
from domain.rulesets.keep.state import SPELL_DECK, KeepState, keep_state, sheet_in
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.effects import in_play, lose_lives, sheet_of, stat_of
from domain.rulesets.talisman.encounters import draw_card
from domain.rulesets.talisman.events import ChoiceOffered, GoldChanged, StatChanged, TurnLost
from domain.rulesets.talisman.turns import next_in_play

WIZARD_TARGET, DISCARD = "wizard-target", "discard"
WIZARD_SPELLS = 3  # Keep 8.4: the Vampire Wizard unleashes three spells
AIMED_AT_NOBODY = "was aimed at nobody"  # the SpellDiscarded reason of `choose:discard`


def _draw_spell(res: Resolution, player: str) -> str:
    return draw_card(res, SPELL_DECK, player)


def spell_would_harm(res: Resolution, player: str, effect: str, amount: int) -> bool:
    """Tells whether a spell's effect would hurt the victim now (else the Wizard discards it, 8.4)."""
    sheet = sheet_of(res, player)
    harms: dict[str, Callable[[], bool]] = {
        "lose_life": lambda: amount > 0,
        "lose_gold": lambda: amount > 0 and sheet["gold"] > 0,
        "lose_turn": lambda: True,
        "move_back": lambda: amount > 0 and sheet["space"] > 1,
        "lose_strength": lambda: amount > 0 and sheet["strength"] > sheet["base_strength"],
        "lose_craft": lambda: amount > 0 and sheet["craft"] > sheet["base_craft"],
    }
    return harms.get(effect, lambda: False)()


def wizard_player(state: KeepState, victim: str) -> str:
    """Returns who plays the Vampire Wizard against `victim`: the character on its right still in the
    race, the one before it in seating order ("" when nobody else is left, Keep 8.4, house rule H3.6)."""
    chooser = next_in_play(state, victim, way=-1)
    return "" if chooser == victim else chooser


def wizard_targets(state: KeepState) -> list[str]:
    """Returns who the Wizard's spells may be aimed at: the characters in the race inside the Keep."""
    return [
        name
        for name in state["order"]
        if state["players"][name]["status"] == PLAYING and sheet_in(state, name)["entered"]
    ]


def land_on_wizard(res: Resolution, player: str, space: int, hooks: KeepMover) -> None:
    """Meets the Vampire Wizard: his three spells, each aimed by a player or by the rules."""
    _cast_spells(res, player, hooks, 0)


def _cast_spells(res: Resolution, victim: str, hooks: KeepMover, drawn: int) -> None:
    """Draws the Wizard's spells after the first `drawn`, casting each, until one waits for its aim."""
    spells = load_spells()
    for _ in range(drawn, WIZARD_SPELLS):
        spell_id = _draw_spell(res, victim)
        if not spell_id:
            return
        spell = spells[spell_id]
        state = keep_state(res)
        chooser = wizard_player(state, victim) if hooks.wizard_aimed else ""
        targets = wizard_targets(state) if chooser else []
        if any(spell_would_harm(res, target, spell.effect, spell.amount) for target in targets):
            # Keep 8.4, house rule H3.6: the player on the victim's right aims the spell.
            res.emit(ChoiceOffered(player=chooser, kind=WIZARD_TARGET, options=[*targets, DISCARD]))
            return
        _cast_at(res, victim, spell_id, hooks)
        if not in_play(res, victim):
            return  # Keep 8.4: casting stops once the victim is killed


def _cast_at(res: Resolution, target: str, spell_id: str, hooks: KeepMover) -> None:
    """Casts a spell at a character, or discards it if it would do nothing or help it (Keep 8.4)."""
    spell = load_spells()[spell_id]
    if not spell_would_harm(res, target, spell.effect, spell.amount):
        reason = "would help" if spell.effect.startswith("gain_") else "would do nothing"
        res.emit(SpellDiscarded(player=target, spell=spell_id, reason=reason))
        return
    res.emit(SpellCast(player=target, spell=spell_id))
    _spell_effect(res, target, spell.effect, spell.amount, spell_id, hooks)


def aim(res: Resolution, chooser: str, option: str, hooks: KeepMover) -> None:
    """Casts the spell waiting for its aim at the chosen character (or discards it), then goes on."""
    state = keep_state(res)
    victim, spell_id = state["turn"], state["wizard"]["spell"]
    drawn = state["wizard"].get("drawn", WIZARD_SPELLS)
    if option == DISCARD:
        res.emit(SpellDiscarded(player=victim, spell=spell_id, reason=AIMED_AT_NOBODY))
    else:
        _cast_at(res, option, spell_id, hooks)
    if in_play(res, victim):
        _cast_spells(res, victim, hooks, drawn)


def _spell_effect(
    res: Resolution, player: str, effect: str, amount: int, spell: str, hooks: KeepMover
) -> None:
    sheet = sheet_of(res, player)
    if effect == "lose_life":
        lose_lives(res, player, amount, spell)
    elif effect == "lose_gold":
        res.emit(GoldChanged(player=player, amount=-min(amount, sheet["gold"]), reason=spell))
    elif effect == "lose_turn":
        res.emit(TurnLost(player=player, reason=spell))
    elif effect == "move_back":
        hooks.move_back(res, player, amount, spell)
    elif effect in ("lose_strength", "lose_craft"):
        stat = effect.removeprefix("lose_")
        lost = min(amount, stat_of(sheet, stat) - stat_of(sheet, f"base_{stat}"))
        res.emit(StatChanged(player=player, stat=stat, amount=-lost, reason=spell))
