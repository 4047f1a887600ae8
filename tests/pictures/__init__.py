"""Board pictures of every ruleset."""
