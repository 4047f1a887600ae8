"""Read side: board views per ruleset, the timeline in plain words, and folds over the stored log."""
