"""Rules of Vampire Empire (house rules H4, castle seed `003_…`), one test per rule, driven through the
decider with scripted picks.

Each test: given a dealt game edited into shape (`castle_helpers`), when actions are decided, then the
events are the ones the rule calls for and the state after folding them shows it. Hana plays the humans,
Vlad the vampires. The seed's combat example (the Bishop against the revealed Lady) is here.
"""

from __future__ import annotations

import copy

import pytest

from domain.actions import HOST, START
from domain.dice import ScriptedDice
from domain.errors import IllegalAction
from domain.events import Event, GameEnded, TurnEnded
from domain.hidden import commit, reveal_matches
from domain.rulesets.castle.content import load_characters
from domain.rulesets.castle.empire import VampireEmpire
from domain.rulesets.castle.events import (
    CardPlayed,
    CardsDrawn,
    CardsReceived,
    CardTaken,
    CastleFilled,
    CharacterHidden,
    CharacterKilled,
    CityShuffled,
    FightCardPlayed,
    FightCardsDone,
    FightEnded,
    FightRoundEnded,
    FightStarted,
    HolyWaterAsked,
    IdentitiesCommitted,
    IdentityRevealed,
    IdentityTokensDrawn,
    MarkerPlaced,
    PlayBegan,
    ScoresCounted,
    TurnPassed,
)
from domain.rulesets.castle.options import to_act
from domain.rulesets.castle.state import ATTACK, CELLAR, DEFENCE, HUMAN, MOAT, VAMPIRE, deck_count, evolve
from tests.castle_helpers import (
    HANA,
    VLAD,
    State,
    act,
    alive,
    bury,
    ch,
    created,
    fold,
    given,
    hc,
    ids,
    names,
    of,
    play,
    reveal,
    revealed,
    run_out,
    set_city,
    set_hand,
    set_pile,
    start_picks,
    started,
    starting_with,
    truth,
    turn_to,
    vc,
)

empire = VampireEmpire()


def played(state: State, player: str, card: str, use: str, pile: str = CELLAR) -> CardPlayed:
    """Returns the CardPlayed that shows a card of the player's hand (full id) with its salt."""
    return CardPlayed(player=player, card=card, salt=state["hands"][player][card], use=use, pile=pile)


def hand_is_committed(state: State, player: str) -> bool:
    """Tells whether the public hand commitments are exactly those the player's cards and salts open."""
    return sorted(state["players"][player]["hand"]) == sorted(
        commit(c, salt) for c, salt in state["hands"][player].items()
    )


def game_end_reveals(state: State) -> list[IdentityRevealed]:
    """Returns the reveals that end a game: every living character not yet public, by id."""
    secret = sorted(c for c in alive(state) if c not in state["known"])
    return [revealed(state, c.rsplit("/", 1)[-1], "game-end") for c in secret]


# --- the seed's combat example (Vampire Empire III, house rule H4.7 Combat)
# -------------------------------------


def seed_example() -> State:
    """The castle holds the Bishop, the Lady (a revealed vampire) and the Officer; it is Hana's turn."""
    state = given(
        human=["clergy-1-a", "clergy-1-b", "clergy-2-a", "clergy-3-a", "noble-1-a"],
        vampire=["noble-2-a", "servant-1-a", "vampire-2-a"],
    )
    reveal(state, "lady")
    return state


def seed_example_round_one() -> tuple[list[Event], State]:
    """The Bishop attacks the Lady with clergy 2 and 1; Vlad defends with noble 2 and red vampire 2."""
    state = seed_example()
    return play(
        state,
        "attack:bishop:lady",
        "play:clergy-2-a",
        "play:clergy-1-a",
        "done",
        "play:noble-2-a",
        "play:vampire-2-a",
        "done",
    )


def test_seed_combat_example_the_lady_survives_round_one_with_defence_4_against_attack_3():
    """Vampire Empire III, combat example: attack 3 against defence 4 in round 1 leaves the Lady alive."""
    assert "attack:bishop:lady" in ids(seed_example(), HANA)
    events, state = seed_example_round_one()
    assert events[0] == FightStarted(player=HANA, attacker=ch("bishop"), defender=ch("lady"), holy_water="")
    assert [(e.player, e.side, e.card, e.value) for e in of(events, FightCardPlayed)] == [
        (HANA, ATTACK, hc("clergy-2-a"), 2),
        (HANA, ATTACK, hc("clergy-1-a"), 1),
        (VLAD, DEFENCE, vc("noble-2-a"), 2),
        (VLAD, DEFENCE, vc("vampire-2-a"), 2),
    ]
    assert of(events, FightRoundEnded) == [FightRoundEnded(round=1, attack=3, defence=4)]
    assert not of(events, CharacterKilled) and ch("lady") in state["castle"]
    fight = state["fight"]
    assert (fight["round"], fight["stage"], fight["attack"], fight["defence"]) == (2, ATTACK, 3, 4)
    assert fight["cards"] == {  # the cards of round 1 stay in play
        ATTACK: [hc("clergy-2-a"), hc("clergy-1-a")],
        DEFENCE: [vc("noble-2-a"), vc("vampire-2-a")],
    }
    assert to_act(state) == HANA


def test_seed_combat_example_round_two_kills_the_lady_once_the_attack_exceeds_the_defence():
    """Vampire Empire III and its combat example: round-1 cards stay; 3 + 3 = 6 against 4 kills the Lady."""
    _, state = seed_example_round_one()
    events, state = play(state, "play:clergy-3-a", "done", "done")
    assert events[-6:] == [
        FightCardsDone(player=VLAD, side=DEFENCE),
        FightRoundEnded(round=2, attack=6, defence=4),
        CharacterKilled(character=ch("lady"), attacker=ch("bishop"), round=2),
        FightEnded(attacker=ch("bishop"), defender=ch("lady"), killed=True),
        CastleFilled(character=ch("butler"), draw=0),
        TurnEnded(player=HANA, next_player=VLAD),
    ]
    assert not of(events, IdentityRevealed)  # the Lady's identity was public already
    assert state["dead"] == [ch("lady")] and state["castle"] == [ch("bishop"), ch("officer"), ch("butler")]


