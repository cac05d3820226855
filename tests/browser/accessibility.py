"""axe-core (the copy the axe-playwright-python package ships: nothing is downloaded) run on a
page as it stands: the serious and critical violations, and any heading-order one (issue 23: zero
of them on every page, in every state the browser tests visit)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
BLOCKING = ("serious", "critical")
ALWAYS = ("heading-order",)  # moderate for axe, but the issue names it
# The rules that can report nothing this module keeps: neither the rule's impact nor any of its
# checks' is serious or critical (test_axe_rules.py holds the list to axe's own metadata, so an
# axe upgrade that raises one fails there). Left out of each run, where they were a tenth to a
# third of its CPU (bench/browser_cost.py) for results thrown away. A rule axe adds later runs
# until it is listed here.
UNREPORTED = (
    "aria-allowed-role",
    "aria-deprecated-role",
    "empty-table-header",
    "form-field-multiple-labels",
    "html-xml-lang-mismatch",
    "image-redundant-alt",
    "landmark-banner-is-top-level",
    "landmark-contentinfo-is-top-level",
    "landmark-main-is-top-level",
    "landmark-no-duplicate-banner",
    "landmark-no-duplicate-contentinfo",
    "landmark-no-duplicate-main",
    "landmark-one-main",
    "landmark-unique",
    "meta-viewport-large",
    "no-autoplay-audio",
    "page-has-heading-one",
    "presentation-role-conflict",
    "region",
    "server-side-image-map",
    "skip-link",
    "table-duplicate-name",
)
OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {rule: {"enabled": False} for rule in UNREPORTED},
}


def violations(page) -> list[str]:
    """Each blocking violation on the page: rule, impact, what it means, where (up to 4)."""
    # axe stays on the page until it navigates: injected again only after a new page loads.
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    response = page.evaluate("(options) => axe.run(document, options)", OPTIONS)
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
