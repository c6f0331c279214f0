"""mkdocs hook: a page per rule, generated from the rule modules when the site is built.

Each page is the rule's own documentation (``formscript rule CODE``: summary, why, the failing
and passing examples, the fix, the default severity) with what ``formscript lint`` prints for
each example, linted as the build runs; ``rules/index.md`` lists every rule by prefix. Nothing
is written into docs/, so nothing can go stale.
"""

from __future__ import annotations

from typing import Any

from mkdocs.structure.files import File, Files

#: The prefixes, in the order the index shows them, and what each covers.
PREFIXES = {
    "FS": "work-form specs",
    "SC": "scripted-response fixtures",
    "RS": "rule sets",
    "CL": "calls transcripts",
    "PY": "scripts and forms written in Python tests",
    "YM": "YAML and JSON that does not load",
    "FSX": "formscript itself and suppression comments",
}


def _printed(rule: Any, text: str) -> str:
    """What ``formscript lint`` prints for *text*, linted as the rule's example file."""
    from formscript.lint.engine import PairedForm, lint_text
    from formscript.lint.formats import render_text
    from formscript.lint.python_lint import lint_python
    from formscript.lint.report import flatten
    from formscript.rules.base import EXAMPLE_FORM, EXAMPLE_FORM_NAME

    path = rule.example_path()
    if path.endswith(".py"):
        report = lint_python(text, path)
    else:
        paired = PairedForm(EXAMPLE_FORM, EXAMPLE_FORM_NAME) if rule.kind == "rules" else None
        report = lint_text(text, path, paired_form=paired)
    return render_text(flatten([report]))


def rule_page(rule: Any) -> str:
    """The rule's page with the output of its examples after each."""
    page = rule.page()
    for heading, text in (("## Fails", rule.fails), ("## Passes", rule.passes)):
        if text is None or heading not in page:
            continue
        start = page.index(heading)
        end = page.find("\n## ", start + len(heading))
        end = len(page) if end < 0 else end
        shown = f"\n\n`formscript lint {rule.example_path()}` prints:\n\n```text\n{_printed(rule, text)}```\n"
        page = page[:end].rstrip("\n") + shown + page[end:]
    return page


def index_page(found: tuple[Any, ...]) -> str:
    lines = [
        "# Rules",
        "",
        "Every finding has a code; its page says what the runtime does, why it matters, a failing and",
        "a passing example with what `formscript lint` prints for them, the fix and the default",
        "severity. `formscript rule CODE` prints the same page in a terminal.",
    ]
    for prefix, what in PREFIXES.items():
        own = [r for r in found if r.code.rstrip("0123456789") == prefix]
        if not own:
            continue
        lines += ["", f"## {prefix}: {what}", "", "| code | name | severity | rejects |", "|---|---|---|---|"]
        lines += [f"| [{r.code}]({r.code}.md) | {r.name} | {r.severity} | {'yes' if r.rejects else ''} |" for r in own]
    return "\n".join(lines) + "\n"


def on_files(files: Files, config: Any) -> Files:
    from formscript.rules import all_rules

    found = all_rules()
    files.append(File.generated(config, "rules/index.md", content=index_page(found)))
    for rule in found:
        files.append(File.generated(config, f"rules/{rule.code}.md", content=rule_page(rule)))
    return files