def test_seed_combat_example_round_two_changes_nothing_when_the_defence_still_holds():
    """Vampire Empire III, combat example: 3 + 1 = 4 against 4 after both rounds: both stay alive."""
    _, state = seed_example_round_one()
    events, state = play(state, "play:clergy-1-b", "done", "done")
    assert events[-3:] == [
        FightRoundEnded(round=2, attack=4, defence=4),
        FightEnded(attacker=ch("bishop"), defender=ch("lady"), killed=False),
        TurnEnded(player=HANA, next_player=VLAD),
    ]
    assert state["castle"] == [ch("bishop"), ch("lady"), ch("officer")] and state["dead"] == []
    assert state["fight"] is None and state["turn"] == VLAD


# --- setup (house rules H4)
# ------------------------------------------------------------------------------------

VLAD_FIRST_HAND = ["noble-1-a", "noble-2-a", "clergy-3-a", "servant-2-b", "vampire-1-a", "vampire-3-c"]
VLAD_FIRST_HAND += ["draw-2-a", "defence-marker"]
HANA_FIRST_HAND = ["holy-water-1", "holy-water-3-b", "noble-3-a", "clergy-1-b", "servant-noble-2"]
HANA_FIRST_HAND += ["take-from-moat", "attack-marker-b", "servant-1-a"]


def test_setup_deals_a_castle_of_three_hands_of_eight_and_secret_identity_tokens_then_vampire_begins():
    """house rule H4.3: the city's top 3 form the castle; 8 cards each; 3 vampire tokens (Vlad's private
    event) and 2 known humans (Hana's); every identity committed in public; the vampire player begins."""
    state = empire.initial_state(created())
    picks = start_picks(
        ("officer", "nun", "cook"),
        ("lord", "nun", "butler"),
        ("maid", "bishop"),
        VLAD_FIRST_HAND,
        HANA_FIRST_HAND,
    )
    dice = ScriptedDice(cards=picks)
    events = empire.decide(state, START, HOST, dice)
    assert dice.unused == ([], [])
    state = fold(state, events)
    assert names(events) == [
        "CityShuffled",
        *["CastleFilled"] * 3,
        "IdentityTokensDrawn",
        "IdentitiesCommitted",
        "IdentityTokensDrawn",
        *["CardsReceived", "CardsDrawn"] * 2,
        "PlayBegan",
    ]
    characters = load_characters()
    assert of(events, CityShuffled)[0].characters == sorted(characters)
    professions = [c.profession for c in characters.values()]
    assert sorted(professions) == sorted(["noble", "clergy", "servant"] * 3)
    assert state["castle"] == [ch("officer"), ch("nun"), ch("cook")]
    assert sorted(state["city"]) == sorted(set(characters) - set(state["castle"]))

    vampires, humans = of(events, IdentityTokensDrawn)
    assert (vampires.owner, vampires.identity, vampires.characters) == (
        VLAD,
        VAMPIRE,
        [ch(c) for c in ("lord", "nun", "butler")],
    )
    assert (humans.owner, humans.identity, humans.characters) == (HANA, HUMAN, [ch("maid"), ch("bishop")])
    assert not set(humans.characters) & set(vampires.characters)  # known humans are among the non-vampires
    assert type(vampires).private and type(humans).private
    for character in characters:  # Vlad's salts open every public commitment with the truth
        t = state["tokens"][VLAD][character]
        assert t["identity"] == (VAMPIRE if character in vampires.characters else HUMAN)
        assert reveal_matches(state["commitments"][character], t["identity"], t["salt"])
    assert set(state["tokens"][HANA]) == {ch("maid"), ch("bishop")}
    for character, t in state["tokens"][HANA].items():  # Hana's salts open her known humans
        assert t["identity"] == HUMAN and reveal_matches(state["commitments"][character], HUMAN, t["salt"])

    for player, hand in ((VLAD, map(vc, VLAD_FIRST_HAND)), (HANA, map(hc, HANA_FIRST_HAND))):
        assert sorted(state["hands"][player]) == sorted(hand) and deck_count(state, player) == 32
        assert hand_is_committed(state, player)
    assert of(events, PlayBegan) == [PlayBegan(player=VLAD)]
    assert (state["turn"], state["step"], state["known"]) == (VLAD, "discard", {})
    assert empire.status(state) == {"status": "running", "winner": "", "to_act": [VLAD]}


# --- the turn (house rule H4.4 Turn)
# ----------------------------------------------------------------------------

EIGHT = ["noble-1-a", "noble-2-a", "clergy-1-a", "clergy-2-a", "servant-1-a", "servant-1-b", "vampire-1-a"]
EIGHT += ["draw-2-a"]


def test_turn_begins_with_any_number_of_discards_to_the_moat_then_a_draw_back_up_to_eight():
    """house rule H4.4 Turn (house: discarded cards go to the moat)."""
    state = given(vampire=EIGHT, turn=VLAD, step="discard")
    assert ids(state) == [f"discard:{c}" for c in sorted(EIGHT)] + ["draw"]
    events, after = play(state, "discard:servant-1-a", "discard:servant-1-b")
    assert events == [
        played(state, VLAD, vc("servant-1-a"), "discard", MOAT),
        played(state, VLAD, vc("servant-1-b"), "discard", MOAT),
    ]
    assert (
        after["players"][VLAD][MOAT] == [vc("servant-1-a"), vc("servant-1-b")] and after["step"] == "discard"
    )
    events, after = act(after, "draw", picks=[vc("noble-3-a"), vc("noble-3-b")])
    assert of(events, CardsReceived)[0].cards == [vc("noble-3-a"), vc("noble-3-b")]
    assert names(events)[-1] == "CardsDrawn" and hand_is_committed(after, VLAD)
    me = after["players"][VLAD]
    assert (len(me["hand"]), deck_count(after, VLAD), after["step"]) == (8, 30, "act")


