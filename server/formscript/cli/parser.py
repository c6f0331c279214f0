"""The ``formscript`` argument parser: every subcommand and option, nothing run here."""

from __future__ import annotations

import argparse
import os
import sys

#: The subcommands, in the order ``--help`` lists them: the module of ``formscript.cli`` and
#: the function that runs each (imported only when it runs).
COMMANDS = {
    "lint": ("lint", "lint"),
    "rule": ("rule", "rule"),
    "schema": ("schema", "schema"),
    "dry-run": ("runs", "dry_run"),
    "simulate": ("runs", "simulate"),
    "serve": ("serve", "serve"),
}


def _terminal_columns() -> int:
    """What ``shutil.get_terminal_size().columns`` answers (the COLUMNS variable, else the
    terminal's width, else 80), without importing shutil and, with it, zlib, bz2, lzma and
    fnmatch: argparse asks for the width whenever an option is added, help or not."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, given the width argparse would find for itself."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _terminal_columns() - 2 if width is None else width)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of `formscript` and its subcommands (*only*: that subcommand's alone, for
    a command line that names it: the others' options cost start-up time for nothing)."""
    parser = argparse.ArgumentParser(
        prog="formscript",
        description="Check lionagi work-form specs and response scripts before anything runs.",
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    if only in (None, "lint"):
        lint = sub.add_parser("lint", formatter_class=_Formatter, help="lint files and directories")
        lint.add_argument(
            "paths", nargs="*", default=None, help="files, directories, or - for stdin (default: the current folder)"
        )
        lint.add_argument(
            "--format",
            default="text",
            choices=("text", "concise", "json", "sarif", "github", "junit"),
            help="how the report is written (default: text, with source lines)",
        )
        lint.add_argument(
            "--select",
            action="append",
            default=None,
            metavar="CODES",
            help="only these codes or prefixes (comma-separated)",
        )
        lint.add_argument(
            "--extend-select", action="append", default=None, metavar="CODES", help="also these codes or prefixes"
        )
        lint.add_argument(
            "--ignore", action="append", default=None, metavar="CODES", help="not these codes or prefixes"
        )
        lint.add_argument(
            "--severity",
            action="append",
            default=[],
            metavar="CODE=LEVEL",
            help="override a code's severity (error, warning, info, hint, off; warn, information, none)",
        )
        lint.add_argument(
            "--config", help="a formscript.toml or pyproject.toml to use for every file (default: each file's nearest)"
        )
        lint.add_argument(
            "--force-exclude",
            action="store_true",
            help="leave out files named on the command line that `exclude` or .gitignore leave out of folders",
        )
        lint.add_argument(
            "--kind",
            choices=("form", "script", "rules", "calls"),
            help="read every file as this kind, whatever its name",
        )
        lint.add_argument("--form", help="a form spec to check rulesets against")
        lint.add_argument("--fix", action="store_true", help="apply safe fixes")
        lint.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes")
        lint.add_argument("--diff", action="store_true", help="show fixes as a diff, write nothing")
        lint.add_argument(
            "--add-suppressions",
            metavar="REASON",
            help="write '# formscript: ignore[CODE] REASON' above every current finding (to adopt formscript)",
        )
        lint.add_argument(
            "--fail-on",
            choices=("error", "warning"),
            default="error",
            help="the lowest severity that makes the exit status 1 (default: error)",
        )
        lint.add_argument("--exit-zero", action="store_true", help="exit 0 whatever is found (2 still for misuse)")
        lint.add_argument(
            "--stdin-filename", help="the path to report for stdin input (read stdin when no path is given)"
        )
        lint.add_argument("--jobs", "-j", type=int, default=1, help="parallel workers (0 = cores)")
        lint.add_argument(
            "--color",
            choices=("auto", "always", "never"),
            default="auto",
            help="colour the text report (auto: on a terminal, unless NO_COLOR is set)",
        )
        lint.add_argument("--output", "-o", help="write the report to this file")
        lint.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
        lint.add_argument(
            "--cache-dir",
            default=None,
            help="where results are cached (default: $FORMSCRIPT_CACHE_DIR, else $XDG_CACHE_HOME/formscript, "
            "else ~/.cache/formscript)",
        )

    if only in (None, "rule"):
        rule = sub.add_parser("rule", formatter_class=_Formatter, help="show the documentation of a rule")
        rule.add_argument("code", nargs="?")
        rule.add_argument("--all", action="store_true")
        rule.add_argument("--format", choices=("text", "json", "markdown"), default="text")

    if only in (None, "schema"):
        schema = sub.add_parser(
            "schema", formatter_class=_Formatter, help="print a JSON Schema (form, script, rules, calls)"
        )
        schema.add_argument("kind")

    if only in (None, "dry-run"):
        dry = sub.add_parser("dry-run", formatter_class=_Formatter, help="show what li agent --form sends to the model")
        dry.add_argument("forms", nargs="+")
        dry.add_argument("--rules", help="a ruleset to apply with fill_form")
        dry.add_argument("--format", choices=("text", "json"), default="text")
        given = dry.add_mutually_exclusive_group()
        given.add_argument(
            "--prompt",
            metavar="TEXT",
            help="the prompt li agent is given: show the exact prompt it sends and apply its length cap",
        )
        given.add_argument(
            "--prompt-file",
            metavar="PATH",
            help="read that prompt from a file ('-': stdin), as li agent --prompt-file does",
        )

    if only in (None, "simulate"):
        sim = sub.add_parser("simulate", formatter_class=_Formatter, help="replay calls against a response script")
        sim.add_argument("script")
        sim.add_argument("--calls", help="a calls transcript (YAML or JSON list)")
        sim.add_argument("--stream", action="store_true", help="show stream chunk sequences")
        sim.add_argument("--format", choices=("text", "json"), default="text")
        sim.add_argument(
            "--regex-timeout",
            type=float,
            default=2.0,
            metavar="SECONDS",
            help="how long one prompt_regex search may run before its growth is measured (default 2)",
        )
        sim.add_argument(
            "--regex-wait",
            type=float,
            default=30.0,
            metavar="SECONDS",
            help="past the timeout, wait up to this long for a search whose growth says the runtime "
            "answers within it, and show the entry it serves (default 30; 0: never)",
        )

    if only in (None, "serve"):
        serve = sub.add_parser("serve", formatter_class=_Formatter, help="run the language server (stdio by default)")
        serve.add_argument("--tcp", metavar="HOST:PORT")
        serve.add_argument("--stdio", action="store_true", help="accepted for client compatibility")

    return parser
