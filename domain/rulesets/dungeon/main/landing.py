"""The main board's landing steps on a Dungeon space (Dungeon 7.1: its encounters go as on the main board),
run after a Hex or Barrier laid there and before its cards are met (`turn.meet`). The steps, in order; one
that offers a choice (kind `dungeon-landing:<step>`) stops the meeting, and the choice resumes it:
1. `draw`: an empty space about to draw Dungeon cards draws the extra ones the player's abilities and
   readied Spells give (`landing.extra_draws`, with the Dungeon's limits: Dungeon 12.8 the Philosopher
   sees one more, 12.9 the Prophetess none; Dungeon 10.1 a Divination works on Dungeon cards), then the
   player discards as many (`dungeon-landing:draw:<n>`);
2. `evade`: the Dungeon enemies lying there that the player's abilities let it evade, one by one, or
   `fight` (Dungeon 12.5: not the Ninja). An evaded enemy stays face up and is not fought this turn.
House: the Guard of the Guard Room is part of its space, never evaded (house rule H2.3: everyone who lands
there fights it); a space already holding cards draws none, so no extra either; the Dungeon's cards have
no family, so an ability evading a family of enemies (Charm Animals) finds none there.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.resolution import Resolution
from domain.rulesets.dungeon.content import load_board, load_deck
from domain.rulesets.dungeon.state import DECK
from domain.rulesets.talisman.encounters import draw_cards
from domain.rulesets.talisman.events import CardDiscarded
from domain.rulesets.talisman.main.ability_encounters import EVADE
from domain.rulesets.talisman.main.choices import offer
from domain.rulesets.talisman.main.context import MainContext, lying_here, sheet_of
from domain.rulesets.talisman.main.duels import spend
from domain.rulesets.talisman.main.ending import in_play
from domain.rulesets.talisman.main.events_abilities import EnemyEvaded
from domain.rulesets.talisman.main.hook_lookup import at
from domain.rulesets.talisman.main.landing import FIGHT, Foe, extra_draws

CHOICE = "dungeon-landing"
DRAW, EVADE_STEP = "draw", "evade"
Step = Callable[[MainContext, Resolution, str], bool]


def _draw(ctx: MainContext, res: Resolution, player: str) -> bool:
    space, sheet = load_board().spaces[sheet_of(res, player)["space"]], sheet_of(res, player)
    if not space.draws or space.kind == "guard-room" or lying_here(res, player):
        return True  # nothing is about to be drawn (the Dungeon's encounter draws only on an empty space)
    extra = extra_draws(ctx, res, player)
    if not extra and not at(ctx, sheet, EVADE):
        return True
    for ready in [r for r in sheet["ready"] if r["effect"] == "extra-card"]:
        spend(res, player, ready)
    draw_cards(res, DECK, player, space.draws + extra)
    return _offer_discard(res, player, len(lying_here(res, player)) - space.draws)


def _offer_discard(res: Resolution, player: str, count: int) -> bool:
    drawn = sorted({card for card in lying_here(res, player) if card in load_deck().cards})
    if count <= 0 or not drawn:
        return True
    offer(res, player, f"{CHOICE}:{DRAW}:{count}", drawn)
    return False


def evadable(ctx: MainContext, res: Resolution, player: str) -> list[str]:
    """Returns the Dungeon enemies lying here that the player's abilities let it evade (not yet evaded)."""
    sheet = sheet_of(res, player)
    hooks = at(ctx, sheet, EVADE)
    cards = load_deck().cards
    found = []
    for card_id in lying_here(res, player):
        card = cards.get(card_id)
        if card is None or not card.is_enemy or card_id in sheet["evaded"]:
            continue
        foe = Foe(card.kind, card.strength, card.craft)
        if any(hook.run(ctx, sheet, ability, foe) for ability, hook in hooks):
            found.append(card_id)
    return sorted(set(found))


def _evade(ctx: MainContext, res: Resolution, player: str) -> bool:
    options = evadable(ctx, res, player)
    if not options:
        return True
    offer(res, player, f"{CHOICE}:{EVADE_STEP}", [*options, FIGHT])
    return False


STEPS: dict[str, Step] = {DRAW: _draw, EVADE_STEP: _evade}
ORDER = list(STEPS)


def run_steps(ctx: MainContext, res: Resolution, player: str, first: int = 0) -> bool:
    """Runs the landing steps from `first`; True when the space's cards are to be met now."""
    for step in ORDER[first:]:
        if not STEPS[step](ctx, res, player):
            return False
    return True


def decide(ctx: MainContext, res: Resolution, player: str, kind: str, option: str) -> bool:
    """Resolves a `dungeon-landing:<step>` choice and goes on landing; True when the space's cards are to
    be met now."""
    step, _, count = kind.partition(":")[2].partition(":")
    if step == DRAW:
        res.emit(CardDiscarded(player=player, card=option, space=sheet_of(res, player)["space"]))
        if not _offer_discard(res, player, int(count) - 1):
            return False
    elif option != FIGHT:
        res.emit(EnemyEvaded(player=player, card=option))
        if not _evade(ctx, res, player):
            return False
    return in_play(res, player) and run_steps(ctx, res, player, ORDER.index(step) + 1)


def is_landing(kind: str) -> bool:
    """Tells whether a choice is one of the Dungeon's landing steps."""
    return kind.partition(":")[0] == CHOICE
