"""Star Trek: Missions: the turn rules, the final-hand scorer (its card rule language, the search and its explanation), their services and pages."""
