"""The abilities Dungeon 12 changes, played out: each character lands in the Dungeon with scripted dice and
the ability acts otherwise than in the same situation on the main board (Dungeon 12.3, 12.6, 12.7, 12.8,
12.10)."""

from __future__ import annotations

from typing import Any

from domain.events import CardDrawn, CombatResolved, Moved, TurnEnded
from domain.rulesets.talisman.events import TurnLost
from domain.rulesets.talisman.main.ruleset import TalismanGame
from tests.decider_helpers import of
from tests.main_helpers import ANN, BO, act, lay, new_game, put

DUNGEON = {"dungeon": "true"}
HEALING, MEND = "talisman/spell/healing", "talisman/spell/mend"  # held: no Spell is taken at turn start
WOLF = "talisman/card/wolf"
BANDIT, OGRE = "talisman/card/bandit-1", "dungeon/card/ogre"  # both Strength 4
HELMET, SWORD = "talisman/card/helmet", "talisman/card/sword-1"
DUNGEON_SWORD, DUNGEON_HELMET = "dungeon/card/sword", "dungeon/card/helmet"
GUARD = "dungeon/guard"  # Strength 4 on the Guard Room, space 6


def playing(character: str, board: str, space: int, **sheet: Any) -> tuple[TalismanGame, dict[str, Any]]:
    """Returns a Dungeon game where Ann plays the character (abilities working) on (board, space) against
    Bo the Wizard far off, each holding a Spell; it is Ann's turn, before she moves."""
    game, state = new_game(DUNGEON, characters=(character, "wizard"), abilities=True)
    for spell in (HEALING, MEND):
        state["piles"]["spells"].remove(spell)
    put(state, ANN, board, space, spells=[HEALING], **sheet)
    put(state, BO, "middle", 5, spells=[MEND])
    state.update(turn=ANN, step="start")
    return game, state


def goes(game: TalismanGame, state: dict[str, Any], player: str = ANN) -> list[str]:
    """Returns the moves open to the player after its roll (`go:` action ids), sorted."""
    return sorted(a.id for a in game.legal_actions(state, player) if a.id.startswith("go:"))


def beat_bo(
    game: TalismanGame, state: dict[str, Any], board: str, here: int
) -> tuple[list[Any], dict[str, Any]]:
    """Ann rolls 2 from `here` onto Bo's space of `board`, attacks him in Combat and wins (5 + her
    Strength against his 1 + 2), taking a life as her spoils; returns the events of the spoils and after."""
    put(state, BO, board, here + 2)
    _, rolled = act(game, state, "roll", values=[2])
    if board == "dungeon":
        _, fought = act(game, rolled, "attack:Bo", values=[5, 1])  # Dungeon 7.1: a character there
    else:
        _, landed = act(game, rolled, f"go:{board}:{here + 2}")
        _, fought = act(game, landed, "choose:attack:Bo", values=[5, 1])
    assert fought["choice"]["kind"] == "spoils:Bo:combat"
    return act(game, fought, "choose:life")


def test_the_inquisitor_imprisons_on_the_main_board_but_not_in_the_dungeon():
    # Dungeon 12.3: the Inquisitor may not Imprison other characters while in the Dungeon. The same fight
    # on the main board costs Bo his next turn; in the Dungeon it does not, and Bo, defeated, moves back
    # toward the Entrance on his next turn instead (Dungeon 7.3).
    game, state = playing("inquisitor", "outer", 3)
    events, after = beat_bo(game, state, "outer", 3)
    assert [e.reason for e in of(events, TurnLost)] == ["Imprison"] and after["turn"] == ANN
    game, state = playing("inquisitor", "dungeon", 3)
    events, after = beat_bo(game, state, "dungeon", 3)
    assert of(events, TurnLost) == [] and after["turn"] == BO and after["players"][BO]["defeated"]
    events, _ = act(game, after, "roll", BO, values=[2], cards=[DUNGEON_SWORD])
    assert of(events, Moved)[0].to_space == 3


def test_the_orcs_wolf_adds_a_space_on_the_main_board_but_not_in_the_dungeon():
    # Dungeon 12.6: a Wolf allows the Orc no movement bonus in the Dungeon. On the main board a roll of 3
    # with the Wolf goes 4 spaces (the Wolf's own +1) or 5 (the Orc's Wolf Rider), either way; in the
    # Dungeon the same roll goes 3 spaces, with no choice.
    game, state = playing("orc", "outer", 0, followers=[WOLF])
    _, rolled = act(game, state, "roll", values=[3])
    assert goes(game, rolled) == ["go:outer:19", "go:outer:20", "go:outer:4", "go:outer:5"]
    game, state = playing("orc", "dungeon", 1, followers=[WOLF])
    events, after = act(game, state, "roll", values=[3], cards=[DUNGEON_SWORD])
    assert [(e.from_space, e.to_space) for e in of(events, Moved)] == [(1, 4)]
    assert after["turn"] == BO


