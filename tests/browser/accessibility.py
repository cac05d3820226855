"""axe-core (the copy the axe-playwright-python package ships: nothing is downloaded) run on a
page as it stands: the serious and critical violations, and any heading-order one (issue 23: zero
of them on every page, in every state the browser tests visit)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
BLOCKING = ("serious", "critical")
ALWAYS = ("heading-order",)  # moderate for axe, but the issue names it


def violations(page) -> list[str]:
    """Each blocking violation on the page: rule, impact, what it means, where (up to 4)."""
    response = AXE.run(page, options={"resultTypes": ["violations"]}).response
    found = []
    for violation in response["violations"]:
        if violation["impact"] in BLOCKING or violation["id"] in ALWAYS:
            where = [
                " ".join(node["target"])
                if isinstance(node["target"], list)
                else str(node["target"])
                for node in violation["nodes"][:4]
            ]
            summary = violation["nodes"][0].get("failureSummary", "").replace("\n", " ")[:200]
            found.append(
                f"{violation['id']} ({violation['impact']}): {violation['help']} "
                f"at {where}: {summary}"
            )
    return found


def assert_accessible(page, state: str = "") -> None:
    found = violations(page)
    assert not found, f"{page.url} {state}:\n" + "\n".join(found)
