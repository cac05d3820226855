"""The axe-core rules left out of every run (tests/browser/accessibility.py's UNREPORTED) are
those that cannot report what the browser tests fail on: by axe's own metadata, neither the
rule's impact nor any of its checks' is serious or critical, and none is a rule kept whatever its
impact (heading-order)."""

import pytest

from tests.browser.accessibility import ALWAYS, AXE, BLOCKING, UNREPORTED

pytestmark = pytest.mark.browser

# Each enabled rule: its id, its own impact and its checks' (axe's metadata, read where axe
# keeps it; not a public interface, so the test fails loudly if it moves).
RULES = """() => axe._audit.rules
  .filter((rule) => rule.enabled !== false && !rule.tags.includes("experimental"))
  .map((rule) => [
    rule.id,
    [rule.impact, ...[...rule.any, ...rule.all, ...rule.none]
      .map((check) => (axe._audit.data.checks[check.id || check] || {}).impact)]
      .filter(Boolean),
  ])"""


def test_the_rules_left_out_can_report_only_what_is_not_checked(page, site):
    page.goto(site + "/")
    page.evaluate(AXE.axe_script)
    impacts = dict(page.evaluate(RULES))
    assert "color-contrast" in impacts and impacts["color-contrast"]  # the metadata was read
    unknown = [rule for rule in UNREPORTED if rule not in impacts]
    assert not unknown, f"axe has no such rule enabled by default (any more): {unknown}"
    blocking = {rule: impacts[rule] for rule in UNREPORTED if set(impacts[rule]) & set(BLOCKING)}
    assert not blocking, f"left out, yet able to report serious or critical: {blocking}"
    assert not set(UNREPORTED) & set(ALWAYS)
