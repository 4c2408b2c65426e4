"""axe-core in the browser tests: run Deque's accessibility engine (vendored in
tests/e2e/vendor/axe-core/, see its README) on the page a test has open.

Playwright evaluates the script through the browser's debugging protocol, outside the page's
Content-Security-Policy, so the strict policy stays as it is and no CSP violation is reported.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

AXE_DIR = Path(__file__).resolve().parent / "vendor" / "axe-core"
AXE_VERSION = "4.14.1"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
# What fails a page: the violations axe rates serious or critical (moderate and minor ones are
# reported in the message of a failure, not counted).
FAILING = ("serious", "critical")


@cache
def axe_source() -> str:
    data = (AXE_DIR / "axe.min.js").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != AXE_SHA256:
        raise AssertionError(f"tests/e2e/vendor/axe-core/axe.min.js is not axe-core {AXE_VERSION} ({digest})")
    return data.decode()


RUN_JS = """async () => {
  const result = await axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},
    resultTypes: ['violations'],
  });
  return {version: axe.version, violations: result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary})).slice(0, 5),
  }))};
}"""


def axe_violations(page) -> list[dict]:
    """Every violation axe finds on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    result = page.evaluate(RUN_JS)
    assert result["version"] == AXE_VERSION, result["version"]
    return result["violations"]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['impact']}: {v['id']}: {v['help']}")
        lines.extend(f"    {n['target']}: {(n['summary'] or '').splitlines()[-1:]}" for n in v["nodes"])
    return "\n".join(lines)


def assert_no_serious_violation(page, what: str) -> list[dict]:
    """Fails naming each serious or critical violation; returns the lesser ones."""
    found = axe_violations(page)
    bad = [v for v in found if v["impact"] in FAILING]
    assert not bad, f"axe-core {AXE_VERSION} on {what} ({page.url}):\n{describe(found)}"
    return [v for v in found if v["impact"] not in FAILING]
