"""axe-core, pinned in tests/browser/axe/ (npm ci), run in Chromium over a page: WCAG 2.1 A and AA only.

``violations`` runs axe's rules tagged ``wcag2a``, ``wcag2aa``, ``wcag21a`` and ``wcag21aa`` (no rule
switched off) over the whole page or one part of it, and returns each broken rule with the elements
that break it, as lines a person can act on. axe is put into the page through the browser's
debugging protocol (Playwright's ``evaluate``), which a page's Content-Security-Policy does not
govern: the pages the course writes run no script of their own, and still get audited.
"""
import os

import pytest

AXE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "axe", "node_modules", "axe-core", "axe.min.js")
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# what each violation says of itself and of a few of its elements, without the elements that one of the
# ``upstream`` selectors (rule -> selectors) matches, as counted apart
SUMMARY = """([context, tags, upstream]) => axe.run(context, {runOnly: {type: 'tag', values: tags},
                                                        resultTypes: ['violations'], elementRef: true})
    .then(result => result.violations.map(v => {
        const theirs = n => (upstream[v.id] || []).some(s => n.element && n.element.closest(s));
        const ours = v.nodes.filter(n => !theirs(n));
        return {rule: v.id, impact: v.impact, help: v.help, count: ours.length, upstream: v.nodes.length - ours.length,
                nodes: ours.slice(0, 5).map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160),
                                                   why: n.failureSummary.slice(0, 300)}))};
    }))"""


def require_axe() -> None:
    """Call at a module's top: skips (on CI, fails) when ``make axe-deps`` has not installed axe-core."""
    if os.path.exists(AXE):
        return
    missing = f"axe-core is not installed at {AXE} (make axe-deps: npm ci in tests/browser/axe)"
    if os.environ.get("CI"):
        pytest.fail(f"accessibility tests cannot run on CI: {missing}", pytrace=False)
    pytest.skip(f"accessibility tests need axe-core: {missing}", allow_module_level=True)


def audit(page, within: str | None = None, upstream: dict[str, list[str]] | None = None) -> list[dict]:
    """axe's WCAG 2.1 A/AA violations on ``page``, or in the elements ``within`` selects: each rule broken,
    with ``count`` elements that no ``upstream`` selector (rule -> CSS selectors of another project's
    elements) matches and ``upstream`` that one does."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        with open(AXE, encoding="utf-8") as source:
            page.evaluate(source.read() + "\n;undefined")
    context = {"include": [[within]]} if within else "html"
    return page.evaluate(SUMMARY, [context, WCAG_21_AA, upstream or {}])


def violations(page, within: str | None = None, upstream: dict[str, list[str]] | None = None) -> list[dict]:
    """``audit``'s rules broken by elements no ``upstream`` selector matches: what must be none."""
    return [v for v in audit(page, within, upstream) if v["count"]]


def said(found: list[dict]) -> str:
    """Violations as lines: the rule, how many elements, and the first few with what axe says of them."""
    lines = []
    for v in found:
        lines.append(f"{v['rule']} ({v['impact']}, {v['count']} element{'s' * (v['count'] != 1)}): {v['help']}")
        lines += [f"    {n['target']}: {n['html']}\n      {n['why']}" for n in v["nodes"]]
    return "\n".join(lines)
