"""The expansions' limits on the characters' abilities (abilities.toml `limits`; Dungeon 12, Keep 7.2,
13): `not-against` (a foe it does not work against there), `amount` (its amount there) and
`either-direction` (a move it makes may go either way there); `off` is `hook_lookup.works_on`'s."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from domain.rulesets.talisman.main.content_abilities import Ability, Limit

# The expansion a board belongs to (its board id is the expansion's name); the main board's own boards
# are in none, so no expansion's limit applies on them (Dungeon 12, Keep 7.2, 13).
EXPANSION_OF: dict[str, str] = {"dungeon": "dungeon", "keep": "keep"}


def _limits(ability: Ability, board: str, kind: str) -> list[Limit]:
    where = EXPANSION_OF.get(board, "")
    return (
        [limit for limit in ability.limits if limit.where == where and limit.limit == kind] if where else []
    )


def works_against(ability: Ability, board: str, opponent: str) -> bool:
    """Tells whether an ability works against that foe on that board (a `not-against` limit names a foe
    it does not work against there: the Dungeon's Guard, Dungeon 12.2, 12.7)."""
    return not any(limit.target == opponent for limit in _limits(ability, board, "not-against"))


def amount_on(ability: Ability, board: str) -> int:
    """Returns an ability's amount on a board (an `amount` limit sets it there, Dungeon 12.8)."""
    found = _limits(ability, board, "amount")
    return found[0].amount if found else ability.amount


def either_way(ability: Ability, board: str) -> bool:
    """Tells whether a move the ability makes may go either way on that board (Dungeon 12.10)."""
    return bool(_limits(ability, board, "either-direction"))