def test_turn_a_player_holding_more_than_eight_after_drawing_two_draws_nothing():
    """house rule H4.4 Turn: drawing *back up to* 8 never takes a hand above 8 away, nor adds to it."""
    state = given(vampire=EIGHT, turn=VLAD)
    _, state = act(state, "support:draw-2-a", picks=[vc("noble-3-a"), vc("noble-3-b")])
    assert len(state["players"][VLAD]["hand"]) == 9
    _, state = play(state, "pass", "draw", "pass")  # Hana, with 0 cards, draws 8 and passes
    assert (state["turn"], state["step"]) == (VLAD, "discard")
    events, after = act(state, "draw")
    assert names(events) == ["CardsDrawn"]  # no card received
    assert sorted(after["hands"][VLAD]) == sorted(state["hands"][VLAD]) and hand_is_committed(after, VLAD)
    assert (len(after["players"][VLAD]["hand"]), deck_count(after, VLAD), after["step"]) == (
        9,
        30,
        "act",
    )


def test_turn_vampire_player_may_unmask_one_vampire_of_the_castle_per_turn():
    """house rule H4.4 Turn (house: only a vampire in the castle); the unmasking is no main action."""
    state = given(turn=VLAD, vampires=("lady", "officer", "nun"))
    assert starting_with(state, "reveal:") == ["reveal:lady", "reveal:officer"]  # the Nun is in the city
    events, state = act(state, "reveal:lady")
    assert events == [revealed(state, "lady", "unmasked")]
    assert state["known"] == {ch("lady"): VAMPIRE}
    assert starting_with(state, "reveal:") == [] and "pass" in ids(state)  # once a turn, turn goes on
    with pytest.raises(IllegalAction):
        act(state, "reveal:officer")
    _, state = play(state, "pass", "draw", "pass", "draw")
    assert starting_with(state, "reveal:") == ["reveal:officer"]  # a new turn, a new unmasking


def test_turn_human_player_is_never_offered_an_unmasking():
    """house rule H4.4 Turn: only the vampire player may reveal a vampire."""
    state = given(turn=HANA, vampires=("lady", "officer", "nun"))
    assert starting_with(state, "reveal:", HANA) == []
    with pytest.raises(IllegalAction):
        act(state, "reveal:lady", HANA)


def test_turn_one_main_action_then_the_turn_passes_to_the_other_player():
    """house rule H4.8 Turn: support cards may come first; one action (here a pass) ends the turn."""
    state = given(vampire=["attack-marker", "noble-1-a"], turn=VLAD)
    _, state = act(state, "support:attack-marker:lady")
    assert (state["turn"], state["step"]) == (VLAD, "act")
    events, state = act(state, "pass")
    assert events == [TurnPassed(player=VLAD, reason="chose to"), TurnEnded(player=VLAD, next_player=HANA)]
    assert (state["turn"], state["step"], empire.status(state)["to_act"]) == (HANA, "discard", [HANA])


# --- hide (house rule H4.5 Turn)
# --------------------------------------------------------------------------------

REDS = ["vampire-3-a", "vampire-2-a", "vampire-1-b", "vampire-1-a", "noble-1-a"]


def test_hide_plays_three_red_cards_and_moves_a_castle_character_under_the_city_refilling_the_castle():
    """house rule H4.5 hide (house: the three lowest red cards are played)."""
    state = given(vampire=REDS, turn=VLAD)
    assert starting_with(state, "hide:") == ["hide:bishop", "hide:lady", "hide:officer"]
    events, after = act(state, "hide:officer", picks=[ch("cook")])
    assert events == [
        played(state, VLAD, vc("vampire-1-a"), "hide"),
        played(state, VLAD, vc("vampire-1-b"), "hide"),
        played(state, VLAD, vc("vampire-2-a"), "hide"),
        CharacterHidden(player=VLAD, character=ch("officer")),
        CastleFilled(character=ch("cook"), draw=0),
        TurnEnded(player=VLAD, next_player=HANA),
    ]
    assert after["castle"] == [ch("bishop"), ch("lady"), ch("cook")]
    assert after["bottom"] == [ch("officer")] and ch("cook") not in after["city"]


def test_hide_refills_from_the_shuffled_city_first_then_from_the_bottom_in_the_order_hidden():
    """house rule H4.1: the castle refills from the top of the city; hidden characters lie under it."""
    state = given(vampire=REDS, turn=VLAD)
    bury(state, "butler", "cook", "monk", "nun")
    set_city(state, ["lord"], bottom=["maid"])
    events, state = act(state, "hide:bishop", picks=[ch("lord")])
    assert of(events, CastleFilled) == [CastleFilled(character=ch("lord"), draw=0)]
    assert state["bottom"] == [ch("maid"), ch("bishop")] and state["city"] == []
    for hidden, comes_back in (("officer", "maid"), ("lady", "bishop")):
        turn_to(state, VLAD)
        set_hand(state, VLAD, ["vampire-1-c", "vampire-2-b", "vampire-3-b"])
        events, state = act(state, f"hide:{hidden}")
        assert of(events, CastleFilled) == [CastleFilled(character=ch(comes_back), draw=-1)]
    assert state["bottom"] == [ch("officer"), ch("lady")]


def test_hide_needs_three_red_cards_a_two_coloured_one_counting_as_red():
    """house rule H4.5 hide: 3 vampire combat cards (a two-coloured red card is one)."""
    state = given(vampire=["vampire-1-a", "vampire-2-a", "noble-3-a", "noble-3-b"], turn=VLAD)
    assert starting_with(state, "hide:") == []
    with pytest.raises(IllegalAction):
        act(state, "hide:lady")
    set_hand(state, VLAD, ["vampire-1-a", "vampire-2-a", "vampire-noble-2"])
    assert starting_with(state, "hide:") == ["hide:bishop", "hide:lady", "hide:officer"]


# --- holy water (house rule H4.6 Turn)
# --------------------------------------------------------------------------


def load_short_ids() -> list[str]:
    """Returns the short ids of the 9 characters."""
    return [c.rsplit("/", 1)[-1] for c in load_characters()]


