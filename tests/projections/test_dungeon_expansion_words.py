"""The Dungeon expansion's events in plain words (`projections.talisman_dungeon_words`): a sentence for
each of its own events and for every crossing into or out of the Dungeon, nothing for the rest."""

from __future__ import annotations

from domain.events import TurnEnded
from domain.rulesets.dungeon.main.events import HorseDiscarded, TreasureChamberRolled
from domain.rulesets.talisman.main.events import RegionCrossed
from projections.talisman_dungeon_words import describe


def _crossed(from_board: str, from_space: int, to_board: str, to_space: int, reason: str) -> RegionCrossed:
    """Returns Ann's crossing from one board's space to another's."""
    return RegionCrossed(
        player="Ann",
        from_board=from_board,
        from_space=from_space,
        to_board=to_board,
        to_space=to_space,
        reason=reason,
    )


def test_a_horse_left_behind_is_told_by_its_name():
    """Dungeon 5.3: the timeline names the horse left behind."""
    said = describe(HorseDiscarded(player="Ann", card="talisman/card/horse", pile=""))
    assert said == "Ann left the Horse behind: no horse goes down into the Dungeon."


def test_the_treasure_chamber_table_is_told_with_its_crown_bonus_and_where_it_leads():
    """Dungeon 8.1: the face, the Crown's bonus, the row and the way out."""
    event = TreasureChamberRolled(
        player="Ann", face=3, bonus=1, total=4, to_space="talisman/space/middle/warlocks-cave"
    )
    said = describe(event)
    assert said is not None and "3 +1 for the Crown, row 4" in said and "Warlock" in said
    doorway = TreasureChamberRolled(player="Ann", face=1, bonus=0, total=1, to_space="doorway")
    assert "a Doorway of their choice" in (describe(doorway) or "")


def test_going_down_and_coming_out_are_told_and_other_crossings_left_to_the_main_board():
    """Dungeon 5.2, 8: crossings into and out of the Dungeon get the Dungeon's words."""
    down = _crossed("outer", 1, "dungeon", 0, "went down a Doorway")
    assert describe(down) == "Ann went down the Doorway on the Fields (Outer 1) to the Dungeon's Entrance."
    out = _crossed("dungeon", 24, "outer", 0, "the Treasure Chamber's table")
    assert (
        describe(out)
        == "Ann came out of the Dungeon by the Treasure Chamber's table, onto the Village (Outer 0)."
    )
    tunnel = _crossed("dungeon", 13, "outer", 3, "left the Dungeon by a Doorway")
    assert describe(tunnel) == "Ann came out of the Dungeon by the Tunnel, onto the Woods (Outer 3)."
    across = _crossed("outer", 5, "middle", 0, "sentinel")
    assert describe(across) is None
    assert describe(TurnEnded(player="Ann", next_player="Bo")) is None
