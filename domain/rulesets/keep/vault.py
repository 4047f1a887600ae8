"""The Talisman Vault (Keep 9.1, 15, house rule H3.16): a Talisman or the Treasure Hoard, then 3 Vault cards.

House decisions, in nightkeep's words:
- Talismans are not counted: every character who reaches the Vault takes one (Keep run).
- A Vault card tested by Strength is one round of Combat against its value, by Craft one round of
  Psychic Combat; a loss costs a life (armour may save it in Combat). A luck card rolls one die and its
  trap costs its lives on a face at or under its value. All three cards are met in order unless the
  character dies; each goes to the Vault discard pile.
- A survivor takes what killed characters left on the Vault (Talismans, Objects, Followers, gold);
  what it gains beyond is what the game installs on the board's centre (the Keep run: its win).
- Treasure Hoard spells are drawn from the Spell deck, as many as the character's Craft lets it hold
  (house rule H1.7); its Objects are the Keep's item cards, as many as it can carry. A character killed in
  the Vault leaves its Hoard spells there too (Keep 15), for the next survivor.
"""

from __future__ import annotations

from domain.events import DieRolled
from domain.resolution import Resolution
from domain.rulesets.keep.content import load_deck, load_tables, load_vault
from domain.rulesets.keep.events import ItemGained, SpellGained, TalismanTaken, VaultCardMet
from domain.rulesets.keep.state import LAST, SPELL_DECK, VAULT_DECK, keep_sheet, keep_state
from domain.rulesets.talisman.cards import Deck
from domain.rulesets.talisman.character import room_for_spells, room_to_carry
from domain.rulesets.talisman.combat import COMBAT, LOST, PSYCHIC
from domain.rulesets.talisman.effects import cards_at, gold_at, in_play, is_over, lose_lives, sheet_of
from domain.rulesets.talisman.encounters import draw_card, fight
from domain.rulesets.talisman.events import (
    FollowerJoined,
    GoldChanged,
    GoldTaken,
    ObjectTaken,
)

VAULT = LAST
VAULT_CARDS = 3  # Keep 9.1


_MERGED: dict[tuple[int, int], Deck] = {}


def items_in_play() -> Deck:
    """Returns the cards met or carried in the Keep: the Keep deck's and the Treasure Hoard's items."""
    deck, tables = load_deck(), load_tables()
    key = (id(deck), id(tables))  # content is fixed per process: merge once per loaded pair
    merged = _MERGED.get(key)
    if merged is None:
        merged = _MERGED[key] = Deck(cards={**deck.cards, **tables.items}, source=deck.source)
    return merged


def _hoard(res: Resolution, player: str) -> None:
    faces, draws = res.dice.roll(6, 2)
    res.emit(DieRolled(player=player, purpose="hoard", sides=6, values=faces, draws=draws))
    line = load_tables().line("hoard", sum(faces))
    if line.gold:
        res.emit(GoldChanged(player=player, amount=line.gold, reason="keep/hoard"))
    for item in line.items[: room_to_carry(sheet_of(res, player))]:
        res.emit(ItemGained(player=player, item=item))  # gear beyond the carrying limit is left behind
    for _ in range(min(line.spells, room_for_spells(keep_sheet(res, player)))):
        spell = draw_card(res, SPELL_DECK, player)
        if spell:
            res.emit(SpellGained(player=player, spell=spell, from_vault=False))


def _meet(res: Resolution, player: str, card_id: str) -> None:
    card = load_vault()[card_id]
    if card.test in ("strength", "craft"):
        kind = COMBAT if card.test == "strength" else PSYCHIC
        outcome = fight(res, player, card_id, card.value, kind, items_in_play())
    else:
        faces, draws = res.dice.roll(6)
        res.emit(DieRolled(player=player, purpose="vault-trap", sides=6, values=faces, draws=draws))
        outcome = LOST if faces[0] <= card.value else "escaped"
        if outcome == LOST:
            lose_lives(res, player, card.lives, card_id)
    if not is_over(res):  # a kill that left one character alive on the main board ended the game
        res.emit(VaultCardMet(player=player, card=card_id, outcome=outcome))


def _collect_left_behind(res: Resolution, player: str) -> None:
    state = keep_state(res)
    for _ in range(state["vault_talismans"]):
        res.emit(TalismanTaken(player=player, from_vault=True))
    for spell in list(state["vault_spells"])[: room_for_spells(keep_sheet(res, player))]:
        res.emit(SpellGained(player=player, spell=spell, from_vault=True))
    cards = items_in_play().cards
    for card in list(cards_at(res, player, VAULT)):
        if card in cards and cards[card].kind == "follower":
            res.emit(FollowerJoined(player=player, card=card, space=VAULT))
        elif room_to_carry(sheet_of(res, player)):
            res.emit(ObjectTaken(player=player, card=card, space=VAULT))
    gold = gold_at(res, player, VAULT)
    if gold:
        res.emit(GoldTaken(player=player, space=VAULT, amount=gold))


def enter_vault(res: Resolution, player: str) -> bool:
    """Takes a Talisman (or rolls the Hoard), meets 3 Vault cards in order; a survivor takes what the
    fallen left there. Tells whether the character survived."""
    if keep_state(res)["hoard"]:
        _hoard(res, player)
    else:
        res.emit(TalismanTaken(player=player, from_vault=False))
    for _ in range(VAULT_CARDS):
        card = draw_card(res, VAULT_DECK, player)
        if not card:
            break
        _meet(res, player, card)
        if not in_play(res, player):
            return False  # killed: the Talisman, Objects, Followers and gold stay on the Vault (Keep 9.1)
    _collect_left_behind(res, player)
    return True
