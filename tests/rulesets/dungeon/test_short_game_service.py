"""The short Dungeon game through the GameService: fair-dice dealing, bot games ending, folds matching."""

from __future__ import annotations

import random

from domain.events import CharacterDealt
from domain.rulesets import get_ruleset
from projections.timeline import describe_event


def test_character_dealt_at_random_has_a_draw_and_a_chosen_one_draw_minus_one(store_service):
    svc = store_service
    gid = svc.create_game("dungeon-short", [("Ann", None), ("Bo", "warrior")])
    dealt = [r.event for r in svc.recorded_events(gid) if isinstance(r.event, CharacterDealt)]
    assert dealt[0].player == "Ann" and dealt[0].draw >= 0
    assert dealt[0].character != "talisman/character/warrior"
    assert (dealt[1].character, dealt[1].draw) == ("talisman/character/warrior", -1)
    assert [a.id for a in svc.legal_actions(gid)] == ["roll"]


def test_bot_games_end_and_the_fold_matches_the_aggregate(store_service):
    ruleset = get_ruleset("dungeon-short")
    svc = store_service
    for seed in range(5):
        rng = random.Random(seed)
        gid = svc.create_game("dungeon-short", [("Ann", None), ("Bo", "warrior"), ("Cy", None)])
        for _ in range(1000):
            game = svc.get_game(gid)
            if game.is_finished:
                break
            actions = svc.legal_actions(gid)
            action = rng.choices(actions, [ruleset.bot_weight(game.state, a) for a in actions])[0]
            svc.take_action(gid, action.player, action.id)
        assert svc.get_game(gid).is_finished
        assert svc.fold(gid).state == svc.get_game(gid).state
        assert all(describe_event("dungeon-short", r.event) for r in svc.recorded_events(gid))