def test_holy_water_plays_the_two_lowest_and_the_truthful_answer_opens_the_commitment():
    """house rule H4.6 holy water; a vampire in the city cannot be attacked, so the turn ends."""
    state = given(human=["holy-water-3-a", "holy-water-1", "holy-water-2-a", "clergy-3-a"])
    assert starting_with(state, "holy-water:") == [f"holy-water:{c}" for c in sorted(load_short_ids())]
    events, after = act(state, "holy-water:maid")
    answer = revealed(state, "maid", "holy-water")
    assert events == [
        played(state, HANA, hc("holy-water-1"), "holy-water"),
        played(state, HANA, hc("holy-water-2-a"), "holy-water"),
        HolyWaterAsked(player=HANA, character=ch("maid"), card=hc("holy-water-1")),
        answer,
        TurnEnded(player=HANA, next_player=VLAD),
    ]
    assert answer.identity == VAMPIRE and reveal_matches(
        state["commitments"][ch("maid")], VAMPIRE, answer.salt
    )
    assert after["known"] == {ch("maid"): VAMPIRE} and after["turn"] == VLAD


def test_holy_water_on_a_human_answers_human_and_ends_the_turn():
    """house rule H4.6 holy water: the answer is the truth; only a vampire in the castle can be attacked."""
    state = given(human=["holy-water-1", "holy-water-2-a", "clergy-3-a"])
    events, after = act(state, "holy-water:bishop")
    assert events[-2:] == [revealed(state, "bishop", "holy-water"), TurnEnded(player=HANA, next_player=VLAD)]
    assert events[-2].identity == HUMAN and after["known"] == {ch("bishop"): HUMAN}


def holy_water_on_the_lady() -> tuple[list[Event], State, State]:
    """Hana asks the Lady (a vampire of the castle) with holy water 2 and 3."""
    state = given(human=["holy-water-2-a", "holy-water-3-a", "clergy-1-a", "noble-1-a"])
    events, after = act(state, "holy-water:lady")
    return events, state, after


def test_holy_water_unmasking_a_castle_vampire_lets_it_be_attacked_at_once_with_the_lower_card():
    """house rule H4.6 holy water: the lower holy water card counts in round 1 of the attack that follows."""
    events, state, after = holy_water_on_the_lady()
    assert events == [
        played(state, HANA, hc("holy-water-2-a"), "holy-water"),
        played(state, HANA, hc("holy-water-3-a"), "holy-water"),
        HolyWaterAsked(player=HANA, character=ch("lady"), card=hc("holy-water-2-a")),
        revealed(state, "lady", "holy-water"),
    ]
    assert (after["turn"], after["step"]) == (HANA, "holy-attack")
    assert ids(after) == ["attack:bishop:lady", "attack:officer:lady", "decline"]
    events, after = act(after, "attack:bishop:lady")
    holy = hc("holy-water-2-a")
    assert events == [FightStarted(player=HANA, attacker=ch("bishop"), defender=ch("lady"), holy_water=holy)]
    assert (after["fight"]["attack"], after["fight"]["cards"][ATTACK]) == (2, [holy])
    events, after = play(after, "play:clergy-1-a", "done", "done")
    assert of(events, FightRoundEnded) == [FightRoundEnded(round=1, attack=3, defence=0)]
    assert after["dead"] == [ch("lady")]


def test_holy_water_attack_may_be_declined_which_ends_the_turn():
    """house rule H4.6 holy water: the attack is a choice (`decline`)."""
    _, _, after = holy_water_on_the_lady()
    events, after = act(after, "decline")
    assert events == [TurnPassed(player=HANA, reason="declined"), TurnEnded(player=HANA, next_player=VLAD)]
    assert ch("lady") in after["castle"] and after["holy"] is None and after["step"] == "discard"


def test_holy_water_unmasking_waits_for_a_decline_even_when_no_attack_is_possible():
    """The game stops at the holy-water attack even when the hand cannot beat the vampire: ending the
    turn by itself would tell the vampire player that the human player's hand is weak."""
    state = given(human=["holy-water-1", "holy-water-2-a", "servant-1-a"])
    events, after = act(state, "holy-water:lady")
    assert not of(events, TurnEnded) and after["step"] == "holy-attack"
    assert ids(after) == ["decline"]


def first_problem(state: State, events: list[Event]) -> str:
    """Checks and folds events in order (as an audit of a sealed copy does); returns the first problem."""
    state = copy.deepcopy(state)
    for event in events:
        problem = empire.verify(state, event)
        if problem:
            return problem
        evolve(state, event)
    return ""


def test_a_fight_card_counting_other_than_its_printed_value_is_refused():
    """A log whose fight card counts more than the card says is caught, even in a copy with the hands
    sealed: the value is printed on the shown card."""
    state = given(human=["clergy-2-a", "clergy-1-a"])
    _, state = act(state, "attack:bishop:officer")
    events, _ = act(state, "play:clergy-2-a")
    assert first_problem(state, events) == ""
    forged = [
        FightCardPlayed(player=HANA, side=ATTACK, card=hc("clergy-2-a"), value=3)
        if isinstance(e, FightCardPlayed)
        else e
        for e in events
    ]
    assert "counts 3 in the fight, but the card's value is 2" in first_problem(state, forged)


def test_a_fight_card_not_valid_for_the_character_is_refused():
    """Castle seed p. 6: a noble card cannot back the Bishop, whatever the log says."""
    state = given(human=["clergy-2-a", "noble-2-a"])
    _, state = act(state, "attack:bishop:officer")
    events, _ = act(state, "play:clergy-2-a")
    forged = [
        FightCardPlayed(player=HANA, side=ATTACK, card=hc("noble-2-a"), value=2)
        if isinstance(e, FightCardPlayed)
        else e
        for e in events
    ]
    assert "may not be played for castle/character/bishop" in first_problem(state, forged)


def test_holy_water_needs_two_holy_water_cards():
    """house rule H4.6 holy water: 2 cards."""
    state = given(human=["holy-water-3-a", "clergy-3-a", "noble-3-a"])
    assert starting_with(state, "holy-water:") == []
    with pytest.raises(IllegalAction):
        act(state, "holy-water:lady")


# --- combat: valid cards (house rule H4.7 Combat, castle seed p. 6)
# ---------------------------------------------


