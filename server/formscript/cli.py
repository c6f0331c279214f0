"""The ``formscript`` command line. Imports stay lazy so a lint starts fast."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Entry point for the ``formscript`` console script."""
    from formscript.commands import run

    return run(sys.argv[1:] if argv is None else argv)
