"""``formscript dry-run`` and ``formscript simulate``: the dry runs, printed.

Exit codes: 0 when the runtime would go ahead (every form accepted; the script loaded and
every call served), 1 when it would not — including a file formscript failed on itself
(``validator_error``) — and 2 for misuse (a path that does not exist, a ``--rules`` or
``--calls`` file that cannot be read). A form or script that exists but cannot be read as
text (a directory, a dangling link, bytes that are not UTF-8) gets a ``rejected`` verdict,
as the runtime refuses it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING

from formscript.cli.output import read, read_stdin, write

if TYPE_CHECKING:
    from formscript.lint.report import FileReport


def _read_input(path: str, kind: str) -> tuple[str | None, FileReport | None] | None:
    """A form's or script's text, or the report of why it cannot be read (the runtime fails
    too); None (and a message on stderr) when nothing is at *path*."""
    from formscript.lint.config import Settings
    from formscript.lint.reading import read_report_or_text

    if not os.path.lexists(path):
        print(f"formscript: {path}: no such file or directory", file=sys.stderr)
        return None
    return read_report_or_text(path, kind, Settings())


def dry_run(args: argparse.Namespace) -> int:
    """What ``li agent --form`` sends to the model, per form; 1 unless every form is accepted.
    ``FILE.py:LINE`` dry-runs the form a Python file builds on that line."""
    from formscript.runs import (
        CONTRACT_VERSION,
        dry_run_report,
        dry_run_text,
        dry_run_unread,
        embedded_report,
        render_dry_run,
        split_location,
    )

    rules_text = read(args.rules) if args.rules else None
    if args.rules and rules_text is None:
        return 2
    prompt = args.prompt
    if args.prompt_file is not None:
        prompt = _prompt_file(args.prompt_file)
        if prompt is None:
            return 2
    results = []
    for given in args.forms:
        path, line = split_location(given)
        read_in = _read_input(path, "form")
        if read_in is None:
            return 2
        text, unread = read_in
        if unread is not None:
            results.append(dry_run_unread(unread))
        elif line is None:
            results.append(dry_run_text(text or "", path, rules_text, args.rules, prompt=prompt))
        else:
            report = embedded_report(text or "", path, line, "form")
            if isinstance(report, str):
                print(f"formscript: {report}", file=sys.stderr)
                return 2
            results.append(dry_run_report(report, given, rules_text, args.rules, prompt=prompt))
    if args.format == "json":
        write(json.dumps({"version": CONTRACT_VERSION, "results": results}, indent=2, ensure_ascii=False) + "\n")
    else:
        write("\n".join(render_dry_run(r) for r in results))
    return 0 if all(r["verdict"] == "accepted" for r in results) else 1


def _prompt_file(path: str) -> str | None:
    """The prompt text of ``--prompt-file`` as li agent reads it (text mode, so line ends
    become ``\n``; ``-`` is stdin); None, with a message, when li agent would not get one."""
    if path == "-":
        data = read_stdin()
        try:
            text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n") if data is not None else None
        except UnicodeDecodeError as exc:
            print(f"formscript: --prompt-file -: stdin is not valid UTF-8 (byte {exc.start})", file=sys.stderr)
            return None
        if data is None:
            print("formscript: --prompt-file -: stdin is too big", file=sys.stderr)
            return None
    else:
        text = read(path)
    if text is not None and not text.strip():
        print(
            f"formscript: --prompt-file {path!r} is empty: li agent refuses it before reading the form", file=sys.stderr
        )
        return None
    return text


def simulate(args: argparse.Namespace) -> int:
    """Replay calls against a script; 1 unless the script loads and serves every call.
    ``FILE.py:LINE`` replays the script a Python file hands to lionagi on that line."""
    from formscript.runs import (
        embedded_report,
        render_simulation,
        simulate_report,
        simulate_text,
        split_location,
    )

    path, line = split_location(args.script)
    read_in = _read_input(path, "script")
    calls = read(args.calls) if args.calls else None
    if read_in is None or (args.calls and calls is None):
        return 2
    text, unread = read_in
    options = {"stream": args.stream, "regex_timeout": args.regex_timeout, "regex_answer_bound": args.regex_wait}
    if unread is not None:
        result = simulate_report(unread, unread.path)
    elif line is None:
        result = simulate_text(text or "", path, calls, args.calls, **options)
    else:
        report = embedded_report(text or "", path, line, "script")
        if isinstance(report, str):
            print(f"formscript: {report}", file=sys.stderr)
            return 2
        result = simulate_report(report, args.script, calls, args.calls, **options)
    if args.format == "json":
        write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    else:
        write(render_simulation(result))
    if result["verdict"] not in ("accepted", "insufficient_evidence"):  # rejected, validator_error
        return 1
    return 0 if all(c["outcome"] == "served" for c in result["calls"]) else 1
