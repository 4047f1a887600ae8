"""The Vampire Wizard (Keep 8.4, house rule H3.6, space 14) in a main-board game: he casts the top 3 cards of
the main board's Spell deck at the character who landed (the victim), one at a time.

House decisions, in nightkeep's words (the Keep run's, `keep/wizard.py`, on the main board's Spells):
- A Spell hurts when it takes lives, Gold or a turn, takes a Spell (the Wizard discards the target's
  first other Spell), pushes (the target moves back 1 space of the Keep, Keep 5.3) or turns a good or
  evil character neutral. Every other Spell (healing, gold, combat bonuses, Teleport, which does not
  work in the Keep, Keep 11.1…) would help or do nothing, and is discarded unused.
- Under `keep.wizard=choose` the player on the victim's right (the one before it in seating order still
  in play) aims each Spell that would hurt somebody at any character inside the Keep (the victim and
  itself included), or discards it (`discard`); one aimed at a character it would not hurt is discarded
  unused. Alone, or under `keep.wizard=auto`, the rules aim each Spell at the victim.
- A drawn Spell is held by the victim until it is cast or discarded (so every card stays in one place);
  casting stops once the victim is killed or leaves the space.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.resolution import Resolution
from domain.rulesets.keep.events import SpellCast, SpellDiscarded
from domain.rulesets.keep.main.state import WIZARD_SPACE, keep_part
from domain.rulesets.keep.moves import KeepMover
from domain.rulesets.keep.state import BOARD, ENTRANCE
from domain.rulesets.keep.wizard import AIMED_AT_NOBODY, DISCARD, WIZARD_SPELLS, WIZARD_TARGET
from domain.rulesets.talisman.character import PLAYING
from domain.rulesets.talisman.events import GoldChanged, TurnLost
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.ending import lose_lives
from domain.rulesets.talisman.main.items import change_alignment
from domain.rulesets.talisman.main.piles import draw_from
from domain.rulesets.talisman.main.spells import spell_of
from domain.rulesets.talisman.main.state import SPELLS
from domain.rulesets.talisman.turns import next_in_play

NEUTRAL = "neutral"
__all__ = ["WIZARD_SPACE", "aim", "land", "would_harm"]


def _other_spells(res: Resolution, target: str) -> list[str]:
    pending = keep_part(state_of(res))["wizard"].get("spell", "")
    return [spell for spell in sheet_of(res, target)["spells"] if spell != pending]


def would_harm(ctx: MainContext, res: Resolution, target: str, spell_id: str) -> bool:
    """Tells whether the Wizard's Spell would hurt `target` now (else it is discarded unused, Keep 8.4)."""
    spell = spell_of(ctx, spell_id)
    sheet = sheet_of(res, target)
    harms: dict[str, Callable[[], bool]] = {
        "lose-life": lambda: spell.amount > 0,
        "lose-turn": lambda: True,
        "lose-gold": lambda: spell.amount > 0 and sheet["gold"] > 0,
        "take-spell": lambda: bool(_other_spells(res, target)),
        "move-other": lambda: sheet["board"] == BOARD and sheet["space"] > ENTRANCE,
        "change-alignment": lambda: sheet["alignment"] != NEUTRAL,
    }
    return harms.get(spell.effect, lambda: False)()


def _chooser(state: Any, victim: str, aimed: bool) -> str:
    chooser = next_in_play(state, victim, way=-1) if aimed else ""
    return "" if chooser == victim else chooser


def _targets(state: Any) -> list[str]:
    players = state["players"]
    return [
        name
        for name in state["order"]
        if players[name]["status"] == PLAYING and players[name]["board"] == BOARD and players[name]["entered"]
    ]


def _victim_here(res: Resolution, victim: str) -> bool:
    sheet = sheet_of(res, victim)
    return sheet["board"] == BOARD and sheet["space"] == WIZARD_SPACE and res.state["phase"] != "over"


def land(ctx: MainContext, res: Resolution, player: str, hooks: KeepMover) -> None:
    """Meets the Vampire Wizard: his three Spells, each aimed by a player or by the rules."""
    _cast_spells(ctx, res, player, hooks, 0)


def _cast_spells(ctx: MainContext, res: Resolution, victim: str, hooks: KeepMover, drawn: int) -> None:
    character = sheet_of(res, victim)["character"]
    for _ in range(drawn, WIZARD_SPELLS):
        spell_id = draw_from(res, SPELLS, victim)
        if not spell_id:
            return
        state = state_of(res)
        chooser = _chooser(state, victim, hooks.wizard_aimed)
        targets = _targets(state) if chooser else []
        if any(would_harm(ctx, res, target, spell_id) for target in targets):
            # Keep 8.4: the player on the victim's right aims it (the kind names the Spell, for its words).
            offer(res, chooser, f"{WIZARD_TARGET}:{spell_id}", [*targets, DISCARD])
            return
        _cast_at(ctx, res, victim, spell_id, hooks)
        if sheet_of(res, victim)["character"] != character or not _victim_here(res, victim):
            return


def _cast_at(ctx: MainContext, res: Resolution, target: str, spell_id: str, hooks: KeepMover) -> None:
    spell = spell_of(ctx, spell_id)
    if not would_harm(ctx, res, target, spell_id):
        res.emit(SpellDiscarded(player=target, spell=spell_id, reason="would help or do nothing"))
        return
    res.emit(SpellCast(player=target, spell=spell_id))
    sheet = sheet_of(res, target)
    if spell.effect == "lose-life":
        lose_lives(ctx, res, target, spell.amount, spell_id)
    elif spell.effect == "lose-turn":
        res.emit(TurnLost(player=target, reason=spell_id))
    elif spell.effect == "lose-gold":
        res.emit(GoldChanged(player=target, amount=-min(spell.amount, sheet["gold"]), reason=spell_id))
    elif spell.effect == "take-spell":
        taken = _other_spells(res, target)[0]
        res.emit(SpellDiscarded(player=target, spell=taken, reason=f"taken by {spell.name}"))
    elif spell.effect == "move-other":
        hooks.move_back(res, target, max(1, spell.amount), spell_id)
    else:
        change_alignment(ctx, res, target, NEUTRAL, spell_id)


def aim(ctx: MainContext, res: Resolution, option: str, hooks: KeepMover) -> None:
    """Casts the Spell waiting for its aim at the chosen character (or discards it), then goes on."""
    state = state_of(res)
    victim = state["turn"]
    casting = keep_part(state)["wizard"]
    spell_id, drawn = casting["spell"], casting.get("drawn", WIZARD_SPELLS)
    if option == DISCARD:
        res.emit(SpellDiscarded(player=victim, spell=spell_id, reason=AIMED_AT_NOBODY))
    else:
        _cast_at(ctx, res, option, spell_id, hooks)
    if _victim_here(res, victim) and sheet_of(res, victim)["status"] == PLAYING:
        _cast_spells(ctx, res, victim, hooks, drawn)
