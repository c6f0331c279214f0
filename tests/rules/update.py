"""Rewrite the ``expect:`` (and ``verdict:``) of rule cases from what the linter reports now.

    python -m tests.rules.update FS015            # every case of FS015
    python -m tests.rules.update FS015/fail_x.yaml SC011

Only those two keys are rewritten; the comment, name and text stay byte for byte. This is a
tool for writing cases, never for CI: read every line it writes (position on the offending
token, severity as documented, nothing missing, nothing extra) before committing, and where
the output is wrong write the case as it should be and mark it in test_rule_cases.KNOWN_BUGS.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .cases import HERE, diagnostic_lines, lint_case, load, verdict_of

_TOP_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*:")


def _replace_key(raw: str, key: str, block: str) -> str:
    """*raw* with the top-level *key* (and everything indented under it) replaced by *block*."""
    lines = raw.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.startswith(f"{key}:")), None)
    if start is None:
        return raw + ("" if raw.endswith("\n") else "\n") + block
    end = start + 1
    while end < len(lines) and not _TOP_KEY.match(lines[end]):
        end += 1
    return "".join([*lines[:start], block, *lines[end:]])


def update(path: Path) -> bool:
    """Rewrite *path*'s expectations; True when the file changed."""
    case = load(path)
    report = lint_case(case)
    lines = diagnostic_lines(report)
    if case.kind == "pass" and lines:
        print(f"{case.id}: a pass case must report nothing, but reports:", *lines, sep="\n  ", file=sys.stderr)
        return False
    raw = path.read_text(encoding="utf-8")
    block = "expect: []\n" if not lines else "expect:\n" + "".join(f"  - {line}\n" for line in lines)
    new = _replace_key(raw, "expect", block)
    new = _replace_key(new, "verdict", f"verdict: {verdict_of(report)}\n")
    if new == raw:
        return False
    path.write_text(new, encoding="utf-8")
    load(path)  # still a valid case (a pass case that now reports something is refused)
    return True


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    paths: list[Path] = []
    for arg in argv:
        target = HERE / arg
        paths.extend(sorted(target.glob("*.yaml")) if target.is_dir() else [target])
    for path in paths:
        changed = update(path)
        print(f"{'updated' if changed else 'unchanged'}: {path.relative_to(HERE)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
