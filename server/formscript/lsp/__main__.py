"""``python -m formscript.lsp [--tcp HOST:PORT]``: the language server, without the CLI."""

from __future__ import annotations

import sys

from formscript.lsp.serve import run

if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(run(args[args.index("--tcp") + 1] if "--tcp" in args else None))
