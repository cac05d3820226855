"""The Star Trek: Missions tile picker shows one group of tiles at a time (issue 23): before a
tile is pressed, its group's chip is chosen, as a player does."""


def show_tile(page, slug: str) -> None:
    """Choose the group of the tile `#tile-<slug>`, unless it is the group shown."""
    group = page.locator(f"#tile-{slug}").evaluate(
        "tile => tile.closest('.picker__panel').dataset.group")
    if not page.locator(f"#group-{group}").is_checked():
        page.locator(f"label[for='group-{group}']").click()
