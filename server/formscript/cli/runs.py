"""``formscript dry-run`` and ``formscript simulate``: the dry runs, printed."""

from __future__ import annotations

import argparse
import json
import sys

from formscript.cli.output import read, write


def dry_run(args: argparse.Namespace) -> int:
    """What ``li agent --form`` sends to the model, per form; 1 unless every form is accepted.
    ``FILE.py:LINE`` dry-runs the form a Python file builds on that line."""
    from formscript.runs import (
        CONTRACT_VERSION,
        dry_run_report,
        dry_run_text,
        embedded_report,
        render_dry_run,
        split_location,
    )

    rules_text = read(args.rules) if args.rules else None
    if args.rules and rules_text is None:
        return 2
    results = []
    for given in args.forms:
        path, line = split_location(given)
        text = read(path)
        if text is None:
            return 2
        if line is None:
            results.append(dry_run_text(text, path, rules_text, args.rules))
            continue
        report = embedded_report(text, path, line, "form")
        if isinstance(report, str):
            print(f"formscript: {report}", file=sys.stderr)
            return 2
        results.append(dry_run_report(report, given, rules_text, args.rules))
    if args.format == "json":
        write(json.dumps({"version": CONTRACT_VERSION, "results": results}, indent=2, ensure_ascii=False) + "\n")
    else:
        write("\n".join(render_dry_run(r) for r in results))
    return 0 if all(r["verdict"] == "accepted" for r in results) else 1


def simulate(args: argparse.Namespace) -> int:
    """Replay calls against a script; 1 unless the script loads and serves every call.
    ``FILE.py:LINE`` replays the script a Python file hands to lionagi on that line."""
    from formscript.runs import embedded_report, render_simulation, simulate_report, simulate_text, split_location

    path, line = split_location(args.script)
    text = read(path)
    calls = read(args.calls) if args.calls else None
    if text is None or (args.calls and calls is None):
        return 2
    options = {"stream": args.stream, "regex_timeout": args.regex_timeout}
    if line is None:
        result = simulate_text(text, path, calls, args.calls, **options)
    else:
        report = embedded_report(text, path, line, "script")
        if isinstance(report, str):
            print(f"formscript: {report}", file=sys.stderr)
            return 2
        result = simulate_report(report, args.script, calls, args.calls, **options)
    if args.format == "json":
        write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    else:
        write(render_simulation(result))
    if result["verdict"] == "rejected":
        return 1
    return 0 if all(c["outcome"] == "served" for c in result["calls"]) else 1
