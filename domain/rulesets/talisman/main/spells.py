"""Spells on the main board (house rules H1.2, H5.14): held up to the Craft limit, cast by discarding them.

`cast:<spell>` (or `cast:<spell>:<player>` for a Spell at another character) is open when the Spell's
`when` fits (house, since a fight is resolved at once): in the player's turn before it moves, Spells
of `own-turn`, Spells of fights (`combat`, `psychic-combat`, `any-combat`: readied, they act in the
player's next fight of that kind this turn) and `any-time` ones; after the movement roll, `any-time`
ones (Fortune rolls the movement die again). Counterspell answers a Spell cast at its holder: the
target chooses `counterspell` or `allow`. House: no Spell works on the Cursed Glade; Divination sees
one more card than is kept at the next space this turn (the deck is shuffled lazily, it has no top);
Sharpen Wits is +1 Craft in Psychic Combat this turn. The Spells on cards and spaces are `spells_cards`'.
Across the boards: the Dungeon is a region like any other (Dungeon 10: its cards and spaces may be
picked from inside it, a character in it may be a target and cast at others; Teleport and the Spells
that move a character work only on the Outer and Middle Regions, so not in it, 10.4); Misdirection at
a character readies `misdirect` on its sheet (its next move may go only anticlockwise, 10.3). House
ruling (Misdirection and forced moves): it does nothing to a character whose moves must go toward the
Dungeon's Entrance (7.3, 9.1-9.2), so it is not offered at one, and one already waiting is used up by
the forced move without turning it. No Spell crosses the Keep's border either way and none that moves
or alters movement is cast in it (Keep 11). House: the Spells on cards and spaces act on the main board
and the Dungeon only (Dungeon 10.1-10.2 name the Dungeon; the Keep's seed names none), not on the
Keep's cards and spaces; cast from the main board they reach the Dungeon's too (house rule H2.11: Spells
reach the Dungeon, `spells_cards`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.actions import Action
from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.talisman.character import PLAYING, STARTING_LIVES
from domain.rulesets.talisman.events import GoldChanged, TurnLost
from domain.rulesets.talisman.main.ability_encounters import rout_options
from domain.rulesets.talisman.main.ability_hooks import heal
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, sheet_of, state_of
from domain.rulesets.talisman.main.ending import lose_lives
from domain.rulesets.talisman.main.events_abilities import (
    EffectReadied,
    EffectSpent,
    EffectWasted,
    GoldStolen,
    SpellCountered,
    SpellInvoked,
    SpellTaken,
)
from domain.rulesets.talisman.main.items import CURSED_GLADE, change_alignment
from domain.rulesets.talisman.main.positions import relocate
from domain.rulesets.talisman.main.spells_cards import (
    CARD_DECISIONS,
    ON_SPACES,
    PICKS,
    lay_spell,
    layable,
    pick_card,
    pickable,
)
from domain.rulesets.talisman.main.state import (
    BEGUN,
    INNER,
    MIDDLE,
    MOVEMENT,
    OUTER,
    ROLLED,
    START,
    MainState,
)

CAST = "cast:"
COUNTERSPELL, ALLOW = "counterspell", "allow"
RINGS = (OUTER, MIDDLE)
KEEP = "keep"
# Keep 11.1: the Spells that move a character or alter its movement (none is cast in the Keep).
MOVING = frozenset({"teleport", "move-other", "reroll", "misdirect"})
MISDIRECT = "misdirect"
READIED = ("strength-bonus", "craft-bonus", "evade", "destroy-enemy", "armour")
Effect = Callable[[MainContext, Resolution, str, Any, str], None]
Decision = Callable[[MainContext, Resolution, str, str, str], None]


def spell_of(ctx: MainContext, spell_id: str) -> Any:
    """Returns a Spell of the deck by id."""
    return ctx.spells_by_id[spell_id]


def _fits(spell: Any, step: str) -> bool:
    if spell.effect == "cancel-spell":
        return False  # only in answer to a Spell (Counterspell)
    if step == ROLLED:
        return bool(spell.when == "any-time")
    return step in (START, BEGUN) and spell.effect != "reroll"


def crosses(state: MainState, player: str, target: str) -> bool:
    """Tells whether a Spell at `target` would cross the Keep's border, either way (Keep 11.1, 11.2); the
    Dungeon counts as a region like any other (Dungeon 10)."""
    players = state["players"]
    return (players[player]["board"] == KEEP) != (players[target]["board"] == KEEP)


def _useful(ctx: MainContext, state: MainState, player: str, spell: Any, target: str) -> bool:
    sheet, other = state["players"][player], state["players"].get(target)
    if sheet["board"] == KEEP and spell.effect in MOVING:
        return False  # Keep 11.1: no Spell moves or alters movement in the Keep, no Teleport
    if other is not None and crosses(state, player, target):
        return False  # Keep 11.1, 11.2
    if spell.effect in ON_SPACES:
        return sheet["board"] != KEEP and bool(layable(ctx, state, sheet["board"]))  # house: not the Keep's
    if spell.effect in PICKS:
        return sheet["board"] != KEEP and bool(pickable(ctx, state, sheet["board"]))
    if spell.effect == "heal":
        return sheet["lives"] < STARTING_LIVES
    if spell.effect == "teleport":
        return (other or sheet)["board"] in RINGS
    if spell.effect == "skip-encounter":
        return not any(r["effect"] == "skip-encounter" for r in sheet["ready"])
    if other is None:
        return True
    return {
        "lose-gold": other["gold"] > 0,
        "take-spell": bool(other["spells"]),
        "move-other": other["board"] in RINGS,
        "change-alignment": other["alignment"] != "neutral",
        MISDIRECT: not misdirected(other) and not moves_forced(ctx, other),
    }.get(spell.effect, True)


def targets(state: MainState, player: str) -> list[str]:
    """Returns the other characters in play a Spell may be cast at."""
    players = state["players"]
    return [n for n in state["order"] if n != player and n in players and players[n]["status"] == PLAYING]


def castable(ctx: MainContext, state: MainState, player: str) -> list[Action]:
    """Returns the `cast:` actions open to the player now."""
    sheet = state["players"][player]
    if not sheet["spells"] or _in_glade(ctx, sheet):
        return []
    actions = []
    for spell_id in sorted(set(sheet["spells"])):
        spell = spell_of(ctx, spell_id)
        if not _fits(spell, state["step"]):
            continue
        aims = targets(state, player) if spell.target == "other" else [""]
        for aim in aims:
            if _useful(ctx, state, player, spell, aim):
                suffix, at_whom = (f":{aim}", f" at {aim}") if aim else ("", "")
                actions.append(Action(f"{CAST}{spell_id}{suffix}", player, f"Cast {spell.name}{at_whom}"))
    return actions


def cast(ctx: MainContext, res: Resolution, player: str, rest: str) -> None:
    """Casts a Spell (discarding it); a Spell at a holder of Counterspell waits for its answer."""
    spell_id, _, target = rest.partition(":")
    spell = spell_of(ctx, spell_id)
    res.emit(SpellInvoked(player=player, spell=spell_id, target=target))
    if target and _counter_of(ctx, res, target):
        offer(res, target, f"counter:{spell_id}", [COUNTERSPELL, ALLOW])
        return
    SPELL_EFFECTS[spell.effect](ctx, res, player, spell, target)


def _in_glade(ctx: MainContext, sheet: Any) -> bool:
    spaces = ctx.spaces.get(sheet["board"])  # an expansion's board has no Cursed Glade
    return spaces is not None and spaces[sheet["space"]].kind == CURSED_GLADE


def misdirected(sheet: Any) -> bool:
    """Tells whether a Misdirection waits on the character's next move (Dungeon 10.3)."""
    return any(r["effect"] == MISDIRECT for r in sheet["ready"])


