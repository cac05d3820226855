"""What the games' pages and request bodies share above the catalog and the saved results: card
names in a request body (card_names), the pages' forms, fields, typed names and results
(page_*), the cache of answers a page GET works out (computed), the installable app (offline) and
the page_names template tags.

Below the games, above `cards` and `results`; `common` (the plumbing every app shares: API
errors, request models, parsers, throttles, middleware, backups) is below them all, so every
arrow points one way (pyproject.toml's "layers" contract).
"""
