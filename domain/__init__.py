"""nightkeep's pure game rules: events, dice, the Game aggregate and the rulesets (no I/O)."""
