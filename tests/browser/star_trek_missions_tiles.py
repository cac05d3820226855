"""The Star Trek: Missions tile picker shows one group of tiles at a time (issue 23): before a
tile is pressed, its group's chip is chosen, as a player does."""

from playwright.sync_api import expect


def show_tile(page, slug: str) -> None:
    """Choose the group of the tile `#tile-<slug>`, unless it is the group shown, and wait until
    the tile shows. While an answer is on its way the page keeps a pressed tile in place by
    scrolling, so a chip tapped at that moment can be missed (as a finger can): tap it again."""
    group = page.locator(f"#tile-{slug}").evaluate(
        "tile => tile.closest('.picker__panel').dataset.group"
    )
    radio, tile = page.locator(f"#group-{group}"), page.locator(f"#tile-{slug}")
    for _ in range(3):
        if not radio.is_checked():
            page.locator(f"label[for='group-{group}']").click()
        try:
            expect(tile).to_be_visible(timeout=2_000)
            return
        except AssertionError:
            continue
    expect(tile).to_be_visible()