def test_valid_cards_human_backs_a_character_with_its_profession_and_two_coloured_cards():
    """Castle seed p. 6: profession cards (either colour of a two-coloured card, also a two-coloured holy
    water card); plain holy water only against a revealed vampire; support cards never."""
    hand = ["clergy-1-a", "noble-clergy-1", "clergy-servant-1", "noble-1-a", "holy-water-2-a"]
    state = given(human=[*hand, "holy-water-clergy-2", "draw-2-a"])
    _, state = act(state, "attack:bishop:officer")
    assert starting_with(state, "play:") == [
        "play:clergy-1-a",
        "play:clergy-servant-1",
        "play:holy-water-clergy-2",
        "play:noble-clergy-1",
    ]
    for invalid in ("noble-1-a", "holy-water-2-a", "draw-2-a"):
        with pytest.raises(IllegalAction):
            act(state, f"play:{invalid}")


def test_valid_cards_human_may_play_holy_water_attacking_a_revealed_vampire():
    """Castle seed p. 6: holy water counts in a fight against a revealed vampire."""
    state = given(human=["clergy-1-a", "holy-water-2-a", "holy-water-noble-1", "noble-1-a", "draw-2-a"])
    reveal(state, "lady")
    _, state = act(state, "attack:bishop:lady")
    assert starting_with(state, "play:") == [
        "play:clergy-1-a",
        "play:holy-water-2-a",
        "play:holy-water-noble-1",
    ]


@pytest.mark.parametrize(("revealed_lady", "holy_valid"), [(True, True), (False, False)])
def test_valid_cards_human_may_play_holy_water_defending_against_a_revealed_vampire(
    revealed_lady, holy_valid
):
    """House rule H4.6: holy water counts for the human defending against a revealed vampire."""
    state = given(
        human=["clergy-1-a", "holy-water-2-a", "noble-1-a", "draw-2-a"],
        vampire=["noble-2-a", "noble-3-a"],
        turn=VLAD,
    )
    if revealed_lady:
        reveal(state, "lady")
    _, state = play(state, "attack:lady:bishop", "done")
    assert to_act(state) == HANA
    expected = ["play:clergy-1-a", "play:holy-water-2-a"] if holy_valid else ["play:clergy-1-a"]
    assert starting_with(state, "play:") == expected


VLAD_MIXED = ["noble-2-a", "noble-3-a", "clergy-2-a", "vampire-2-a", "vampire-noble-2", "vampire-clergy-1"]
VLAD_MIXED += ["draw-2-a"]


def test_valid_cards_vampire_plays_red_cards_only_for_a_revealed_vampire():
    """Castle seed p. 6: red cards back a revealed vampire, whatever its profession."""
    state = given(vampire=VLAD_MIXED, turn=VLAD)
    reveal(state, "lady")
    _, state = act(state, "attack:lady:officer")
    assert starting_with(state, "play:") == [
        "play:noble-2-a",
        "play:noble-3-a",
        "play:vampire-2-a",
        "play:vampire-clergy-1",
        "play:vampire-noble-2",
    ]


def test_valid_cards_vampire_plays_no_plain_red_card_for_an_unrevealed_vampire():
    """Castle seed p. 6: an unrevealed vampire is backed by profession cards only (a two-coloured red
    card by its colour)."""
    state = given(vampire=VLAD_MIXED, turn=VLAD, vampires=("lady", "officer", "nun"))
    _, state = act(state, "attack:officer:bishop")
    assert starting_with(state, "play:") == ["play:noble-2-a", "play:noble-3-a", "play:vampire-noble-2"]
    with pytest.raises(IllegalAction):
        act(state, "play:vampire-2-a")


# --- combat: who attacks, and whether a fight may start (house rule H4.7 Combat)
# --------------------------------

STRONG = ["noble-3-a", "noble-3-b", "clergy-3-a", "clergy-3-b"]


def test_human_player_never_attacks_with_a_revealed_vampire():
    """house rule H4.7 Combat."""
    state = given(human=STRONG)
    reveal(state, "lady")
    assert starting_with(state, "attack:") == [
        "attack:bishop:lady",
        "attack:bishop:officer",
        "attack:officer:bishop",
        "attack:officer:lady",
    ]
    with pytest.raises(IllegalAction):
        act(state, "attack:lady:officer")


def test_vampire_player_must_attack_with_a_revealed_vampire_when_the_castle_has_one():
    """house rule H4.7 Combat."""
    state = given(vampire=STRONG, turn=VLAD)
    assert len(starting_with(state, "attack:")) == 6  # none revealed: any attacker
    reveal(state, "lady")
    assert starting_with(state, "attack:") == ["attack:lady:bishop", "attack:lady:officer"]
    with pytest.raises(IllegalAction):
        act(state, "attack:officer:bishop")


def test_fight_starts_only_if_the_attacker_can_beat_the_starting_defence_markers_included():
    """house rule H4.7 Combat: markers plus valid cards in hand must exceed printed defence plus markers."""
    state = given(human=["noble-1-a", "noble-2-a"])  # the Officer reaches 3: the Lady (2), not the Bishop (3)
    assert starting_with(state, "attack:officer:") == ["attack:officer:lady"]
    with pytest.raises(IllegalAction):
        act(state, "attack:officer:bishop")
    evolve(state, MarkerPlaced(player=HANA, character=ch("officer"), kind=ATTACK))
    assert starting_with(state, "attack:officer:") == ["attack:officer:bishop", "attack:officer:lady"]
    evolve(state, MarkerPlaced(player=VLAD, character=ch("bishop"), kind=DEFENCE))
    assert starting_with(state, "attack:officer:") == ["attack:officer:lady"]


def test_markers_add_to_the_attack_and_the_defence_in_the_fight():
    """house rule H4.7 Combat: attack/defence markers count in every round (not the printed defence)."""
    state = given(human=["noble-1-a", "noble-3-a"], vampire=["clergy-1-a"])
    evolve(state, MarkerPlaced(player=HANA, character=ch("officer"), kind=ATTACK))
    evolve(state, MarkerPlaced(player=VLAD, character=ch("bishop"), kind=DEFENCE))
    _, state = act(state, "attack:officer:bishop")
    assert (state["fight"]["attack"], state["fight"]["defence"]) == (1, 1)
    events, state = play(state, "play:noble-1-a", "done", "play:clergy-1-a", "done")
    assert of(events, FightRoundEnded) == [FightRoundEnded(round=1, attack=2, defence=2)]


