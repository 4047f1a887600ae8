"""The timeline names every actor and every roll's owner and tells actions by their labels, over whole
seeded games of every ruleset, as the host, the public and a player see them."""

from __future__ import annotations

import re

import pytest

from domain.actions import HOST
from domain.events import ActionTaken, CombatResolved, DieRolled
from domain.rulesets import ruleset_names
from event_store.app.service import play_with_bots
from event_store.recorded import redacted
from projections.timeline import describe_event, describe_events
from simulation.bot_games import bot_game_options

SEATS = {
    "dungeon-short": [("Ann", None), ("Bo", None), ("Cy", None)],
    "keep-run": [("Ann", None), ("Bo", None)],
    "vampire-empire": [("Ann", "human"), ("Vlad", "vampire")],
    "talisman": [("Ann", None), ("Bo", None), ("Cy", None)],
}
# A bot game of the main board runs to its house round cap (house rule H6.1): its first actions are told.
ACTIONS = {"talisman": 300}
# An action id such as `attack:Bo` or `discard:clergy-servant-2`: a word, a colon, a word, no space.
ACTION_ID = re.compile(r"\b[a-z][\w-]*:[\w-]+")
SEEDS = ["one", "two", "three"]


def played(service, ruleset, seed):
    game_id = service.create_game(ruleset, SEATS[ruleset], bot_game_options(ruleset))
    play_with_bots(service, game_id, seed, max_actions=ACTIONS.get(ruleset, 100_000))
    return service.recorded_events(game_id)


def test_every_registered_ruleset_is_covered():
    assert set(ruleset_names()) - {"toy-race"} <= set(SEATS)


@pytest.mark.parametrize("ruleset", sorted(SEATS))
@pytest.mark.parametrize("viewer", [HOST, "", "Ann"])
def test_no_line_shows_an_action_id_and_every_actor_is_named(memory_service, ruleset, viewer):
    for seed in SEEDS:
        events = redacted(played(memory_service, ruleset, seed), viewer)
        lines = describe_events(ruleset, events)
        assert len(lines) == len(events)
        for recorded, line in zip(events, lines, strict=True):
            assert not ACTION_ID.search(line), line
            assert "chose to" not in line, line
            event = recorded.event
            if isinstance(event, ActionTaken) and event.player != HOST:
                assert line.startswith(f"{event.player} chose: "), line
            if isinstance(event, DieRolled):
                assert line.startswith(event.player), line


@pytest.mark.parametrize("ruleset", ["dungeon-short", "keep-run"])  # (talisman rolls one die a side)
def test_each_die_of_a_combat_roll_is_given_to_who_rolled_it(memory_service, ruleset):
    rolls = 0
    for seed in SEEDS:
        events = played(memory_service, ruleset, seed)
        lines = describe_events(ruleset, events)
        for index, recorded in enumerate(events):
            event = recorded.event
            if not (isinstance(event, DieRolled) and event.purpose.endswith("combat")):
                continue
            result = next(r.event for r in events[index:] if isinstance(r.event, CombatResolved))
            mine, theirs = event.values
            said = lines[index]
            assert said.startswith(f"{event.player} rolled {mine} and "), said
            assert f" rolled {theirs} in " in said and "against" not in said, said
            assert result.opponent.rsplit("/", 1)[-1].split("-")[0].lower() in said.lower(), said
            rolls += 1
    assert rolls > 10  # the seeded games fight often enough to check the wording


def test_the_action_label_is_the_one_actions_listed(memory_service):
    game_id = memory_service.create_game("dungeon-short", SEATS["dungeon-short"])
    legal = memory_service.legal_actions(game_id, "Ann")
    roll = next(a for a in legal if a.id == "roll")
    memory_service.take_action(game_id, "Ann", "roll")
    events = memory_service.recorded_events(game_id)
    taken = next(
        i for i, r in enumerate(events) if isinstance(r.event, ActionTaken) and r.event.player == "Ann"
    )
    assert describe_events("dungeon-short", events)[taken] == f"Ann chose: {roll.label}."
    # Told alone, without the log before it, the action is still told in words, never as its id.
    assert not ACTION_ID.search(describe_event("dungeon-short", events[taken].event))


def test_a_secret_game_tells_a_hidden_choice_from_the_content_when_the_copy_cannot_list_it(memory_service):
    events = redacted(played(memory_service, "vampire-empire", "one"), "")
    lines = describe_events("vampire-empire", events)
    discards = [line for line in lines if line.startswith("Vlad chose: Discard ")]
    assert discards and all(re.search(r"Discard [A-Z]", line) for line in discards)
