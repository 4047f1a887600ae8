"""Games played by bots (`simulate`, benchmarks, demos): above both the application layer and the read side,
since a simulation's summary reads its games' records and exits through `projections`."""
