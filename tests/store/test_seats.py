"""Who acts when no --as is given, and what a player's typing means: numbers, ids and unique prefixes."""

from __future__ import annotations

import pytest

from domain.actions import Action
from domain.errors import UsageError
from event_store.app.seats import find_action, match_action, pick_actor, resolve_viewer, seen_by

ACTIONS = [
    Action("roll", "Ann", "Roll and move"),
    Action("attack:Bo", "Ann", "Attack Bo"),
    Action("attack:Cy", "Ann", "Attack Cy"),
]


@pytest.mark.parametrize(
    ("typed", "expected"), [("1", "roll"), ("3", "attack:Cy"), ("ro", "roll"), ("attack:B", "attack:Bo")]
)
def test_a_number_an_id_or_a_unique_prefix_names_an_action(typed, expected):
    assert match_action(ACTIONS, typed).id == expected


@pytest.mark.parametrize(
    ("typed", "message"),
    [("4", "no action 4"), ("0", "no action 0"), ("att", "could be"), ("x", "no action 'x'")],
)
def test_what_names_no_single_action_is_refused_in_one_line(typed, message):
    with pytest.raises(UsageError, match=message):
        match_action(ACTIONS, typed)


def test_the_one_player_to_act_is_the_default_in_a_game_without_secrets(store_service):
    game_id = store_service.create_game("dungeon-short", [("Ann", None), ("Bo", None)])
    game = store_service.get_game(game_id)
    assert pick_actor(game, "roll") == "Ann"
    assert pick_actor(game, "nonsense") == "Ann"  # taking it then says why it is not legal
    assert find_action(game, "Ann", "ro").id == "roll"
    assert find_action(game, "Ann", "nonsense") is None


def test_a_game_with_secrets_never_guesses_who_acts(store_service):
    game_id = store_service.create_game("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")])
    with pytest.raises(UsageError, match="keeps each player's options private"):
        pick_actor(store_service.get_game(game_id), "draw")


def test_seen_by_checks_the_viewer_against_the_seats(store_service):
    game_id = store_service.create_game("vampire-empire", [("Hana", "human"), ("Vlad", "vampire")])
    recorded = store_service.recorded_events(game_id)
    assert seen_by(recorded, "host") == recorded

    def sealed_for(viewer):
        return {r.version for r, seen in zip(recorded, seen_by(recorded, viewer), strict=True) if seen != r}

    def owned_by(player):
        return {r.version for r in recorded if r.event.private and r.fields.get("owner") == player}

    # Each player sees their own private events whole and only the other's sealed; the public, none.
    assert owned_by("Hana") and owned_by("Vlad")
    assert sealed_for("Hana") == owned_by("Vlad")
    assert sealed_for("Vlad") == owned_by("Hana")
    assert sealed_for(None) == owned_by("Hana") | owned_by("Vlad")
    with pytest.raises(UsageError, match="no player 'vlad'"):
        resolve_viewer("vlad", ["Hana", "Vlad"])
