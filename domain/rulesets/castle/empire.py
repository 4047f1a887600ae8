"""Vampire Empire (house rules H4), registered as `vampire-empire`: the human player against the vampire
player in a castle of 9 characters, with secret identities (see `events` for how secrets are kept).

Sides are chosen in the character slot: `--player Hana:human --player Vlad:vampire`.

Action ids (cards and characters by their short ids, e.g. `clergy-2-a`, `lady`):
- start of a turn: `discard:<card>` (to the moat, any number), then `draw` (back up to 8);
- then, the vampire player only and once: `reveal:<character>` (unmask a vampire of the castle);
- any number of support cards: `support:<card>` (draw 2), `support:<card>:<character>` (a marker on a
  castle character), `support:<card>:<card>` (take that card from the deck, cellar or moat);
- one action: `attack:<attacker>:<defender>`, `hide:<character>` (vampire: 3 red cards),
  `holy-water:<character>` (human: 2 holy water cards) or `pass`;
- after a holy-water answer that unmasks a vampire of the castle: `attack:<attacker>:<it>` or `decline`;
- in a fight, the side whose cards are due: `play:<card>` (any number), then `done`.

House decisions (house rules H4.5-H4.7):
- Hide plays the three lowest red cards of the hand, holy water the two lowest holy water cards (ties by
  id): the player keeps the strongest cards for fights.
- A fight may start only if the attacker's attack markers, the holy water card it carries, and every
  card of the hand valid for it add up to more than the defender's defence plus its defence markers.
  The printed defence counts only for that check; in the fight only cards and markers count (the seed's
  combat example: a total of 3 against 4).
- Holy water is valid for the human player in a fight whose other character is a revealed vampire
  (attacking it or defending against it); red cards for the vampire player supporting a revealed vampire.
- Markers go on castle characters and stay on a character until it dies.
- A card taken from the deck is shown to both players: the action names it, and an action id is public
  (a private choice would need a committed action argument, which e-mail play's packets can bring).
  The deck has no order to keep (every draw is a pick among the cards left), so nothing is reshuffled.
- The vampire player may unmask only a vampire in the castle. Holy water may ask about any living
  character whose identity is not public, in the castle or the city.
- A player with no card in deck or hand passes (the vampire player cannot unmask then either); when
  both have none, every identity is revealed and the game is scored from the revealed survivors.
- The vampire player's unmasking may come at any point of the turn before its one action (after support
  cards too): it needs no card and tells nothing the unmasking itself does not.
- After holy water unmasks a vampire of the castle the game always waits for an attack or a decline,
  even when no attack is possible: ending the turn by itself would tell the vampire player so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.actions import HOST, Action
from domain.errors import BadSetup
from domain.events import Event, GameCreated, GameEnded, TurnEnded
from domain.field_types import Seat
from domain.resolution import Resolution
from domain.rulesets.base import DrawCheck, GameStatus, Ruleset
from domain.rulesets.castle.checks import verify
from domain.rulesets.castle.content import (
    HOLY_WATER,
    RED,
    castle_content,
    content_paths,
    load_characters,
    load_human_deck,
    load_vampire_deck,
)
from domain.rulesets.castle.dealing import (
    VAMPIRES,
    deal,
    draw_cards,
    draw_checks,
    receive_cards,
    refill_castle,
)
from domain.rulesets.castle.events import (
    CardPlayed,
    CardTaken,
    CharacterHidden,
    CharacterKilled,
    FightCardPlayed,
    FightCardsDone,
    FightEnded,
    FightRoundEnded,
    FightStarted,
    HolyWaterAsked,
    IdentityRevealed,
    MarkerPlaced,
    ScoresCounted,
    TurnPassed,
)
from domain.rulesets.castle.options import (
    CASTLE_SIZE,
    HIDE_CARDS,
    HOLY_WATER_CARDS,
    MARKERS,
    POINTS,
    TAKE_PILES,
    card_id_of,
    cards_in_hand,
    character_id_of,
    legal_actions,
    lowest,
    to_act,
)
from domain.rulesets.castle.shapes import CastleState, Token
from domain.rulesets.castle.state import (
    ATTACK,
    CELLAR,
    DEFENCE,
    HAND_SIZE,
    HUMAN,
    MOAT,
    SIDES,
    VAMPIRE,
    alive,
    assign_sides,
    card,
    evolve,
    new_state,
    opponent,
    out_of_cards,
    player_of,
    side_of,
    the_fight,
    the_holy,
)
from domain.suggest import did_you_mean

SIDE_NAMES = {HUMAN: "the human player", VAMPIRE: "the vampire player"}


# --- deciding -----------------------------------------------------------------------------------------------


def _truth(state: CastleState, character: str) -> Token:
    """Returns a character's identity and salt as the vampire player's tokens hold them (host only)."""
    return state["tokens"][player_of(state, VAMPIRE)][character]


def _reveal(res: Resolution[CastleState], character: str, reason: str) -> None:
    truth = _truth(res.state, character)
    res.emit(
        IdentityRevealed(character=character, identity=truth["identity"], salt=truth["salt"], reason=reason)
    )


def _play_card(res: Resolution[CastleState], player: str, card_id: str, use: str, pile: str = CELLAR) -> None:
    salt = res.state["hands"][player][card_id]
    res.emit(CardPlayed(player=player, card=card_id, salt=salt, use=use, pile=pile))


def _end_if_won(res: Resolution[CastleState]) -> bool:
    """Ends the game if a side has won; returns whether it ended."""
    # house rules H4: all vampires dead, all humans dead, or three revealed vampires hold the castle.
    state = res.state
    known, dead = state["known"], state["dead"]
    dead_vampires = sum(known.get(c) == VAMPIRE for c in dead)
    dead_humans = sum(known.get(c) == HUMAN for c in dead)
    humans = len(load_characters()) - VAMPIRES
    if dead_vampires == VAMPIRES:
        _end(res, HUMAN, "vampires-dead")
    elif dead_humans == humans:
        _end(res, VAMPIRE, "humans-dead")
    elif len(state["castle"]) == CASTLE_SIZE and all(known.get(c) == VAMPIRE for c in state["castle"]):
        _end(res, VAMPIRE, "three-revealed")
    else:
        return False
    return True


def _end(res: Resolution[CastleState], side: str, reason: str) -> None:
    """Reveals every identity still secret, then ends the game (`side` "" for a tie)."""
    _reveal_all(res)
    winner = player_of(res.state, side) if side else ""
    res.emit(GameEnded(winner=winner, reason=reason))


def _reveal_all(res: Resolution[CastleState]) -> None:
    for character in sorted(alive(res.state)):
        if character not in res.state["known"]:
            _reveal(res, character, "game-end")


def _score(res: Resolution[CastleState]) -> None:
    """Scores the survivors. The identities are revealed first, so the scores follow from public events
    alone."""
    # house rule H4.9: both players are out of cards: 1 point per surviving human, 2 per surviving vampire.
    _reveal_all(res)
    scores = {HUMAN: 0, VAMPIRE: 0}
    for character in alive(res.state):
        identity = res.state["known"][character]
        scores[identity] += POINTS[identity]
    res.emit(ScoresCounted(human=scores[HUMAN], vampire=scores[VAMPIRE]))
    best = max(scores.values())
    winners = [side for side in SIDES if scores[side] == best]
    _end(res, winners[0] if len(winners) == 1 else "", "out-of-cards")


def _end_turn(res: Resolution[CastleState], player: str) -> None:
    """Hands the turn over; a player out of cards passes, and when both are, the game is scored."""
    state = res.state
    other = opponent(state, player)
    if out_of_cards(state, other):
        if out_of_cards(state, player):
            _score(res)
            return
        res.emit(TurnEnded(player=player, next_player=other))
        res.emit(TurnPassed(player=other, reason="out of cards"))
        res.emit(TurnEnded(player=other, next_player=player))
        return
    res.emit(TurnEnded(player=player, next_player=other))


def _after_action(res: Resolution[CastleState], player: str) -> None:
    if not _end_if_won(res):
        _end_turn(res, player)


def _discard(res: Resolution[CastleState], player: str, card_id: str) -> None:
    _play_card(res, player, card_id, "discard", MOAT)


def _support(res: Resolution[CastleState], player: str, card_short: str, target: str = "") -> None:
    """Plays a support card; its target (short id) is a castle character for a marker, a card for a
    take, nothing for a draw."""
    side = side_of(res.state, player)
    card_id = card_id_of(side, card_short)
    c = card(side, card_id)
    _play_card(res, player, card_id, "support")
    if c.effect == "draw-2":
        draw_cards(res, player, 2)
    elif c.effect in MARKERS:
        res.emit(MarkerPlaced(player=player, character=character_id_of(target), kind=MARKERS[c.effect]))
    else:
        taken = card_id_of(side, target)
        commitments = receive_cards(res, player, [taken], [-1])
        res.emit(CardTaken(player=player, card=taken, pile=TAKE_PILES[c.effect], commitments=commitments))


def _hide(res: Resolution[CastleState], player: str, character: str) -> None:
    for c in lowest(cards_in_hand(res.state, player, castle_content()), RED, HIDE_CARDS):
        _play_card(res, player, c.id, "hide")
    res.emit(CharacterHidden(player=player, character=character))
    refill_castle(res)
    _after_action(res, player)


def _holy_water(res: Resolution[CastleState], player: str, character: str) -> None:
    pair = lowest(cards_in_hand(res.state, player, castle_content()), HOLY_WATER, HOLY_WATER_CARDS)
    for c in pair:
        _play_card(res, player, c.id, "holy-water")
    res.emit(HolyWaterAsked(player=player, character=character, card=pair[0].id))
    _reveal(res, character, "holy-water")
    state = res.state
    if _end_if_won(res):
        return
    if state["known"][character] == VAMPIRE and character in state["castle"]:
        # house rule H4.6: the human player may attack it at once. The game waits for an attack or a
        # decline even when the hand allows no attack: ending the turn by itself would tell the
        # vampire player that the hand is weak.
        return
    _end_turn(res, player)


def _attack(res: Resolution[CastleState], player: str, attacker: str, defender: str) -> None:
    state = res.state
    holy = the_holy(state)["card"] if state["step"] == "holy-attack" else ""
    res.emit(FightStarted(player=player, attacker=attacker, defender=defender, holy_water=holy))


def _play(res: Resolution[CastleState], player: str, card_id: str) -> None:
    fight = the_fight(res.state)
    side = ATTACK if fight["stage"] == ATTACK else DEFENCE
    _play_card(res, player, card_id, side)
    value = card(side_of(res.state, player), card_id).value
    res.emit(FightCardPlayed(player=player, side=side, card=card_id, value=value))


def _done(res: Resolution[CastleState], player: str) -> None:
    state = res.state
    fight = the_fight(state)
    if fight["stage"] == ATTACK:
        res.emit(FightCardsDone(player=player, side=ATTACK))
        return
    res.emit(FightCardsDone(player=player, side=DEFENCE))
    attacker, defender, number = fight["attacker"], fight["defender"], fight["round"]
    attack, defence = fight["attack"], fight["defence"]
    res.emit(FightRoundEnded(round=number, attack=attack, defence=defence))
    # Vampire Empire III: attack above defence at the end of either round kills the defender; a defence
    # that holds through both rounds ends the fight with no effect.
    if attack > defence:
        res.emit(CharacterKilled(character=defender, attacker=attacker, round=number))
        if defender not in state["known"]:
            _reveal(res, defender, "death")  # Vampire Empire III: the vampire player says what it was
        res.emit(FightEnded(attacker=attacker, defender=defender, killed=True))
        refill_castle(res)  # Vampire Empire III: the dead leave the game, the city refills the castle
        _after_action(res, fight["attacking"])
    elif number == 2:
        res.emit(FightEnded(attacker=attacker, defender=defender, killed=False))
        _end_turn(res, fight["attacking"])


def _pass(res: Resolution[CastleState], player: str, reason: str) -> None:
    res.emit(TurnPassed(player=player, reason=reason))
    _end_turn(res, player)


def _reveal_action(res: Resolution[CastleState], player: str, character: str) -> None:
    _reveal(res, character, "unmasked")
    _end_if_won(res)


CARD, CHARACTER = "card", "character"
# What the parts of each verb's action id name (support cards resolve their own target).
_ARGUMENTS = {
    "discard": (CARD,),
    "play": (CARD,),
    "reveal": (CHARACTER,),
    "hide": (CHARACTER,),
    "holy-water": (CHARACTER,),
    "attack": (CHARACTER, CHARACTER),
}


def _draw_up(res: Resolution[CastleState], player: str) -> None:
    draw_cards(res, player, max(0, HAND_SIZE - len(res.state["players"][player]["hand"])))


_HANDLERS: dict[str, Callable[..., None]] = {
    "discard": _discard,
    "draw": _draw_up,
    "reveal": _reveal_action,
    "support": _support,
    "hide": _hide,
    "holy-water": _holy_water,
    "attack": _attack,
    "decline": lambda res, player: _pass(res, player, "declined"),
    "play": _play,
    "done": _done,
    "pass": lambda res, player: _pass(res, player, "chose to"),
}


# --- bots ---------------------------------------------------------------------------------------------------

_BOT_WEIGHTS = {
    "discard": 0.6,
    "draw": 3.0,
    "support": 1.0,
    "hide": 0.8,
    "attack": 3.0,
    "holy-water": 2.0,
    "play": 2.5,
    "done": 1.0,
    "pass": 0.1,
    "decline": 0.2,
}


class VampireEmpire(Ruleset[CastleState]):
    """Vampire Empire (house rules H4): a human and a vampire player over a castle of secret identities."""

    name = "vampire-empire"
    summary = "A human and a vampire player fight over a castle of characters whose identities are secret."
    character_slot = "side"
    min_players = 2
    max_players = 2
    # Each player's options (and the bots' weights) depend on their own secrets: the CLI lists a
    # player's actions only to that player.
    hidden_information = True
    private_draws = True
    evolve = staticmethod(evolve)

    def verify(self, state: CastleState, event: Event) -> str:
        """Returns what is wrong with a recorded event given the state before it ("" when nothing is)."""
        return verify(state, event)

    def draw_checks(self, state: CastleState, event: Event) -> list[DrawCheck]:
        """Returns the draws a player's copy can recompute: the city's picks and its own private ones."""
        return draw_checks(state, event)

    def legal_actions(self, state: CastleState, player: str | None = None) -> list[Action]:
        """Returns the actions open now to the player who is to act (see `options.legal_actions`)."""
        return legal_actions(state, player)

    def content_paths(self) -> list[Path]:
        """Returns the characters and both decks this game is played with."""
        return list(content_paths())

    def character_choices(self) -> list[tuple[str, str]]:
        """Returns the sides `--player NAME:SIDE` may name, as (side, what it is)."""
        return list(SIDE_NAMES.items())

    def validate_setup(self, players: list[dict[str, Any]], options: Any) -> None:
        """Raises BadSetup unless there are 2 players with distinct names on distinct sides."""
        self.check_options(options)
        if len(players) != 2:
            raise BadSetup(f"{self.name} takes 2 players (one human, one vampire), got {len(players)}")
        names = [str(seat.get("name") or "") for seat in players]
        if not all(name.strip() for name in names):
            raise BadSetup("every player needs a non-empty name")
        if names[0].casefold() == names[1].casefold() or HOST in names:
            raise BadSetup(f"player names must differ and not be {HOST!r}")
        wanted = [str(seat.get("character") or "") for seat in players]
        for side in wanted:
            if side and side not in SIDES:
                hint = did_you_mean(side, SIDES) or " (e.g. --player Hana:human)"
                raise BadSetup(f"{self.name} sides are human and vampire, got {side!r}{hint}")
        if wanted[0] and wanted[0] == wanted[1]:
            raise BadSetup(f"both players chose the {wanted[0]} side")
        load_characters(), load_human_deck(), load_vampire_deck()

    def canonical_setup(
        self, players: list[Seat], options: dict[str, str]
    ) -> tuple[list[Seat], dict[str, str]]:
        """Returns the setup as the game records it: every seat with its side, those who named none
        given the sides left (human first); every option (it takes none)."""
        by_name = {name: side for side, name in assign_sides(players).items()}
        seats: list[Seat] = [{"name": seat["name"], "character": by_name[seat["name"]]} for seat in players]
        return seats, self.record_options(options)

    def initial_state(self, created: GameCreated) -> CastleState:
        """Returns the state right after GameCreated (nothing dealt yet)."""
        return new_state(created)

    def start(self, res: Resolution[CastleState]) -> None:
        """Deals the city, the castle, the identities and both hands (house rule H4.3)."""
        deal(res)

    def resolve(self, res: Resolution[CastleState], action_id: str, player: str) -> None:
        """Resolves one action: its verb's handler, given the content ids its short ids name."""
        verb, *parts = action_id.split(":")
        side = side_of(res.state, player)
        kinds = _ARGUMENTS.get(verb)
        if kinds is not None:  # short ids to content ids
            resolve = {CARD: lambda short_id: card_id_of(side, short_id), CHARACTER: character_id_of}
            parts = [resolve[kind](p) for kind, p in zip(kinds, parts, strict=True)]
        _HANDLERS[verb](res, player, *parts)  # a legal action has a handler

    def status(self, state: CastleState) -> GameStatus:
        """Returns running/finished, the winner ("" for none or a tie) and who is to act."""
        if state["phase"] == "over":
            return {"status": "finished", "winner": state["winner"], "to_act": []}
        if state["phase"] == "setup":
            return {"status": "running", "winner": "", "to_act": [HOST]}
        return {"status": "running", "winner": "", "to_act": [to_act(state)]}

    def bot_weight(self, state: CastleState, action: Action) -> float:
        """Returns how likely a bot is to pick an action. It weighs only what the acting player may know:
        public facts and its own tokens (the human bot never peeks at the vampire player's)."""
        verb, _, rest = action.id.partition(":")
        if verb == "reveal":
            castle = state["castle"]
            revealed = sum(state["known"].get(c) == VAMPIRE for c in castle)
            return 50.0 if revealed == CASTLE_SIZE - 1 else 0.3
        weight = _BOT_WEIGHTS.get(verb, 1.0)
        if verb == "holy-water":
            mine = state["tokens"].get(action.player, {})
            if character_id_of(rest) in mine:
                return 0.05  # the human player knows this one is human
        if verb == "attack" and state["known"].get(character_id_of(rest.split(":")[1])) == VAMPIRE:
            weight *= 3
        return weight
