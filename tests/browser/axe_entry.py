"""axe-core (the axe-playwright-python package ships it: nothing is fetched) run on the page as it
stands; the serious and critical violations, one line each, for an assertion that lists them."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()


def serious_violations(page) -> list[str]:
    violations = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(", ".join(node["target"]) for node in v["nodes"][:5])
            for v in violations if v["impact"] in ("serious", "critical")]