def test_the_martial_artists_killer_blow_kills_anything_but_the_guard():
    # Dungeon 12.7: no Killer Blow against the Guard in the Guard Room. With Strength 2 and a 6 against a
    # Strength 4 foe that rolls 5 (8 against 9), the Killer Blow wins on the main board and against a
    # Dungeon card, but the Guard, met by landing on the Guard Room, is fought by the totals and wins.
    game, state = playing("martial-artist", "outer", 3, strength=2)
    lay(state, "outer", 5, BANDIT)
    state.update(step="rolled", rolled=2)
    events, _ = act(game, state, "go:outer:5", values=[6, 5])
    assert [(e.opponent, e.outcome) for e in of(events, CombatResolved)] == [(BANDIT, "won")]
    game, state = playing("martial-artist", "dungeon", 1, strength=2)
    events, _ = act(game, state, "roll", values=[3, 6, 5], cards=[OGRE])
    assert [(e.opponent, e.outcome) for e in of(events, CombatResolved)] == [(OGRE, "won")]
    game, state = playing("martial-artist", "dungeon", 3, strength=2)
    events, after = act(game, state, "roll", values=[3, 6, 5])
    assert of(events, Moved)[0].to_space == 6
    resolved = of(events, CombatResolved)[0]
    assert (resolved.opponent, resolved.player_total, resolved.opponent_total) == (GUARD, 8, 9)
    assert resolved.outcome == "lost" and after["players"][ANN]["defeated"]  # Dungeon 7.3


def test_the_philosopher_sees_the_next_card_of_the_deck_of_the_board_it_is_on():
    # Dungeon 12.8: in the Dungeon the Philosopher sees only the next Dungeon card; on the main board only
    # the next Adventure card. The same landing on a space drawing one card: one more from that board's
    # deck, one of the two to put back.
    game, state = playing("philosopher", "outer", 0)
    state.update(step="rolled", rolled=1)
    events, offered = act(game, state, "go:outer:1", cards=[HELMET, SWORD])  # the Fields draw one
    assert [e.deck for e in of(events, CardDrawn)] == ["adventure", "adventure"]
    assert offered["choice"]["kind"] == "landing:draw:1"
    game, state = playing("philosopher", "dungeon", 1)
    events, offered = act(game, state, "roll", values=[3], cards=[DUNGEON_SWORD, DUNGEON_HELMET])
    assert [e.deck for e in of(events, CardDrawn)] == ["dungeon", "dungeon"]
    assert offered["choice"]["kind"] == "dungeon-landing:draw:1"
    assert sorted(offered["choice"]["options"]) == sorted([DUNGEON_SWORD, DUNGEON_HELMET])


def test_the_zulu_routs_either_way_in_the_dungeon_and_the_routed_still_moves_back():
    # Dungeon 12.10: a character the Zulu Routs in the Dungeon may be moved in either direction; on his
    # next turn he still moves toward the Entrance (he was defeated, 7.3). On the main board the Rout
    # also goes either way, but the routed character's next move is his own choice of direction.
    game, state = playing("zulu", "outer", 3)
    _, after = beat_bo(game, state, "outer", 3)
    assert after["choice"]["kind"] == "rout:Bo" and len(after["choice"]["options"]) == 2
    events, after = act(game, after, "choose:talisman/space/outer/chapel")
    assert of(events, Moved)[0].to_space == 6 and after["turn"] == BO
    _, rolled = act(game, after, "roll", BO, values=[2])
    assert goes(game, rolled, BO) == ["go:outer:4", "go:outer:8"]

    game, state = playing("zulu", "dungeon", 6)
    _, after = beat_bo(game, state, "dungeon", 6)
    assert after["choice"]["options"] == ["dungeon/space/well-room", "dungeon/space/hall-of-bones"]
    events, after = act(game, after, "choose:dungeon/space/hall-of-bones")  # on inward, to space 9
    assert of(events, Moved)[0].to_space == 9 and of(events, TurnEnded)[0].next_player == BO
    events, _ = act(game, after, "roll", BO, values=[2], cards=[DUNGEON_SWORD])
    assert of(events, Moved)[0].to_space == 7  # back toward the Entrance, not on to 11