# --- combat: rounds and deaths (house rule H4.7 Combat, castle seed III)
# ----------------------------------------


def test_attack_above_defence_after_round_one_kills_at_once_with_no_second_round():
    """Castle seed III: attack > defence at the end of either round kills."""
    state = given(human=["clergy-3-a", "clergy-2-a"], vampire=["noble-1-a"])
    events, state = play(state, "attack:bishop:officer", "play:clergy-3-a", "done", "play:noble-1-a", "done")
    assert of(events, FightRoundEnded) == [FightRoundEnded(round=1, attack=3, defence=1)]
    assert of(events, CharacterKilled) == [
        CharacterKilled(character=ch("officer"), attacker=ch("bishop"), round=1)
    ]
    assert state["fight"] is None and state["turn"] == VLAD


def test_equal_totals_go_to_round_two_and_defence_holding_after_both_rounds_changes_nothing():
    """Castle seed III: defence ≥ attack after both rounds ends the fight with both alive."""
    state = given(human=["clergy-2-a"], vampire=["noble-2-a"])
    events, state = play(state, "attack:bishop:officer", "play:clergy-2-a", "done", "play:noble-2-a", "done")
    assert of(events, FightRoundEnded) == [FightRoundEnded(round=1, attack=2, defence=2)]
    assert (state["fight"]["round"], to_act(state)) == (2, HANA)
    events, state = play(state, "done", "done")
    assert events[-3:] == [
        FightRoundEnded(round=2, attack=2, defence=2),
        FightEnded(attacker=ch("bishop"), defender=ch("officer"), killed=False),
        TurnEnded(player=HANA, next_player=VLAD),
    ]
    assert state["castle"] == [ch("bishop"), ch("lady"), ch("officer")] and state["dead"] == []


@pytest.mark.parametrize("identity", [HUMAN, VAMPIRE])
def test_a_death_removes_the_character_refills_the_castle_and_reveals_its_identity(identity):
    """Castle seed III: the vampire player says what the dead was (its token turned up); the city
    refills the castle; the list of the dead is public."""
    vampires = ("officer", "maid", "nun") if identity == VAMPIRE else ("lady", "maid", "nun")
    state = given(human=["clergy-3-a"], vampires=vampires)
    bury(state, "butler")
    _, state = play(state, "attack:bishop:officer", "play:clergy-3-a", "done")
    events, after = act(state, "done", picks=[ch("lord")])
    answer = revealed(state, "officer", "death")
    assert events[-5:] == [
        CharacterKilled(character=ch("officer"), attacker=ch("bishop"), round=1),
        answer,
        FightEnded(attacker=ch("bishop"), defender=ch("officer"), killed=True),
        CastleFilled(character=ch("lord"), draw=0),
        TurnEnded(player=HANA, next_player=VLAD),
    ]
    assert answer.identity == identity
    assert after["castle"] == [ch("bishop"), ch("lady"), ch("lord")]
    assert after["dead"] == [ch("butler"), ch("officer")] and after["known"][ch("officer")] == identity


# --- support cards (house rule H4.8 house card lists)
# -----------------------------------------------------------


def test_support_draw_two_adds_two_cards_and_the_turn_goes_on():
    """house rule H4.8 house cards: draw 2 (not a main action)."""
    state = given(vampire=EIGHT, turn=VLAD)
    events, after = act(state, "support:draw-2-a", picks=[vc("noble-3-a"), vc("noble-3-b")])
    assert events[0] == played(state, VLAD, vc("draw-2-a"), "support")
    assert of(events, CardsReceived)[0].cards == [vc("noble-3-a"), vc("noble-3-b")]
    assert vc("noble-3-a") in after["hands"][VLAD] and hand_is_committed(after, VLAD)
    me = after["players"][VLAD]
    assert (len(me["hand"]), deck_count(after, VLAD), me[CELLAR]) == (9, 30, [vc("draw-2-a")])
    assert (after["turn"], after["step"]) == (VLAD, "act")


@pytest.mark.parametrize(("marker", "kind"), [("attack-marker", ATTACK), ("defence-marker", DEFENCE)])
def test_support_marker_places_a_plus_one_marker_on_a_castle_character(marker, kind):
    """house rule H4.8 house cards: +1 attack or defence marker."""
    state = given(vampire=[marker], turn=VLAD)
    targets = ["bishop", "lady", "officer"]
    assert starting_with(state, "support:") == [f"support:{marker}:{c}" for c in targets]
    events, after = act(state, f"support:{marker}:bishop")
    assert events == [
        played(state, VLAD, vc(marker), "support"),
        MarkerPlaced(player=VLAD, character=ch("bishop"), kind=kind),
    ]
    assert after["markers"][ch("bishop")] == {ATTACK: int(kind == ATTACK), DEFENCE: int(kind == DEFENCE)}


def test_support_take_from_deck_shows_the_card_and_commits_it_to_the_hand():
    """house rule H4.8 house cards: take a chosen card from the deck."""
    state = given(human=["take-from-deck", "clergy-1-a"])
    offered = starting_with(state, "support:take-from-deck:")
    assert len(offered) == 38 and "support:take-from-deck:clergy-1-a" not in offered
    events, after = act(state, "support:take-from-deck:noble-3-a")
    assert events[0] == played(state, HANA, hc("take-from-deck"), "support")
    received = of(events, CardsReceived)[0]
    assert (received.owner, received.cards, received.draws) == (HANA, [hc("noble-3-a")], [-1])
    taken = events[-1]
    assert isinstance(taken, CardTaken) and (taken.player, taken.card, taken.pile) == (
        HANA,
        hc("noble-3-a"),
        "deck",
    )
    me = after["players"][HANA]
    assert sorted(after["hands"][HANA]) == [hc("clergy-1-a"), hc("noble-3-a")] and hand_is_committed(
        after, HANA
    )
    assert (len(me["hand"]), deck_count(after, HANA)) == (2, 37)


