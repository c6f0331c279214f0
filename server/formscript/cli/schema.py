"""``formscript schema KIND``: print a JSON Schema."""

from __future__ import annotations

import argparse
import sys

from formscript.cli.output import write


def schema(args: argparse.Namespace) -> int:
    """Print the schema of a file kind (form, script, rules, calls)."""
    from formscript.schemas import KIND_ALIASES, SCHEMA_KINDS, schema_text

    kind = KIND_ALIASES.get(args.kind, args.kind)
    if kind not in SCHEMA_KINDS:
        print(f"formscript: unknown schema {args.kind!r}; choose from {', '.join(SCHEMA_KINDS)}", file=sys.stderr)
        return 2
    write(schema_text(kind))
    return 0