def moves_forced(ctx: MainContext, sheet: Any) -> bool:
    """Tells whether every move of the character must go one way (fleeing the Dungeon, or moving back
    after a defeat there), so that a Misdirection would do nothing (house rule H2.10, Misdirection and
    forced moves)."""
    return any(sheet.get(key) for content in ctx.expansion_contents for key in content.forced_moves)


def spend_misdirection(res: Resolution, player: str, forced: str = "") -> bool:
    """Spends a Misdirection waiting on the character's move; tells whether one did (its move goes the
    other way: anticlockwise on the main board, the other way along the Dungeon, Dungeon 10.3). When
    `forced` says why the move must go one way, the Misdirection is used up and does nothing (house
    ruling: Misdirection and forced moves)."""
    sheet = sheet_of(res, player)
    if not sheet["ready"] or not misdirected(sheet):
        return False
    if forced:
        res.emit(EffectWasted(player=player, name="Misdirection", effect=MISDIRECT, reason=forced))
        return False
    res.emit(EffectSpent(player=player, name="Misdirection", effect=MISDIRECT))
    return True


def _counter_of(ctx: MainContext, res: Resolution, player: str) -> str:
    sheet = sheet_of(res, player)
    if _in_glade(ctx, sheet):
        return ""
    return next((s for s in sheet["spells"] if spell_of(ctx, s).effect == "cancel-spell"), "")


