"""One module per game; each registers its score service in scoring.registry."""
