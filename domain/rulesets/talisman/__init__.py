"""Shared Talisman (2nd edition) mechanics used by every Talisman-based ruleset (Dungeon, Vampire's Keep).

- `characters` — the character list (`characters.toml`) and name resolution (`warrior` → id);
- `character` — character sheets, effective Strength/Craft, items, encounter order, carrying limit;
- `combat` — combat and psychic combat, armour saves, trophies (house rules H1);
- `events` — the Talisman facts shared by those rulesets (ObjectTaken, TrophyTaken, …);
- `shapes` — the typed state: positions (board, space), cards and gold per board, named piles;
- `state` — the evolve steps every board shares (`board_evolvers(deck)`);
- `hooks` — what a board plugs in (entering, leaving, reaching its centre) and `WinOnArrival`.
Nothing here knows a particular board; rulesets pass values, item lookups and their board's hooks in.

House decisions: only the best Object bonus counts (one weapon in hand) while every Follower's bonus
adds; trophies are traded automatically, spending the cheapest set worth 7 or more points.
"""