def _countered(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    caster = state_of(res)["turn"]
    spell = spell_of(ctx, arg)
    if option == COUNTERSPELL:
        res.emit(SpellInvoked(player=player, spell=_counter_of(ctx, res, player), target=caster))
        res.emit(SpellCountered(player=caster, spell=arg))
    else:
        SPELL_EFFECTS[spell.effect](ctx, res, caster, spell, player)


def _heal(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    heal(res, player, spell.amount, spell.name)


def _gold(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    res.emit(GoldChanged(player=player, amount=spell.amount, reason=spell.name))


def _teleport(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    board = sheet_of(res, target or player)["board"]
    spaces = [space.id for space in ctx.board.board(board).spaces]
    offer(res, player, f"banish:{target}" if target else "teleport", spaces)


def _ready(effect: str = "", when: str = "") -> Effect:
    def apply(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
        amount = spell.amount if effect != "extra-card" else 1
        ready = EffectReadied(
            player=player,
            name=spell.name,
            effect=effect or spell.effect,
            amount=amount,
            when=when or spell.when,
            lasting=False,
        )
        res.emit(ready)

    return apply


def _lose_life(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    lose_lives(ctx, res, target, spell.amount, spell.name)


def _lose_turn(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    for _ in range(max(1, spell.amount)):
        res.emit(TurnLost(player=target, reason=spell.name))


def _lose_gold(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    amount = min(spell.amount, sheet_of(res, target)["gold"])
    if amount:
        res.emit(GoldStolen(player=player, victim=target, amount=amount, reason=spell.name))


def _reroll(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    (face,), draws = res.dice.roll(6)
    res.emit(DieRolled(player=player, purpose=MOVEMENT, sides=6, values=[face], draws=draws))


def _take_spell(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    held = sorted(sheet_of(res, target)["spells"])
    if not held:
        return
    (face,), draws = res.dice.roll(len(held))
    res.emit(DieRolled(player=player, purpose="take-spell", sides=len(held), values=[face], draws=draws))
    res.emit(SpellTaken(player=player, victim=target, spell=held[face - 1], face=face))


def _push(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    offer(res, player, f"push:{target}", rout_options(ctx, sheet_of(res, target), max(1, spell.amount)))


def _neutral(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    change_alignment(ctx, res, target, "neutral", spell.name)


def _misdirect(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    ready = EffectReadied(
        player=target, name=spell.name, effect=MISDIRECT, amount=1, when="movement", lasting=True
    )
    res.emit(ready)


def _nothing(ctx: MainContext, res: Resolution, player: str, spell: Any, target: str) -> None:
    return None


def _placed(ctx: MainContext, res: Resolution, player: str, option: str, arg: str) -> None:
    if sheet_of(res, arg)["board"] != INNER:
        board, space = ctx.position(option)
        relocate(res, arg, board, space, "a Spell")


SPELL_EFFECTS: dict[str, Effect] = {
    "heal": _heal,
    "gain-gold": _gold,
    "teleport": _teleport,
    **{effect: _ready() for effect in READIED},
    "gain-craft": _ready("craft-bonus", "psychic-combat"),
    "skip-encounter": _ready(),
    "peek-cards": _ready("extra-card"),
    "lose-life": _lose_life,
    "lose-turn": _lose_turn,
    "lose-gold": _lose_gold,
    "reroll": _reroll,
    "take-spell": _take_spell,
    "move-other": _push,
    "change-alignment": _neutral,
    "cancel-spell": _nothing,
    **dict.fromkeys(PICKS, pick_card),
    **dict.fromkeys(ON_SPACES, lay_spell),
    MISDIRECT: _misdirect,
}
# Choices a Spell leaves: the target's answer, where a character is sent. The caster's turn goes on.
SPELL_DECISIONS: dict[str, Decision] = {
    "counter": _countered,
    "banish": _placed,
    "push": _placed,
    **CARD_DECISIONS,
}
