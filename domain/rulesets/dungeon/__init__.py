"""The Talisman Dungeon (seed `001_…`): house board and deck, and the Short Play Dungeon Game (Dungeon 14).

`short_game` is the `dungeon-short` ruleset; `content` loads `board.toml` and `deck.toml`; `state` holds
the state shape and `evolve`; `turns` and `encounters` hold the rules; `effects` the small shared steps.
Combat, trophies and character sheets come from `domain.rulesets.talisman`. `main` is the Dungeon as an
expansion of the main board (`--option dungeon=true`), so the whole expansion lives in this one folder.
"""
