"""The domain's core: dice, events, field types, folds, hidden information, the registry."""
