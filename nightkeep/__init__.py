"""`python -m nightkeep` runs the nightkeep command line (the code lives in domain/, event_store/,
projections/ and cli/)."""
