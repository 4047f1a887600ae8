"""A club's games by e-mail: deadlines, the host service, the guide."""
