"""``formscript rule CODE | --all``: the documentation of the rules."""

from __future__ import annotations

import argparse
import json
import sys

from formscript.cli.output import write


def rule(args: argparse.Namespace) -> int:
    """Print one rule's page, or the list of all rules (text, JSON or Markdown)."""
    from formscript import rules

    if args.all:
        chosen = list(rules.all_rules())
    elif args.code:
        found = rules.get(args.code)
        if found is None:
            print(f"formscript: unknown rule {args.code!r}; see `formscript rule --all`", file=sys.stderr)
            return 2
        chosen = [found]
    else:
        print("formscript: give a rule code or --all", file=sys.stderr)
        return 2
    if args.format == "json":
        shown = ("code", "name", "kind", "severity", "rejects", "summary", "why", "fails", "passes")
        data = [{name: getattr(r, name) for name in shown} for r in chosen]
        write(json.dumps(data if args.all else data[0], indent=2, ensure_ascii=False) + "\n")
    elif args.format == "markdown":
        from formscript.rules import reference

        write(reference() if args.all else chosen[0].page())
    elif args.all:
        write("".join(f"{r.code:<7}{r.severity:<8}{r.kind:<7}{r.name}: {r.summary}\n" for r in chosen))
    else:
        write(chosen[0].page())
    return 0
