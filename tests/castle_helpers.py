"""Givens for the Vampire Empire rule tests (house rules H4): a game started through the decider with
scripted picks, then edited as plain data by helpers that keep hands, commitments, piles and identities
consistent (a hand holds the card and its salt, the public state the matching commitment)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.actions import HOST, START
from domain.dice import ScriptedDice
from domain.events import Event, GameCreated, TurnEnded
from domain.hidden import commit
from domain.rulesets.castle.empire import VampireEmpire
from domain.rulesets.castle.events import IdentityRevealed
from domain.rulesets.castle.options import to_act
from domain.rulesets.castle.state import CELLAR, HUMAN, MOAT, VAMPIRE, deck_of, evolve
from domain.rulesets.castle.state import alive as alive  # re-exported for the rule tests
from tests import decider_helpers as helpers
from tests.decider_helpers import names as names  # re-exported for the rule tests
from tests.decider_helpers import of as of

empire = VampireEmpire()

State = dict[str, Any]

HANA, VLAD = "Hana", "Vlad"  # Hana plays the humans, Vlad the vampires
SIDE_OF = {HANA: HUMAN, VLAD: VAMPIRE}
CASTLE = ("bishop", "lady", "officer")  # the seed's combat example castle
VAMPIRES = ("lady", "maid", "nun")
KNOWN = ("cook", "monk")  # the two humans Hana knows


def ch(short: str) -> str:
    """Returns a character's content id from its short id (`lady` → `castle/character/lady`)."""
    return f"castle/character/{short}"


def hc(short: str) -> str:
    """Returns a human-deck card id from its short id."""
    return f"castle/human/{short}"


def vc(short: str) -> str:
    """Returns a vampire-deck card id from its short id."""
    return f"castle/vampire/{short}"


def card_id(player: str, short: str) -> str:
    """Returns the id of a card of the player's deck."""
    return hc(short) if player == HANA else vc(short)


def created() -> GameCreated:
    """Returns the GameCreated a service would record for Hana (human) against Vlad (vampire)."""
    return GameCreated(
        ruleset=empire.name,
        players=[{"name": HANA, "character": HUMAN}, {"name": VLAD, "character": VAMPIRE}],
        options={},
        content_hash=empire.content_hash(),
        scripted=True,
        dice_script=[],
        nightkeep_version="test",
    )


def fold(state: State, events: Iterable[Event]) -> State:
    """Applies events to the state in place and returns it."""
    return helpers.fold(empire, state, events)


def start_picks(
    castle: Iterable[str] = CASTLE,
    vampires: Iterable[str] = VAMPIRES,
    known: Iterable[str] = KNOWN,
    vampire_hand: Iterable[str] = (),
    human_hand: Iterable[str] = (),
) -> list[str]:
    """Returns the scripted picks of `start`, in the decider's order: the castle, the vampire tokens,
    the known humans, then the vampire player's and the human player's first hands."""
    return [
        *map(ch, castle),
        *map(ch, vampires),
        *map(ch, known),
        *map(vc, vampire_hand),
        *map(hc, human_hand),
    ]


def started(
    castle: Iterable[str] = CASTLE, vampires: Iterable[str] = VAMPIRES, known: Iterable[str] = KNOWN
) -> State:
    """Returns a dealt game (Vlad to discard first); hands are the first 8 cards of each sorted deck."""
    state = empire.initial_state(created())
    dice = ScriptedDice(cards=start_picks(castle, vampires, known))
    fold(state, empire.decide(state, START, HOST, dice))
    assert dice.unused == ([], [])
    return state


def set_hand(state: State, player: str, shorts: Iterable[str]) -> None:
    """Replaces a player's hand with these cards (short ids), commitments included; the deck holds the
    rest (every card of the side is in the deck, the hand, the cellar or the moat)."""
    cards = [card_id(player, s) for s in shorts]
    salts = {c: f"salt of {c}".encode() for c in cards}
    state["hands"][player] = salts
    me = state["players"][player]
    me["hand"] = [commit(c, salts[c]) for c in cards]


def set_pile(state: State, player: str, pile: str, shorts: Iterable[str]) -> None:
    """Puts these cards (not in the hand) in a player's cellar or moat; the deck holds the rest."""
    state["players"][player][pile] = [card_id(player, s) for s in shorts]


def run_out(state: State, player: str) -> None:
    """Empties a player's deck: every card not in the hand or the moat lies in the cellar."""
    me = state["players"][player]
    held = set(state["hands"][player]) | set(me[MOAT])
    me[CELLAR] = sorted(c for c in deck_of(me["side"]) if c not in held)


def truth(state: State, short: str) -> dict[str, Any]:
    """Returns a character's identity and salt as the vampire player's tokens hold them."""
    return dict(state["tokens"][VLAD][ch(short)])


def revealed(state: State, short: str, reason: str) -> IdentityRevealed:
    """Returns the honest IdentityRevealed of a character."""
    t = truth(state, short)
    return IdentityRevealed(character=ch(short), identity=t["identity"], salt=t["salt"], reason=reason)


def reveal(state: State, *shorts: str) -> None:
    """Makes characters' identities public, as an earlier unmasking or holy water would have."""
    for short in shorts:
        evolve(state, revealed(state, short, "holy-water"))


def bury(state: State, *shorts: str) -> None:
    """Records characters (in the city) as killed earlier: out of the city, on the list of the dead,
    their identity public."""
    for short in shorts:
        state["city"].remove(ch(short))
        state["dead"].append(ch(short))
        evolve(state, revealed(state, short, "death"))


def set_city(state: State, city: Iterable[str], bottom: Iterable[str] = ()) -> None:
    """Rearranges the living characters outside the castle: the shuffled city and the bottom."""
    state["city"] = sorted(map(ch, city))
    state["bottom"] = list(map(ch, bottom))


def turn_to(state: State, player: str, step: str = "act") -> None:
    """Gives the turn to a player, at the start (`discard`) or after the draw (`act`)."""
    if state["turn"] != player:
        evolve(state, TurnEnded(player=state["turn"], next_player=player))
    state["step"] = step


def given(
    human: Iterable[str] = (),
    vampire: Iterable[str] = (),
    turn: str = HANA,
    step: str = "act",
    castle: Iterable[str] = CASTLE,
    vampires: Iterable[str] = VAMPIRES,
    known: Iterable[str] = KNOWN,
) -> State:
    """Returns a dealt game with these hands (short ids), at `turn`'s `step`."""
    state = started(castle, vampires, known)
    set_hand(state, HANA, human)
    set_hand(state, VLAD, vampire)
    turn_to(state, turn, step)
    return state


def act(state: State, action: str, player: str = "", picks: Iterable[str] = ()) -> tuple[list[Event], State]:
    """Decides an action with scripted picks (all used); checks the state is untouched and returns
    the events and the state after folding them."""
    dice = ScriptedDice(cards=list(picks))
    return helpers.decided(empire, state, action, player or to_act(state), dice)


def play(state: State, *actions: str) -> tuple[list[Event], State]:
    """Decides actions one after another (each by whoever is to act, no picks); returns every event
    and the final state."""
    events: list[Event] = []
    for action in actions:
        new, state = act(state, action)
        events += new
    return events, state


def ids(state: State, player: str | None = None) -> list[str]:
    """Returns the ids of the legal actions (of `player`)."""
    return [a.id for a in empire.legal_actions(state, player)]


def starting_with(state: State, prefix: str, player: str | None = None) -> list[str]:
    """Returns the legal action ids that begin with `prefix`."""
    return [i for i in ids(state, player) if i.startswith(prefix)]
