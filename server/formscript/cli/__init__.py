"""The ``formscript`` command line: ``main`` for the console script, ``run`` for tests.

Each subcommand is a module of this package, imported only when it runs, so ``formscript
lint`` never pays for the language server or the schemas (nor they for the lint's cache).
"""

from __future__ import annotations

import sys
from argparse import Namespace
from collections.abc import Callable, Sequence
from importlib import import_module


def main(argv: list[str] | None = None) -> int:
    """Entry point for the ``formscript`` console script."""
    return run(sys.argv[1:] if argv is None else argv)


def run(argv: Sequence[str]) -> int:
    """Run the CLI; returns the exit code."""
    from formscript.cli.parser import COMMANDS, build_parser

    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    args = parser.parse_args(list(argv))
    if args.version:
        from formscript import __version__

        print(f"formscript {__version__}")
        return 0
    if args.command is None:
        parser.print_help()
        return 2
    from formscript.cli.output import OutputError

    try:
        module, function = COMMANDS[args.command]
        command: Callable[[Namespace], int] = getattr(import_module(f"formscript.cli.{module}"), function)
        return command(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM while files are written
        print("formscript: interrupted", file=sys.stderr)
        return 143 if type(exc).__name__ == "Terminated" else 130
    except OutputError as exc:
        print(f"formscript: {exc}", file=sys.stderr)
        return 2
