"""``formscript dry-run`` and ``formscript simulate``: the dry runs, printed."""

from __future__ import annotations

import argparse
import json
import sys

from formscript.cli.output import read, write


def dry_run(args: argparse.Namespace) -> int:
    """What ``li agent --form`` sends to the model, per form; 1 unless every form is accepted."""
    from formscript.runs import CONTRACT_VERSION, dry_run_text, render_dry_run

    rules_text = read(args.rules) if args.rules else None
    if args.rules and rules_text is None:
        return 2
    prompt = args.prompt
    if args.prompt_file is not None:
        prompt = _prompt_file(args.prompt_file)
        if prompt is None:
            return 2
    results = []
    for path in args.forms:
        text = read(path)
        if text is None:
            return 2
        results.append(dry_run_text(text, path, rules_text, args.rules, prompt=prompt))
    if args.format == "json":
        write(json.dumps({"version": CONTRACT_VERSION, "results": results}, indent=2, ensure_ascii=False) + "\n")
    else:
        write("\n".join(render_dry_run(r) for r in results))
    return 0 if all(r["verdict"] == "accepted" for r in results) else 1


def _prompt_file(path: str) -> str | None:
    """The prompt text of ``--prompt-file`` as li agent reads it (text mode, so line ends
    become ``\n``; ``-`` is stdin); None, with a message, when li agent would not get one."""
    text = sys.stdin.read() if path == "-" else read(path)
    if text is not None and not text.strip():
        print(
            f"formscript: --prompt-file {path!r} is empty: li agent refuses it before reading the form", file=sys.stderr
        )
        return None
    return text


def simulate(args: argparse.Namespace) -> int:
    """Replay calls against a script; 1 unless the script loads and serves every call."""
    from formscript.runs import render_simulation, simulate_text

    text = read(args.script)
    calls = read(args.calls) if args.calls else None
    if text is None or (args.calls and calls is None):
        return 2
    result = simulate_text(text, args.script, calls, args.calls, stream=args.stream, regex_timeout=args.regex_timeout)
    if args.format == "json":
        write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    else:
        write(render_simulation(result))
    if result["verdict"] == "rejected":
        return 1
    return 0 if all(c["outcome"] == "served" for c in result["calls"]) else 1
