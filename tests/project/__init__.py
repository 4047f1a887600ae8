"""The project as shipped: packaging and the rules-coverage document."""
