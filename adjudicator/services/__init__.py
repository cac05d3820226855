"""One module per game; each registers its ruling service in adjudicator.registry."""