@pytest.mark.parametrize("pile", [CELLAR, MOAT])
def test_support_take_from_cellar_or_moat_shows_the_card_and_commits_it_to_the_hand(pile):
    """house rule H4.8 house cards: take a chosen card from the cellar or the moat."""
    state = given(human=[f"take-from-{pile}"])
    set_pile(state, HANA, pile, ["noble-3-a", "clergy-3-a"])
    offered = [f"support:take-from-{pile}:{c}" for c in ("clergy-3-a", "noble-3-a")]
    assert starting_with(state, "support:") == offered
    events, after = act(state, f"support:take-from-{pile}:noble-3-a")
    taken = events[-1]
    assert isinstance(taken, CardTaken) and (taken.card, taken.pile) == (hc("noble-3-a"), pile)
    me = after["players"][HANA]
    assert hc("noble-3-a") not in me[pile] and deck_count(after, HANA) == 37
    assert list(after["hands"][HANA]) == [hc("noble-3-a")] and hand_is_committed(after, HANA)


# --- the end (house rules H4 End)
# ------------------------------------------------------------------------------


def assert_over(state: State, winner: str, reason: str) -> None:
    """Checks the game is over with this winner and reason, every identity public, nothing to do."""
    assert empire.status(state) == {"status": "finished", "winner": winner, "to_act": []}
    assert state["reason"] == reason and ids(state) == []
    assert all(c in state["known"] for c in alive(state)), "at the end every identity is public"
    with pytest.raises(IllegalAction):
        empire.decide(state, "pass", state["turn"], ScriptedDice())


def test_end_human_player_wins_when_the_third_vampire_dies():
    """house rules H4 End: all vampires dead; every identity is then revealed."""
    state = given(human=["clergy-3-a"])
    bury(state, "maid", "nun")
    reveal(state, "lady")
    _, state = play(state, "attack:bishop:lady", "play:clergy-3-a", "done")
    events, after = act(state, "done")
    assert events[-1] == GameEnded(winner=HANA, reason="vampires-dead")
    filled = of(events, CastleFilled)[0]
    state = fold(state, events[: events.index(filled) + 1])
    assert of(events, IdentityRevealed) == game_end_reveals(state)
    assert_over(after, HANA, "vampires-dead")


def test_end_vampire_player_wins_when_the_sixth_human_dies():
    """house rules H4 End: all humans dead."""
    state = given(
        human=["servant-1-a"], vampire=["vampire-2-a"], turn=VLAD, castle=("lady", "officer", "maid")
    )
    bury(state, "bishop", "butler", "cook", "lord", "monk")
    reveal(state, "lady")
    _, state = play(state, "attack:lady:officer", "play:vampire-2-a", "done")
    events, after = act(state, "done")
    assert events[-6:] == [
        revealed(state, "officer", "death"),
        FightEnded(attacker=ch("lady"), defender=ch("officer"), killed=True),
        CastleFilled(character=ch("nun"), draw=0),
        revealed(state, "maid", "game-end"),
        revealed(state, "nun", "game-end"),
        GameEnded(winner=VLAD, reason="humans-dead"),
    ]
    assert_over(after, VLAD, "humans-dead")


def test_end_vampire_player_wins_by_unmasking_a_third_vampire_in_the_castle():
    """house rules H4 End: 3 revealed vampires in the castle."""
    state = given(turn=VLAD, castle=("lady", "maid", "nun"))
    reveal(state, "lady", "maid")
    events, after = act(state, "reveal:nun")
    assert events[0] == revealed(state, "nun", "unmasked")
    assert events[1:-1] == game_end_reveals(fold(state, events[:1]))
    assert events[-1] == GameEnded(winner=VLAD, reason="three-revealed")
    assert_over(after, VLAD, "three-revealed")


def test_end_vampire_player_wins_when_holy_water_reveals_a_third_vampire_in_the_castle():
    """house rules H4 End: 3 revealed vampires in the castle, whoever revealed the third."""
    state = given(human=["holy-water-1", "holy-water-2-a"], castle=("lady", "maid", "nun"))
    reveal(state, "lady", "maid")
    events, after = act(state, "holy-water:nun")
    assert events[3] == revealed(state, "nun", "holy-water")
    assert events[-1] == GameEnded(winner=VLAD, reason="three-revealed")
    assert_over(after, VLAD, "three-revealed")


@pytest.mark.parametrize(
    ("dead", "human_points", "vampire_points", "winner"),
    [
        ((), 6, 6, ""),  # a tie: nobody wins
        (("nun",), 6, 4, HANA),
        (("butler", "lord"), 4, 6, VLAD),
    ],
)
def test_end_both_players_out_of_cards_scores_one_per_human_and_two_per_vampire(
    dead, human_points, vampire_points, winner
):
    """house rule H4.9 End: 1 point per surviving human, 2 per surviving vampire, ties possible."""
    state = given()
    run_out(state, HANA)
    run_out(state, VLAD)
    bury(state, *dead)
    assert ids(state) == ["pass"]
    events, after = act(state, "pass")
    # Every identity is revealed first, so the scores follow from public events.
    reveals = game_end_reveals(state)
    assert events[0] == TurnPassed(player=HANA, reason="chose to")
    assert events[1 : 1 + len(reveals)] == reveals
    assert events[1 + len(reveals) :] == [
        ScoresCounted(human=human_points, vampire=vampire_points),
        GameEnded(winner=winner, reason="out-of-cards"),
    ]
    assert first_problem(state, events) == ""
    assert after["scores"] == {HUMAN: human_points, VAMPIRE: vampire_points}
    assert_over(after, winner, "out-of-cards")


def test_a_player_out_of_cards_passes_while_the_other_plays_on():
    """house rules H4 End."""
    state = given(human=["noble-1-a"])
    run_out(state, VLAD)
    events, after = act(state, "pass")
    assert events == [
        TurnPassed(player=HANA, reason="chose to"),
        TurnEnded(player=HANA, next_player=VLAD),
        TurnPassed(player=VLAD, reason="out of cards"),
        TurnEnded(player=VLAD, next_player=HANA),
    ]
    assert (after["turn"], after["step"], empire.status(after)["status"]) == (HANA, "discard", "running")


# --- secrets and forgery (house rule H4.3 hidden information)
# ---------------------------------------------------


def test_a_revealed_identity_that_does_not_open_its_commitment_is_refused():
    """house rule H4.3: a reveal carries the salt; a forged one is caught (evolve itself trusts events)."""
    state = started()
    lady = truth(state, "lady")
    genuine = IdentityRevealed(
        character=ch("lady"), identity=lady["identity"], salt=lady["salt"], reason="death"
    )
    assert empire.verify(state, genuine) == ""
    forgeries = [
        IdentityRevealed(character=ch("lady"), identity=HUMAN, salt=lady["salt"], reason="death"),
        IdentityRevealed(
            character=ch("lady"), identity=VAMPIRE, salt=truth(state, "maid")["salt"], reason="death"
        ),
    ]
    for forged in forgeries:
        assert "does not open its commitment" in empire.verify(state, forged)


def test_a_played_card_that_matches_no_commitment_of_the_hand_is_refused():
    """house rule H4.3: a card shown from a hand must open one of its commitments."""
    state = given(human=["noble-1-a"])
    salt = state["hands"][HANA][hc("noble-1-a")]
    genuine = CardPlayed(player=HANA, card=hc("noble-1-a"), salt=salt, use="attack", pile=CELLAR)
    assert empire.verify(state, genuine) == ""
    forgeries = [
        CardPlayed(player=HANA, card=hc("noble-3-a"), salt=salt, use="attack", pile=CELLAR),
        CardPlayed(player=HANA, card=hc("noble-1-a"), salt=b"not the salt", use="attack", pile=CELLAR),
    ]
    for forged in forgeries:
        assert "opens no commitment to their hand" in empire.verify(state, forged)


def test_vampire_player_cannot_answer_holy_water_falsely():
    """house rule H4.6 holy water: the answer is truthful; a flipped answer is caught."""
    events, state, _ = holy_water_on_the_lady()
    answer = of(events, IdentityRevealed)[0]
    lie = IdentityRevealed(character=answer.character, identity=HUMAN, salt=answer.salt, reason=answer.reason)
    assert first_problem(state, events) == ""
    assert "does not open its commitment" in first_problem(state, [lie if e is answer else e for e in events])


def test_a_player_catches_commitments_to_a_hand_other_than_the_one_they_received():
    """A player's copy holds their CardsReceived: a host that commits publicly to other cards is caught."""
    state = given(human=["noble-1-a"])
    turn_to(state, HANA, "discard")
    events, _ = act(state, "draw", picks=[hc("clergy-1-a"), hc("clergy-2-a"), hc("clergy-3-a")])
    assert first_problem(state, events) == ""
    drawn = of(events, CardsDrawn)[0]
    other = [commit(hc("servant-1-a"), bytes(32)), *drawn.commitments[1:]]
    forged = [
        CardsDrawn(player=HANA, count=drawn.count, commitments=sorted(other)) if e is drawn else e
        for e in events
    ]
    assert "are not to the cards Hana received" in first_problem(state, forged)


def test_the_vampire_players_tokens_must_match_the_public_commitments():
    """The vampire player's copy checks that every identity commitment is to what its tokens say."""
    state = started()
    vampire_tokens = state["tokens"][VLAD]
    flipped = {c: commit(HUMAN, t["salt"]) for c, t in vampire_tokens.items()}
    fresh = copy.deepcopy(state)
    fresh["commitments"] = {}
    assert empire.verify(fresh, IdentitiesCommitted(commitments=dict(state["commitments"]))) == ""
    assert "is not to what Vlad's token says" in empire.verify(
        fresh, IdentitiesCommitted(commitments=flipped)
    )


def test_scores_must_follow_from_the_revealed_survivors():
    """house rule H4.9: 1 per surviving human, 2 per surviving vampire, counted once everyone is revealed."""
    state = started()
    reveal(state, *[c.rsplit("/", 1)[-1] for c in sorted(alive(state))])
    humans = sum(state["known"][c] == HUMAN for c in alive(state))
    vampires = sum(state["known"][c] == VAMPIRE for c in alive(state))
    assert empire.verify(state, ScoresCounted(human=humans, vampire=2 * vampires)) == ""
    assert "are not the survivors'" in empire.verify(state, ScoresCounted(human=humans, vampire=vampires))


def test_a_castle_character_must_come_from_the_city():
    """house rule H4.1: the castle is filled from the city; a log that fills it with a character already in
    the castle is refused."""
    state = started()
    inside = state["castle"][0]
    assert "where it is not" in empire.verify(state, CastleFilled(character=inside, draw=3))


def test_human_legal_actions_do_not_depend_on_which_characters_are_vampires():
    """house rule H4.3 hidden information: two games alike in public facts and Hana's hand offer her the
    same actions, whoever the vampires are."""
    hand = ["holy-water-1", "holy-water-2-a", "noble-2-a", "clergy-3-a", "attack-marker-a", "take-from-moat"]
    games = [
        given(human=[*hand, "draw-2-a", "servant-1-a"], vampires=vampires, step=step)
        for vampires in (("lady", "maid", "nun"), ("lady", "officer", "butler"))
        for step in ("discard", "act")
    ]
    for game in games:
        reveal(game, "lady")
        set_pile(game, HANA, MOAT, ["servant-3-a"])
    assert empire.legal_actions(games[0], HANA) == empire.legal_actions(games[2], HANA)
    assert empire.legal_actions(games[1], HANA) == empire.legal_actions(games[3], HANA)
    _, one = act(games[1], "attack:bishop:officer")
    _, other = act(games[3], "attack:bishop:officer")
    assert empire.legal_actions(one, HANA) == empire.legal_actions(other, HANA)


# --- illegal actions ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "action", "player"),
    [
        ("act", "pass", HANA),  # not her turn
        ("discard", "discard:servant-3-a", VLAD),  # not in his hand
        ("discard", "attack:lady:bishop", VLAD),  # not before the draw
        ("act", "draw", VLAD),  # the draw is over
        ("act", "play:noble-3-b", VLAD),  # no fight under way
        ("act", "decline", VLAD),  # no holy-water answer to act on
        ("act", START, HOST),  # the game has started
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(step, action, player):
    """house rules H4: only the legal actions of the player to act are decided."""
    state = given(vampire=["noble-3-a", "noble-3-b", "clergy-3-a"], turn=VLAD, step=step)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        empire.decide(state, action, player, ScriptedDice())
    assert state == before
